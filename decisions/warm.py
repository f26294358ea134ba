"""A fresh worker process loads what its first claim needs (the pipeline settings, a database
connection, the readers' models) before it takes a task, so that a restarted worker runs its
first claim as fast as its hundredth.

The models load once, in the cluster's main process before it forks (`cluster_warm`): every
worker inherits them, shares their memory, and starts warm, and so does each worker the
cluster starts again after one dies. A worker then only checks (`worker_warm`), which takes no
time unless the main process could not load them."""

from __future__ import annotations

import logging
import os
import time
from typing import Any

from django.db import DatabaseError, connection

from claimcheck.config import get_config
from evidence.services import readers_warm

logger = logging.getLogger(__name__)


def cluster_warm(**kwargs: Any) -> None:
    """claimcheck.cluster.before_fork receiver: load the readers in the cluster's main process."""
    # The tokenizers' thread pool would not survive the fork; one worker reads one claim.
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    started = time.monotonic()
    took = readers_warm()
    logger.info(
        "cluster warm in %.1f s, before its workers start (%s)",
        time.monotonic() - started,
        ", ".join(f"{name} {seconds:.1f} s" for name, seconds in took.items()),
    )


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
