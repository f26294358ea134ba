"""The entity alias table from the command line: import | export | list (CSV)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from claimcheck.logs import command_logs
from registry import selectors
from registry.management.csvfile import read_csv, refused, write_export
from registry.models import EntityKind
from registry.services import AliasCsvError, aliases_export, aliases_import
from registry.services.aliases import CSV_HEADER


class Command(BaseCommand):
    help = (
        "Manage the entity alias table: import FILE [--dry-run] | export [FILE] | "
        "list [--kind K] [--search S]"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        importing = sub.add_parser(
            "import", help="add or change aliases from a CSV file (all or nothing)"
        )
        importing.add_argument(
            "path", help=f"CSV file with {','.join(CSV_HEADER)} ('-' reads stdin)"
        )
        importing.add_argument(
            "--dry-run", action="store_true", help="validate and count, change nothing"
        )
        exporting = sub.add_parser("export", help="write every alias as CSV")
        exporting.add_argument(
            "path", nargs="?", default="-", help="file to write (default: stdout)"
        )
        listing = sub.add_parser("list", help="show aliases")
        listing.add_argument("--kind", choices=EntityKind.values)
        listing.add_argument("--search", default="", help="part of the name, alias or note")

    def handle(self, *args: Any, **options: Any) -> None:
        with command_logs(verbosity=options["verbosity"]):
            action = options["action"]
            if action == "import":
                self._import(options["path"], dry_run=options["dry_run"])
            elif action == "export":
                self._export(options["path"])
            else:
                self._list(kind=options.get("kind") or "", search=options["search"])

    def _import(self, path: str, *, dry_run: bool) -> None:
        text = read_csv(path)
        try:
            result = aliases_import(text=text, dry_run=dry_run, via="command")
        except AliasCsvError as exc:
            raise refused(self, path, exc.problems) from exc
        prefix = "would import" if dry_run else "imported"
        self.stdout.write(
            f"{prefix}: {result.created} created, {result.updated} updated,"
            f" {result.unchanged} unchanged"
        )

    def _export(self, path: str) -> None:
        write_export(self, aliases_export(), path, "aliases")

    def _list(self, *, kind: str, search: str) -> None:
        count = 0
        for item in selectors.alias_list(search=search, kind=kind):
            line = f"{item.alias:<28} → {item.name:<28} {item.kind:<12} {item.note}"
            self.stdout.write(line.rstrip())
            count += 1
        self.stdout.write(f"{count} alias(es)")
