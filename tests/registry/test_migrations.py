"""The registry's models came from the evidence app with their tables: a database holding
domains, their history and aliases from before the move reads the same rows through the
registry's models after it."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from registry.models import Domain, DomainAction, DomainChange, EntityAlias, EntityKind, Tier

# The last migrations before the move: evidence still holds the models, registry has none.
BEFORE_THE_MOVE = [("evidence", "0009_claim_moved"), ("registry", None)]


def _migrate(targets: list[tuple[str, str | None]]) -> Any:
    """Migrate the test database to `targets`; the apps (historical models) of that state."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    applied = [(app, name) for app, name in targets if name is not None]
    return executor.loader.project_state(applied).apps


@pytest.mark.django_db(transaction=True)
def test_rows_made_before_the_move_are_read_through_the_registry_models() -> None:
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    editor = User.objects.create(username="mover")
    try:
        old = _migrate(BEFORE_THE_MOVE)
        OldDomain = old.get_model("evidence", "Domain")
        OldChange = old.get_model("evidence", "DomainChange")
        OldAlias = old.get_model("evidence", "EntityAlias")
        domain = OldDomain.objects.create(
            name="moved.example",
            tier="wire",
            weight_override=0.7,
            denied=True,
            note="made before the move",
            updated_by_id=editor.pk,
        )
        OldChange.objects.create(
            domain=domain,
            name="moved.example",
            action="created",
            changes={"tier": [None, "wire"]},
            via="web",
            user_id=editor.pk,
        )
        OldAlias.objects.create(
            name="Moved City", alias="Movedgrad", key="movedgrad", kind="place", note="old"
        )
        assert ContentType.objects.filter(app_label="evidence", model="domain").exists()

        _migrate(latest)

        moved = Domain.objects.select_related("updated_by").get(name="moved.example")
        assert (moved.pk, moved.tier, moved.weight_override, moved.denied) == (
            domain.pk,
            Tier.WIRE,
            0.7,
            True,
        )
        assert (moved.note, moved.updated_by) == ("made before the move", editor)
        change = moved.changes.get()
        assert isinstance(change, DomainChange)
        assert (change.action, change.changes, change.via, change.user) == (
            DomainAction.CREATED,
            {"tier": [None, "wire"]},
            "web",
            editor,
        )
        alias = EntityAlias.objects.get(key="movedgrad")
        assert (alias.name, alias.alias, alias.kind, alias.note) == (
            "Moved City",
            "Movedgrad",
            EntityKind.PLACE,
            "old",
        )
        # Admin history and permissions name the models by content type: they moved along.
        assert ContentType.objects.filter(app_label="registry", model="domain").exists()
        assert not ContentType.objects.filter(app_label="evidence", model="domain").exists()
    finally:
        _migrate(latest)
        ContentType.objects.clear_cache()
