"""Refit the outcome model on the editors' reviews, and say what it would change."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from decisions.refit import DEFAULT_PRIOR, Figures
from decisions.services import outcome_model_refit


def _line(name: str, figures: Figures | None) -> str:
    if figures is None:
        return f"  {name}: -"
    precision = "-" if figures.precision is None else f"{figures.precision:.2f}"
    coverage = "-" if figures.coverage is None else f"{figures.coverage:.2f}"
    return (
        f"  {name}: log-loss {figures.log_loss:.3f}, proposed True or False for "
        f"{figures.proposed} of {figures.claims} (coverage {coverage}), right {figures.right} "
        f"(precision {precision})"
    )


class Command(BaseCommand):
    help = (
        "Refit the outcome model on the claims editors kept or overrode, held to the model in "
        "force; print its thresholds and what it would change on the reviewed claims held "
        "out, and keep it as a candidate for an admin to accept (or as refused, when it does "
        "worse there). --dry-run keeps nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--prior",
            type=float,
            default=DEFAULT_PRIOR,
            help="how many claims' worth the model in force counts for "
            f"(default {DEFAULT_PRIOR:g})",
        )
        parser.add_argument("--dry-run", action="store_true", help="keep nothing")
        parser.add_argument("--json", action="store_true", help="print the report as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["prior"] <= 0:
            raise CommandError("--prior must be above 0")
        refit, version = outcome_model_refit(prior=options["prior"], keep=not options["dry_run"])
        if options["json"]:
            report = refit.as_json() | {"version": version.pk if version else None}
            if refit.model is not None:
                report["thresholds"] = refit.model.thresholds
            self.stdout.write(json.dumps(report))
            return
        if refit.model is None:
            self.stdout.write(f"Not refitted: {refit.why}.")
            return
        thresholds = ", ".join(f"{k} {v:.2f}" for k, v in refit.model.thresholds.items())
        self.stdout.write(
            f"Refitted on {refit.trained_on} reviewed claims; thresholds {thresholds}."
        )
        self.stdout.write("On the reviewed claims held out:")
        self.stdout.write(_line("in force", refit.before))
        self.stdout.write(_line("refitted", refit.after))
        for change in refit.changes:
            self.stdout.write(
                f"  claim {change['claim']}: {change['before']} -> {change['after']} "
                f"(the editor's outcome: {change['editor']})"
            )
        if not refit.changes:
            self.stdout.write("  no proposal would change")
        if version is None:
            self.stdout.write(f"Kept nothing (--dry-run); {refit.why}.")
        elif refit.accepted:
            self.stdout.write(
                f"Kept as candidate outcome model {version.pk}: {refit.why}. It takes effect "
                "once an admin accepts it (admin: Outcome model versions)."
            )
        else:
            self.stdout.write(
                f"Refused, kept as outcome model {version.pk} for the record: {refit.why}."
            )
