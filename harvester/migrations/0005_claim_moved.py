"""The claim moved from the core app to `claims` with its table: the foreign keys point at the same
table, so only Django's state changes."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('claims', '0001_initial'),
        ('harvester', '0004_result_language'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='providercall',
                    name='claim',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='provider_calls', to='claims.claim'),
                ),
                migrations.AlterField(
                    model_name='searchrun',
                    name='claim',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='search_runs', to='claims.claim'),
                ),
            ],
        ),
    ]
