"""How much a source counts: the domain registry's rule for a URL or host (its tier, weight
and whether it is denied).

A `Domain` row names either a registrable domain (`reuters.com`, which also covers every
subdomain) or a suffix rule starting with a dot (`.gov`, which covers every host ending in
`.gov`). Lookup takes the longest matching name. The table is small and read on every fetch and
every piece of evidence, so it is held in memory, dropped when a row changes in this process,
and re-checked against the database every few seconds for changes made by other processes.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Max
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from claimcheck.config import get_config
from registry.hosts import host_of, is_ip, registrable_domain
from registry.models import Domain, Tier

# How long another process's change may go unseen by this one.
_RECHECK_SECONDS = 5.0
_clock = time.monotonic


@dataclass(frozen=True)
class DomainRule:
    """What the registry says about one host."""

    registrable: str
    matched: str | None
    tier: str
    weight: float
    denied: bool


@dataclass(frozen=True)
class _Row:
    tier: str
    weight_override: float | None
    denied: bool


_Stamp = tuple[int, datetime | None]


class _Table:
    """The Domain table in memory, reloaded when it may have changed.

    Changes saved in this process drop it at once (signals). Changes from other processes are
    noticed by comparing (row count, newest updated_at) every few seconds. While this process
    holds uncommitted changes inside a transaction, reads go to the database: those changes may
    still roll back, and a table cached from them would outlive the rollback.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rows: dict[str, _Row] | None = None
        self._stamp: _Stamp | None = None
        self._checked_at = 0.0
        self._uncommitted = False

    def invalidate(self) -> None:
        with self._lock:
            self._rows = None
            self._stamp = None

    def note_change(self) -> None:
        with self._lock:
            self._rows = None
            self._stamp = None
            if connection.in_atomic_block:
                self._uncommitted = True
        transaction.on_commit(self._committed)

    def _committed(self) -> None:
        with self._lock:
            self._uncommitted = False
            self._rows = None
            self._stamp = None

    def rows(self) -> dict[str, _Row]:
        with self._lock:
            if self._uncommitted:
                if connection.in_atomic_block:
                    return _load_rows()
                # The transaction that changed rows has ended without commit: forget it.
                self._uncommitted = False
                self._rows = None
            now = _clock()
            if self._rows is not None and now - self._checked_at < _RECHECK_SECONDS:
                return self._rows
            stamp = _current_stamp()
            if self._rows is None or stamp != self._stamp:
                self._rows = _load_rows()
                self._stamp = stamp
            self._checked_at = now
            return self._rows


def _current_stamp() -> _Stamp:
    found = Domain.objects.aggregate(count=Count("id"), newest=Max("updated_at"))
    return int(found["count"]), found["newest"]


def _load_rows() -> dict[str, _Row]:
    return {
        name: _Row(tier=tier, weight_override=weight, denied=denied)
        for name, tier, weight, denied in Domain.objects.values_list(
            "name", "tier", "weight_override", "denied"
        )
    }


_table = _Table()


def invalidate_cache() -> None:
    """Forget the in-memory table (after bulk writes that send no signals)."""
    _table.invalidate()


@receiver(post_save, sender=Domain, dispatch_uid="registry.weighing.saved")
@receiver(post_delete, sender=Domain, dispatch_uid="registry.weighing.deleted")
def _domain_changed(**kwargs: Any) -> None:
    _table.note_change()


def _candidates(host: str) -> list[str]:
    """Registry names that could cover `host`: itself and every parent, each both as a plain
    name and as a suffix rule."""
    if is_ip(host):
        return [host]
    labels = host.split(".")
    names: list[str] = []
    for start in range(len(labels)):
        parent = ".".join(labels[start:])
        # A suffix rule also covers the bare suffix as a host: `.gov.uk` covers `gov.uk`.
        names.extend((parent, "." + parent))
    return names


def weigh_source(url_or_host: str) -> DomainRule:
    """How much a source counts: the registry's rule for a URL or host (its tier, weight and
    whether it is denied), from the longest matching row, or tier `other`."""
    host = host_of(url_or_host)
    registrable = registrable_domain(host) if host else ""
    rows = _table.rows()
    matched = (
        max((name for name in _candidates(host) if name in rows), key=len, default=None)
        if host
        else None
    )
    weights = get_config().weights
    if matched is None:
        return DomainRule(
            registrable=registrable,
            matched=None,
            tier=Tier.OTHER.value,
            weight=weights.for_tier(Tier.OTHER.value),
            denied=False,
        )
    row = rows[matched]
    weight = row.weight_override if row.weight_override is not None else weights.for_tier(row.tier)
    return DomainRule(
        registrable=registrable,
        matched=matched,
        tier=row.tier,
        weight=float(weight),
        denied=row.denied,
    )


def is_denied(url_or_host: str) -> bool:
    return weigh_source(url_or_host).denied
