"""Server time of the claim queue page with 10,000 claims, and of its live poll.

Creates a scratch database (the test database of the configured engine: SQLite by default,
PostgreSQL with DATABASE_URL), fills it with claims that have verdicts, evidence and overrides,
then requests the queue page ~20 times per filter set through Django's test client and prints the
median and 95th percentile server time and the number of queries per page. The scratch database
is dropped at the end.

    DJANGO_DEBUG=1 .venv/bin/python bench/queue_bench.py [--claims 10000] [--runs 20]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
os.environ.setdefault("DJANGO_DEBUG", "1")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import Group, User  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_databases, teardown_databases  # noqa: E402
from django.utils import timezone  # noqa: E402

from claims.models import Claim, ClaimStatus, Outcome, claim_fingerprint, claim_hash  # noqa: E402
from decisions.models import Override, Verdict, VerdictReason  # noqa: E402
from desk.selectors import queue_state  # noqa: E402
from evidence.models import ContentDepth, Evidence, Method, Stance  # noqa: E402
from registry.models import Tier  # noqa: E402

WORDS = (
    "agency council parliament regulation battery harbour bridge inflation satellite launch "
    "merger ministry port rail tariff vaccine budget election plant opening approval"
).split()
CHANNELS = ["@wire", "@desk", "newsletter", "reader tip", "editor", ""]


def populate(n: int, editor: User) -> None:
    rng = random.Random(7)
    now = timezone.now()
    claims = []
    for i in range(n):
        text = f"Claim {i}: the " + " ".join(rng.sample(WORDS, 6)) + f" in {2020 + i % 6}"
        decided = i % 10 != 0
        outcome = rng.choice(Outcome.values) if decided else ""
        claims.append(
            Claim(
                text=text,
                normalized_hash=claim_hash(text),
                fingerprint=claim_fingerprint(text),
                source_channel=CHANNELS[i % len(CHANNELS)],
                status=ClaimStatus.DECIDED if decided else ClaimStatus.QUEUED,
                outcome=outcome,
                overridden=decided and i % 17 == 0,
                reviewed_at=now if decided and i % 3 == 0 else None,
                support_total=round(rng.uniform(0, 3), 1),
                refute_total=round(rng.uniform(0, 1), 1),
                queries_used=rng.randint(1, 5),
                crawls_used=rng.randint(0, 4),
                created_at=now - timedelta(minutes=i * 7),
                decided_at=now - timedelta(minutes=i * 7 - 2) if decided else None,
            )
        )
    Claim.objects.bulk_create(claims, batch_size=1000)
    stored = list(Claim.objects.filter(status=ClaimStatus.DECIDED).only("id", "outcome"))
    verdicts = [
        Verdict(
            claim_id=c.pk,
            outcome=c.outcome,
            reason=VerdictReason.SUFFICIENT,
            proof_markdown="Two sources agree.",
            support_total=1.8,
        )
        for c in stored
    ]
    Verdict.objects.bulk_create(verdicts, batch_size=1000)
    evidence = [
        Evidence(
            claim_id=c.pk,
            url=f"https://site{k}.example/{c.pk}",
            domain=f"site{k}.example",
            tier=Tier.WIRE,
            weight=0.8,
            stance=Stance.SUPPORT,
            method=Method.SNIPPET,
            content_depth=ContentDepth.SNIPPET,
        )
        for c in stored
        for k in range(3)
    ]
    Evidence.objects.bulk_create(evidence, batch_size=2000)
    by_claim = {v.claim_id: v for v in Verdict.objects.only("id", "claim_id")}
    overridden = Claim.objects.filter(overridden=True).values_list("pk", flat=True)
    Override.objects.bulk_create(
        Override(
            verdict_id=by_claim[pk].pk,
            editor=editor,
            from_outcome="true",
            to_outcome="false",
            reason="bench",
        )
        for pk in overridden
    )


def measure(client: Client, url: str, runs: int, status: int = 200) -> tuple[float, float, int]:
    client.get(url)  # warm the template and connection caches
    times = []
    queries = 0
    for _ in range(runs):
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == status, (url, response.status_code)
        queries = len(captured.captured_queries)
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    return statistics.median(times), p95, queries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    old = setup_databases(verbosity=0, interactive=False, keepdb=False)
    try:
        editor = User.objects.create_user("bench-editor", password="x")
        editor.groups.add(Group.objects.get_or_create(name="editors")[0])
        started = time.perf_counter()
        populate(args.claims, editor)
        print(
            f"engine: {connection.vendor}; {Claim.objects.count()} claims, "
            f"{Verdict.objects.count()} verdicts, {Evidence.objects.count()} evidence rows "
            f"(filled in {time.perf_counter() - started:.1f} s)"
        )
        client = Client()
        client.force_login(editor)
        since = (timezone.now() - timedelta(days=20)).date().isoformat()
        cases = {
            "no filters": "/",
            "page 100": "/?page=100",
            "outcome=false": "/?outcome=false",
            "search 'harbour bridge'": "/?q=harbour+bridge",
            "needs review + channel + dates": (
                f"/?needs_review=on&channel=%40desk&created_from={since}"
            ),
            "overridden=yes": "/?overridden=yes",
            "htmx partial, status=queued": "/?status=queued",
        }
        print(f"{'case':34} {'median ms':>10} {'p95 ms':>8} {'queries':>8}")
        for name, url in cases.items():
            if name.startswith("htmx"):
                client.defaults["HTTP_HX_REQUEST"] = "true"
            median, p95, queries = measure(client, url, args.runs)
            client.defaults.pop("HTTP_HX_REQUEST", None)
            print(f"{name:34} {median:10.1f} {p95:8.1f} {queries:8d}")
        # The live queue's poll when nothing changed: answered 204 (session, user, queue state).
        client.defaults["HTTP_HX_REQUEST"] = "true"
        poll = f"/claims/live/?since={queue_state().token}"
        median, p95, queries = measure(client, poll, args.runs, status=204)
        client.defaults.pop("HTTP_HX_REQUEST", None)
        print(f"{'live poll, nothing new (204)':34} {median:10.1f} {p95:8.1f} {queries:8d}")
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()
