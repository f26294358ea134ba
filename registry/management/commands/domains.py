"""The domain registry from the command line: import | export | list (CSV)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from claimcheck.logs import command_logs
from registry import selectors
from registry.domain_rows import DomainCsvError
from registry.hosts import host_of
from registry.management.csvfile import read_csv, refused, write_export
from registry.models import Tier
from registry.services import domains_export, domains_import
from registry.weighing import weigh_source


class Command(BaseCommand):
    help = (
        "Manage the domain registry: import FILE [--dry-run] | export [FILE] | "
        "list [--tier T] [--denied] [--search S] | check URL"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        importing = sub.add_parser(
            "import", help="create or update domains from a CSV file (all or nothing)"
        )
        importing.add_argument("path", help="CSV file with name,tier,weight_override,denied,note")
        importing.add_argument(
            "--dry-run", action="store_true", help="validate and count, change nothing"
        )
        exporting = sub.add_parser("export", help="write every domain as CSV")
        exporting.add_argument(
            "path", nargs="?", default="-", help="file to write (default: stdout)"
        )
        listing = sub.add_parser("list", help="show domains")
        listing.add_argument("--tier", choices=Tier.values)
        listing.add_argument("--denied", action="store_true", help="only denied domains")
        listing.add_argument("--search", help="part of the name or note")
        check = sub.add_parser("check", help="show which rule covers a URL or host")
        check.add_argument("url")

    def handle(self, *args: Any, **options: Any) -> None:
        with command_logs(verbosity=options["verbosity"]):
            action = options["action"]
            if action == "import":
                self._import(options["path"], dry_run=options["dry_run"])
            elif action == "export":
                self._export(options["path"])
            elif action == "list":
                self._list(
                    tier=options.get("tier"), denied=options["denied"], search=options.get("search")
                )
            else:
                self._check(options["url"])

    def _import(self, path: str, *, dry_run: bool) -> None:
        text = read_csv(path)
        try:
            created, updated = domains_import(text=text, dry_run=dry_run)
        except DomainCsvError as exc:
            raise refused(self, path, exc.problems) from exc
        prefix = "would import" if dry_run else "imported"
        self.stdout.write(f"{prefix}: {created} created, {updated} updated")

    def _export(self, path: str) -> None:
        write_export(self, domains_export(), path, "domains")

    def _list(self, *, tier: str | None, denied: bool, search: str | None) -> None:
        domains = selectors.domain_list(
            search=search or "", tier=tier or "", denied=True if denied else None
        )
        count = 0
        for domain in domains:
            weight = "" if domain.weight_override is None else f"{domain.weight_override:g}"
            state = "DENIED" if domain.denied else ""
            self.stdout.write(
                f"{domain.name:<32} {domain.tier:<9} {weight:<5} {state:<6} {domain.note}"
            )
            count += 1
        self.stdout.write(f"{count} domain(s)")

    def _check(self, url: str) -> None:
        if not host_of(url):
            raise CommandError(f"{url!r} has no host name")
        rule = weigh_source(url)
        self.stdout.write(
            f"host {host_of(url)}  registrable {rule.registrable}  rule {rule.matched or '(none)'}"
            f"  tier {rule.tier}  weight {rule.weight:g}  {'DENIED' if rule.denied else 'allowed'}"
        )
