"""What 20 open queues cost the server: requests a second, CPU milliseconds and queries a poll.

Every open Claims page asks `/claims/live/?since=TOKEN` every three seconds (every second while
claims are being checked); a poll that finds nothing new answers 204, one after a change renders
the list. This fills a scratch database (the test database of the configured engine: SQLite by
default, PostgreSQL with DATABASE_URL) with claims, opens 20 queues through Django's test client,
each signed in as its own editor with its own filters and order, and measures both kinds of
poll in this process (CPU time by `time.process_time`, so the figures are the server's work,
without a network). Then it prints the load 20 queues put on the server, idle and while claims
are being checked (every step of a running claim changes the queue, so each poll renders).

    DJANGO_DEBUG=1 .venv/bin/python bench/live_queue_bench.py [--claims N] [--queues N] [--rounds N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from django.conf import settings
from django.contrib.auth.models import Group, User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, setup_databases, teardown_databases
from django.utils import timezone

from bench.queue_bench import populate
from claims.models import Claim
from desk.selectors import queue_state
from desk.views.queue import QUEUE_POLL_MS_ACTIVE, QUEUE_POLL_MS_IDLE

FILTERS = [
    "",
    "sort=created",
    "outcome=false",
    "needs_review=on",
    "q=harbour+bridge",
    "channel=%40desk",
    "overridden=yes&sort=-confidence",
    "status=queued",
    "sort=channel",
    "page=3",
]
HX = {"HX-Request": "true"}


def poll(client: Client, url: str, status: int) -> tuple[float, float, int]:
    """CPU ms, wall ms and queries of one poll."""
    with CaptureQueriesContext(connection) as captured:
        cpu, wall = time.process_time(), time.perf_counter()
        response = client.get(url, headers=HX)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    assert response.status_code == status, (url, response.status_code)
    return cpu * 1000, wall * 1000, len(captured.captured_queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=10_000)
    parser.add_argument("--queues", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    old = setup_databases(verbosity=0, interactive=False, keepdb=False)
    try:
        editors = Group.objects.get_or_create(name="editors")[0]
        first = User.objects.create_user("bench-editor-0", password="x")
        first.groups.add(editors)
        populate(args.claims, first)
        queues: list[tuple[Client, str]] = []
        for n in range(args.queues):
            user = first if n == 0 else User.objects.create_user(f"bench-editor-{n}")
            user.groups.add(editors)
            client = Client()
            client.force_login(user)
            query = FILTERS[n % len(FILTERS)]
            client.get(f"/?{query}")  # the page as opened, which warms the caches
            # A session's first poll also reads the user's groups into the session: once.
            client.get(f"/claims/live/?{query}&since={queue_state().token}", headers=HX)
            queues.append((client, query))
        print(
            f"engine: {connection.vendor}; {Claim.objects.count()} claims; "
            f"{args.queues} open queues, {args.rounds} rounds of polls each"
        )
        idle: list[tuple[float, float, int]] = []
        changed: list[tuple[float, float, int]] = []
        claim = Claim.objects.order_by("-created_at").first()
        assert claim is not None
        for _ in range(args.rounds):
            token = queue_state().token
            for client, query in queues:
                idle.append(poll(client, f"/claims/live/?{query}&since={token}", 204))
            # A step of a running claim, a new claim or an override: the state changes.
            Claim.objects.filter(pk=claim.pk).update(updated_at=timezone.now())
            for client, query in queues:
                changed.append(poll(client, f"/claims/live/?{query}&since={token}", 200))

        def row(name: str, polls: list[tuple[float, float, int]], period_ms: int) -> None:
            cpu = statistics.median(p[0] for p in polls)
            wall = statistics.median(p[1] for p in polls)
            queries = max(p[2] for p in polls)
            rate = args.queues * 1000 / period_ms
            share = rate * cpu / 1000
            print(f"{name:38} {rate:7.1f} {cpu:9.1f} {wall:9.1f} {queries:8d} {share * 100:11.1f}%")

        print(
            f"{'case':38} {'req/s':>7} {'cpu ms':>9} {'wall ms':>9} {'queries':>8} "
            f"{'of one core':>12}"
        )
        row(f"idle: nothing new (204), every {QUEUE_POLL_MS_IDLE} ms", idle, QUEUE_POLL_MS_IDLE)
        row("a change (200), idle period", changed, QUEUE_POLL_MS_IDLE)
        row(
            f"claims running: every poll renders, {QUEUE_POLL_MS_ACTIVE} ms",
            changed,
            QUEUE_POLL_MS_ACTIVE,
        )
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()
