"""Liveness and readiness: is the database reachable, is the task broker reachable?"""

from __future__ import annotations

import logging

from django.db import connection
from django.db.utils import Error as DatabaseError
from django.db.utils import InterfaceError, OperationalError

logger = logging.getLogger(__name__)


def database_unreachable(exc: BaseException | None) -> bool:
    """Whether `exc` means the database could not be reached (down, restarting, a connection it
    dropped, no pooled connection free in time), not a fault of the request or of the code."""
    return isinstance(exc, (OperationalError, InterfaceError))


def database_ok() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        logger.warning("health: database unreachable", extra={"error": str(exc)})
        return False, type(exc).__name__
    return True, connection.vendor


def broker_ok() -> tuple[bool, str]:
    from django_q.brokers import get_broker

    try:
        broker = get_broker()
        alive = bool(broker.ping())
    except Exception as exc:
        logger.warning("health: broker unreachable", extra={"error": str(exc)})
        return False, type(exc).__name__
    return alive, type(broker).__name__.lower()
