"""Clear stored dates outside the accepted range (written before every door refused them).

PostgreSQL keeps timestamps Python cannot read (after 9999, BC); pages now show such a value as
missing, and this command clears it for good. Rows are found by comparison inside the database,
so the bad value itself is never read.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.core.management.base import BaseCommand, CommandParser
from django.db import models, transaction

from claimcheck.daterange import DATE_MAX, DATE_MIN, STORED_MAX, STORED_MIN
from claims.models import Claim


class Command(BaseCommand):
    help = (
        f"Clear stored dates outside {DATE_MIN.isoformat()}..{DATE_MAX.isoformat()} "
        "(nullable fields become empty; others are reported)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="report, change nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        dry_run = options["dry_run"]
        found = 0
        with transaction.atomic():
            for model in apps.get_models():
                if model._meta.proxy or not model._meta.managed:
                    continue
                for field in model._meta.concrete_fields:
                    if not isinstance(field, models.DateTimeField):
                        continue
                    outside = model._default_manager.filter(
                        models.Q(**{f"{field.name}__lt": STORED_MIN})
                        | models.Q(**{f"{field.name}__gt": STORED_MAX})
                    )
                    ids = list(outside.values_list("pk", flat=True))
                    if not ids:
                        continue
                    found += len(ids)
                    label = f"{model._meta.label}.{field.name}"
                    shown = ", ".join(str(pk) for pk in ids[:20])
                    if not field.null:
                        self.stderr.write(f"{label}: {len(ids)} row(s) ({shown}) cannot be cleared")
                        continue
                    verb = "would clear" if dry_run else "cleared"
                    if not dry_run:
                        model._default_manager.filter(pk__in=ids).update(**{field.name: None})
                    self.stdout.write(f"{label}: {verb} {len(ids)} row(s) ({shown})")
            if not dry_run:
                # A claim whose whole timeframe was cleared no longer has one.
                Claim.objects.filter(timeframe_start=None, timeframe_end=None).exclude(
                    timeframe_source=""
                ).update(timeframe_source="")
        if not found:
            self.stdout.write("No stored date is out of range.")
