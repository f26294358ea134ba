"""Settings for the test suite: tasks run inline and the SQLite test database is a file,
so that a real worker process started by a test can reach it."""

import os

os.environ.setdefault("DJANGO_DEBUG", "true")
os.environ.setdefault("DJANGO_SECURE_COOKIES", "false")

from claimcheck.settings import *  # noqa: E402, F403
from claimcheck.settings import BASE_DIR, DATABASES, Q_CLUSTER  # noqa: E402

Q_CLUSTER = {**Q_CLUSTER, "sync": True}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / ".test-db.sqlite3")}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
