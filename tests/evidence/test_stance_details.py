"""What a sentence says against the claim's details, read as the pipeline reads it: a sentence
stating part of the claim never refutes it, one that swaps one name or dates the event in another
month does, and a restatement the model all but reads as support counts when the lexical scorer
is sure of it. The sentences are the demo pages' own, or those pages' with one detail changed."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from evidence.models import Confidence, Stance
from evidence.stance import ClaimContext, judge_sentences
from evidence.stance.details import states_part, swapped_name
from evidence.stance.scorer import ClaimSignals, event_mention

OCTOBER = (datetime(2024, 10, 1, tzinfo=UTC), datetime(2024, 10, 31, tzinfo=UTC))
NASOFLU = "The Union Medicines Agency authorised the nasal flu vaccine Nasoflu in October 2024."
ODESA = "The port of Odesa handled 3.1 million tonnes of grain in October 2024"
BATTERY = "The Battery Passport rules were approved by the Council of the Union in March 2025"


def _signals(text: str) -> ClaimSignals:
    return ClaimSignals.of(text, *OCTOBER)


def _read(
    claim: str, sentence: str, window: tuple[datetime, datetime] = OCTOBER
) -> tuple[str, str, list]:
    [judged] = judge_sentences(ClaimContext(claim, *window), [sentence])
    return judged.stance, judged.confidence, judged.reasons


@pytest.mark.parametrize(
    ("sentence", "part"),
    [
        ("The Union Medicines Agency authorised Nasoflu.", True),
        ("Nasoflu is a nasal flu vaccine.", False),  # "is": a word the claim does not have
        ("The agency said it authorised Nasoflu in October 2024.", True),
        ("The Union Medicines Agency did not authorise Nasoflu.", False),  # negated
        ("The Union Medicines Agency authorised Flumist.", False),  # another name
        ("Nasoflu authorised the Union Medicines Agency.", False),  # not in the claim's order
    ],
)
def test_a_sentence_states_part_of_the_claim_only_with_its_words_in_its_order(
    sentence: str, part: bool
) -> None:
    assert states_part(_signals(NASOFLU), sentence) is part


def test_a_swapped_name_stands_in_the_left_out_names_place() -> None:
    signals = _signals(NASOFLU)
    swapped = "The Union Medicines Agency authorised the nasal flu vaccine Flumist on 24 October."
    elsewhere = "The Union Medicines Agency, based in Valmora, authorised a nasal flu vaccine."

    assert swapped_name(signals, swapped) == "nasoflu"
    assert swapped_name(signals, elsewhere) == ""  # no name in the left-out one's place
    assert swapped_name(_signals(ODESA), "The port of Mykolaiv handled 3.1 Mt.") == ""  # one name


def test_a_month_is_the_date_of_a_sentence_that_names_no_other() -> None:
    mention = event_mention("The port of Odesa handled 3.1 million tonnes in March 2024.", None)
    assert mention is not None
    assert (mention.when.year, mention.when.month, mention.precision) == (2024, 3, "month")
    assert event_mention("Exports rose in March 2024 and fell in April 2024.", None) is None


def test_a_sentence_stating_part_of_the_claim_never_refutes_it() -> None:
    """The fast reader reads "authorised Nasoflu" as refuting the fuller claim (0.68), and when
    it reads alone its reading stands unless a rule says otherwise."""
    stance, _, reasons = _read(NASOFLU, "The Union Medicines Agency authorised Nasoflu.")
    assert stance != Stance.REFUTE, reasons


def test_one_name_swapped_is_a_refutation_that_counts() -> None:
    stance, confidence, reasons = _read(
        NASOFLU,
        "The Union Medicines Agency authorised the nasal flu vaccine Flumist on 24 October 2024.",
    )
    assert (stance, confidence) == (Stance.REFUTE, Confidence.MEDIUM), reasons
    assert "name_swap" in reasons


def test_the_event_dated_in_another_month_is_a_refutation_that_counts() -> None:
    stance, confidence, reasons = _read(
        ODESA, "The port of Odesa handled 3.1 million tonnes of grain in March 2024."
    )
    assert (stance, confidence) == (Stance.REFUTE, Confidence.MEDIUM), reasons
    assert "date_outside" in reasons


def test_a_restatement_in_other_words_is_a_support_that_counts() -> None:
    """The trade page's sentence says "adopted the Regulation" for "the rules were approved":
    the strong reader splits between neither (0.50) and support (0.47); the lexical scorer is
    sure of the support, with nothing against it."""
    stance, confidence, reasons = _read(
        BATTERY,
        "The Council of the Union adopted the Battery Passport Regulation on 28 March 2025, the"
        " last formal step before the rules are published.",
        (datetime(2025, 3, 1, tzinfo=UTC), datetime(2025, 3, 31, tzinfo=UTC)),
    )
    assert (stance, confidence) == (Stance.SUPPORT, Confidence.MEDIUM), reasons
