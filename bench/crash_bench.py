"""A worker cluster killed mid-run, and one stopped, on the production shape (PostgreSQL, and the
Redis or the ORM broker), all on loopback.

For each broker: N claims are queued (searched on a slow imitation provider, so that each takes
a few seconds), one `manage.py qcluster` with two workers starts on them, and once some are
decided and two are running its whole process group is killed with SIGKILL. The cluster is
started again at once. Printed: what the kill left, the seconds from the restart until every
claim the kill left undecided had been taken by a live worker again, and until the last one was
decided; the cluster's warm-up before it forks its workers, each fresh worker's own, its first
claim and the median of the later ones. Then
the stop (unless --no-stop): a cluster running claims gets SIGTERM, once to its whole process
group (as systemd sends it) and once to its main process only; printed are the seconds until
it exited, its exit status, and the claims it handed back. Settings are the shipped defaults
(CLAIMCHECK_LEASE_SECONDS 20, task retry 720 s), with two workers (--workers). The imitation
provider allows --rate searches a minute (600): each claim searches four times, and at the
default of 60 a minute for a provider, which the workers share through Redis (and each keeps
for itself on the ORM broker), the provider's limit would set the figure, not the restart.

    .venv/bin/python bench/crash_bench.py [--claims 12] [--latency 0.8] [--rate 600] [--workers 2]
        [--timeout 240] [--no-stop]

Needs PostgreSQL (BENCH_PG, default postgres://postgres@127.0.0.1:5432) and Redis
(BENCH_REDIS, default redis://127.0.0.1:6379/0). Everything is stopped and dropped at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from contextlib import suppress
from datetime import datetime
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.imitation_search import imitation_search  # noqa: E402

PY = str(ROOT / ".venv" / "bin" / "python")
SUBMIT = """
from decisions.services import claim_submit
for n in range({count}):
    claim_submit(text=f"{prefix} {{n}}: the harbour authority opened the ferry terminal")
"""


class Cluster:
    """One `manage.py qcluster` in a process group of its own."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.log = log.open("ab")
        self.process = subprocess.Popen(
            [PY, "manage.py", "qcluster"],
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def stop(self, *, group: bool, wait: float = 60) -> tuple[float | None, int | None]:
        """SIGTERM to the group or to the main process; seconds until it exited (None: it did
        not, and was killed) and its exit status."""
        started = time.monotonic()
        if group:
            os.killpg(self.process.pid, signal.SIGTERM)
        else:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=wait)
            return time.monotonic() - started, self.process.returncode
        except subprocess.TimeoutExpired:
            self.kill()
            return None, None
        finally:
            self.log.close()

    def kill(self) -> None:
        with suppress(ProcessLookupError):  # already gone
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self.log.close()


def _submit(env: dict[str, str], *, count: int, prefix: str) -> None:
    """Queue `count` claims through the broker, as the API does."""
    subprocess.run(
        [PY, "manage.py", "shell", "-c", SUBMIT.format(count=count, prefix=prefix)],
        cwd=ROOT,
        env={**env, "CLAIMCHECK_LOG_LEVEL": "WARNING"},
        check=True,
        capture_output=True,
    )


def _counts(db: psycopg.Connection, prefix: str) -> dict[str, int]:
    rows = db.execute(
        "SELECT status, count(*) FROM claimcheck_claim WHERE text LIKE %s GROUP BY status",
        [f"{prefix} %"],
    ).fetchall()
    return {str(status): int(n) for status, n in rows}


def _wait(condition: Any, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.25)
    return False


