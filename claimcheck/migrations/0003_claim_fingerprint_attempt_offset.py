from django.db import migrations, models


def backfill_fingerprints(apps, schema_editor):
    from claims.models import claim_fingerprint

    Claim = apps.get_model("claimcheck", "Claim")
    for claim in Claim.objects.filter(fingerprint="").only("id", "text").iterator():
        Claim.objects.filter(pk=claim.pk).update(fingerprint=claim_fingerprint(claim.text))


class Migration(migrations.Migration):

    dependencies = [
        ('claimcheck', '0002_roles'),
    ]

    operations = [
        migrations.AddField(
            model_name='claim',
            name='attempt_offset',
            field=models.PositiveIntegerField(default=0, help_text="search attempts used by earlier runs; this run's start after them"),
        ),
        migrations.AddField(
            model_name='claim',
            name='fingerprint',
            field=models.CharField(blank=True, db_index=True, help_text='content words, order-free: groups re-reports', max_length=64),
        ),
        migrations.RunPython(backfill_fingerprints, migrations.RunPython.noop),
    ]
