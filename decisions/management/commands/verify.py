"""Check one claim in the foreground, showing each step as it happens, then the verdict."""

from __future__ import annotations

import logging
from datetime import UTC, date, datetime, time
from typing import Any

import httpx
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models.signals import post_save

from claimcheck.config import get_config, reload_config
from claims.models import Claim, ClaimOrigin, ClaimStatus, PipelineEvent
from decisions.counting import Counting
from decisions.errors import ClaimError
from decisions.pipeline import claim_pipeline_run
from decisions.selectors import claim_counting
from decisions.services import claim_submit, current_verdict
from decisions.uncounted import side_word
from evidence.models import Method
from integrations.llm.local_server import RUN_CONFIG

_MARK = {
    "query": "?",
    "search": "S",
    "gate": "G",
    "crawl": "R",
    "evidence": "E",
    "factcheck": "F",
    "decision": "D",
    "verdict": "V",
    "error": "!",
    "queued": ".",
    "override": "O",
    "review": "*",
}


def _day(value: str | None, *, end: bool) -> datetime | None:
    if not value:
        return None
    try:
        day = date.fromisoformat(value)
    except ValueError:
        raise CommandError(f"{value!r} is not a date (YYYY-MM-DD)") from None
    return datetime.combine(day, time.max if end else time.min, tzinfo=UTC)


def counted(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


class Command(BaseCommand):
    help = (
        'Verify a claim now: manage.py verify "claim text" [--start YYYY-MM-DD] [--end YYYY-MM-DD]'
        " (-v 2 also shows the log lines)"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("claim")
        parser.add_argument("--start", help="timeframe start (YYYY-MM-DD)")
        parser.add_argument("--end", help="timeframe end (YYYY-MM-DD)")
        parser.add_argument("--channel", default="", help="the channel that reported it")
        parser.add_argument(
            "--llm",
            action="store_true",
            help="use the local model server `CLAIMCHECK_LLM=local scripts/run` started (its "
            "settings in var/local-llm.yaml)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        # The progress lines are the display; log lines (JSON, for machines) only with -v 2.
        if options["verbosity"] < 2:
            logging.disable(logging.WARNING)
        try:
            self._verify(options)
        finally:
            logging.disable(logging.NOTSET)

    def _use_local_model_server(self) -> None:
        """Read the settings `scripts/run` wrote for the model server it runs, and say whether
        the server answers: without it each step falls back to this machine and says so."""
        if not RUN_CONFIG.is_file():
            raise CommandError(
                f"--llm: no model server settings at {RUN_CONFIG}. Start one with "
                "`CLAIMCHECK_LLM=local scripts/run` (it writes them there while it runs), or "
                "write them for a server of your own with `.venv/bin/python -m "
                "integrations.llm.local_server --port PORT --write-config`."
            )
        settings.CLAIMCHECK_CONFIG = str(RUN_CONFIG)
        llm = reload_config().llm
        base = str(llm.api_base or "").removesuffix("/v1")
        try:
            httpx.get(f"{base}/health", timeout=2.0).raise_for_status()
        except httpx.HTTPError:
            self.stdout.write(
                f"The model server at {llm.api_base} does not answer: this machine's readers "
                "read instead, and each step says so."
            )
        else:
            self.stdout.write(f"Using the model server at {llm.api_base} ({llm.model}).")

    def _verify(self, options: dict[str, Any]) -> None:
        if options["llm"]:
            self._use_local_model_server()
        try:
            claim, created = claim_submit(
                text=options["claim"],
                timeframe_start=_day(options["start"], end=False),
                timeframe_end=_day(options["end"], end=True),
                source_channel=options["channel"],
                enqueue=False,
                origin=ClaimOrigin.CLI,
            )
        except ClaimError as exc:
            raise CommandError(f"{exc.field}: {exc.message}") from None
        if not created:
            hours = get_config().budgets.dedupe_window_hours
            self.stdout.write(
                f"Claim {claim.pk} has the same text (and timeframe and channel) as one submitted "
                f"in the last {hours} hours (budgets.dedupe_window_hours), so it is that claim: "
                "showing its state. Re-run it from its page to check it again."
            )
        receiver = self._printer(claim.pk)
        post_save.connect(receiver, sender=PipelineEvent, weak=False)
        try:
            if claim.status == ClaimStatus.QUEUED:
                claim_pipeline_run(claim_id=claim.pk)
        finally:
            post_save.disconnect(receiver, sender=PipelineEvent)
        self._report(Claim.objects.get(pk=claim.pk))

    def _printer(self, claim_id: int) -> Any:
        def show(sender: Any, instance: PipelineEvent, created: bool, **kwargs: Any) -> None:
            if created and instance.claim_id == claim_id:
                mark = _MARK.get(instance.kind, "-")
                self.stdout.write(f"  [{mark}] {instance.message}")
                self.stdout.flush()

        return show

    def _report(self, claim: Claim) -> None:
        if claim.status == ClaimStatus.FAILED:
            raise CommandError(f"claim {claim.pk} failed: {claim.error}")
        verdict = current_verdict(claim)
        if verdict is None:
            self.stdout.write(f"Claim {claim.pk} is {claim.status}; no verdict yet.")
            return
        style = {"true": self.style.SUCCESS, "false": self.style.ERROR}.get(
            verdict.outcome, self.style.WARNING
        )
        self.stdout.write("")
        self.stdout.write(
            style(f"Verdict: {verdict.get_outcome_display()} ({verdict.get_reason_display()})")
        )
        counting = claim_counting(claim=claim)
        self._evidence(counting)
        self.stdout.write(
            f"Support {counting.support_total:.1f} / refute {counting.refute_total:.1f} "
            "(the counted rows above); "
            f"{counted(claim.queries_used, 'query', 'queries')}, "
            f"{counted(claim.crawls_used, 'page', 'pages')} read, "
            f"{counted(claim.evidence_count, 'piece', 'pieces')} of evidence"
        )
        if not counting.agrees_with(support=verdict.support_total, refute=verdict.refute_total):
            self.stdout.write(
                f"The verdict was weighed as support {verdict.support_total:.1f} / refute "
                f"{verdict.refute_total:.1f}: the registry or the settings changed since."
            )
        self.stdout.write("")
        self.stdout.write(verdict.proof_markdown)
        if claim.origin == ClaimOrigin.CLI:
            self.stdout.write("")
            self.stdout.write(
                f"Claim {claim.pk} is marked as checked from the command line: the editors' "
                "queue leaves it out unless they tick “Command-line claims”."
            )

    def _evidence(self, counting: Counting) -> None:
        """Each row shown on the claim page: counted for which side and with which weight, or
        why not; then why the sides conflict, when they do."""
        self.stdout.write("Evidence, as counted:")
        rows = counting.shown_with_counts()
        for row, count in [(row, count) for row, count in rows if row.about_claim]:
            reading = "snippet" if row.method == Method.SNIPPET else "page"
            self.stdout.write(
                f"  {count.label} | {row.domain} {side_word(row.stance)} "
                f"({row.tier}, {row.weight:.1f}, {reading})"
            )
            for extra in (count.against, count.pair):
                if extra:
                    self.stdout.write(f"      {extra[:1].upper()}{extra[1:]}")
        if not counting.shown:
            self.stdout.write("  (none)")
        others = [row for row, _ in rows if not row.about_claim]
        if others:
            self.stdout.write(f"Read, not about this claim ({len(others)}, never counted):")
            for row in others:
                self.stdout.write(f"  {row.domain}: {row.source_quote[:100]}")
        if counting.conflict:
            self.stdout.write(f"Why the sources conflict: {counting.conflict}")
