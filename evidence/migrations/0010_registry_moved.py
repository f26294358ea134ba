"""Domain, DomainChange and EntityAlias now live in `registry`; their tables stay where they are."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('evidence', '0009_claim_moved'),
        ('registry', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='domainchange',
                    name='domain',
                ),
                migrations.RemoveField(
                    model_name='domainchange',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='entityalias',
                    name='updated_by',
                ),
                migrations.DeleteModel(
                    name='Domain',
                ),
                migrations.DeleteModel(
                    name='DomainChange',
                ),
                migrations.DeleteModel(
                    name='EntityAlias',
                ),
            ],
        ),
    ]
