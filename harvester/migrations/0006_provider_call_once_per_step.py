from typing import Any

from django.db import migrations, models
from django.db.models import Count


def merge_resent_calls(apps: Any, schema_editor: Any) -> None:
    """A call resent after its worker died was a second row of the same step: keep one (the
    answered one, else the first), so that the step counts once."""
    ProviderCall = apps.get_model("harvester", "ProviderCall")
    steps = (
        ProviderCall.objects.exclude(claim=None)
        .exclude(attempt=None)
        .values("claim", "attempt", "provider")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
    )
    for step in steps:
        rows = ProviderCall.objects.filter(
            claim=step["claim"], attempt=step["attempt"], provider=step["provider"]
        )
        keep = rows.exclude(run=None).order_by("id").first() or rows.order_by("id").first()
        rows.exclude(pk=keep.pk).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("claims", "0001_initial"),
        ("harvester", "0005_claim_moved"),
    ]

    operations = [
        migrations.RunPython(merge_resent_calls, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="providercall",
            constraint=models.UniqueConstraint(
                fields=("claim", "attempt", "provider"), name="provider_call_once_per_step"
            ),
        ),
    ]
