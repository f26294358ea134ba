"""The Claim and PipelineEvent models now live in `claims`; their tables stay where they are."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('claimcheck', '0007_claim_language'),
        ('decisions', '0008_claim_moved'),
        ('evidence', '0009_claim_moved'),
        ('harvester', '0005_claim_moved'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='pipelineevent',
                    name='claim',
                ),
                migrations.DeleteModel(
                    name='Claim',
                ),
                migrations.DeleteModel(
                    name='PipelineEvent',
                ),
            ],
        ),
    ]
