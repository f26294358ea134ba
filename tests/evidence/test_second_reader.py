"""The second reader, on the shipped models: where the fast reader, trained apart from the strong
one, reads the same refutation or support, a reading below the strong reader's bar counts; where
it reads something else, the reading stays as unsure as the strong reader alone."""

from __future__ import annotations

from evidence.models import Confidence, Stance
from evidence.stance import ClaimContext, combine, judge_sentences
from evidence.stance.combine import model_bars


def test_a_refutation_both_readers_read_counts_and_one_the_fast_reader_misses_does_not() -> None:
    """No rule finds these contradictions; the strong reader reads both, below its refute bar.
    Where the fast reader, trained apart, reads the refutation too, the two agree and it counts;
    where it reads a support, the refutation stays as unsure as the strong reader alone."""
    [baseless] = judge_sentences(
        ClaimContext("Claims that the bridge is safe are baseless."),
        ["Engineers inspected the bridge and certified it safe for traffic."],
    )
    [fell] = judge_sentences(
        ClaimContext("The company doubled its profits last year."),
        ["The company's profits fell by a third last year."],
    )

    assert (baseless.stance, baseless.confidence) == (Stance.REFUTE, Confidence.MEDIUM)
    assert {"second", "agree"} <= set(baseless.reasons)
    assert not set(baseless.reasons) & combine.VETOES  # no rule made it
    assert (fell.stance, fell.confidence) == (Stance.REFUTE, Confidence.LOW)
    assert fell.score < model_bars()[Stance.REFUTE]


def test_a_support_both_readers_read_counts_and_one_the_fast_reader_misses_does_not() -> None:
    """Two restatements the strong reader reads as supports below its support bar. Where the fast
    reader reads the support too, it counts; where it reads neither, the support stays low."""
    [flooded] = judge_sentences(
        ClaimContext("The river flooded several villages last week."),
        ["Several villages were left under water last week when the river burst its banks."],
    )
    [funding] = judge_sentences(
        ClaimContext("The city council approved a new budget for public libraries."),
        ["Councillors voted on Tuesday to back extra funding for the city's libraries."],
    )

    assert (flooded.stance, flooded.confidence) == (Stance.SUPPORT, Confidence.MEDIUM)
    assert {"second", "agree"} <= set(flooded.reasons)
    assert flooded.score < model_bars()[Stance.SUPPORT]  # the strong reader alone: no count
    assert (funding.stance, funding.confidence) == (Stance.SUPPORT, Confidence.LOW)
    assert "second" not in funding.reasons
