"""The claim moved from the core app to `claims` with its table: the foreign keys point at the same
table, so only Django's state changes."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('claims', '0001_initial'),
        ('evidence', '0008_evidence_duplicate_of'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='evidence',
                    name='claim',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='evidence', to='claims.claim'),
                ),
                migrations.AlterField(
                    model_name='factcheckmatch',
                    name='claim',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='fact_checks', to='claims.claim'),
                ),
            ],
        ),
    ]
