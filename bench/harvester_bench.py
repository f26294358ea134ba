"""Benchmark of POST /api/search-runs against three imitation providers on loopback.

A local HTTP server plays SearxNG (300 ms), YaCy (500 ms) and Serper (800 ms). The harvester
asks all three at once, so a run should take about as long as the slowest one. Prints p50 /
p95 of the request, cold (a new query text each time: the rewrite is not cached) and warm
(the same text again: the rewrite comes from the cache), and the ratio of run time to the
slowest provider's latency. Targets: ratio <= 1.10, warm p95 < 1.5 s.

Runs on a throwaway SQLite database in a temporary directory (never the project's own):

    DJANGO_DEBUG=1 .venv/bin/python bench/harvester_bench.py [--runs 20]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LATENCY_S = {"searxng": 0.3, "yacy": 0.5, "serper": 0.8}


def _results(provider: str, query: str) -> Any:
    # Some URLs shared between providers so that the merge has work to do.
    urls = [f"https://news{n}.example.org/{abs(hash(query)) % 997}/story-{n}" for n in range(8)]
    own = [f"https://{provider}.example.net/item-{n}" for n in range(4)]
    picked = urls[: 6 if provider == "serper" else 4] + own
    if provider == "searxng":
        return {"results": [{"url": u, "title": f"T {u}", "content": "s"} for u in picked]}
    if provider == "yacy":
        return {"channels": [{"items": [{"link": u, "title": f"T {u}", "description": "s"}
                                        for u in picked]}]}  # fmt: skip
    return {"organic": [{"link": u, "title": f"T {u}", "snippet": "s", "position": i + 1}
                        for i, u in enumerate(picked)]}  # fmt: skip


class Imitation(BaseHTTPRequestHandler):
    def _answer(self, query: str) -> None:
        provider = self.path.strip("/").split("/", 1)[0]
        time.sleep(LATENCY_S[provider])
        body = json.dumps(_results(provider, query)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self._answer(self.path)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        self._answer(self.rfile.read(length).decode())

    def log_message(self, format: str, *args: Any) -> None:
        return  # quiet: the figures are the output


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="requests per series")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        return serve()

    # The imitation providers run in their own process, so that they do not compete with
    # the harvester for this interpreter's GIL and skew its timings.
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline())
        return bench(args.runs, f"http://127.0.0.1:{port}")
    finally:
        server.terminate()
        server.wait(timeout=10)


def serve() -> int:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Imitation)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()
    return 0


def bench(runs: int, base: str) -> int:

    workdir = Path(tempfile.mkdtemp(prefix="harvester-bench-"))
    config = workdir / "pipeline.yaml"
    fast = {"rate_per_minute": 6000, "breaker_failures": 100, "timeout_s": 4, "retries": 0}
    config.write_text(
        json.dumps(
            {
                "search": {
                    "provider": "auto",
                    "cascade_order": ["searxng", "yacy", "serper"],
                    "providers": {
                        "searxng": {"base_url": f"{base}/searxng", **fast},
                        "yacy": {"base_url": f"{base}/yacy", **fast},
                        "serper": {
                            "base_url": f"{base}/serper",
                            "api_key_env": "BENCH_SERPER_KEY",
                            **fast,
                        },
                    },
                }
            }
        )
    )
    os.environ.update(
        {
            "DJANGO_DEBUG": "1",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": f"sqlite:///{workdir / 'bench.sqlite3'}",
            "CLAIMCHECK_CONFIG": str(config),
            "CLAIMCHECK_LOG_LEVEL": "WARNING",
            "BENCH_SERPER_KEY": "bench",
        }
    )
    sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    call_command("migrate", verbosity=0)
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from claimcheck.models import ApiToken
    from harvester.models import SearchRun

    user = get_user_model().objects.create_user("bench")
    user.groups.add(Group.objects.get_or_create(name="editors")[0])
    _, token = ApiToken.issue(user=user, name="bench")
    client = Client(headers={"Authorization": f"Bearer {token}"}, SERVER_NAME="localhost")

    def post(query: str) -> float:
        started = time.perf_counter()
        response = client.post(
            "/api/search-runs", data=json.dumps({"query": query}), content_type="application/json"
        )
        elapsed = time.perf_counter() - started
        if response.status_code != 201:
            raise SystemExit(f"unexpected {response.status_code}: {response.content[:300]!r}")
        return elapsed

    post("warm up the imports")
    cold = [post(f"European Central Bank interest rates decision {n}") for n in range(runs)]
    warm = [post("European Central Bank interest rates decision 0") for _ in range(runs)]
    stored = list(SearchRun.objects.order_by("-id")[: 2 * runs])
    service_s = [run.latency_ms / 1000 for run in stored]
    slowest = max(LATENCY_S.values())
    statuses = {run.status for run in stored}
    per_provider = {
        name: statistics.median(run.provider_metrics[name]["latency_ms"] for run in stored)
        for name in LATENCY_S
    }

    print(f"harvester bench: {runs} requests per series, providers {LATENCY_S} (seconds)")
    print(f"  run statuses: {sorted(statuses)}")
    print(f"  median provider call as measured by the harvester (ms): {per_provider}")
    for name, values in (("cold", cold), ("warm", warm)):
        print(
            f"  POST /api/search-runs {name}: p50 {statistics.median(values) * 1000:.0f} ms, "
            f"p95 {percentile(values, 0.95) * 1000:.0f} ms"
        )
    every = cold + warm
    print(
        f"  ratio request time / slowest provider ({slowest * 1000:.0f} ms): "
        f"p50 {statistics.median(every) / slowest:.3f}, p95 {percentile(every, 0.95) / slowest:.3f}"
    )
    print(
        f"  ratio service run time (SearchRun.latency_ms) / slowest provider: "
        f"p50 {statistics.median(service_s) / slowest:.3f}, "
        f"p95 {percentile(service_s, 0.95) / slowest:.3f}"
    )
    warm_p95 = percentile(warm, 0.95)
    ratio_p95 = percentile(every, 0.95) / slowest
    print(
        f"  targets: ratio <= 1.10 -> {'met' if ratio_p95 <= 1.10 else 'MISSED'} (p95), "
        f"warm p95 < 1.5 s -> {'met' if warm_p95 < 1.5 else 'MISSED'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
