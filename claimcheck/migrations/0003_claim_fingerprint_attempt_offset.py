import hashlib
import re
import unicodedata

from django.db import migrations, models

# The claim's fingerprint as it was defined when this migration was written (claims.models),
# frozen here so that later changes to the model's module cannot change what it computes.
_FILLER = frozenset(
    "a an the of in on at to for by with from and or is are was were be been has have had it its "
    "that this these those as says said reports reported claims claim breaking".split()
)


def claim_fingerprint(text):
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    folded = re.sub(r"[^\w\s%.-]", " ", folded.lower())
    normalized = re.sub(r"\s+", " ", folded).strip(" .")
    tokens = sorted({t for t in normalized.split() if t not in _FILLER})
    return hashlib.sha256(" ".join(tokens).encode("utf-8")).hexdigest()


def backfill_fingerprints(apps, schema_editor):
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
