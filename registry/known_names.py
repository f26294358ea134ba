"""The alias table as a lookup: matching key → (name in English, kind).

Admins edit the table (`EntityAlias`) on the domains pages and by CSV. Lookups are many (every
capitalised word of every snippet), so each process keeps the table in memory and reloads it
when it changed: at once in the process that changed it, within `RECHECK_SECONDS` elsewhere.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from django.db.models import Count, Max

from registry.entity_keys import entity_key
from registry.models import EntityAlias

RECHECK_SECONDS = 30.0


@dataclass(frozen=True)
class KnownName:
    name: str
    kind: str


class _Table:
    _lock = threading.Lock()
    _index: dict[str, KnownName] | None = None
    _version: tuple[int, object] | None = None
    _checked_at = 0.0

    @classmethod
    def index(cls) -> dict[str, KnownName]:
        now = time.monotonic()
        if cls._index is not None and now - cls._checked_at < RECHECK_SECONDS:
            return cls._index
        with cls._lock:
            stats = EntityAlias.objects.aggregate(count=Count("id"), latest=Max("updated_at"))
            version = (int(stats["count"]), stats["latest"])
            if cls._index is None or version != cls._version:
                cls._index = _build()
                cls._version = version
            cls._checked_at = now
            return cls._index

    @classmethod
    def forget(cls) -> None:
        with cls._lock:
            cls._index = None
            cls._version = None


def _build() -> dict[str, KnownName]:
    index: dict[str, KnownName] = {}
    for name, alias, kind in EntityAlias.objects.values_list("name", "alias", "kind"):
        known = KnownName(name=name, kind=kind)
        index[entity_key(alias)] = known
        index.setdefault(entity_key(name), known)
    return index


def known_name(key: str) -> KnownName | None:
    """The alias table's entry for a matching key, or None."""
    return _Table.index().get(key)


def aliases_changed() -> None:
    """Drop this process's copy of the table: the next lookup reads it afresh."""
    _Table.forget()
