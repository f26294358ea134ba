"""PostgreSQL connection pools across fork.

A psycopg pool is not fork-safe: a process forked from one that holds a pool (django-q2's
sentinel starting a new worker after a timeout or a recycle, a benchmark's worker processes)
inherits the pool's open sessions, and parent and child then talk over the same server session,
their transactions and savepoints interleaved. So just before a fork the process gives back its
own connection and closes its pools; each side opens a new pool on its next query. Connections
that other threads hold at that moment are closed when those threads give them back.
"""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings
from django.db import connections

_installed = False


def _uses_a_pool() -> bool:
    return any(entry.get("OPTIONS", {}).get("pool") for entry in settings.DATABASES.values())


def close_pools_before_fork() -> None:
    from django.db.backends.postgresql.base import DatabaseWrapper

    for connection in connections.all(initialized_only=True):
        # Inside a transaction the connection stays: closing it would lose the transaction.
        if connection.vendor == "postgresql" and not connection.in_atomic_block:
            connection.close()
    pools: dict[str, Any] = DatabaseWrapper._connection_pools  # type: ignore[attr-defined]
    for alias in list(pools):
        pools.pop(alias).close()


def install_fork_guard() -> None:
    """Close the pools before every fork of this process, when a database uses one."""
    global _installed
    if _installed or not _uses_a_pool():
        return
    os.register_at_fork(before=close_pools_before_fork)
    _installed = True
