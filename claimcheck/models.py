"""API tokens (how a JSON API client proves who it is) and the daily counts of model reply
items the LLM gateway repaired or refused."""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone


def _token_digest(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


class ApiToken(models.Model):
    """A bearer token for the JSON API. Only its SHA-256 digest is stored."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100)
    prefix = models.CharField(max_length=12, db_index=True)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.name}, {self.user})"

    @classmethod
    def issue(cls, *, user: object, name: str) -> tuple[ApiToken, str]:
        """Create a token and return it with its raw value, which is shown once and never stored."""
        raw = "cc_" + secrets.token_urlsafe(32)
        token = cls.objects.create(user=user, name=name, prefix=raw[:10], digest=_token_digest(raw))
        return token, raw

    @classmethod
    def authenticate(cls, raw: str) -> ApiToken | None:
        token = (
            cls.objects.select_related("user")
            .filter(digest=_token_digest(raw), revoked_at__isnull=True, user__is_active=True)
            .first()
        )
        if token is not None:
            cls.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
        return token

    @property
    def active(self) -> bool:
        return self.revoked_at is None


class ModelReplyDay(models.Model):
    """Items of model replies (a stance reading's findings) clipped into range or refused, per
    day and purpose. Counted by `integrations.llm.accounting.replies_record`, shown on the
    dashboard: a model that drifts from its schema shows here before it shows in verdicts."""

    day = models.DateField()
    purpose = models.CharField(max_length=32, help_text="stance, rewrite, ...")
    clipped = models.PositiveIntegerField(default=0)
    refused = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-day", "purpose"]
        constraints = [
            models.UniqueConstraint(fields=["day", "purpose"], name="model_reply_day_once"),
        ]

    def __str__(self) -> str:
        return f"{self.day} {self.purpose}: {self.clipped} clipped, {self.refused} refused"
