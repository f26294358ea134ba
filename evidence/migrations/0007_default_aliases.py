"""Load the shipped entity aliases (registry/default_aliases.csv).

Aliases an admin already has are left as they are; reversing removes only the shipped rows
nobody has edited since.
"""

from typing import Any

from django.db import migrations


def load_defaults(apps: Any, schema_editor: Any) -> None:
    from registry.services.aliases import default_alias_rows

    EntityAlias = apps.get_model("evidence", "EntityAlias")
    existing = set(EntityAlias.objects.values_list("key", flat=True))
    EntityAlias.objects.bulk_create(
        [
            EntityAlias(name=row.name, alias=row.alias, key=row.key, kind=row.kind, note=row.note)
            for row in default_alias_rows()
            if row.key not in existing
        ]
    )


def unload_defaults(apps: Any, schema_editor: Any) -> None:
    from registry.services.aliases import default_alias_rows

    EntityAlias = apps.get_model("evidence", "EntityAlias")
    keys = [row.key for row in default_alias_rows()]
    EntityAlias.objects.filter(key__in=keys, updated_by__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("evidence", "0006_entities"),
    ]

    operations = [
        migrations.RunPython(load_defaults, unload_defaults),
    ]
