"""The words for what counted and why not, shared by everything that shows a decision's
weighing: the proof, the timeline's decision line, the claim page's evidence table, the API and
`manage.py verify`. Only words: whether a hit counted is the decision's to say
(`decisions.decide.weigh`), and a stored row's count is `decisions.counting`'s."""

from __future__ import annotations

from collections import Counter

from decisions.types import REFUTE, SUPPORT, HitCount, NotCounted, Opposition, Weighing

_SIDE_WORD = {SUPPORT: "supports", REFUTE: "refutes"}
_SIDE_NOUN = {SUPPORT: "support", REFUTE: "refute"}
# The decision line names what was left out in a few words, by reason (one, many).
_SHORT = {
    NotCounted.LEAD: ("lead not read", "leads not read"),
    NotCounted.NO_WEIGHT: ("reading with no weight", "readings with no weight"),
    NotCounted.UNSURE: ("reading below the sure bar", "readings below the sure bar"),
    NotCounted.OUTSIDE: ("reading outside the timeframe", "readings outside the timeframe"),
}


def side_word(stance: str) -> str:
    """ "supports", "refutes", or "takes no side"."""
    return _SIDE_WORD.get(stance, "takes no side")


def counted_label(*, stance: str, weight: float) -> str:
    return f"Counted: {side_word(stance)}, weight {weight:.1f}"


def not_counted_label(why: str) -> str:
    return f"Not counted: {why}"


def why_words(count: HitCount, *, min_confidence: str) -> str:
    """Why a hit did not count, as an editor reads it on its row ("" when it counted)."""
    hit, why, best = count.hit, count.why, count.counted_with
    if why is None:
        return ""
    if why == NotCounted.NO_SIDE:
        return "takes no side"
    if why == NotCounted.LEAD:
        if hit.method == "snippet":
            return "a lead, not read (its snippet was not found on its page)"
        return "a lead, not read (only a snippet of its page could be read)"
    if why == NotCounted.NO_WEIGHT:
        if not hit.domain:
            return "a publisher with no weight (none is known)"
        if hit.tier == "social":
            return "a publisher with no weight (a social post)"
        return f"a publisher with no weight ({hit.domain} weighs 0 in the registry)"
    if why == NotCounted.UNSURE:
        return (
            f"below the reader's sure bar (read with {hit.confidence} confidence; "
            f"{min_confidence} needed)"
        )
    if why == NotCounted.OUTSIDE:
        if hit.in_window is False:
            when = (
                f"event {hit.event_at.date().isoformat()}" if hit.event_at else "dated outside it"
            )
            return f"outside the timeframe ({when})"
        return "outside the timeframe (undated, and support must be dated inside it)"
    if why == NotCounted.REPRINT:
        where = f", with {best.domain}'s row" if best is not None else ""
        return (
            f"a copy of {hit.publisher}'s story, syndicated ({hit.publisher} counted once{where})"
        )
    if why == NotCounted.PAGE_STANDS:
        side = f" ({side_word(best.stance)})" if best is not None else ""
        return f"its page was read, and the page's reading{side} stands for {hit.publisher}"
    if why == NotCounted.OTHER_SIDE:
        side = side_word(best.stance) if best is not None else "the other side"
        return f"{hit.publisher} counts on one side only: its surer reading {side}"
    if why == NotCounted.WEAKER:
        where = (
            f"its {best.domain} reprint" if best and best.domain != hit.domain else "another row"
        )
        return f"a weaker row of {hit.publisher} ({hit.publisher} counted once, with {where})"
    return why.value.replace("_", " ")


def against_words(count: HitCount, opposition: Opposition | None) -> str:
    """For a hit the conflict rule weighed against a sufficient side: how it weighed."""
    if not count.against or opposition is None:
        return ""
    return (
        f"weighed against {_SIDE_NOUN[opposition.side]} in the conflict rule: "
        f"{_SIDE_NOUN.get(count.hit.stance, count.hit.stance)} {count.hit.weight:.1f}"
    )


def _named(counts: list[HitCount], *, min_confidence: str) -> str:
    parts = []
    for count in counts:
        why = why_words(count, min_confidence=min_confidence)
        parts.append(
            f"{count.hit.publisher} {count.hit.weight:.1f}"
            + (f", not counted toward the total: {why}" if why else "")
        )
    return "; ".join(parts) if parts else "none"


def conflict_words(weighing: Weighing) -> str:
    """Why the sides conflict, naming the readings on each side and their weights, those the
    totals leave out included. "" when they do not conflict."""
    if not weighing.conflicting:
        return ""
    totals, sure = weighing.totals, weighing.min_confidence
    if weighing.both_sufficient:
        support = [c for c in weighing.counts if c.counted and c.hit.stance == SUPPORT]
        refute = [c for c in weighing.counts if c.counted and c.hit.stance == REFUTE]
        return (
            f"Both sides reach the agreement score of {totals.threshold:.1f}: "
            f"support {totals.support.total:.1f} ({_named(support, min_confidence=sure)}) "
            f"and refute {totals.refute.total:.1f} ({_named(refute, min_confidence=sure)})."
        )
    opposition = weighing.opposition
    if opposition is None:
        return ""
    side, other = opposition.side, REFUTE if opposition.side == SUPPORT else SUPPORT
    winners = [c for c in weighing.counts if c.counted and c.hit.stance == side]
    against = [c for c in weighing.counts if c.against]
    unsure = any(not c.counted for c in against)
    return (
        f"{_SIDE_NOUN[side].capitalize()} counts {opposition.weight:.1f} "
        f"({_named(winners, min_confidence=sure)}). Against it, {_SIDE_NOUN[other]} weighs "
        f"{opposition.against.total:.1f} ({_named(against, min_confidence=sure)}), more than "
        f"the {opposition.allowed:.1f} a verdict allows against it "
        f"({opposition.share:g} of {opposition.weight:.1f})."
        + (
            " The conflict rule weighs every reading read, even one too unsure to count "
            "toward a total."
            if unsure
            else ""
        )
    )


def left_out(weighing: Weighing) -> str:
    """The readings that took a side but count toward neither total, in a few words by
    reason ("2 refuting readings below the sure bar, 1 supporting lead not read"); "" when none.
    A weaker row of a publisher that counted is not among them: its publisher counted."""
    tally: Counter[tuple[str, NotCounted]] = Counter()
    for count in weighing.counts:
        if count.why in _SHORT and count.hit.stance in _SIDE_NOUN:
            tally[(count.hit.stance, count.why)] += 1
    parts = []
    for (stance, why), n in sorted(tally.items()):
        one, many = _SHORT[why]
        parts.append(
            f"{n} {'supporting' if stance == SUPPORT else 'refuting'} {one if n == 1 else many}"
        )
    return ", ".join(parts)
