"""A reply judged item by item: one bad finding in a model's list does not cost the others.

A constrained server (`llm.response_format: json_schema`) still breaks its schema now and then
(a score of 1.3, a stance it made up), and a hosted model more often. Refusing the whole reply
for one such item threw away the good ones and sent the page to the offline reader. Instead each
item is checked on its own: a number a little out of its range is clipped into it and counted as
clipped; an item that cannot be repaired (an unknown value, a missing field, a wrong type) is
refused alone and counted as refused. Each repair is logged with its reason, and the counts are
stored per day (`accounting.replies_record`) for the dashboard.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from integrations.llm.provider import logger

M = TypeVar("M", bound=BaseModel)


@dataclass
class ReplyTally:
    """The repairs made to the items of one purpose's replies (a page's stance reading).

    Mutable and not locked: each reading keeps its own and hands it back to the thread that
    records it."""

    purpose: str
    clipped: int = 0
    refused: int = 0

    def clip(self, reason: str) -> None:
        self.clipped += 1
        logger.info("llm reply item clipped", extra={"purpose": self.purpose, "reason": reason})

    def refuse(self, reason: str) -> None:
        self.refused += 1
        logger.info("llm reply item refused", extra={"purpose": self.purpose, "reason": reason})

    def add(self, other: ReplyTally) -> None:
        self.clipped += other.clipped
        self.refused += other.refused


def _problem(exc: ValidationError) -> str:
    item = exc.errors()[0]
    where = ".".join(str(part) for part in item["loc"]) or "(item)"
    return f"{where}: {item['msg']}"


def _clipped(
    raw: dict[str, object], ranges: Mapping[str, tuple[float, float]]
) -> tuple[dict[str, object], list[str]]:
    """`raw` with each finite number outside its range set to the nearer bound, and what was
    changed. Anything that is not a finite number is left for validation to refuse: only a value
    of the right kind in the wrong place is repaired."""
    fixed = dict(raw)
    changes: list[str] = []
    for name, (low, high) in ranges.items():
        value = raw.get(name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        if not math.isfinite(value) or low <= value <= high:
            continue
        fixed[name] = min(high, max(low, value))
        changes.append(f"{name} {value} clipped to {fixed[name]}")
    return fixed, changes


def items_check(
    items: list[object],
    *,
    model: type[M],
    ranges: Mapping[str, tuple[float, float]],
    tally: ReplyTally,
    check: Callable[[M], str | None] | None = None,
) -> list[M]:
    """The items that validate into `model`, in order, after numbers named in `ranges` are
    clipped into them; every other item is refused and counted on `tally`. `check` is the
    caller's own test of an item that validated (a quote is on the page): the reason to refuse
    it, or None. An item is counted once: refused, or else clipped if anything was."""
    kept: list[M] = []
    for position, raw in enumerate(items, start=1):
        if not isinstance(raw, dict):
            tally.refuse(f"item {position} is a {type(raw).__name__}, not an object")
            continue
        fixed, changes = _clipped(raw, ranges)
        try:
            item = model.model_validate(fixed)
        except ValidationError as exc:
            tally.refuse(f"item {position}: {_problem(exc)}")
            continue
        refusal = check(item) if check is not None else None
        if refusal is not None:
            tally.refuse(f"item {position}: {refusal}")
            continue
        if changes:
            tally.clip(f"item {position}: {'; '.join(changes)}")
        kept.append(item)
    return kept
