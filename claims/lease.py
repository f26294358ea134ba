"""Leases on running claims, so a claim whose worker died is picked up again within seconds.

A worker running a claim renews its lease (the claim's `updated_at`) every third of
CLAIMCHECK_LEASE_SECONDS from a small thread beside the pipeline, whatever step the pipeline is
in. Every qcluster worker process also sweeps every half lease: a running claim whose lease ran
out has lost its worker (killed, or its machine gone) and is queued again. A claim is therefore
back in the queue at most 1.5 leases (30 s by default) after its worker's last renewal.

A lease belongs to one take of the claim (its `started_at`): a worker whose lease was taken
over, after it stalled for a whole lease, finds out at its next renewal and stops at the
pipeline's next step, so that the claim never runs in two places at once. A worker whose cluster
is stopping hands its claim back to the queue (claimcheck.workers), and so does a run whose
database went away under it (a restart): as soon as the database answers again, not a lease
later. The sweep itself is a task of the engine's (decisions.tasks), since only the engine knows
how to send a claim's task again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import datetime
from typing import Any

from django.db import (
    DatabaseError,
    InterfaceError,
    OperationalError,
    close_old_connections,
    connection,
)

from claimcheck.workers import WorkerStopping, checkpoint
from claims.models import Claim
from claims.services import (
    claim_hand_back,
    claim_lease_renew,
    claim_taken_over,
    lease_seconds,
)

logger = logging.getLogger(__name__)


def every(interval: float, stop: threading.Event, action: Any, name: str) -> None:
    try:
        while not stop.wait(interval):
            try:
                action()
            except DatabaseError as exc:
                # A missed beat is not fatal: the next one may get through before the lease
                # runs out, and if none does the claim is simply run again. The connection it
                # failed on may be gone for good (the database restarted): dropped, so that the
                # next beat opens a new one instead of failing on the dead one forever.
                logger.warning(f"{name} failed", extra={"error": str(exc)})
                _drop_connection()
            except Exception:
                # Anything else is a bug to see in the logs, but a thread that quietly died
                # would stop renewing or sweeping for good: report it and keep going.
                logger.exception(f"{name} failed unexpectedly")
    finally:
        connection.close()  # this thread's own connection


def _drop_connection() -> None:
    # Closing a dead connection can fail; Django forgets it either way.
    with suppress(DatabaseError):
        connection.close()


class ClaimLeaseLost(Exception):
    """Another worker took the claim over: this one stalled past its lease."""


class DatabaseWentAway(Exception):
    """The claim's run lost its database connection (the database restarted or went down), so
    its result could not be saved. `handed_back`: the claim is queued again, for its task to be
    sent again; False when the database did not answer within a lease (the sweep of whichever
    worker reaches it first queues it then)."""

    def __init__(self, *, claim_id: int, handed_back: bool) -> None:
        super().__init__(f"claim {claim_id}: the database went away while it ran")
        self.claim_id = claim_id
        self.handed_back = handed_back


DATABASE_WENT_AWAY = "the database went away while it ran"
# How often a run that lost the database tries it again, to hand its claim back.
_RECONNECT_EVERY_S = 0.5


# SQLSTATEs of a session the server ended or could not keep: class 08 (connection exceptions),
# and the server shutting down or restarting (57P01 admin_shutdown, 57P02 crash_shutdown, 57P03
# cannot_connect_now).
_GONE_STATES = ("08", "57P01", "57P02", "57P03")


def database_lost(exc: BaseException) -> bool:
    """Whether `exc` means the database connection went away (a restart, a dropped network),
    not that one statement failed on a working connection (a lock, a constraint, SQLite's "database
    is locked"). Judged from the error itself: by the time it is caught, Django may already have
    closed the dead connection and the pool handed out a live one."""
    if isinstance(exc, InterfaceError):
        return True
    if not isinstance(exc, OperationalError):
        return False
    cause = exc.__cause__
    package = type(cause).__module__.split(".")[0]
    if package == "psycopg_pool":
        return True  # no connection to be had from the pool in its wait: the server is away
    if package != "psycopg":
        return False  # SQLite's errors are about a file that is always there
    state = getattr(cause, "sqlstate", None)
    # psycopg gives no SQLSTATE when the server closed the socket under it.
    return state is None or str(state).startswith(_GONE_STATES)


# Claims whose lease this process lost, as (claim id, started_at) of the take that lost it.
_lost: set[tuple[int, datetime | None]] = set()


def lease_checkpoint(*, claim: Claim) -> None:
    """Between pipeline steps: stop if the cluster is stopping or the lease was lost. Then, as
    between requests, the connection is checked again before its next use: a step that waited a
    long while (a model server's reply) may find the database restarted meanwhile, and goes on
    with a new connection instead of failing on the dead one."""
    checkpoint()
    if (claim.pk, claim.started_at) in _lost:
        raise ClaimLeaseLost(f"claim {claim.pk} was taken over by another worker")
    if not connection.in_atomic_block:
        close_old_connections()


def _hand_back(*, claim_id: int, started_at: datetime | None) -> bool:
    # The stop may have cut a query short: go on with a fresh connection.
    connection.close()
    return claim_hand_back(claim_id=claim_id, started_at=started_at)


def _hand_back_when_the_database_answers(*, claim: Claim) -> bool:
    """Queue the claim again as soon as the database answers, trying for up to a lease; after
    that its lease has run out and any worker's sweep queues it. Each try opens a connection
    afresh: the old one died with the database."""
    deadline = time.monotonic() + lease_seconds()
    while True:
        _drop_connection()
        try:
            return claim_hand_back(
                claim_id=claim.pk, started_at=claim.started_at, why=DATABASE_WENT_AWAY
            )
        except DatabaseError:
            if time.monotonic() >= deadline:
                _drop_connection()
                return False
            time.sleep(_RECONNECT_EVERY_S)


@contextmanager
def claim_lease(*, claim: Claim) -> Iterator[None]:
    """Hold the running claim's lease while the block runs. If the worker stops in the block,
    the claim is queued again (raising WorkerStopping on to the task, which sends it out)."""
    take = (claim.pk, claim.started_at)

    def renew() -> None:
        if not claim_lease_renew(claim=claim) and claim_taken_over(claim=claim):
            logger.error("claim taken over by another worker", extra={"claim_id": claim.pk})
            _lost.add(take)

    if connection.in_atomic_block:
        # Inside an open transaction (the foreground `verify` in a test, say) no other process
        # can see the claim running, and a renewal from another connection would only wait
        # for this transaction's row lock.
        yield
        return
    stop = threading.Event()
    beat = threading.Thread(
        target=every,
        args=(lease_seconds() / 3, stop, renew, "lease renewal"),
        name=f"lease-claim-{claim.pk}",
        daemon=True,
    )
    beat.start()
    try:
        yield
    except WorkerStopping:
        if _hand_back(claim_id=claim.pk, started_at=claim.started_at):
            logger.info("claim handed back: its worker is stopping", extra={"claim_id": claim.pk})
        raise
    except DatabaseError as exc:
        if not database_lost(exc):
            raise
        logger.warning("claim run lost the database; handing it back", extra={"claim_id": claim.pk})
        handed = _hand_back_when_the_database_answers(claim=claim)
        raise DatabaseWentAway(claim_id=claim.pk, handed_back=handed) from exc
    finally:
        stop.set()
        beat.join(timeout=5)
        _lost.discard(take)
