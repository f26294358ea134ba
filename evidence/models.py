"""Reading models: fetched pages, evidence and fact-check matches."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from claims.models import Claim
from registry.models import Tier


class ContentDepth(models.TextChoices):
    FULL = "full", "Full text"
    PARTIAL = "partial", "Partial"
    SNIPPET = "snippet", "Snippet only"


class VerificationStatus(models.TextChoices):
    VERIFIED = "verified", "Verified"
    PARTIAL = "partial", "Partial access"
    FAILED = "failed", "Failed"
    UNVERIFIED = "unverified", "Not checked yet"


class Page(models.Model):
    url = models.CharField(max_length=2048, unique=True, help_text="canonical URL")
    final_url = models.CharField(max_length=2048, blank=True)
    domain = models.CharField(max_length=253, db_index=True)
    http_status = models.PositiveSmallIntegerField(null=True, blank=True)
    title = models.TextField(blank=True)
    content_type = models.CharField(max_length=120, blank=True)
    text = models.TextField(blank=True)
    html = models.TextField(blank=True, help_text="kept for re-extraction; capped")
    published_at = models.DateTimeField(null=True, blank=True)
    modified_at = models.DateTimeField(null=True, blank=True)
    date_source = models.CharField(max_length=80, blank=True)
    language = models.CharField(max_length=12, blank=True)
    metadata = models.JSONField(default=dict, blank=True)
    fetcher = models.CharField(max_length=32, blank=True)
    fetched_at = models.DateTimeField(default=timezone.now)
    scraped_chars = models.PositiveIntegerField(default=0)
    content_depth = models.CharField(
        max_length=16, choices=ContentDepth.choices, default=ContentDepth.FULL
    )
    verification_status = models.CharField(
        max_length=16, choices=VerificationStatus.choices, default=VerificationStatus.VERIFIED
    )
    error = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-fetched_at"]

    def __str__(self) -> str:
        return self.url


class Stance(models.TextChoices):
    SUPPORT = "support", "Supports"
    REFUTE = "refute", "Refutes"
    NEUTRAL = "neutral", "Neutral"


class Confidence(models.TextChoices):
    HIGH = "high", "High"
    MEDIUM = "medium", "Medium"
    LOW = "low", "Low"


# How sure each level is, for comparing readings and for a floor such as min_confidence.
CONFIDENCE_RANK: dict[str, int] = {Confidence.LOW: 0, Confidence.MEDIUM: 1, Confidence.HIGH: 2}


class Method(models.TextChoices):
    SNIPPET = "snippet", "Search snippet"
    STRUCTURED = "structured", "Structured data"
    RERANK = "rerank", "Reranked chunk"
    MODEL = "model", "Stance model"
    LLM = "llm", "LLM reading"
    FACTCHECK = "factcheck", "Fact-check"


# This machine's readers, by the method that read a row.
_OFFLINE_READERS: dict[str, str] = {
    Method.SNIPPET: "snippet reader (the search result's text)",
    Method.STRUCTURED: "structured-data reader",
    Method.RERANK: "passage ranker",
    Method.MODEL: "stance model",
}


# How sure this machine's reader must be that a sentence bears on the claim at all (its
# probability of anything but "neither") for a row that takes no side to be about the claim.
# Below it the sentence is about another event, party or product. On the calibration pairs of
# real claims (`bench/about_bar.py`), 2 of 120 WiCE and 2 of 47 Climate-FEVER sentences that
# support or refute their claim are read this unsure, against 9 of 80 and 18 of 153 of those
# that are neither: a row is set apart only where the reader is all but sure of it.
ABOUT_BAR = 0.05
# The readers whose score of a row that takes no side says how far it is about the claim.
_RELEVANCE_SCORED = ("snippet", "rerank", "model")


class Evidence(models.Model):
    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="evidence")
    page = models.ForeignKey(
        Page, null=True, blank=True, on_delete=models.SET_NULL, related_name="evidence"
    )
    url = models.CharField(max_length=2048)
    title = models.TextField(blank=True)
    domain = models.CharField(max_length=253, help_text="registrable domain")
    tier = models.CharField(max_length=16, choices=Tier.choices)
    weight = models.FloatField()
    event_at = models.DateTimeField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    date_source = models.CharField(max_length=80, blank=True)
    source_quote = models.TextField(blank=True)
    stance = models.CharField(max_length=16, choices=Stance.choices, default=Stance.NEUTRAL)
    stance_score = models.FloatField(default=0)
    method = models.CharField(max_length=16, choices=Method.choices)
    read_by = models.CharField(
        max_length=200,
        blank=True,
        help_text="the model that read it on the model server, by its configured name; blank "
        "for this machine's readers",
    )
    read_offline_because = models.TextField(
        blank=True,
        help_text="why this machine's reader read it although a model server is configured "
        "(the failed call's error)",
    )
    confidence = models.CharField(max_length=8, choices=Confidence.choices, default=Confidence.LOW)
    in_window = models.BooleanField(null=True, blank=True)
    entity_overlap = models.FloatField(
        null=True, blank=True, help_text="the claim's entities against the quote's (0-1)"
    )
    http_status = models.PositiveSmallIntegerField(null=True, blank=True)
    content_depth = models.CharField(max_length=16, choices=ContentDepth.choices)
    scraped_chars = models.PositiveIntegerField(default=0)
    verification_status = models.CharField(
        max_length=16, choices=VerificationStatus.choices, default=VerificationStatus.VERIFIED
    )
    attempt = models.PositiveIntegerField(default=1)
    syndicated_from = models.CharField(
        max_length=253,
        blank=True,
        help_text="the original publisher when this page reprints another's story",
    )
    duplicate_of = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        # The kept row gone (the retention sweep), its duplicate stands for the statement again.
        on_delete=models.SET_NULL,
        related_name="duplicates",
        help_text="the row of the same run that holds this statement: this one is kept for "
        "the record, neither shown nor counted apart",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "evidence"
        ordering = ["claim", "-weight", "id"]
        indexes = [
            models.Index(fields=["claim", "stance"], name="evidence_claim_stance"),
            models.Index(fields=["domain"], name="evidence_domain_name"),
        ]

    def __str__(self) -> str:
        return f"{self.stance} {self.domain} ({self.weight})"

    @property
    def reader_words(self) -> str:
        """What read this row, in words: the model server's model, or this machine's reader and
        why it read the page instead of a configured model server."""
        if self.method == Method.FACTCHECK:
            return "the fact-checker's own rating"
        if self.method == Method.LLM:
            return f"read by {self.read_by or 'the model'} on the model server"
        what = _OFFLINE_READERS.get(self.method, "reader")
        words = f"read by this machine's {what}"
        if self.read_offline_because:
            words += f": the model server could not read it ({self.read_offline_because})"
        return words

    @property
    def about_claim(self) -> bool:
        """Whether the row is about the claim at all. A row that takes no side, read by this
        machine's reader as all but surely about something else (another event, party or
        product), is not: it is listed apart and never counts. A row taking a side, and an
        LLM's or a fact-checker's reading, always is."""
        if self.stance != Stance.NEUTRAL or self.method not in _RELEVANCE_SCORED:
            return True
        return self.stance_score >= ABOUT_BAR

    @property
    def was_read(self) -> bool:
        """Whether this evidence was read where it was published, so that it may count: text
        read on the page, a search snippet found on its live page, or a published fact-check's
        own rating. An unverified snippet is a lead, never evidence."""
        if self.method == Method.SNIPPET:
            return self.verification_status == VerificationStatus.VERIFIED
        if self.method == Method.FACTCHECK:
            return True
        return self.content_depth in (ContentDepth.FULL, ContentDepth.PARTIAL)


class FactCheckMatch(models.Model):
    """A published fact-check that matches a claim (Google Fact Check Tools)."""

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="fact_checks")
    claim_reviewed = models.TextField(blank=True)
    publisher = models.CharField(max_length=200)
    publisher_site = models.CharField(max_length=253, blank=True)
    rating = models.CharField(max_length=200, blank=True)
    url = models.CharField(max_length=2048)
    review_date = models.DateTimeField(null=True, blank=True)
    matched_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "item_fact_checks"
        ordering = ["-matched_at"]
        constraints = [
            models.UniqueConstraint(fields=["claim", "url"], name="factcheck_claim_url"),
        ]

    def __str__(self) -> str:
        return f"{self.publisher}: {self.rating}"


class FactCheckCache(models.Model):
    """The answer for one normalized claim, kept for a TTL so lookups are not repeated."""

    normalized_hash = models.CharField(max_length=64, unique=True)
    result = models.JSONField(default=list)
    cached_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.normalized_hash[:12]} @ {self.cached_at:%Y-%m-%d}"
