"""The outcome model in force: the one an admin accepted from a refit on the editors' reviews
(`OutcomeModelVersion`, status active), else the shipped one (`decisions/outcome_model.json`)."""

from __future__ import annotations

import threading

from decisions.models import OutcomeModelStatus, OutcomeModelVersion
from decisions.refit import model_from
from decisions.weighing import OutcomeModel, outcome_model

_lock = threading.Lock()
_loaded: dict[int, OutcomeModel] = {}


def outcome_model_in_force() -> OutcomeModel:
    """One small query a call: an accepted model is read once per process and kept."""
    active = (
        OutcomeModelVersion.objects.filter(status=OutcomeModelStatus.ACTIVE)
        .values_list("id", flat=True)
        .first()
    )
    if active is None:
        return outcome_model()
    with _lock:
        if active not in _loaded:
            _loaded[active] = model_from(OutcomeModelVersion.objects.get(pk=active).model)
        return _loaded[active]
