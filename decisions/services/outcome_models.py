"""The outcome model's life on the desk: refitted on the editors' reviews (by `manage.py
refit_outcome` or the weekly schedule "outcome-refit"), accepted by an admin, and retired to
restore the one accepted before it (or the shipped model)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from decisions.errors import ClaimError
from decisions.models import OutcomeModelStatus, OutcomeModelVersion
from decisions.outcome_versions import outcome_model_in_force
from decisions.refit import DEFAULT_PRIOR, Refit, model_data, outcome_refit


def outcome_model_refit(
    *, prior: float = DEFAULT_PRIOR, keep: bool = True
) -> tuple[Refit, OutcomeModelVersion | None]:
    """Refit the model in force on the reviewed claims. With `keep`, the refit is stored: as a
    candidate for an admin to accept when it does at least as well on the held-out reviews, as
    refused (with why) when it does worse; nothing is stored when there was too little to fit."""
    refit = outcome_refit(outcome_model_in_force(), prior=prior)
    if refit.model is None or not keep:
        return refit, None
    version = OutcomeModelVersion.objects.create(
        status=OutcomeModelStatus.CANDIDATE if refit.accepted else OutcomeModelStatus.REFUSED,
        model=model_data(refit.model),
        report=refit.as_json(),
        prior=prior,
    )
    return refit, version


@transaction.atomic
def outcome_model_accept(*, version_id: int, admin: User) -> OutcomeModelVersion:
    """Put a candidate in force; the model in force before it is retired."""
    version = OutcomeModelVersion.objects.select_for_update().filter(pk=version_id).first()
    if version is None:
        raise ClaimError(f"there is no outcome model {version_id}", field="version")
    if version.status != OutcomeModelStatus.CANDIDATE:
        raise ClaimError(
            f"outcome model {version_id} is {version.get_status_display().lower()}: only a "
            "candidate can be accepted",
            field="version",
        )
    OutcomeModelVersion.objects.filter(status=OutcomeModelStatus.ACTIVE).update(
        status=OutcomeModelStatus.RETIRED
    )
    version.status = OutcomeModelStatus.ACTIVE
    version.accepted_by = admin
    version.accepted_at = timezone.now()
    version.save(update_fields=["status", "accepted_by", "accepted_at"])
    return version


@transaction.atomic
def outcome_model_restore(*, admin: User) -> OutcomeModelVersion | None:
    """Retire the model in force and put back the one accepted before it; None when that is
    the shipped model."""
    active = (
        OutcomeModelVersion.objects.select_for_update()
        .filter(status=OutcomeModelStatus.ACTIVE)
        .first()
    )
    if active is None:
        raise ClaimError("the shipped outcome model is in force already", field="version")
    active.status = OutcomeModelStatus.RETIRED
    active.save(update_fields=["status"])
    previous = (
        OutcomeModelVersion.objects.filter(
            status=OutcomeModelStatus.RETIRED,
            accepted_at__isnull=False,
            accepted_at__lt=active.accepted_at,
        )
        .order_by("-accepted_at")
        .first()
    )
    if previous is not None:
        previous.status = OutcomeModelStatus.ACTIVE
        previous.save(update_fields=["status"])
    return previous
