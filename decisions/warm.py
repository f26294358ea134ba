"""A fresh worker process loads what its first claim needs (the pipeline settings, a database
connection, the readers' models) before it takes a task, so that a restarted worker runs its
first claim as fast as its hundredth."""

from __future__ import annotations

import logging
import time
from typing import Any

from django.db import DatabaseError, connection

from claimcheck.config import get_config
from evidence.services.warm import readers_warm

logger = logging.getLogger(__name__)


def worker_warm(**kwargs: Any) -> None:
    """django-q2 post_spawn receiver: runs in each worker process before its first task."""
    from django_q.conf import Conf

    if Conf.SYNC:
        return  # tasks run inline in the caller's process, which loads on first use
    started = time.monotonic()
    get_config()
    try:
        connection.ensure_connection()
    except DatabaseError:
        # The first task reports the database's state itself; the models still load.
        logger.warning("worker warm-up: the database is not reachable", exc_info=True)
    took = readers_warm()
    logger.info(
        "worker %s warm in %.1f s (%s)",
        kwargs.get("proc_name", ""),
        time.monotonic() - started,
        ", ".join(f"{name} {seconds:.1f} s" for name, seconds in took.items()),
    )