def _claim_times(log: Path) -> tuple[list[float], list[float], list[float], list[float]]:
    """From a cluster's JSON log: each worker's first claim run (seconds), every later one,
    each worker's warm-up before its first task, and the cluster's before it forked them."""
    first: list[float] = []
    later: list[float] = []
    warm: list[float] = []
    cluster: list[float] = []
    started: dict[tuple[Any, Any], datetime] = {}
    seen: set[Any] = set()
    for line in log.read_text(errors="replace").splitlines():
        if not line.startswith("{"):
            continue
        entry = json.loads(line)
        message = str(entry.get("message", ""))
        key = (entry.get("pid"), entry.get("claim_id"))
        if " warm in " in message:
            seconds = float(message.split(" warm in ")[1].split(" s")[0])
            (cluster if message.startswith("cluster ") else warm).append(seconds)
        elif message == "claim run started":
            started[key] = datetime.fromisoformat(entry["time"])
        elif message == "claim run ended" and key in started:
            took = (datetime.fromisoformat(entry["time"]) - started.pop(key)).total_seconds()
            (later if key[0] in seen else first).append(took)
            seen.add(key[0])
    return first, later, warm, cluster


def crash(env: dict[str, str], db: psycopg.Connection, args: Any, logs: Path, name: str) -> None:
    prefix = f"Crash {name}"
    _submit(env, count=args.claims, prefix=prefix)
    cluster = Cluster(env, logs / f"{name}-killed.log")
    busy = _wait(
        lambda: (
            _counts(db, prefix).get("running", 0) >= 2
            and _counts(db, prefix).get("decided", 0) >= 2
        ),
        timeout=120,
    )
    if not busy:
        cluster.kill()
        print(f"{name}: the cluster never had two claims running: {_counts(db, prefix)}")
        return
    cluster.kill()
    killed_at = db.execute("SELECT now()").fetchone()[0]  # type: ignore[index]
    at_kill = _counts(db, prefix)
    restarted = time.monotonic()
    cluster = Cluster(env, logs / f"{name}-restarted.log")

    def all_taken_again() -> bool:
        # Every claim the kill left undecided is decided or was started since the kill.
        row = db.execute(
            "SELECT count(*) FROM claimcheck_claim WHERE text LIKE %s AND status <> 'decided'"
            " AND (started_at IS NULL OR started_at < %s)",
            [f"{prefix} %", killed_at],
        ).fetchone()
        return bool(row and row[0] == 0)

    taken_s = decided_s = None
    while time.monotonic() - restarted < args.timeout:
        if taken_s is None and all_taken_again():
            taken_s = time.monotonic() - restarted
        if _counts(db, prefix).get("decided", 0) == args.claims:
            decided_s = time.monotonic() - restarted
            break
        time.sleep(0.25)
    cluster.stop(group=True)
    print(f"{name}: {args.claims} claims; at the kill {at_kill}")
    if taken_s is None:
        print(f"  not every undecided claim taken again within {args.timeout:.0f} s")
    else:
        print(f"  every undecided claim taken again  {taken_s:5.1f} s after the restart")
    if decided_s is None:
        print(f"  not all decided within {args.timeout:.0f} s: {_counts(db, prefix)}")
    else:
        print(f"  the last claim decided            {decided_s:5.1f} s after the restart")
    first, later, warm, cluster_warm = _claim_times(logs / f"{name}-restarted.log")
    if cluster_warm:
        print(f"  the cluster warm, before the fork  {cluster_warm[0]:.1f} s")
    if warm:
        print(f"  each fresh worker warm in         {', '.join(f'{w:.1f}' for w in warm)} s")
    if first and later:
        print(
            f"  a worker's first claim            {', '.join(f'{f:.1f}' for f in first)} s;"
            f" later ones median {statistics.median(later):.1f} s ({len(later)} runs)"
        )


