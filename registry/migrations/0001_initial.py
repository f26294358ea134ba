"""The domain registry (Domain, DomainChange) and the entity alias table (EntityAlias) moved
here from the evidence app with their tables: this migration only tells Django's state that they
live here now. The tables were made by evidence's migrations 0001, 0003 and 0006 (and filled by
0002 and 0007) and keep their names and rows."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

MOVED = ("domain", "domainchange", "entityalias")


def content_types_follow(apps, schema_editor):
    """Admin history and permissions name a model by its content type: keep them with the model."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    ContentType.objects.using(db).filter(app_label="evidence", model__in=MOVED).update(
        app_label="registry"
    )


def content_types_return(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    ContentType.objects.using(db).filter(app_label="registry", model__in=MOVED).update(
        app_label="evidence"
    )


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("contenttypes", "0002_remove_content_type_name"),
        ("evidence", "0007_default_aliases"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Domain',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=253, unique=True)),
                        ('tier', models.CharField(choices=[('official', 'Official'), ('wire', 'Wire'), ('trade', 'Trade press'), ('other', 'Other'), ('social', 'Social (context only)')], default='other', max_length=16)),
                        ('weight_override', models.FloatField(blank=True, null=True)),
                        ('denied', models.BooleanField(default=False, help_text='never fetched, never counted')),
                        ('note', models.CharField(blank=True, max_length=300)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('updated_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'evidence_domain',
                        'ordering': ['name'],
                    },
                ),
                migrations.CreateModel(
                    name='DomainChange',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(db_index=True, max_length=253)),
                        ('action', models.CharField(choices=[('created', 'Added'), ('updated', 'Changed'), ('deleted', 'Removed')], max_length=16)),
                        ('changes', models.JSONField(blank=True, default=dict, help_text='field: [old, new]')),
                        ('via', models.CharField(blank=True, help_text='web, api, csv import, …', max_length=16)),
                        ('at', models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                        ('domain', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='changes', to='registry.domain')),
                        ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'evidence_domainchange',
                        'ordering': ['-at', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='EntityAlias',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(help_text='the name in English, as searched', max_length=200)),
                        ('alias', models.CharField(max_length=200)),
                        ('key', models.CharField(editable=False, max_length=200, unique=True)),
                        ('kind', models.CharField(choices=[('person', 'Person'), ('organization', 'Organization'), ('place', 'Place'), ('other', 'Other')], default='other', max_length=16)),
                        ('note', models.CharField(blank=True, max_length=300)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('updated_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'verbose_name_plural': 'entity aliases',
                        'db_table': 'evidence_entityalias',
                        'ordering': ['name', 'alias'],
                    },
                ),
                migrations.AddIndex(
                    model_name='domain',
                    index=models.Index(fields=['tier', 'denied'], name='domain_tier_denied'),
                ),
                migrations.AddConstraint(
                    model_name='domain',
                    constraint=models.CheckConstraint(condition=models.Q(('weight_override__isnull', True), models.Q(('weight_override__gte', 0), ('weight_override__lte', 1)), _connector='OR'), name='domain_weight_in_range'),
                ),
            ],
        ),
        migrations.RunPython(content_types_follow, content_types_return),
    ]
