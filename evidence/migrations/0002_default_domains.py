"""Load the shipped domain list (registry/default_domains.csv).

Rows an admin already has are left as they are; reversing removes only the shipped rows
nobody has edited since.
"""

from typing import Any

from django.db import migrations


def load_defaults(apps: Any, schema_editor: Any) -> None:
    from registry.domain_rows import default_domain_rows

    Domain = apps.get_model("evidence", "Domain")
    existing = set(Domain.objects.values_list("name", flat=True))
    Domain.objects.bulk_create(
        [
            Domain(
                name=row.name,
                tier=row.tier,
                weight_override=row.weight_override,
                denied=row.denied,
                note=row.note,
            )
            for row in default_domain_rows()
            if row.name not in existing
        ]
    )


def unload_defaults(apps: Any, schema_editor: Any) -> None:
    from registry.domain_rows import default_domain_rows

    Domain = apps.get_model("evidence", "Domain")
    names = [row.name for row in default_domain_rows()]
    Domain.objects.filter(name__in=names, updated_by__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("evidence", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(load_defaults, unload_defaults),
    ]
