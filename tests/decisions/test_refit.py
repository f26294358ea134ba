"""The outcome model refitted on the editors' reviews: kept as a candidate when it does at least
as well on the reviewed claims held out, refused when it does worse, in force only once an admin
accepts it, and the one before it restored on request."""

from __future__ import annotations

import io
from dataclasses import asdict
from typing import Any

import pytest
from django.core.management import call_command

from decisions.errors import ClaimError
from decisions.models import OutcomeModelStatus, OutcomeModelVersion
from decisions.outcome_versions import outcome_model_in_force
from decisions.refit import Example
from decisions.services import (
    outcome_model_accept,
    outcome_model_refit,
    outcome_model_restore,
)
from decisions.weighing import Reading, outcome_model
from tests.factories import DecidedClaimFactory, VerdictFactory

pytestmark = pytest.mark.django_db

SIDES = {"true": "support", "false": "refute"}


def _readings(evidence: str, strength: float) -> list[dict[str, Any]]:
    """Two publishers reading one side as surely as `strength`; none for "invalid"."""
    if evidence == "invalid":
        return []
    return [
        asdict(
            Reading(side=SIDES[evidence], publisher=p, weight=1.0, probability=strength, sure=True)
        )
        for p in ("agency.gov", "wire.com")
    ]


def _reviewed(evidence: str, label: str, strength: float = 0.9) -> int:
    claim: Any = DecidedClaimFactory(outcome=label, reviewed_at="2026-12-01T10:00:00Z")
    VerdictFactory(
        claim=claim,
        outcome=evidence,
        proposal={"readings": _readings(evidence, strength)},
    )
    return claim.pk


def _desk(n: int, *, flip_training: bool = False) -> None:
    """`n` reviewed claims whose readings point at their outcome; with `flip_training`, the
    editors' outcome is the opposite on the claims the refit fits on (not those held out)."""
    for i in range(n):
        evidence = ("true", "false", "invalid")[i % 3]
        pk = _reviewed(evidence, evidence, strength=0.5 + 0.4 * ((i * 7) % 10) / 10)
        if flip_training and not Example(pk, [], "", []).held_out and evidence != "invalid":
            flipped = "false" if evidence == "true" else "true"
            DecidedClaimFactory._meta.model.objects.filter(pk=pk).update(outcome=flipped)


def test_too_few_reviews_refit_nothing() -> None:
    _desk(6)
    refit, version = outcome_model_refit()
    assert refit.model is None and version is None
    assert "too few reviewed claims" in refit.why
    out = io.StringIO()
    call_command("refit_outcome", stdout=out)
    assert out.getvalue().startswith("Not refitted: too few reviewed claims")


def test_a_refit_as_good_on_the_held_out_reviews_waits_for_an_admin(admin_user: Any) -> None:
    _desk(90)
    shipped = outcome_model()
    out = io.StringIO()
    call_command("refit_outcome", stdout=out)

    version = OutcomeModelVersion.objects.get()
    assert version.status == OutcomeModelStatus.CANDIDATE
    text = out.getvalue()
    assert text.startswith("Refitted on ")
    assert "On the reviewed claims held out:" in text and "  in force: log-loss" in text
    assert f"Kept as candidate outcome model {version.pk}" in text
    report = version.report
    assert report["accepted"] is True
    assert report["held_out_after"]["log_loss"] <= report["held_out_before"]["log_loss"]
    # Not in force until an admin accepts it.
    assert outcome_model_in_force() == shipped

    outcome_model_accept(version_id=version.pk, admin=admin_user)
    in_force = outcome_model_in_force()
    assert in_force.coefficients == version.model["coefficients"]
    version.refresh_from_db()
    assert (version.status, version.accepted_by) == (OutcomeModelStatus.ACTIVE, admin_user)
    with pytest.raises(ClaimError, match="only a candidate can be accepted"):
        outcome_model_accept(version_id=version.pk, admin=admin_user)

    assert outcome_model_restore(admin=admin_user) is None  # back to the shipped model
    assert outcome_model_in_force() == shipped
    with pytest.raises(ClaimError, match="shipped outcome model is in force already"):
        outcome_model_restore(admin=admin_user)


def test_a_refit_that_does_worse_on_the_held_out_reviews_is_refused() -> None:
    """Fitted on reviews that say the opposite of their readings, it reads the held-out claims
    (reviewed as their readings say) worse than the model in force: refused, never in force."""
    _desk(120, flip_training=True)
    out = io.StringIO()
    call_command("refit_outcome", "--prior", "0.5", stdout=out)

    version = OutcomeModelVersion.objects.get()
    assert version.status == OutcomeModelStatus.REFUSED
    assert "does worse on the" in version.report["why"]
    assert f"Refused, kept as outcome model {version.pk}" in out.getvalue()
    with pytest.raises(ClaimError, match="only a candidate can be accepted"):
        outcome_model_accept(version_id=version.pk, admin=None)  # type: ignore[arg-type]
    assert outcome_model_in_force() == outcome_model()


def test_restoring_puts_back_the_model_accepted_before(admin_user: Any) -> None:
    _desk(90)
    first = outcome_model_refit()[1]
    assert first is not None
    outcome_model_accept(version_id=first.pk, admin=admin_user)
    second = outcome_model_refit(prior=10)[1]
    assert second is not None and second.status == OutcomeModelStatus.CANDIDATE
    outcome_model_accept(version_id=second.pk, admin=admin_user)
    assert OutcomeModelVersion.objects.get(pk=first.pk).status == OutcomeModelStatus.RETIRED

    restored = outcome_model_restore(admin=admin_user)
    assert restored is not None and restored.pk == first.pk
    assert outcome_model_in_force().coefficients == first.model["coefficients"]


def test_the_refit_runs_weekly() -> None:
    from django_q.models import Schedule

    schedule = Schedule.objects.get(name="outcome-refit")
    assert (schedule.func, schedule.schedule_type) == ("decisions.tasks.outcome_refit", "W")


def test_a_dry_run_keeps_nothing() -> None:
    _desk(90)
    out = io.StringIO()
    call_command("refit_outcome", "--dry-run", stdout=out)
    assert "Kept nothing (--dry-run)" in out.getvalue()
    assert not OutcomeModelVersion.objects.exists()
