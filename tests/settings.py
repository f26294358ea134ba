"""Settings for the test suite: tasks run inline and the SQLite test database is a file,
so that a real worker process started by a test can reach it."""

import os

os.environ.setdefault("DJANGO_DEBUG", "true")
os.environ.setdefault("DJANGO_SECURE_COOKIES", "false")

from config.settings import *  # noqa: F403
from config.settings import BASE_DIR, DATABASES, Q_CLUSTER

Q_CLUSTER = {**Q_CLUSTER, "sync": True}
# One test database per test process, so that several runs on one machine never collide.
# SQLite's is a file (not memory) so that a worker process started by a test can open it.
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f".test-db-{os.getpid()}.sqlite3")}
else:
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{os.getpid()}"}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Static files come from the finders in tests (the live server serves them itself).
MIDDLEWARE = [m for m in MIDDLEWARE if m != "whitenoise.middleware.WhiteNoiseMiddleware"]  # noqa: F405
