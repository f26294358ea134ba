"""bench/load_bench.py cut short, by a Ctrl-C or by a timeout's SIGTERM, leaves nothing behind:
no nginx, server or worker process, no scratch database, no Redis queue."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
import redis
from django.conf import settings

pytestmark = pytest.mark.redis

PG = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
REDIS = os.environ.get("BENCH_REDIS", "redis://127.0.0.1:6379/0")


def _processes_of(queue: str) -> list[int]:
    """Live processes started for this run: the server and worker carry its queue's name."""
    found = []
    marker = f"CLAIMCHECK_QUEUE={queue}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if marker in (entry / "environ").read_bytes().split(b"\0"):
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if state != "Z":
                    found.append(int(entry.name))
        except OSError:
            continue
    return found


def _fronts_of(pid: int) -> list[int]:
    """Live nginx processes of the bench run `pid`: their command line names its directory."""
    marker = f"/tmp/loadbench-{pid}/".encode()
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def _database_exists(name: str) -> bool:
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        row = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
    return row is not None


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "timeout"])
def test_a_run_cut_short_stops_its_processes_and_drops_its_database_and_queue(
    signum: int,
) -> None:
    bench = subprocess.Popen(
        [sys.executable, "bench/load_bench.py", "--claims", "3000", "--concurrency", "8"],
        cwd=settings.BASE_DIR,
        env={**os.environ, "BENCH_PG": PG, "BENCH_REDIS": REDIS},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        # As from a terminal: a test runner in the background may ignore SIGINT, and a process
        # cannot handle a signal it started with ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    queue, dbname = f"loadbench-{bench.pid}", f"claimcheck_loadbench_{bench.pid}"
    key = f"django_q:{queue}:q"
    client = redis.Redis.from_url(REDIS)
    try:
        assert bench.stdout is not None
        for line in bench.stdout:
            if line.startswith("posting"):
                break
        else:
            pytest.fail(f"the bench ended before posting: exit {bench.wait()}")
        # Mid-run: the server and worker are up, claims wait in the queue.
        deadline = time.monotonic() + 60
        while not client.exists(key) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert client.exists(key), "no claim reached the queue"
        assert len(_processes_of(queue)) >= 3 and _database_exists(dbname)
        assert _fronts_of(bench.pid), "the bench runs no nginx front"

        bench.send_signal(signum)
        output = bench.communicate(timeout=90)[0]
    finally:
        if bench.poll() is None:
            bench.kill()
        shutil.rmtree(f"/tmp/loadbench-{bench.pid}", ignore_errors=True)  # its logs
    assert bench.returncode == 128 + signum, output
    assert "stopping the server and the worker, dropping the scratch database" in output
    assert _processes_of(queue) == []
    assert _fronts_of(bench.pid) == []
    assert not _database_exists(dbname)
    assert not list(client.scan_iter(match=f"django_q:{queue}:*"))
    assert not re.search(r"could not (drop|clear)", output), output
