"""Search models: the rewrite cache, runs, and raw / processed result snapshots."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.utils import timezone

from claims.models import Claim


class Query(models.Model):
    """Cache of original query text → rewritten template (placeholders kept, so freshness
    stays relative to now)."""

    original_query = models.TextField(unique=True)
    rewritten_template = models.TextField()
    schema = models.JSONField(default=dict)
    rewriter = models.CharField(max_length=100, help_text="deterministic, or the LLM model")
    prompt_hash = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "queries"
        verbose_name_plural = "queries"

    def __str__(self) -> str:
        return self.original_query[:80]


class RunStatus(models.TextChoices):
    OK = "ok", "All providers answered"
    PARTIAL = "partial", "Some providers failed"
    FAILED = "failed", "All providers failed"


class ProviderStatus(models.TextChoices):
    OK = "ok", "Answered"
    FAILED = "failed", "Failed"
    SKIPPED = "skipped", "Skipped"


class SearchRun(models.Model):
    query = models.TextField()
    rewritten_template = models.TextField()
    run_timestamp = models.DateTimeField(default=timezone.now, db_index=True)
    config = models.JSONField(default=dict, blank=True)
    providers_used = models.JSONField(default=list)
    final_queries = models.JSONField(default=dict, blank=True)
    provider_metrics = models.JSONField(
        default=dict, blank=True, help_text="per provider: latency_ms, status, count, error"
    )
    status = models.CharField(max_length=16, choices=RunStatus.choices, default=RunStatus.OK)
    latency_ms = models.PositiveIntegerField(default=0)
    cost_usd = models.DecimalField(max_digits=10, decimal_places=6, default=0)
    claim = models.ForeignKey(
        Claim, null=True, blank=True, on_delete=models.CASCADE, related_name="search_runs"
    )
    attempt = models.PositiveIntegerField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )

    class Meta:
        db_table = "search_runs"
        ordering = ["-run_timestamp", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["claim", "attempt"],
                condition=models.Q(claim__isnull=False),
                name="search_run_claim_attempt",
            ),
        ]

    def __str__(self) -> str:
        return f"run {self.pk}: {self.query[:60]}"


class ProviderCall(models.Model):
    """One call to a search provider over the network, written before it is sent.

    A worker that dies mid-call leaves its row without a run: the budget still counts the call
    (it may have been sent, and a paid provider charges for it). A claim's call is one row per
    (claim, attempt, provider): the resumed claim sends it again on the same row, so the budget
    and the dashboard count it once."""

    provider = models.CharField(max_length=64)
    claim = models.ForeignKey(
        Claim, null=True, blank=True, on_delete=models.CASCADE, related_name="provider_calls"
    )
    attempt = models.PositiveIntegerField(null=True, blank=True)
    cost_usd = models.DecimalField(max_digits=10, decimal_places=6, default=0)
    sent_at = models.DateTimeField(default=timezone.now, db_index=True)
    run = models.ForeignKey(
        SearchRun, null=True, blank=True, on_delete=models.SET_NULL, related_name="calls"
    )

    class Meta:
        db_table = "provider_calls"
        ordering = ["-sent_at", "-id"]
        constraints = [
            # Rows without a claim (a search run from the API) are never alike: NULLs differ.
            models.UniqueConstraint(
                fields=["claim", "attempt", "provider"], name="provider_call_once_per_step"
            )
        ]

    def __str__(self) -> str:
        return f"{self.provider} call {self.pk} ({'answered' if self.run_id else 'no run'})"


class ImmutableRowError(RuntimeError):
    """Raw and processed results are snapshots: once stored they are never changed."""


class _Snapshot(models.Model):
    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ImmutableRowError(f"{type(self).__name__} rows are never changed once stored")
        super().save(*args, **kwargs)


class RawResult(_Snapshot):
    """One provider row exactly as returned. Never changed after the run is stored."""

    run = models.ForeignKey(SearchRun, on_delete=models.CASCADE, related_name="raw_results")
    provider = models.CharField(max_length=32)
    url = models.TextField()
    title = models.TextField(blank=True)
    snippet = models.TextField(blank=True)
    rank = models.PositiveIntegerField(null=True, blank=True)
    published = models.DateTimeField(null=True, blank=True)
    meta = models.JSONField(default=dict, blank=True)
    inserted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "search_results_raw"
        ordering = ["run", "provider", "rank"]
        indexes = [models.Index(fields=["run", "provider"], name="idx_raw_run_provider")]

    def __str__(self) -> str:
        return f"{self.provider}#{self.rank} {self.url}"


class ProcessedResult(_Snapshot):
    """The merged, deduplicated result list of a run: what downstream steps read."""

    run = models.ForeignKey(SearchRun, on_delete=models.CASCADE, related_name="processed_results")
    url = models.TextField()
    providers = models.JSONField(default=list)
    confidence = models.PositiveIntegerField()
    dedupe_hash = models.CharField(max_length=64)
    best_rank = models.PositiveIntegerField(null=True, blank=True)
    title = models.TextField(blank=True)
    snippet = models.TextField(blank=True)
    published = models.DateTimeField(null=True, blank=True)
    language = models.CharField(max_length=8, blank=True, help_text="of title and snippet")
    inserted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "search_results_processed"
        ordering = ["run", "-confidence", "best_rank"]
        constraints = [
            models.UniqueConstraint(fields=["run", "dedupe_hash"], name="idx_processed_run_hash"),
            models.CheckConstraint(
                condition=models.Q(confidence__gte=1), name="processed_conf_pos"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.url} ({self.confidence})"


class LocalDocument(models.Model):
    """A document in the `local` provider's full-text index: pages other apps have stored,
    and the demo corpus. Keyed by canonical URL; `harvester.local_index` keeps the full-text
    side (a tsvector on PostgreSQL, an FTS5 table on SQLite) in step with it."""

    url = models.TextField(help_text="canonical URL")
    url_hash = models.CharField(max_length=40, unique=True, help_text="sha1 of the canonical URL")
    domain = models.CharField(max_length=255, db_index=True)
    title = models.TextField(blank=True)
    text = models.TextField(blank=True)
    published = models.DateTimeField(null=True, blank=True, db_index=True)
    language = models.CharField(max_length=16, blank=True)
    # Written by local_index on PostgreSQL only (GIN-indexed there); unused on SQLite.
    search_vector = SearchVectorField(null=True, editable=False)
    indexed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "harvester_local_documents"

    def __str__(self) -> str:
        return self.url
