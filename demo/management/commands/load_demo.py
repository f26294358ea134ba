"""Load the demo corpus (domains, cached pages, local search index); safe to run at every start."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from claimcheck.logs import command_logs
from demo.loader import DemoCorpusError, demo_claims_decide, demo_load


class Command(BaseCommand):
    help = "Load the offline demo corpus into the domain list, the page cache and the local index."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--decide-claims",
            action="store_true",
            help="also check the demo claims not in the queue yet, so that they wait decided",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        with command_logs(verbosity=options["verbosity"]):
            try:
                summary = demo_load()
            except DemoCorpusError as exc:
                raise CommandError(str(exc)) from exc
            self.stdout.write(self.style.SUCCESS("Demo corpus loaded."))
            for line in summary.lines():
                self.stdout.write(f"  {line}")
            if options["decide_claims"]:

                def progress(number: int, total: int, text: str) -> None:
                    self.stdout.write(f"Checking demo claim {number} of {total}: {text}")
                    self.stdout.flush()

                outcomes = demo_claims_decide(progress=progress)
                if not outcomes:
                    self.stdout.write("The demo claims are in the queue already.")
                else:
                    tally = ", ".join(f"{count} {name}" for name, count in outcomes.most_common())
                    self.stdout.write(f"Checked {outcomes.total()} demo claims: {tally}.")