def stop(env: dict[str, str], db: psycopg.Connection, args: Any, logs: Path, name: str) -> None:
    for group in (True, False):
        prefix = f"Stop {name} {'group' if group else 'main'}"
        _submit(env, count=4, prefix=prefix)
        cluster = Cluster(env, logs / f"{name}-stop.log")
        if not _wait(lambda: _counts(db, prefix).get("running", 0) >= 2, timeout=120):  # noqa: B023
            cluster.kill()
            print(f"{name}: no claim running to stop: {_counts(db, prefix)}")
            continue
        seconds, status = cluster.stop(group=group, wait=args.stop_wait)
        whom = "whole group" if group else "main process"
        if seconds is None:
            print(f"  SIGTERM to the {whom}: still running after {args.stop_wait:.0f} s, killed")
        else:
            print(
                f"  SIGTERM to the {whom}: stopped in {seconds:4.1f} s, exit status {status},"
                f" claims left {_counts(db, prefix)}"
            )
        # Let the next cluster finish them, so the next round starts from an empty queue.
        cluster = Cluster(env, logs / f"{name}-stop.log")
        _wait(lambda: _counts(db, prefix).get("decided", 0) == 4, timeout=args.timeout)  # noqa: B023
        cluster.stop(group=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--claims", type=int, default=12)
    parser.add_argument("--latency", type=float, default=0.8, help="seconds per search")
    parser.add_argument("--rate", type=int, default=600, help="searches a minute allowed")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument("--timeout", type=float, default=240, help="seconds, after a restart")
    parser.add_argument("--stop-wait", type=float, default=30, help="seconds before a kill")
    parser.add_argument("--brokers", nargs="+", default=["redis", "orm"])
    parser.add_argument("--no-stop", action="store_true", help="the crash only, not the stop")
    args = parser.parse_args()
    if not 4 <= args.claims <= 200:
        parser.error("--claims 4..200")
    if not (1 <= args.rate <= 6000 and 1 <= args.workers <= 16):
        parser.error("--rate 1..6000 and --workers 1..16")

    pg = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
    redis_url = os.environ.get("BENCH_REDIS", "redis://127.0.0.1:6379/0")
    dbname = f"claimcheck_crashbench_{os.getpid()}"
    logs = Path(f"/tmp/crashbench-{os.getpid()}")
    logs.mkdir(exist_ok=True)
    queues = [f"crashbench-{os.getpid()}-{name}" for name in args.brokers]
    with psycopg.connect(f"{pg}/postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{dbname}"')
    try:
        with imitation_search(latency_s=args.latency) as imitation:
            config = logs / "pipeline.yaml"
            # Free searches, as before (ImitationSearch.config makes them paid, for the tests).
            config.write_text(
                "search:\n  cascade_order: [searxng]\n  providers:\n"
                f"    searxng: {{base_url: 'http://127.0.0.1:{imitation.port}', timeout_s: 20,"
                f" rate_per_minute: {args.rate}}}\n"
            )
            base = {
                **os.environ,
                "DJANGO_SETTINGS_MODULE": "config.settings",
                "DJANGO_DEBUG": "true",
                "DATABASE_URL": f"{pg}/{dbname}",
                "CLAIMCHECK_CONFIG": str(config),
                "CLAIMCHECK_HTTP_ALLOW_LOOPBACK": "true",
                "CLAIMCHECK_WORKERS": str(args.workers),
                "CLAIMCHECK_LOG_LEVEL": "INFO",
            }
            base.pop("REDIS_URL", None)
            subprocess.run(
                [PY, "manage.py", "migrate", "--verbosity", "0"], cwd=ROOT, env=base, check=True
            )
            print(
                f"search latency {args.latency:g} s, {args.rate} a minute; {args.workers} workers;"
                f" logs in {logs}",
                flush=True,
            )
            with psycopg.connect(f"{pg}/{dbname}", autocommit=True) as db:
                for name, queue in zip(args.brokers, queues, strict=True):
                    env = {**base, "CLAIMCHECK_QUEUE": queue}
                    if name == "redis":
                        env["REDIS_URL"] = redis_url
                    crash(env, db, args, logs, name)
                    if args.no_stop:
                        continue
                    print(f"{name}: stopping a cluster with two claims running", flush=True)
                    stop(env, db, args, logs, name)
    finally:
        with psycopg.connect(f"{pg}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
        try:
            import redis

            client = redis.Redis.from_url(redis_url)
            for queue in queues:
                client.delete(f"django_q:{queue}:q", f"django_q:{queue}:q:held")
        except Exception as exc:  # the run's figures stand; say what was left behind
            print(f"could not clear the Redis queues: {exc}", file=sys.stderr)


if __name__ == "__main__":
    main()
