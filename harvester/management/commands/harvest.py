"""`manage.py harvest "query"`: one search run in the foreground, printed as a merged list."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from claimcheck.logs import command_logs
from harvester.errors import AllProvidersFailed, HarvestError
from harvester.marks import results_marked
from harvester.selectors import processed_results
from harvester.services import search_run_execute


class Command(BaseCommand):
    help = "Search every configured provider for QUERY and print the merged, deduplicated list."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("query", help="what to search for, in plain words")
        parser.add_argument("--provider", help="force one provider (default: all configured)")
        parser.add_argument("--max-results", type=int, help="results asked of each provider")
        parser.add_argument("--lang", help="ISO 639-1 language code, e.g. en")
        parser.add_argument("--json", action="store_true", help="print the run as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            with command_logs(verbosity=options["verbosity"]):
                run = search_run_execute(
                    query=options["query"],
                    provider=options["provider"],
                    max_results=options["max_results"],
                    lang=options["lang"],
                )
        except AllProvidersFailed as exc:
            lines = "\n".join(f"  {name}: {reason}" for name, reason in exc.reasons.items())
            raise CommandError(f"every provider failed (run {exc.run_id}):\n{lines}") from exc
        except HarvestError as exc:
            where = f"{exc.field}: " if exc.field else ""
            raise CommandError(f"{exc.error}: {where}{exc.details}") from exc
        rows = processed_results(run=run)
        if options["json"]:
            from harvester.api import run_payload

            self.stdout.write(json.dumps(run_payload(run), default=str, indent=2))
            return
        self.stdout.write(f"run {run.pk}  template: {run.rewritten_template}")
        for name, metrics in run.provider_metrics.items():
            status = metrics.get("status")
            detail = f"{metrics.get('count', 0)} urls" if status == "ok" else metrics.get("error")
            latency = metrics.get("latency_ms", 0)
            self.stdout.write(f"  {name:<8} {status:<7} {latency:>5} ms  {detail}")
        self.stdout.write(f"{len(rows)} unique urls:")
        for row, marks in results_marked(rows):
            providers = ",".join(row.providers)
            note = "".join(f"  [{mark}: never read]" for mark in marks)
            self.stdout.write(f"  [{row.confidence}] {row.url}  ({providers}){note}")
            if row.title:
                self.stdout.write(f"      {row.title}")
