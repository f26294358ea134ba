"""Stored claims that say the same as a text, or are related to it."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from claims.models import Claim
from decisions.models import ClaimKey
from decisions.similar import claim_index, similar_claims


class Command(BaseCommand):
    help = (
        'Earlier claims that say the same as TEXT ("same") or share its subject ("related"), '
        'best first: manage.py similar "TEXT" [--json] [--limit 10]; --reindex first indexes '
        "stored claims the index lacks (claims stored before it existed)"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("text", nargs="?")
        parser.add_argument("--json", action="store_true", help="print a JSON list")
        parser.add_argument("--limit", type=int, default=10)
        parser.add_argument(
            "--reindex", action="store_true", help="index every stored claim the index lacks"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["reindex"]:
            missing = Claim.objects.exclude(pk__in=ClaimKey.objects.values("claim_id"))
            count = 0
            for claim in missing.iterator():
                claim_index(claim)
                count += 1
            self.stderr.write(f"Indexed {count} claim{'s' if count != 1 else ''}.")
        text = (options["text"] or "").strip()
        if not text:
            if options["reindex"]:
                return
            raise CommandError('give the claim\'s text: manage.py similar "TEXT"')
        if options["limit"] < 1:
            raise CommandError("--limit must be at least 1")
        found = similar_claims(text=text, limit=options["limit"])
        if options["json"]:
            self.stdout.write(json.dumps([s.as_json() for s in found], ensure_ascii=False))
            return
        if not found:
            self.stdout.write("No stored claim says the same or is related.")
        for s in found:
            verdict = f"{s.outcome} ({s.decided_by})" if s.outcome else "not decided"
            self.stdout.write(f"{s.relation:7} {s.score:.2f}  #{s.id}  {verdict}  {s.text}")
