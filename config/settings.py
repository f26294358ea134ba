"""Django settings. Everything that differs between machines comes from the environment."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from config.env import (
    database_from_url,
    env_bool,
    env_choice,
    env_file_load,
    env_int,
    env_list,
    env_names,
    env_str,
    env_url,
)

# litellm must never reach out for its price list at import time.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

BASE_DIR = Path(__file__).resolve().parent.parent
# scripts/run writes a development signing key here once, so that every management command
# works on the machine it set up; the real environment always wins over the file.
env_file_load(Path(env_str("CLAIMCHECK_ENV_FILE", str(BASE_DIR / ".env"))))

DEBUG = env_bool("DJANGO_DEBUG", default=False)
SECRET_KEY = env_str("DJANGO_SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off"
            " (scripts/run writes one to .env for a local set-up)"
        )
    SECRET_KEY = "insecure-development-key-do-not-use-in-production"  # noqa: S105

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "template_partials",
    "ninja",
    # Before django_q, so that `manage.py qcluster` runs ClaimCheck's cluster (clean stops).
    "claimcheck",
    "django_q",
    "axes",
    "claims",
    "harvester",
    "registry",
    "evidence",
    "decisions",
    "desk",
    # Research code and the demo corpus: they import the product, never the other way round.
    "evaluation",
    "demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "claimcheck.middleware.InputGuardMiddleware",
    "claimcheck.middleware.ApiErrorShapeMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "claimcheck.middleware.LoginRequiredMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "claimcheck.middleware.ApplicationErrorMiddleware",
    "claimcheck.middleware.ContentSecurityPolicyMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its 429 answer.
    "axes.middleware.AxesMiddleware",
]

# Login throttling (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one username from
# one address, that pair is locked out for the cool-off time (429); a success resets the count.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("CLAIMCHECK_LOGIN_FAILURE_LIMIT", default=5, minimum=1)
AXES_COOLOFF_TIME = timedelta(
    minutes=env_int("CLAIMCHECK_LOGIN_COOLOFF_MINUTES", default=15, minimum=1)
)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"

# No inline script anywhere: scripts come from our own origin only. Inline style attributes
# stay allowed (meters set their width); they cannot run code.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "claimcheck.context_processors.roles",
            ],
        },
    },
]

DATABASES = {
    "default": database_from_url(env_str("DATABASE_URL", "sqlite:///db.sqlite3"), base_dir=BASE_DIR)
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
# Serve the files from where they are found instead of STATIC_ROOT, so that a local run with
# DJANGO_DEBUG off (scripts/run) needs no collectstatic; the image collects them at build time.
WHITENOISE_USE_FINDERS = env_bool("CLAIMCHECK_STATIC_FROM_SOURCE", default=DEBUG)
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or WHITENOISE_USE_FINDERS
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", default=not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
if env_bool("DJANGO_BEHIND_TLS_PROXY", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Task queue: the ORM broker on the embedded default, Redis when REDIS_URL is set.
# A task may run for `timeout` seconds; it is handed out again after `retry` seconds
# (so retry must exceed timeout) and given up after `max_attempts`.
REDIS_URL = env_str("REDIS_URL")
Q_CLUSTER: dict[str, object] = {
    "name": "claimcheck",
    "cluster_name": env_str("CLAIMCHECK_QUEUE", "claimcheck"),
    "workers": env_int("CLAIMCHECK_WORKERS", default=1, minimum=1),
    "recycle": 200,
    "timeout": env_int("CLAIMCHECK_TASK_TIMEOUT", default=600, minimum=10),
    "retry": env_int("CLAIMCHECK_TASK_RETRY", default=720, minimum=11),
    "max_attempts": env_int("CLAIMCHECK_TASK_MAX_ATTEMPTS", default=3, minimum=1),
    "ack_failures": True,
    "catch_up": False,
    "save_limit": 1000,
    "label": "Tasks",
    "poll": 0.5,
}
# Both brokers lease the tasks a cluster takes, so that a killed cluster's tasks go back to the
# queue within a lease instead of after `retry` (claimcheck.queue).
if REDIS_URL:
    Q_CLUSTER["redis"] = REDIS_URL
    Q_CLUSTER["broker_class"] = "claimcheck.queue.Redis"
else:
    Q_CLUSTER["orm"] = "default"
    Q_CLUSTER["broker_class"] = "claimcheck.queue.ORM"
# A running claim renews its lease every third of this, and a cluster the leases of the tasks it
# took; a claim or task not renewed for this long has lost its worker and is queued again
# (claims.lease, claimcheck.queue).
CLAIMCHECK_LEASE_SECONDS = env_int("CLAIMCHECK_LEASE_SECONDS", default=20, minimum=3)
if int(str(Q_CLUSTER["retry"])) <= int(str(Q_CLUSTER["timeout"])):
    raise ImproperlyConfigured("CLAIMCHECK_TASK_RETRY must be larger than CLAIMCHECK_TASK_TIMEOUT")

# Pipeline configuration (providers, budgets, weights, LLM): one YAML file.
CLAIMCHECK_CONFIG = env_str("CLAIMCHECK_CONFIG", str(BASE_DIR / "claimcheck" / "default.yaml"))
# Outbound fetching never reaches loopback/private addresses unless this is on (tests only).
CLAIMCHECK_HTTP_ALLOW_LOOPBACK = env_bool("CLAIMCHECK_HTTP_ALLOW_LOOPBACK", default=False)
# The stance model (evidence/stance/model.py): its folder, and the threads one reading may use.
STANCE_MODEL_DIR = env_str(
    "CLAIMCHECK_STANCE_MODEL", str(BASE_DIR / "evidence" / "stance" / "model")
)
STANCE_MODEL_THREADS = env_int("CLAIMCHECK_STANCE_THREADS", default=1, minimum=1)
# The strong stance reader, and how many sentences of each page it reads (the fast model picks
# them; DATA_CARD.md in training/stance says how the number was chosen).
STANCE_STRONG_MODEL_DIR = env_str(
    "CLAIMCHECK_STANCE_STRONG_MODEL", str(BASE_DIR / "evidence" / "stance" / "strong-2")
)
STANCE_PICK = env_int("CLAIMCHECK_STANCE_PICK", default=12, minimum=1)
# Drop query text from logs when it may carry personal data.
CLAIMCHECK_SCRUB_QUERY_LOGS = env_bool("CLAIMCHECK_SCRUB_QUERY_LOGS", default=False)

# ClaimReview (desk.selectors.claimreview): the newsroom that publishes an editor's verdict, and
# the name each outcome goes out under. The outcomes are claims.models.Outcome's values, spelt out
# here because settings load before the apps.
CLAIMCHECK_NEWSROOM_NAME = env_str("CLAIMCHECK_NEWSROOM_NAME").strip() or "ClaimCheck"
# Empty: the address the desk is reached at stands in for the newsroom's site.
CLAIMCHECK_NEWSROOM_URL = env_url("CLAIMCHECK_NEWSROOM_URL")
# Empty: links ClaimCheck writes for others are built from the request's own host.
CLAIMCHECK_PUBLIC_URL = env_url("CLAIMCHECK_PUBLIC_URL")
CLAIMCHECK_RATING_NAMES = env_names(
    "CLAIMCHECK_RATING_NAMES",
    default={"true": "True", "false": "False", "invalid": "Unproven"},
)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "console": {
            "()": "claimcheck.logs.console_formatter",
            "log_format": env_choice(
                "CLAIMCHECK_LOG_FORMAT", choices=("auto", "json", "text"), default="auto"
            ),
        }
    },
    "filters": {"refusals_one_line": {"()": "claimcheck.logs.RefusalsOneLine"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "console",
            "filters": ["refusals_one_line"],
        }
    },
    "root": {"handlers": ["console"], "level": env_str("CLAIMCHECK_LOG_LEVEL", "INFO")},
    "loggers": {
        # Its start-up line ("AXES: BEGIN ...") at every command says nothing a user needs.
        "axes.apps": {"level": "WARNING"},
        "LiteLLM": {"level": "WARNING"},
        "httpx": {"level": "WARNING"},
        "trafilatura": {"level": "ERROR"},
        "htmldate": {"level": "ERROR"},
        "bm25s": {"level": "WARNING"},
    },
}
