"""Benchmark of the whole claim loop on the demo corpus, with the outside web imitated on
loopback.

A local HTTP server plays a search provider (SearxNG's JSON API, 300 ms a query) and the web
(every demo page, 200 ms a page). The demo corpus goes into the local search index only, so
every page the pipeline decides to read is fetched over loopback through integrations.http, as on
the real web. Claims are run by 1 and then 2 worker processes, each running the pipeline task
the way a qcluster worker does. Prints claims per minute, median and p95 claim time, SERP queries
and crawls per decided claim, and CPU milliseconds per claim (process time: network waits are
not CPU).

Runs on a throwaway PostgreSQL database (`claimcheck_bench`, dropped afterwards) when the local
server answers, else on a temporary SQLite file:

    DJANGO_DEBUG=1 .venv/bin/python bench/pipeline_bench.py [--rounds 3] [--workers 1 2]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
SEARCH_LATENCY_S = 0.3
PAGE_LATENCY_S = 0.2


# --- the imitation web (runs in its own process) -----------------------------------------------


def serve() -> int:
    sys.path.insert(0, str(ROOT))
    manifest = json.loads((ROOT / "demo/manifest.json").read_text())
    pages = (
        {entry["url"]: entry for entry in manifest["pages"] if not entry.get("dead")}
        if isinstance(manifest, dict)
        else {e["url"]: e for e in manifest if not e.get("dead")}
    )

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path.startswith("/search"):
                time.sleep(SEARCH_LATENCY_S)
                self._send(200, "application/json", b'{"results": []}')
                return
            time.sleep(PAGE_LATENCY_S)
            original = "https://" + self.path.removeprefix("/web/")
            entry = pages.get(original)
            if entry is None:
                self._send(404, "text/html", b"<h1>Not found</h1>")
                return
            body = (ROOT / "demo" / entry["file"]).read_bytes()
            self._send(200, entry.get("content_type", "text/html"), body)

        def _send(self, status: int, content_type: str, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    return 0


# --- the benchmark ----------------------------------------------------------------------------


def _psql(sql: str, *, check: bool) -> None:
    subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", sql],
        check=check,
        capture_output=True,
        timeout=30,
    )


def _database_url(workdir: Path) -> tuple[str, Any]:
    try:
        _psql("DROP DATABASE IF EXISTS claimcheck_bench", check=True)
        _psql("CREATE DATABASE claimcheck_bench", check=True)
    except (OSError, subprocess.SubprocessError):
        return f"sqlite:///{workdir / 'bench.sqlite3'}", None

    def drop() -> None:
        _psql("DROP DATABASE IF EXISTS claimcheck_bench", check=False)

    return "postgres://postgres@127.0.0.1:5432/claimcheck_bench", drop


def _install_imitation(port: int) -> None:
    """Route page fetches to the loopback web and allow loopback for this process only."""
    from django.conf import settings

    from evidence.fetching import pages
    from evidence.fetching.base import RawFetch
    from evidence.fetching.http import HttpFetcher

    settings.CLAIMCHECK_HTTP_ALLOW_LOOPBACK = True

    class LoopbackWeb(HttpFetcher):
        def fetch(self, url: str) -> RawFetch:
            parts = urlsplit(url)
            raw = super().fetch(f"http://127.0.0.1:{port}/web/{parts.netloc}{parts.path}")
            return RawFetch(**{**raw.__dict__, "url": url, "final_url": url})

    pages.fetcher_for = lambda config: LoopbackWeb(config)


def _worker(claim_ids: list[int], port: int, results: Any) -> None:
    import django
    from django.db import connections

    django.setup()
    connections.close_all()  # never share the parent's connection after fork
    _install_imitation(port)
    from claims.models import Claim
    from decisions.pipeline import claim_pipeline_run

    for claim_id in claim_ids:
        wall, cpu = time.monotonic(), time.process_time()
        verdict = claim_pipeline_run(claim_id=claim_id)
        claim = Claim.objects.get(pk=claim_id)
        results.put(
            {
                "id": claim_id,
                "seconds": time.monotonic() - wall,
                "cpu_ms": (time.process_time() - cpu) * 1000,
                "decided": verdict is not None,
                "queries": claim.queries_used,
                "crawls": claim.crawls_used,
            }
        )


def _pct(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def bench(rounds: int, workers_list: list[int], port: int) -> None:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from claimcheck.config import get_config
    from decisions.services import claim_submit
    from demo.loader import demo_claims, demo_load
    from evidence.models import Page
    from harvester.models import LocalDocument

    demo_load()
    # Keep the pages searchable but not cached: every read goes over the imitation web.
    Page.objects.all().delete()
    print(
        f"corpus: {LocalDocument.objects.count()} documents in the local index; "
        f"search latency {SEARCH_LATENCY_S * 1000:.0f} ms, "
        f"page latency {PAGE_LATENCY_S * 1000:.0f} ms"
    )
    print(f"providers: {get_config().search.cascade_order}")
    claims = demo_claims()
    for workers in workers_list:
        ids = []
        for round_number in range(rounds):
            for claim in claims:
                created, _ = claim_submit(
                    text=claim.text,
                    timeframe_start=claim.timeframe_start,
                    timeframe_end=claim.timeframe_end,
                    source_channel=f"bench-{workers}-{round_number}",
                    enqueue=False,
                )
                ids.append(created.pk)
        Page.objects.all().delete()
        from django.db import connections

        connections.close_all()
        queue: Any = multiprocessing.get_context("fork").Queue()
        shares = [ids[i::workers] for i in range(workers)]
        started = time.monotonic()
        procs = [
            multiprocessing.get_context("fork").Process(target=_worker, args=(share, port, queue))
            for share in shares
        ]
        for proc in procs:
            proc.start()
        results = [queue.get() for _ in ids]
        for proc in procs:
            proc.join()
        elapsed = time.monotonic() - started
        decided = [r for r in results if r["decided"]]
        seconds = [r["seconds"] for r in results]
        print(
            f"\n{workers} worker(s), {len(ids)} claims in {elapsed:.1f} s: "
            f"{len(ids) / elapsed * 60:.1f} claims/min"
        )
        print(
            f"  claim time   median {statistics.median(seconds):.2f} s, "
            f"p95 {_pct(seconds, 0.95):.2f} s"
        )
        print(
            f"  per decided  {statistics.mean(r['queries'] for r in decided):.2f} SERP queries, "
            f"{statistics.mean(r['crawls'] for r in decided):.2f} crawls ({len(decided)} decided)"
        )
        cpu = [r["cpu_ms"] for r in results]
        print(
            f"  CPU per claim median {statistics.median(cpu):.0f} ms, p95 {_pct(cpu, 0.95):.0f} ms"
        )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3, help="times each demo claim is run")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        return serve()
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline())
        with tempfile.TemporaryDirectory() as tmp:
            workdir = Path(tmp)
            database_url, drop = _database_url(workdir)
            yaml_path = workdir / "pipeline.yaml"
            yaml_path.write_text(
                "search:\n  cascade_order: [local, searxng]\n  providers:\n    local: {}\n"
                f"    searxng: {{base_url: 'http://127.0.0.1:{port}', timeout_s: 4}}\n"
            )
            os.environ.update(
                {
                    "DJANGO_SETTINGS_MODULE": "config.settings",
                    "DJANGO_DEBUG": "true",
                    "DATABASE_URL": database_url,
                    "CLAIMCHECK_CONFIG": str(yaml_path),
                    "CLAIMCHECK_LOG_LEVEL": "WARNING",
                }
            )
            sys.path.insert(0, str(ROOT))
            print(f"database: {database_url.split('@')[-1]}")
            try:
                bench(args.rounds, args.workers, port)
            finally:
                if drop:
                    from django.db import connections

                    connections.close_all()
                    drop()
    finally:
        server.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
