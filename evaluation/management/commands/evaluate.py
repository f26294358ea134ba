"""Measure verdict quality and cost on a labelled dataset, offline.

    manage.py evaluate ../shared/eval/averitec-dev/dev.json --format averitec [--limit N]
    manage.py evaluate ../shared/eval/climate-fever/climate-fever.jsonl --format climate-fever
    manage.py evaluate ../shared/eval/averitec-dev/dev.json --format averitec --split calibration

`--split` runs only one side of the dataset: `calibration`, the claims the claim outcome model
(decisions/weighing.py) is fitted on, or `held-out`, the claims it is measured on (see
`evaluation.dataset.Dataset.on_split`). The pipeline runs each claim the same whatever the
split; the split chooses the claims and is named in the report.

The datasets are third-party and not shipped: a path with no file stops the command with one
line that says so.

By default the run gets a scratch SQLite database of its own: the command runs itself again in
a subprocess with DATABASE_URL pointing at a temporary file, migrated first, so thousands of
evaluation claims never reach the real database. `--in-place` runs against the configured
database instead (the tests use it, inside their own test database).
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from claimcheck.logs import command_logs
from evaluation.averitec import read_averitec
from evaluation.climate_fever import read_climate_fever
from evaluation.covid_fact import read_covid_fact
from evaluation.dataset import ALL, SPLITS, UNSEEN, Dataset, DatasetError
from evaluation.llm_compare import MODES, CompareError, comparison_lines, latest_report, sides
from evaluation.report import build_report, write_report
from evaluation.runner import ClaimResult, run_dataset
from evaluation.stages import stage_summary
from evaluation.web import offline_web, web_dump, web_load
from evaluation.weighed import weighed_line
from integrations.llm.accounting import usage_so_far

READERS: dict[str, Callable[[Path], Dataset]] = {
    "averitec": read_averitec,
    "climate-fever": read_climate_fever,
    "covid-fact": read_covid_fact,
}
DEFAULT_OUT = "artifacts/eval"


class Command(BaseCommand):
    help = "Run the claim pipeline on a labelled dataset over an offline web and write a report."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="the dataset file")
        parser.add_argument("--format", required=True, choices=sorted(READERS))
        parser.add_argument("--limit", type=int, default=None, help="only the first N claims")
        parser.add_argument("--out", default=DEFAULT_OUT, help=f"report folder ({DEFAULT_OUT})")
        parser.add_argument(
            "--in-place",
            action="store_true",
            help="use the configured database instead of a scratch SQLite database",
        )
        parser.add_argument(
            "--keep-db", action="store_true", help="keep the scratch database and print its path"
        )
        parser.add_argument(
            "--held-out",
            action="store_true",
            help="only the claims the stance model never trained on (its held-out split); "
            "a dataset it never saw, such as AVeriTeC, is used whole; on a dataset it trained "
            "on, the same claims as --split held-out",
        )
        parser.add_argument(
            "--split",
            choices=SPLITS,
            default=ALL,
            help="only one side of the dataset (before --limit): 'calibration', the claims the "
            "claim outcome model is fitted on, or 'held-out', the claims it is measured on; on "
            "a dataset the stance model trained on, its own calibration and held-out sides, and "
            f"its training side in neither ({ALL})",
        )
        parser.add_argument(
            "--llm",
            choices=MODES,
            default=None,
            help="run the same claims twice, offline (no LLM) and with a model: 'local' starts "
            "the local llama.cpp server for the run (the llm dependency group), 'configured' "
            "uses the model the pipeline configuration names; reports both side by side with "
            "seconds, LLM tokens and cost per claim",
        )
        parser.add_argument(
            "--dump-web",
            default=None,
            metavar="DIR",
            help="write every page of the offline web to DIR/<dataset>-web.jsonl "
            "(url, title, text, date)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["path"])
        if path.is_dir():
            raise CommandError(f"{path} is a folder: give the dataset's file")
        if not path.is_file():
            raise CommandError(
                f"{path.absolute()} not found: the datasets are third-party and not shipped; "
                "give the path of your copy (see the README, 'Measuring verdict quality')"
            )
        if options["limit"] is not None and options["limit"] < 1:
            raise CommandError("--limit must be at least 1")
        if options["llm"] and options["in_place"]:
            raise CommandError("--llm runs two scratch evaluations; leave out --in-place")
        if options["llm"]:
            self._compare(path, options)
        elif options["in_place"]:
            self._evaluate(path, options)
        else:
            self._in_scratch_database(path, options)

    def _compare(self, path: Path, options: dict[str, Any]) -> None:
        """The same claims read offline and with the model, side by side (llm_compare)."""
        out = Path(options["out"]).resolve()
        # A kill of this command unwinds it, so that the model server and the run it relays
        # are stopped on the way out rather than left running.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
        with tempfile.TemporaryDirectory(prefix="claimcheck-eval-llm-") as scratch:
            try:
                with sides(options["llm"], Path(scratch), out) as (offline, with_llm, server):
                    if server is not None:
                        self.stdout.write(
                            f"Local model server on port {server.port}, "
                            f"ready in {server.ready_s:.1f} s"
                        )
                    for side in (offline, with_llm):
                        self.stdout.write(f"== {side.name}")
                        side_options = {**options, "out": str(side.out)}
                        env = {"CLAIMCHECK_CONFIG": str(side.config_path)}
                        self._in_scratch_database(path, side_options, env)
                    rss = server.rss_mb() if server is not None else None
            except CompareError as exc:
                raise CommandError(str(exc)) from exc
        lines = comparison_lines(latest_report(offline.out), latest_report(with_llm.out))
        if rss is not None:
            lines.append(f"The local model server held {rss:.0f} MB resident at the end.")
        self.stdout.write(self.style.SUCCESS("\n".join(lines)))

    def _command_line(self, path: Path, options: dict[str, Any]) -> str:
        parts = ["manage.py", "evaluate", str(path), "--format", options["format"]]
        if options["held_out"]:
            parts.append("--held-out")
        if options["split"] != ALL:
            parts += ["--split", options["split"]]
        if options["limit"] is not None:
            parts += ["--limit", str(options["limit"])]
        return shlex.join(parts)

    def _in_scratch_database(
        self, path: Path, options: dict[str, Any], extra_env: dict[str, str] | None = None
    ) -> None:
        directory = Path(tempfile.mkdtemp(prefix="claimcheck-eval-"))
        database = directory / "evaluation.sqlite3"
        env = {**os.environ, **(extra_env or {}), "DATABASE_URL": f"sqlite:///{database}"}
        if options["verbosity"] < 2:
            env.setdefault("CLAIMCHECK_LOG_LEVEL", "WARNING")
        manage = str(Path(settings.BASE_DIR) / "manage.py")
        self.stdout.write(f"Scratch database: {database}")
        try:
            self._relay([sys.executable, manage, "migrate", "--noinput", "-v", "0"], env)
            child = [sys.executable, manage, "evaluate", str(path.resolve()), "--in-place"]
            child += ["--format", options["format"], "--out", str(Path(options["out"]).resolve())]
            child += ["-v", str(options["verbosity"])]
            if options["limit"] is not None:
                child += ["--limit", str(options["limit"])]
            if options["held_out"]:
                child.append("--held-out")
            child += ["--split", options["split"]]
            if options["dump_web"]:
                child += ["--dump-web", str(Path(options["dump_web"]).resolve())]
            self._relay(child, env)
        finally:
            if options["keep_db"]:
                self.stdout.write(f"Kept the scratch database: {database}")
            else:
                for leftover in directory.iterdir():
                    leftover.unlink()
                directory.rmdir()

    def _relay(self, command: list[str], env: dict[str, str]) -> None:
        process = subprocess.Popen(  # noqa: S603  (our own interpreter and manage.py)
            command,
            env=env,
            cwd=settings.BASE_DIR,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert process.stdout is not None
        try:
            for line in process.stdout:
                self.stdout.write(line.rstrip("\n"))
                self.stdout.flush()
        finally:
            if process.poll() is None:  # this command was stopped: so is the run it relays
                process.terminate()
        if process.wait() != 0:
            raise CommandError(f"{shlex.join(command[1:3])} failed (exit {process.returncode})")

    def _evaluate(self, path: Path, options: dict[str, Any]) -> None:
        started_at = datetime.now(UTC)
        started = time.monotonic()
        try:
            dataset = READERS[options["format"]](path)
        except DatasetError as exc:
            raise CommandError(str(exc)) from exc
        if options["held_out"] and any(UNSEEN in c.tags for c in dataset.claims):
            dataset = dataset.restricted_to([c for c in dataset.claims if UNSEEN in c.tags])
        dataset = dataset.on_split(options["split"])
        if options["split"] != ALL and not dataset.claims:
            raise CommandError(f"{dataset.name} has no claims on the {options['split']} side")
        if options["limit"] is not None:
            dataset = dataset.restricted_to(dataset.claims[: options["limit"]])
        split = "" if options["split"] == ALL else f" ({options['split']} split)"
        self.stdout.write(
            f"{dataset.name}{split}: {len(dataset.claims)} claims, {len(dataset.pages)} pages"
        )
        if options.get("dump_web"):
            dump = Path(options["dump_web"]) / f"{dataset.name}-web.jsonl"
            written = web_dump(dataset=dataset, path=dump)
            self.stdout.write(f"Offline web: {written} pages written to {dump}")
        with command_logs(verbosity=options["verbosity"]), offline_web():
            web = web_load(dataset=dataset, progress=self._web_progress)
            self.stdout.write(
                f"Offline web: {web.pages_stored} pages stored, {web.pages_denied} on denied "
                f"domains, {web.pages_unreadable} unreadable"
            )
            tally = {"correct": 0}
            used = {"so_far": usage_so_far()}

            def progress(number: int, total: int, result: ClaimResult) -> None:
                tally["correct"] += int(result.correct)
                now = usage_so_far()
                claim_usage, used["so_far"] = now - used["so_far"], now
                result.llm_calls = claim_usage.calls
                result.llm_tokens = claim_usage.prompt_tokens + claim_usage.completion_tokens
                result.llm_cost_usd = round(claim_usage.cost_usd, 6)
                names = dataset.label_names
                self.stdout.write(
                    f"[{number}/{total}] #{result.key} gold {names[result.gold]:<8} "
                    f"got {names[result.predicted]:<8} {'ok  ' if result.correct else 'miss'} "
                    f"{result.queries}q {result.crawls}r {result.seconds:.1f}s "
                    f"(accuracy so far {tally['correct'] / number:.3f})"
                )
                self.stdout.flush()

            results = run_dataset(dataset=dataset, progress=progress)
            report = build_report(
                dataset=dataset,
                results=results,
                web=web,
                command=self._command_line(path, options),
                split=options["split"],
                started=started_at,
                seconds=time.monotonic() - started,
            )
        md_path, json_path = write_report(report=report, out_dir=Path(options["out"]))
        scores = report["scores"]
        precision = report["decisive_precision"]

        def share(value: float | None) -> str:
            return "n/a" if value is None else f"{value:.3f}"

        self.stdout.write(
            self.style.SUCCESS(
                f"Accuracy {scores['accuracy']:.3f}, macro-F1 {scores['macro_f1']:.3f} "
                f"({report['macro_f1_ci'][0]:.3f}-{report['macro_f1_ci'][1]:.3f}) on "
                f"{report['claims']} claims; reader {report['reader_macro_f1']:.3f}; "
                f"precision True {share(precision['true'])}, False {share(precision['false'])}"
                f", coverage {report['coverage']:.3f}; retrieval recall "
                f"{share(report['retrieval_recall'])}; "
                f"{report['cost']['queries_per_claim']['mean']} queries and "
                f"{report['cost']['crawls_per_claim']['mean']} pages read per claim; "
                f"{report['cost']['seconds_per_claim']['mean']} s, "
                f"{report['cost']['llm_tokens_per_claim']['mean']} LLM tokens and "
                f"${report['cost']['llm_cost_usd_per_claim']['mean']} per claim"
            )
        )
        self.stdout.write(weighed_line(report["weighed"]))
        self.stdout.write(stage_summary(report["stages"]))
        self.stdout.write(f"Report: {md_path}\n        {json_path}")

    def _web_progress(self, done: int, total: int) -> None:
        self.stdout.write(f"  pages {done}/{total}")
        self.stdout.flush()
