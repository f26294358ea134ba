"""A verdict in one or two plain sentences, for the editor who reads the claim page first and the
weights later: who said what, and when they published it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

_NUMBERS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
_TIERS = {
    "official": "official",
    "wire": "wire service",
    "trade": "trade press",
    "other": "other site",
    "social": "social post",
}


@dataclass(frozen=True)
class _Source:
    publisher: str
    tier: str
    stance: str
    published: date | None
    event: date | None


def _day(value: Any) -> date | None:
    try:
        return date.fromisoformat(str(value)[:10]) if value else None
    except ValueError:
        return None


def _sources(raw: Sequence[dict[str, Any]]) -> list[_Source]:
    seen: set[str] = set()
    sources = []
    for item in raw:
        publisher = str(item.get("publisher") or item.get("url") or "an unnamed source")
        if publisher in seen:
            continue
        seen.add(publisher)
        sources.append(
            _Source(
                publisher=publisher,
                tier=str(item.get("tier") or ""),
                stance=str(item.get("stance") or ""),
                published=_day(item.get("pub_date")),
                event=_day(item.get("event_date")),
            )
        )
    return sources


def _count(number: int, noun: str) -> str:
    word = _NUMBERS[number] if number < len(_NUMBERS) else str(number)
    return f"{word} {noun}{'' if number == 1 else 's'}"


def _names(sources: Sequence[_Source]) -> str:
    parts = [
        f"{s.publisher} ({_TIERS.get(s.tier, s.tier)})" if s.tier else s.publisher for s in sources
    ]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _when(days: Sequence[date | None]) -> str:
    """ "on 3 Feb 2025", "between 3 and 5 Feb 2025", or "" when no day is known."""
    known = sorted({d for d in days if d is not None})
    if not known:
        return ""
    first, last = known[0], known[-1]
    if first == last:
        return f"on {first.day} {first:%b %Y}"
    if (first.year, first.month) == (last.year, last.month):
        return f"between {first.day} and {last.day} {last:%b %Y}"
    if first.year == last.year:
        return f"between {first.day} {first:%b} and {last.day} {last:%b %Y}"
    return f"between {first.day} {first:%b %Y} and {last.day} {last:%b %Y}"


def _side(sources: Sequence[_Source], *, verb_one: str, verb_many: str) -> str:
    noun = "independent source" if len(sources) > 1 else "source"
    text = f"{_count(len(sources), noun).capitalize()}, {_names(sources)}"
    published = _when([s.published for s in sources])
    if published:
        text += f", published {published},"
    text += f" {verb_one if len(sources) == 1 else verb_many}"
    events = _when([s.event for s in sources])
    if events:
        text += f"; {'it dates' if len(sources) == 1 else 'they date'} the event {events}"
    return text + "."


def verdict_summary(
    *,
    outcome: str,
    reason: str,
    sources: Sequence[dict[str, Any]],
    lean: dict[str, Any] | None,
    counted_urls: set[str] | None = None,
) -> str:
    """The verdict in words: which sources, published when, said what. With `counted_urls`
    (the addresses whose reading counted, as `decisions.counting` says), it names only the
    sources that counted; the others were read and did not count."""
    if counted_urls is not None and reason not in ("sufficient", "conflicting"):
        # A counted verdict's sources are what counted; a weighed or undecided one's, what
        # was weighed: of those, only the counted are named.
        uncounted = [item for item in sources if item.get("url") not in counted_urls]
        sources = [item for item in sources if item.get("url") in counted_urls]
        if not sources and uncounted and outcome in ("true", "false"):
            return (
                f"No reading counted on its own, but weighed together what "
                f"{_count(len(_sources(uncounted)), 'source')} said makes the claim likely "
                f"{outcome.capitalize()}: a proposal for an editor to check (each row below "
                "says what it read)."
            )
        if not sources and uncounted:
            return (
                f"{_count(len(_sources(uncounted)), 'source').capitalize()} read took a side, "
                "and none of those readings counted (each row below says why), so it could not "
                "be checked."
            )
    counted = _sources(sources)
    supporting = [s for s in counted if s.stance == "support"]
    refuting = [s for s in counted if s.stance == "refute"]
    if outcome == "true" and supporting:
        return _side(supporting, verb_one="confirms the claim", verb_many="confirm the claim")
    if outcome == "false" and refuting:
        return _side(refuting, verb_one="contradicts the claim", verb_many="contradict the claim")
    if reason == "conflicting" and supporting and refuting:
        return (
            f"The sources disagree. Confirming the claim: {_names(supporting)}."
            f" Contradicting it: {_names(refuting)}. An editor should decide which to trust."
        )
    if counted:
        side = supporting or refuting
        verb = ("confirms", "confirm") if side is supporting else ("contradicts", "contradict")
        text = _side(side, verb_one=f"{verb[0]} the claim", verb_many=f"{verb[1]} the claim")
        text += " That is not enough for a verdict (how it was weighed is below)."
        if lean and lean.get("outcome"):
            text += f" The evidence leans {str(lean['outcome']).capitalize()}."
        return text
    return "No source that was read took a side on this claim, so it could not be checked."
