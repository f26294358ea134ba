"""Read settings from the environment, failing loudly on values that make no sense."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_file_load(path: Path) -> None:
    """Fill the environment from a `NAME=value` file (for settings a local set-up generates once,
    such as the development signing key). Variables already set always win; a missing file is
    fine; a line that is not `NAME=value` stops start-up with its line number."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, sep, value = line.partition("=")
        name = name.strip()
        if not sep or not name.isidentifier():
            raise ImproperlyConfigured(f"{path}:{number}: expected NAME=value, got {raw!r}")
        os.environ.setdefault(name, value.strip().strip("\"'"))


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, *, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (true/false/1/0), got {raw!r}")


def env_int(name: str, *, default: int, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {raw!r}") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, got {value}")
    return value


def env_choice(name: str, *, choices: tuple[str, ...], default: str) -> str:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}, got {raw!r}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_url(name: str, default: str = "") -> str:
    """An absolute http(s) address, or `default` when unset: a typo here would otherwise only
    show in the links ClaimCheck writes for others (ClaimReview's author, a review's page)."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip()
    parts = urlsplit(value)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise ImproperlyConfigured(
            f"{name} must be an http(s) address such as https://news.example.org, got {raw!r}"
        )
    return value


def env_names(name: str, *, default: dict[str, str]) -> dict[str, str]:
    """Names for a fixed set of keys, written `key=Name` and separated by commas
    (`true=Correct,invalid=Unproven`); a key left out keeps its default. A pair without `=`,
    a key not among the defaults', a key given twice or an empty name stops start-up, since a
    misspelt key would otherwise be dropped without a word and its default published."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return dict(default)
    names = dict(default)
    given: set[str] = set()
    allowed = ", ".join(default)
    for pair in raw.split(","):
        key, sep, value = pair.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not sep or not value:
            raise ImproperlyConfigured(
                f"{name} must be key=Name pairs separated by commas (keys: {allowed}), "
                f"got {pair.strip()!r} in {raw!r}"
            )
        if key not in default:
            raise ImproperlyConfigured(f"{name}: unknown key {key!r} (keys: {allowed})")
        if key in given:
            raise ImproperlyConfigured(f"{name}: {key!r} is named twice")
        given.add(key)
        names[key] = value
    return names


def database_from_url(url: str, *, base_dir: Path) -> dict[str, Any]:
    """Turn `sqlite:///path` or `postgres://user:pass@host:port/name` into a DATABASES entry."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "sqlite":
        raw_path = unquote(parts.path)
        # sqlite:///relative.db -> "relative.db"; sqlite:////abs/path.db -> "/abs/path.db"
        relative = raw_path[1:] if raw_path.startswith("/") else raw_path
        if not relative:
            raise ImproperlyConfigured("DATABASE_URL sqlite:/// needs a file path")
        db_path = Path(relative) if Path(relative).is_absolute() else base_dir / relative
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(db_path),
            "OPTIONS": {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": _SQLITE_INIT,
            },
        }
    if scheme in {"postgres", "postgresql", "pgsql"}:
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise ImproperlyConfigured("DATABASE_URL for PostgreSQL needs a database name")
        options: dict[str, Any] = dict(parse_qsl(parts.query))
        pool_max = env_int("CLAIMCHECK_DB_POOL_MAX", default=10, minimum=0)
        if pool_max:
            # One bounded pool per process: however many threads serve requests, the process
            # holds at most pool_max connections and the rest wait (up to the timeout) for one.
            options["pool"] = {
                "min_size": min(2, pool_max),
                "max_size": pool_max,
                "timeout": env_int("CLAIMCHECK_DB_POOL_TIMEOUT", default=10, minimum=1),
            }
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(parts.port or ""),
            "OPTIONS": options,
            # A pooled connection goes back to the pool after each request; Django refuses
            # persistent connections on top of a pool.
            "CONN_MAX_AGE": 0 if pool_max else 60,
            # Checked before use, pooled or not: after the database restarts, every connection
            # opened before is dead, and each would otherwise fail one request (a 500) first.
            "CONN_HEALTH_CHECKS": True,
        }
    raise ImproperlyConfigured(
        f"DATABASE_URL scheme {scheme!r} is not supported (use sqlite:/// or postgres://)"
    )


# WAL lets the web process read while a worker writes; a busy timeout rides out short locks.
_SQLITE_INIT = "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;"
