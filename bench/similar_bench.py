"""How fast similar claims are found among many: 10,000 and then 100,000 stored claims.

Creates a scratch database (the test database of the configured engine: SQLite by default,
PostgreSQL with DATABASE_URL) and fills it with generated news claims: made-up companies,
people and places, real countries and cities, numbers, dates and a few hundred verbs and nouns,
indexed as the claims service indexes them. At each size it times `similar_claims` for 60
texts (a third restating a stored claim, a third a near miss of one, a third about nothing
stored) and prints the median and 95th percentile, with what one claim costs to index. The
scratch database is dropped at the end.

    DJANGO_DEBUG=1 .venv/bin/python bench/similar_bench.py [--sizes 10000,100000] [--queries 60]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
os.environ.setdefault("DJANGO_DEBUG", "1")

import django

django.setup()

from django.test.utils import setup_databases, teardown_databases  # noqa: E402

from claims.models import Claim, ClaimStatus, claim_fingerprint, claim_hash  # noqa: E402
from decisions.models import ClaimKey  # noqa: E402
from decisions.similar import claim_index, similar_claims  # noqa: E402
from decisions.similar_signature import signature  # noqa: E402

PLACES = (
    "Germany France Poland Sweden Norway Finland Estonia Latvia Lithuania Ukraine Romania Spain "
    "Italy Portugal Greece Austria Hungary Denmark Ireland Belgium Odesa Kyiv Berlin Paris "
    "Warsaw Stockholm Oslo Helsinki Tallinn Riga Vilnius Madrid Rome Lisbon Athens Vienna"
).split()
SYLLABLES = "ka ver tal mo ri sen dor fel gan hol lin mar nor pel ros stad tor vik bel cor".split()
KINDS = "Motors Rail Energy Bank Logistics Telecom Airlines Foods Steel Pharma".split()
VERBS = (
    "approved rejected opened closed bought sold signed cancelled raised cut launched banned "
    "announced delayed built expanded merged with sued fined hired"
).split()
NOUNS = (
    "plant factory deal contract tariff budget bill licence port terminal line bridge vaccine "
    "satellite loan grant mine pipeline airport hospital school wind farm battery ferry"
).split()
MONTHS = "January February March April May June July August September October November December"


def _name(rng: random.Random) -> str:
    return "".join(rng.sample(SYLLABLES, 2)).capitalize()


def claim_text(rng: random.Random) -> str:
    who = f"{_name(rng)} {rng.choice(KINDS)}"
    what = " ".join(rng.sample(NOUNS, 2))
    number = f"{rng.randint(1, 900)}" + rng.choice(["", ".5", " million", " billion"])
    when = f"{rng.choice(MONTHS.split())} {rng.randint(2019, 2026)}"
    return f"{who} {rng.choice(VERBS)} a {number} euro {what} in {rng.choice(PLACES)} in {when}"


def populate(total: int, start: int, rng: random.Random) -> float:
    """Claims up to `total`, indexed as the claims service does; seconds a claim took."""
    started = time.perf_counter()
    batch: list[Claim] = []
    for _ in range(start, total):
        text = claim_text(rng)
        batch.append(
            Claim(
                text=text,
                normalized_hash=claim_hash(text),
                fingerprint=claim_fingerprint(text),
                language="en",
                status=ClaimStatus.QUEUED,
            )
        )
        if len(batch) == 1000:
            _store(batch)
            batch = []
    if batch:
        _store(batch)
    return (time.perf_counter() - started) / max(1, total - start)


def _store(claims: list[Claim]) -> None:
    stored = Claim.objects.bulk_create(claims)
    ClaimKey.objects.bulk_create(
        [
            ClaimKey(claim=claim, key=key[:120])
            for claim in stored
            for key in set(signature(claim.text, language="en").keys())
        ],
        batch_size=5000,
    )


def queries(rng: random.Random, n: int) -> list[str]:
    stored = list(Claim.objects.order_by("?").values_list("text", flat=True)[: n // 3 * 2])
    texts = []
    for i, text in enumerate(stored):
        words = text.split()
        if i % 2 == 0:  # a restatement: the date first
            cut = words.index("in", len(words) - 4)
            texts.append(" ".join(["In", *words[cut + 1 :], *words[:cut]]))
        else:  # a near miss: another year
            texts.append(text[:-4] + str(int(text[-4:]) - 1))
    texts += [claim_text(random.Random(10_000 + i)) for i in range(n - len(texts))]
    rng.shuffle(texts)
    return texts


def measure(texts: list[str]) -> tuple[float, float, int]:
    times = []
    same = 0
    for text in texts:
        started = time.perf_counter()
        found = similar_claims(text=text, language="en")
        times.append((time.perf_counter() - started) * 1000)
        same += bool(found and found[0].relation == "same")
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))], same


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--queries", type=int, default=60)
    args = parser.parse_args()
    sizes = sorted(int(size) for size in args.sizes.split(","))
    rng = random.Random(11)
    old = setup_databases(verbosity=0, interactive=False, keepdb=False)
    try:
        stored = 0
        for size in sizes:
            per_claim = populate(size, stored, rng)
            stored = size
            claim = Claim.objects.create(
                text="Halden Rail bought a 40 million euro ferry terminal in Oslo in May 2025",
                normalized_hash="x",
                language="en",
            )
            started = time.perf_counter()
            claim_index(claim)
            index_ms = (time.perf_counter() - started) * 1000
            p50, p95, same = measure(queries(rng, args.queries))
            print(
                f"{size:>7} claims ({ClaimKey.objects.count()} index rows; filled at "
                f"{per_claim * 1000:.1f} ms a claim): a match p50 {p50:.1f} ms, p95 {p95:.1f} "
                f"ms over {args.queries} texts ({same} found a same claim first); indexing one "
                f"claim as it is stored {index_ms:.1f} ms"
            )
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()
