"""bench/soak_bench.py for thirty seconds with its faults on (the worker cluster killed once,
PostgreSQL restarted once): it prints its figures, its checks pass, and it leaves nothing
behind (no process of its run, no private PostgreSQL, no Redis queue)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import redis
from django.conf import settings

pytestmark = pytest.mark.redis

REDIS = os.environ.get("BENCH_REDIS", "redis://127.0.0.1:6379/11")


def _processes_of(queue: str) -> list[int]:
    """Live processes started for the run: the server and the worker carry its queue's name."""
    marker = f"CLAIMCHECK_QUEUE={queue}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if (
                entry.name.isdigit()
                and marker in (entry / "environ").read_bytes().split(b"\0")
                and (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
            ):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def test_a_short_soak_with_faults_prints_its_figures_and_passes_its_checks() -> None:
    command = [sys.executable, "bench/soak_bench.py", "--seconds", "30", "--every", "13"]
    command += ["--lease", "5", "--pg-down", "2", "--rate", "12", "--clients", "6"]
    bench = subprocess.Popen(  # noqa: S603 (our own interpreter, fixed arguments)
        command,
        cwd=settings.BASE_DIR,
        env={**os.environ, "BENCH_REDIS": REDIS},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        output = bench.communicate(timeout=240)[0]
    finally:
        if bench.poll() is None:
            bench.kill()
            bench.wait()
    queue = f"soakbench-{bench.pid}"

    assert "worker cluster killed (SIGKILL to" in output, output
    assert re.search(r"PostgreSQL restarted \(fast\): down \d+\.\d s", output), output
    for kind in ("POST /api/claims", "GET /api/claims", "GET / (queue page)"):
        assert re.search(rf"{re.escape(kind)}\s+\d+\s+p50", output), output
    assert "PostgreSQL restarts 1," in output
    assert "memory (RSS) at the start and at the end" in output
    for role in ("gunicorn", "qcluster", "nginx", "postgres"):
        assert re.search(rf"{role}\s+start\s+\d+ processes\s+[\d.]+ MB\s+end", output), output
    assert "ok   no 5xx outside the seconds the database was down" in output
    assert bench.returncode == 0, output
    assert "all checks passed" in output

    port = re.search(r"private PostgreSQL on port (\d+)", output)
    assert port is not None and not _listening(int(port[1]))
    assert _processes_of(queue) == []
    assert not list(redis.Redis.from_url(REDIS).scan_iter(match=f"django_q:{queue}:*"))
