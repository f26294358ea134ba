"""Leases on running claims, so a claim whose worker died is picked up again within seconds.

A worker running a claim renews its lease (the claim's `updated_at`) every third of
CLAIMCHECK_LEASE_SECONDS from a small thread beside the pipeline, whatever step the pipeline is
in. Every qcluster worker process also sweeps every half lease: a running claim whose lease ran
out has lost its worker (killed, or its machine gone) and is queued again. A claim is therefore
back in the queue at most 1.5 leases (30 s by default) after its worker's last renewal.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection
from django.utils import timezone

from claimcheck.models import Claim, ClaimStatus

logger = logging.getLogger(__name__)


def lease_seconds() -> float:
    return float(getattr(settings, "CLAIMCHECK_LEASE_SECONDS", 20))


def lease_expired_before() -> datetime:
    """A running claim not renewed since this moment has lost its worker."""
    return timezone.now() - timedelta(seconds=lease_seconds())


def _every(interval: float, stop: threading.Event, action: Any, name: str) -> None:
    try:
        while not stop.wait(interval):
            try:
                action()
            except DatabaseError as exc:
                # A missed beat is not fatal: the next one may get through before the lease
                # runs out, and if none does the claim is simply run again.
                logger.warning(f"{name} failed", extra={"error": str(exc)})
            except Exception:
                # Anything else is a bug to see in the logs, but a thread that quietly died
                # would stop renewing or sweeping for good: report it and keep going.
                logger.exception(f"{name} failed unexpectedly")
    finally:
        connection.close()  # this thread's own connection


@contextmanager
def claim_lease(*, claim_id: int) -> Iterator[None]:
    """Hold the running claim's lease while the block runs."""

    def renew() -> None:
        Claim.objects.filter(pk=claim_id, status=ClaimStatus.RUNNING).update(
            updated_at=timezone.now()
        )

    if connection.in_atomic_block:
        # Inside an open transaction (the foreground `verify` in a test, say) no other process
        # can see the claim running, and a renewal from another connection would only wait
        # for this transaction's row lock.
        yield
        return
    stop = threading.Event()
    beat = threading.Thread(
        target=_every,
        args=(lease_seconds() / 3, stop, renew, "lease renewal"),
        name=f"lease-claim-{claim_id}",
        daemon=True,
    )
    beat.start()
    try:
        yield
    finally:
        stop.set()
        beat.join(timeout=5)


_sweeper_lock = threading.Lock()
_sweeper: threading.Thread | None = None


def sweeper_start(**kwargs: Any) -> None:
    """django-q2 post_spawn receiver: each worker process sweeps for lost claims."""
    global _sweeper
    from django_q.conf import Conf

    from decisions.tasks import claims_sweep_stale

    if Conf.SYNC:
        # Tasks run inline in the caller's process (tests, `sync` mode): there is no cluster
        # whose workers could die, and the caller's process is not ours to add threads to.
        return

    with _sweeper_lock:
        if _sweeper is not None and _sweeper.is_alive():
            return
        _sweeper = threading.Thread(
            target=_every,
            args=(lease_seconds() / 2, threading.Event(), claims_sweep_stale, "claim sweep"),
            name="claim-sweeper",
            daemon=True,
        )
        _sweeper.start()
