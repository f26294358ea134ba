"""Load the demo corpus (domains, cached pages, local search index); safe to run at every start."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from decisions.demo.loader import DemoCorpusError, demo_load


class Command(BaseCommand):
    help = "Load the offline demo corpus into the domain list, the page cache and the local index."

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            summary = demo_load()
        except DemoCorpusError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(self.style.SUCCESS("Demo corpus loaded."))
        for line in summary.lines():
            self.stdout.write(f"  {line}")
