"""A training run's held-out figures set beside those of the model it would replace: a guard set
that falls more than the margin is named, and no other set is."""

from __future__ import annotations

from training.stance import pairs
from training.stance.report import against

GUARDS = ("covid-fact", "sick")


def _figures(**scores: float) -> dict[str, dict[str, float]]:
    return {name.replace("_", "-"): {"macro_f1": score, "n": 100} for name, score in scores.items()}


def test_a_guard_set_that_falls_more_than_the_margin_is_named() -> None:
    before = _figures(covid_fact=0.549, sick=0.856, fnc_1=0.324)
    after = _figures(covid_fact=0.5288, sick=0.844, fnc_1=0.2)

    lines = against(before, after, GUARDS, 0.02)

    assert lines[-1] == "  guard sets more than 0.02 below: covid-fact"
    by_set = {line.split()[0]: line for line in lines[:-1]}
    assert by_set["covid-fact"].endswith("-0.0202  guard: more than 0.02 below")
    assert by_set["sick"].endswith("-0.0120  guard")
    # Not a guard: a larger fall is reported, not named.
    assert by_set["fnc-1"].endswith("-0.1240")


def test_a_run_within_the_margin_on_every_guard_says_so() -> None:
    before = _figures(covid_fact=0.549, sick=0.856)
    after = _figures(covid_fact=0.530, sick=0.900)

    lines = against(before, after, GUARDS, 0.02)

    assert lines[-1] == "  no guard set more than 0.02 below"
    assert "0.5490 -> 0.5300  -0.0190  guard" in lines[0]


def test_a_guard_set_exactly_at_the_margin_has_not_fallen_past_it() -> None:
    lines = against(_figures(covid_fact=0.549), _figures(covid_fact=0.529), GUARDS, 0.02)

    assert lines == [
        "  covid-fact                         0.5490 -> 0.5290  -0.0200  guard",
        "  no guard set more than 0.02 below",
    ]


def test_sets_without_a_figure_on_both_sides_are_left_out() -> None:
    before = _figures(sick=0.856)
    after = {
        **_figures(sick=0.85, covid_fact=0.5),
        "covid-fact real read as support": {"share": 0.6, "n": 249},
    }

    lines = against(before, after, GUARDS, 0.02)

    assert [line.split()[0] for line in lines[:-1]] == ["sick"]


def test_the_guards_are_sets_the_training_data_has() -> None:
    assert set(pairs.GUARDS) <= set(pairs.SETS)
