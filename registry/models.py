"""Who counts: the domain registry (each source's tier, weight, and whether it is denied), its
change history, and the entity alias table. The tables were made when these models were the
evidence app's, and keep their names."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class Tier(models.TextChoices):
    OFFICIAL = "official", "Official"
    WIRE = "wire", "Wire"
    TRADE = "trade", "Trade press"
    OTHER = "other", "Other"
    SOCIAL = "social", "Social (context only)"


class Domain(models.Model):
    """A registrable domain (`reuters.com`) or a suffix rule (`.gov`, `europa.eu`).
    Lookup picks the longest matching name."""

    name = models.CharField(max_length=253, unique=True)
    tier = models.CharField(max_length=16, choices=Tier.choices, default=Tier.OTHER)
    weight_override = models.FloatField(null=True, blank=True)
    denied = models.BooleanField(default=False, help_text="never fetched, never counted")
    note = models.CharField(max_length=300, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )

    class Meta:
        db_table = "evidence_domain"
        ordering = ["name"]
        indexes = [models.Index(fields=["tier", "denied"], name="domain_tier_denied")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(weight_override__isnull=True)
                | models.Q(weight_override__gte=0, weight_override__lte=1),
                name="domain_weight_in_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def allowed(self) -> bool:
        return not self.denied

    @property
    def tier_weight(self) -> float:
        """The weight its tier gives, which counts unless weight_override is set."""
        from claimcheck.config import get_config

        return get_config().weights.for_tier(self.tier)


class DomainAction(models.TextChoices):
    CREATED = "created", "Added"
    UPDATED = "updated", "Changed"
    DELETED = "deleted", "Removed"


class DomainChange(models.Model):
    """One change to the domain registry: who, when, and each field's old and new value.
    Rows are only ever added; a removed domain keeps its history by name."""

    domain = models.ForeignKey(
        Domain, null=True, blank=True, on_delete=models.SET_NULL, related_name="changes"
    )
    name = models.CharField(max_length=253, db_index=True)
    action = models.CharField(max_length=16, choices=DomainAction.choices)
    changes = models.JSONField(default=dict, blank=True, help_text="field: [old, new]")
    via = models.CharField(max_length=16, blank=True, help_text="web, api, csv import, …")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        db_table = "evidence_domainchange"
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.action} {self.name}"


class EntityKind(models.TextChoices):
    PERSON = "person", "Person"
    ORGANIZATION = "organization", "Organization"
    PLACE = "place", "Place"
    OTHER = "other", "Other"


class EntityAlias(models.Model):
    """Another name of an entity ("Kiev", "Київ" for "Kyiv"): entities are compared, and
    searched in English, by the name an alias stands for. `key` is the alias's matching key
    (case, accents and Cyrillic-Latin spelling folded), so one spelling maps to one name."""

    name = models.CharField(max_length=200, help_text="the name in English, as searched")
    alias = models.CharField(max_length=200)
    key = models.CharField(max_length=200, unique=True, editable=False)
    kind = models.CharField(max_length=16, choices=EntityKind.choices, default=EntityKind.OTHER)
    note = models.CharField(max_length=300, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )

    class Meta:
        db_table = "evidence_entityalias"
        ordering = ["name", "alias"]
        verbose_name_plural = "entity aliases"

    def __str__(self) -> str:
        return f"{self.alias} → {self.name}"
