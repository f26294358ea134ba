"""Log lines: JSON for machines (one object a line, with any `extra=` fields such as run_id,
provider, latency_ms), readable text for a person at a terminal.

`CLAIMCHECK_LOG_FORMAT` chooses: `json`, `text`, or `auto` (the default): text when stderr is a
terminal, JSON when it is not (a log collector, a pipe, a file)."""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


def _extra(record: logging.LogRecord) -> dict[str, object]:
    return {
        key: value
        for key, value in vars(record).items()
        if key not in _STANDARD and not key.startswith("_")
    }


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update(_extra(record))
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


class TextFormatter(logging.Formatter):
    """`22:34:17 INFO  django-q: Q Cluster running. (run_id=4, latency_ms=12)`, in UTC."""

    def format(self, record: logging.LogRecord) -> str:
        moment = datetime.fromtimestamp(record.created, UTC).strftime("%H:%M:%S")
        line = f"{moment} {record.levelname:<5} {record.name}: {record.getMessage()}"
        extra = _extra(record)
        if extra:
            line += " (" + ", ".join(f"{key}={_short(value)}" for key, value in extra.items()) + ")"
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


class RefusalsOneLine(logging.Filter):
    """A refusal (a 4xx: a 403 for a role that may not, a 404) is the client's, not a fault of
    ours: Django logs it with the exception that made it, and its traceback says nothing an
    operator needs. Keep the one line, drop the traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and 400 <= status < 500:
            record.exc_info = None
            record.exc_text = None
        return True


def _short(value: object) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return text if len(text) <= 120 else text[:119] + "…"


def console_formatter(*, log_format: str = "auto") -> logging.Formatter:
    """The formatter for log lines written to stderr (settings.LOGGING builds it at start-up,
    from CLAIMCHECK_LOG_FORMAT, checked there)."""
    if log_format == "auto":
        log_format = "text" if sys.stderr.isatty() else "json"
    return TextFormatter() if log_format == "text" else JsonFormatter()


@contextmanager
def command_logs(*, verbosity: int) -> Iterator[None]:
    """A management command prints its own progress and summary; the INFO lines of the steps
    below it (one per page stored, per search, per event) would drown them, so they show only
    with -v 2. Warnings and errors always show."""
    loggers = [logging.getLogger(), logging.getLogger("bm25s")]
    levels = [logger.level for logger in loggers]
    if verbosity < 2:
        for logger in loggers:
            logger.setLevel(max(logger.level, logging.WARNING))
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)
