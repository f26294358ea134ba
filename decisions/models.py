"""Judging models: verdicts and the editors' overrides of them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from claims.models import Claim, Outcome


class VerdictReason(models.TextChoices):
    SUFFICIENT = "sufficient", "Sufficient evidence"
    INSUFFICIENT = "insufficient", "Insufficient evidence"
    CONFLICTING = "conflicting", "Conflicting evidence"
    NO_SOURCES = "no_sources", "No source for or against the claim"
    LEANING = "leaning", "Leaning: below the agreement score"
    WEIGHED = "weighed", "Weighed: the evidence makes the outcome likely"


class Verdict(models.Model):
    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="verdicts")
    run_number = models.PositiveIntegerField(default=1)
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    reason = models.CharField(max_length=16, choices=VerdictReason.choices)
    proof_markdown = models.TextField()
    support_total = models.FloatField(default=0)
    refute_total = models.FloatField(default=0)
    sources = models.JSONField(default=list, help_text="the counted evidence behind the outcome")
    unsided = models.JSONField(
        default=list, blank=True, help_text="pages read that took no side, or none that counted"
    )
    lean = models.JSONField(
        null=True, blank=True, help_text="where an Invalid verdict's evidence leans: a hint"
    )
    proposal = models.JSONField(
        null=True,
        blank=True,
        help_text="the weighed proposal: P(True), P(False), P(not decidable), the lean and what "
        "moved it most",
    )
    debug = models.JSONField(default=dict)
    decided_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-decided_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["claim", "run_number"], name="verdict_claim_run"),
        ]

    def __str__(self) -> str:
        return f"{self.claim_id}: {self.outcome}"


class Override(models.Model):
    """An editor's change of a verdict's outcome. Rows are only ever added, never edited."""

    verdict = models.ForeignKey(Verdict, on_delete=models.CASCADE, related_name="overrides")
    editor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    from_outcome = models.CharField(max_length=16, choices=Outcome.choices)
    to_outcome = models.CharField(max_length=16, choices=Outcome.choices)
    reason = models.TextField()
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-at", "-id"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(reason=""), name="override_reason_required"),
        ]

    def __str__(self) -> str:
        return f"{self.from_outcome} → {self.to_outcome} by {self.editor_id}"


COMMENT_MAX_CHARS = 2000


class Comment(models.Model):
    """One message in a claim's discussion. Rows are only ever added, never edited: the thread
    is part of the claim's history."""

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="comments")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    text = models.TextField()
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["claim", "at"], name="comment_claim_at")]
        constraints = [
            models.CheckConstraint(condition=~models.Q(text=""), name="comment_text_required"),
        ]

    def __str__(self) -> str:
        return f"{self.author_id} on {self.claim_id}"


class SavedQueue(models.Model):
    """An editor's own view of the queue: the filters and order of the Claims page, kept to come
    back to in one click ("My queue"). `query` is the page's query string, known filters only."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="saved_queue"
    )
    query = models.CharField(max_length=1000, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.query}"


class ClaimKey(models.Model):
    """The similar-claims index: one row per part of what a claim asserts (an entity, a number,
    a year or month, a content word in its language; `decisions.similar_signature`), written when
    the claim is stored, so that earlier claims sharing parts are found without a scan."""

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="similar_keys")
    key = models.CharField(max_length=120)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["claim", "key"], name="claimkey_claim_key"),
        ]
        indexes = [models.Index(fields=["key", "claim"], name="claimkey_key_claim")]

    def __str__(self) -> str:
        return f"{self.claim_id}: {self.key}"


class ClaimSameness(models.Model):
    """An editor's word on two claims: the same assertion, or not (whatever the matcher says).
    One row a pair (`claim` the older), replaced when an editor says otherwise; the matcher
    follows it from then on."""

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="+")
    other = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="+")
    same = models.BooleanField()
    editor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["claim", "other"], name="claimsameness_pair"),
            models.CheckConstraint(
                condition=models.Q(claim__lt=models.F("other")), name="claimsameness_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.claim_id} {'=' if self.same else '≠'} {self.other_id}"


class OutcomeModelStatus(models.TextChoices):
    CANDIDATE = "candidate", "Candidate: waiting for an admin"
    ACTIVE = "active", "In force"
    RETIRED = "retired", "Retired"
    REFUSED = "refused", "Refused: worse on the held-out reviews"


class OutcomeModelVersion(models.Model):
    """An outcome model refitted on the editors' reviews (`decisions.refit`). It takes effect
    only once an admin accepts it (status active: one at a time); retiring it restores the one
    accepted before it, or the shipped model (`decisions/outcome_model.json`)."""

    created_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(max_length=16, choices=OutcomeModelStatus.choices)
    model = models.JSONField(help_text="coefficients, thresholds and gates")
    report = models.JSONField(
        default=dict, help_text="the refit's figures on the held-out reviewed claims"
    )
    prior = models.FloatField(help_text="how many claims' worth the model it started from held")
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    accepted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["status"],
                condition=models.Q(status="active"),
                name="outcomemodelversion_one_active",
            )
        ]

    def __str__(self) -> str:
        return f"outcome model {self.pk} ({self.status}, {self.created_at:%Y-%m-%d})"


class ClaimRestatement(models.Model):
    """A claim that says the same as an earlier one (`of`, the first of its group), written when
    it is stored (`decisions.similar`) and when an editor marks a pair; the queue groups a claim
    with its restatements by it."""

    claim = models.OneToOneField(Claim, on_delete=models.CASCADE, related_name="restates")
    of = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="restatements")
    by_editor = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"{self.claim_id} restates {self.of_id}"
