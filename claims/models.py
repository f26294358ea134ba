"""A claim and its live event log."""

from __future__ import annotations

import hashlib
import re
import unicodedata

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

CLAIM_MAX_CHARS = 2000


def normalize_claim_text(text: str) -> str:
    """Fold case, accents, punctuation and white space so that re-submissions match."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    folded = re.sub(r"[^\w\s%.-]", " ", folded.lower())
    return re.sub(r"\s+", " ", folded).strip(" .")


def claim_hash(text: str) -> str:
    return hashlib.sha256(normalize_claim_text(text).encode("utf-8")).hexdigest()


_FILLER = frozenset(
    "a an the of in on at to for by with from and or is are was were be been has have had it its "
    "that this these those as says said reports reported claims claim breaking".split()
)


def claim_tokens(text: str) -> frozenset[str]:
    """Content words of a claim, for spotting the same claim reported in other words."""
    return frozenset(t for t in normalize_claim_text(text).split() if t not in _FILLER)


def claim_fingerprint(text: str) -> str:
    return hashlib.sha256(" ".join(sorted(claim_tokens(text))).encode("utf-8")).hexdigest()


class ClaimStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DECIDED = "decided", "Decided"
    FAILED = "failed", "Failed"


class ClaimOrigin(models.TextChoices):
    """Where a claim was submitted: the desk (the web pages and the API), whose claims editors
    review, or `manage.py verify` at a terminal, whose claims are the command line's own."""

    DESK = "desk", "Desk or API"
    CLI = "cli", "Command line"


class Outcome(models.TextChoices):
    TRUE = "true", "True"
    FALSE = "false", "False"
    INVALID = "invalid", "Invalid"


class ConfidenceTier(models.TextChoices):
    """How far an editor can lean on a decided claim (decisions.confidence says how it is set)."""

    HIGH = "high", "High"
    MEDIUM = "medium", "Medium"
    LOW = "low", "Low"


class Claim(models.Model):
    text = models.TextField()
    normalized_hash = models.CharField(max_length=64, db_index=True)
    fingerprint = models.CharField(
        max_length=64,
        db_index=True,
        blank=True,
        help_text="content words, order-free: groups re-reports",
    )
    timeframe_start = models.DateTimeField(null=True, blank=True)
    timeframe_end = models.DateTimeField(null=True, blank=True)
    timeframe_source = models.CharField(
        max_length=16, blank=True, help_text="given, or parsed from the claim text"
    )
    source_channel = models.CharField(max_length=200, blank=True)
    origin = models.CharField(max_length=8, choices=ClaimOrigin.choices, default=ClaimOrigin.DESK)
    language = models.CharField(max_length=8, blank=True, help_text="ISO 639-1, detected")
    language_confidence = models.FloatField(null=True, blank=True)
    status = models.CharField(
        max_length=16, choices=ClaimStatus.choices, default=ClaimStatus.QUEUED
    )
    # The effective outcome (the verdict's, or the latest override's), kept here for the queue.
    outcome = models.CharField(max_length=16, choices=Outcome.choices, blank=True)
    overridden = models.BooleanField(default=False)
    reviewed_at = models.DateTimeField(null=True, blank=True)
    # The editor who took the claim for review; released when it is reviewed.
    assigned_to = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="assigned_claims",
    )
    assigned_at = models.DateTimeField(null=True, blank=True)
    queries_used = models.PositiveIntegerField(default=0)
    crawls_used = models.PositiveIntegerField(default=0)
    evidence_count = models.PositiveIntegerField(default=0)
    support_total = models.FloatField(default=0)
    refute_total = models.FloatField(default=0)
    fact_check_score = models.FloatField(null=True, blank=True)
    fact_check_tier = models.CharField(max_length=8, choices=ConfidenceTier.choices, blank=True)
    fact_check_note = models.CharField(max_length=200, blank=True)
    cost_usd = models.DecimalField(max_digits=10, decimal_places=6, default=0)
    run_number = models.PositiveIntegerField(default=1)
    attempt_offset = models.PositiveIntegerField(
        default=0, help_text="search attempts used by earlier runs; this run's start after them"
    )
    error = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="claims",
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    # Every change of the claim's state (queued, running, decided, taken, released, kept,
    # overridden, re-run) raises the version and says who made it, when and what it was, so that
    # a write made on what an editor saw earlier is refused (`claims.services`).
    version = models.PositiveIntegerField(default=1)
    changed_at = models.DateTimeField(null=True, blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="who made the last change of state; empty for ClaimCheck",
    )
    change_note = models.CharField(max_length=200, blank=True)

    class Meta:
        # The table kept its name when the model moved here from the core app.
        db_table = "claimcheck_claim"
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["status", "-created_at"], name="claim_status_created"),
            models.Index(fields=["outcome", "-created_at"], name="claim_outcome_created"),
            models.Index(fields=["source_channel"], name="claim_channel"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(timeframe_start__isnull=True)
                | Q(timeframe_end__isnull=True)
                | Q(timeframe_start__lte=F("timeframe_end")),
                name="claim_timeframe_ordered",
            ),
        ]

    def __str__(self) -> str:
        return self.text[:80]

    def save(self, *args: object, **kwargs: object) -> None:
        if not self.normalized_hash:
            self.normalized_hash = claim_hash(self.text)
        if not self.fingerprint:
            self.fingerprint = claim_fingerprint(self.text)
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    @property
    def language_label(self) -> str:
        """The language's English name ("Ukrainian"), or "" when unknown."""
        from claimcheck.language import language_name

        return language_name(self.language) if self.language else ""

    @property
    def is_terminal(self) -> bool:
        return self.status in {ClaimStatus.DECIDED, ClaimStatus.FAILED}


class EventKind(models.TextChoices):
    QUEUED = "queued", "Queued"
    QUERY = "query", "Query composed"
    SEARCH = "search", "Search run"
    GATE = "gate", "Snippet gate"
    CRAWL = "crawl", "Page read"
    VERIFY = "verify", "Snippet checked"
    EVIDENCE = "evidence", "Evidence"
    FACTCHECK = "factcheck", "Fact-check lookup"
    DECISION = "decision", "Decision"
    VERDICT = "verdict", "Verdict"
    OVERRIDE = "override", "Override"
    REVIEW = "review", "Review"
    ERROR = "error", "Error"


class PipelineEvent(models.Model):
    """One step of a claim's pipeline: the live timeline and the instrumentation at once."""

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="events")
    sequence = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=EventKind.choices)
    message = models.CharField(max_length=500)
    payload = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "claimcheck_pipelineevent"
        ordering = ["claim", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["claim", "sequence"], name="event_claim_sequence"),
        ]

    def __str__(self) -> str:
        return f"{self.claim_id}#{self.sequence} {self.kind}: {self.message}"
