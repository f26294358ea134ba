"""The Claim and PipelineEvent models moved here from the core app (`claimcheck`) with their
tables: this migration only tells Django's state that they live here now. The tables were made by
claimcheck's migrations 0001 to 0007 and keep their names and rows."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

MOVED = ("claim", "pipelineevent")


def content_types_follow(apps, schema_editor):
    """Admin history and permissions name a model by its content type: keep them with the model."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    ContentType.objects.using(db).filter(app_label="claimcheck", model__in=MOVED).update(
        app_label="claims"
    )


def content_types_return(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    ContentType.objects.using(db).filter(app_label="claims", model__in=MOVED).update(
        app_label="claimcheck"
    )


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("contenttypes", "0002_remove_content_type_name"),
        ("claimcheck", "0007_claim_language"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Claim',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('text', models.TextField()),
                        ('normalized_hash', models.CharField(db_index=True, max_length=64)),
                        ('fingerprint', models.CharField(blank=True, db_index=True, help_text='content words, order-free: groups re-reports', max_length=64)),
                        ('timeframe_start', models.DateTimeField(blank=True, null=True)),
                        ('timeframe_end', models.DateTimeField(blank=True, null=True)),
                        ('timeframe_source', models.CharField(blank=True, help_text='given, or parsed from the claim text', max_length=16)),
                        ('source_channel', models.CharField(blank=True, max_length=200)),
                        ('language', models.CharField(blank=True, help_text='ISO 639-1, detected', max_length=8)),
                        ('language_confidence', models.FloatField(blank=True, null=True)),
                        ('status', models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('decided', 'Decided'), ('failed', 'Failed')], default='queued', max_length=16)),
                        ('outcome', models.CharField(blank=True, choices=[('true', 'True'), ('false', 'False'), ('invalid', 'Invalid')], max_length=16)),
                        ('overridden', models.BooleanField(default=False)),
                        ('reviewed_at', models.DateTimeField(blank=True, null=True)),
                        ('assigned_at', models.DateTimeField(blank=True, null=True)),
                        ('queries_used', models.PositiveIntegerField(default=0)),
                        ('crawls_used', models.PositiveIntegerField(default=0)),
                        ('evidence_count', models.PositiveIntegerField(default=0)),
                        ('support_total', models.FloatField(default=0)),
                        ('refute_total', models.FloatField(default=0)),
                        ('fact_check_score', models.FloatField(blank=True, null=True)),
                        ('fact_check_tier', models.CharField(blank=True, choices=[('high', 'High'), ('medium', 'Medium'), ('low', 'Low')], max_length=8)),
                        ('fact_check_note', models.CharField(blank=True, max_length=200)),
                        ('cost_usd', models.DecimalField(decimal_places=6, default=0, max_digits=10)),
                        ('run_number', models.PositiveIntegerField(default=1)),
                        ('attempt_offset', models.PositiveIntegerField(default=0, help_text="search attempts used by earlier runs; this run's start after them")),
                        ('error', models.TextField(blank=True)),
                        ('created_at', models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('started_at', models.DateTimeField(blank=True, null=True)),
                        ('decided_at', models.DateTimeField(blank=True, null=True)),
                        ('assigned_to', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='assigned_claims', to=settings.AUTH_USER_MODEL)),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='claims', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'claimcheck_claim',
                        'ordering': ['-created_at', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='PipelineEvent',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('sequence', models.PositiveIntegerField()),
                        ('kind', models.CharField(choices=[('queued', 'Queued'), ('query', 'Query composed'), ('search', 'Search run'), ('gate', 'Snippet gate'), ('crawl', 'Page read'), ('verify', 'Snippet checked'), ('evidence', 'Evidence'), ('factcheck', 'Fact-check lookup'), ('decision', 'Decision'), ('verdict', 'Verdict'), ('override', 'Override'), ('review', 'Review'), ('error', 'Error')], max_length=16)),
                        ('message', models.CharField(max_length=500)),
                        ('payload', models.JSONField(blank=True, default=dict)),
                        ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                        ('claim', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='events', to='claims.claim')),
                    ],
                    options={
                        'db_table': 'claimcheck_pipelineevent',
                        'ordering': ['claim', 'sequence'],
                    },
                ),
                migrations.AddIndex(
                    model_name='claim',
                    index=models.Index(fields=['status', '-created_at'], name='claim_status_created'),
                ),
                migrations.AddIndex(
                    model_name='claim',
                    index=models.Index(fields=['outcome', '-created_at'], name='claim_outcome_created'),
                ),
                migrations.AddIndex(
                    model_name='claim',
                    index=models.Index(fields=['source_channel'], name='claim_channel'),
                ),
                migrations.AddConstraint(
                    model_name='claim',
                    constraint=models.CheckConstraint(condition=models.Q(('timeframe_start__isnull', True), ('timeframe_end__isnull', True), ('timeframe_start__lte', models.F('timeframe_end')), _connector='OR'), name='claim_timeframe_ordered'),
                ),
                migrations.AddConstraint(
                    model_name='pipelineevent',
                    constraint=models.UniqueConstraint(fields=('claim', 'sequence'), name='event_claim_sequence'),
                ),
            ],
        ),
        migrations.RunPython(content_types_follow, content_types_return),
    ]
