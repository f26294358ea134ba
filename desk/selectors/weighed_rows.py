"""Which evidence rows the weighed proposal read, in the words an editor reads on each row.

The counting table says whether a row counted toward a side's total; a verdict reached by the
weighing (reason `weighed`) rests on readings below the counting bar, so without this the rows
it rests on would read "Not counted" and nothing more. The proposal stored on the verdict
(`decisions.weighing.proposal_for`) keeps every reading it weighed, with its address and side:
a row is matched to its reading by both.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from decisions.selectors import side_word
from evidence.models import Evidence

_LABELS = {"true": "True", "false": "False", "invalid": "Invalid"}


def weighed_words(proposal: dict[str, Any] | None, rows: Iterable[Evidence]) -> dict[int, str]:
    """Row id -> "Weighed with the others: refutes (likely right: 62%); with it the chance of
    False is 0.31 higher" for each row the proposal weighed (a publisher's weaker reading says
    it stood behind a stronger one)."""
    if not proposal:
        return {}
    readings: dict[tuple[str, str], dict[str, Any]] = {}
    strongest: dict[tuple[str, str], float] = {}
    for reading in proposal.get("readings", []):
        key = (reading["url"], reading["side"])
        strength = _strength(reading)
        if key not in readings or strength > _strength(readings[key]):
            readings[key] = reading
        side = (reading["publisher"], reading["side"])
        strongest[side] = max(strongest.get(side, 0.0), strength)
    moved = {(m["url"], m["side"]): m for m in proposal.get("movers", [])}
    outcome = _LABELS.get(proposal.get("moved", ""), "")
    words: dict[int, str] = {}
    for row in rows:
        reading = readings.get((row.url, row.stance))
        if reading is None:
            continue
        text = (
            f"Weighed with the others: {side_word(reading['side'])} "
            f"(likely right: {reading['probability']:.0%})"
        )
        if _strength(reading) < strongest[(reading["publisher"], reading["side"])]:
            text += f"; {reading['publisher']} weighs once, with its stronger reading"
        elif (mover := moved.get((row.url, row.stance))) is not None and outcome:
            way = "higher" if mover["change"] >= 0 else "lower"
            text += f"; with it the chance of {outcome} is {abs(mover['change']):.2f} {way}"
        words[row.pk] = text
    return words


def _strength(reading: dict[str, Any]) -> float:
    return float(reading["weight"]) * float(reading["probability"])
