"""The claim moved from the core app to `claims` with its table: the foreign keys point at the same
table, so only Django's state changes."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('claims', '0001_initial'),
        ('decisions', '0007_saved_queue'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='comment',
                    name='claim',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='comments', to='claims.claim'),
                ),
                migrations.AlterField(
                    model_name='verdict',
                    name='claim',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='verdicts', to='claims.claim'),
                ),
            ],
        ),
    ]
