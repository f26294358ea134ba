"""Slow clients against the production front: gunicorn (3 workers x 4 threads, as the README
runs it) behind the shipped nginx config (deploy/nginx/), on PostgreSQL and Redis, on loopback.

24 clients each open a connection, send a signed-in `POST /api/claims` with
`Content-Length: 100` and 17 bytes of body, then nothing. While they hang, it times
`GET /healthz` and an authenticated `GET /api/me`: through nginx, and the same straight to
gunicorn. It prints, for each, the probes answered, p50 and the slowest, and the probes that
got no answer within the probe timeout. nginx runs as the user who starts the bench, with its
config, pid, logs and temp files in /tmp/stallbench-PID/.

    .venv/bin/python bench/stall_bench.py [--stalled 24] [--probes 8] [--probe-timeout 5]

Needs PostgreSQL (BENCH_PG, default postgres://postgres@127.0.0.1:5432; the scratch database
claimcheck_bench_prod_stall is dropped at the end), Redis (BENCH_REDIS, default
redis://127.0.0.1:6379/7) and Debian's nginx.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load_bench import (
    GUNICORN,
    PASSWORD,
    SETUP,
    Scratch,
    _end_on_signal,
    _free_port,
    _manage,
    _pct,
    wait_healthy,
)
from bench.nginx_front import ROOT, nginx_front

# Signed in, so that the app goes on to read the body (a request without a token is refused
# before its body is read, and holds no thread).
STALL_HEAD = (
    "POST /api/claims HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
    "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
)
STALL_BODY = b'{"text": "The bri'  # 17 bytes of the 100 announced
assert len(STALL_BODY) == 17


def stall(base: str, token: str, count: int) -> list[socket.socket]:
    """`count` connections, each mid-way through a request body it never finishes."""
    host, port = base.removeprefix("http://").split(":")
    stalled = []
    for _ in range(count):
        sock = socket.create_connection((host, int(port)), timeout=5)
        sock.sendall(STALL_HEAD.format(token=token).encode() + STALL_BODY)
        stalled.append(sock)
    return stalled


def probe(
    base: str, token: str, *, count: int, timeout: float
) -> dict[str, tuple[list[float], int]]:
    """Sequential GETs of /healthz and /api/me on fresh connections: latencies (ms) of the
    answered ones, and how many got no answer within `timeout`."""
    figures: dict[str, tuple[list[float], int]] = {}
    for label, path, headers in (
        ("/healthz", "/healthz", {}),
        ("/api/me", "/api/me", {"Authorization": f"Bearer {token}"}),
    ):
        answered: list[float] = []
        missed = 0
        for _ in range(count):
            t0 = time.monotonic()
            try:
                response = httpx.get(f"{base}{path}", headers=headers, timeout=timeout)
                if response.status_code == 200:
                    answered.append((time.monotonic() - t0) * 1000)
                else:
                    missed += 1
            except httpx.HTTPError:
                missed += 1
        figures[label] = (answered, missed)
    return figures


def report(title: str, figures: dict[str, tuple[list[float], int]], timeout: float) -> None:
    for label, (answered, missed) in figures.items():
        if answered:
            timing = f"p50 {_pct(answered, 0.5):7.1f} ms, slowest {max(answered):7.1f} ms"
        else:
            timing = "no answer at all"
        print(
            f"{title:<34} {label:<9} {len(answered):>2} answered, {timing}; "
            f"{missed} without an answer within {timeout:.0f} s",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stalled", type=int, default=24)
    parser.add_argument("--probes", type=int, default=8)
    parser.add_argument("--probe-timeout", type=float, default=5.0)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, _end_on_signal)
    signal.signal(signal.SIGHUP, _end_on_signal)
    pg = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
    redis_url = os.environ.get("BENCH_REDIS", "redis://127.0.0.1:6379/7")
    scratch = Scratch(
        pg=pg,
        dbname="claimcheck_bench_prod_stall",
        redis_url=redis_url,
        queue=f"stallbench-{os.getpid()}",
    )
    try:
        scratch.create_database()
        _run(args, scratch=scratch)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        raise SystemExit(130) from None
    finally:
        scratch.close()


def _run(args: argparse.Namespace, *, scratch: Scratch) -> None:
    work = Path(f"/tmp/stallbench-{os.getpid()}")
    work.mkdir(exist_ok=True)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "stall-bench-only",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_COOKIES": "false",
        "DATABASE_URL": f"{scratch.pg}/{scratch.dbname}",
        "REDIS_URL": scratch.redis_url,
        "CLAIMCHECK_QUEUE": scratch.queue,
        "CLAIMCHECK_DB_POOL_MAX": "4",
        "CLAIMCHECK_LOG_LEVEL": "WARNING",
    }
    print(f"setting up {scratch.dbname} ...", flush=True)
    _manage(env, "migrate", "--verbosity", "0")
    token = _manage(env, "shell", "-c", SETUP.format(password=PASSWORD)).split("TOKEN ")[1]
    token = token.strip()
    port = _free_port()
    direct = f"http://127.0.0.1:{port}"
    command = [GUNICORN, "config.wsgi:application", "--workers", "3", "--threads", "4"]
    command += ["--timeout", "60", "--bind", f"127.0.0.1:{port}"]
    scratch.start(command, env=env, log=work / "gunicorn.log")
    wait_healthy(direct, work / "gunicorn.log")

    with nginx_front(
        work=work / "nginx", upstream=f"127.0.0.1:{port}", static_root=ROOT / "static"
    ) as front:
        print(f"gunicorn 3 workers x 4 threads on {direct}, nginx on {front}; logs in {work}")
        print(f"{args.stalled} stalled clients, {args.probes} probes of each path\n", flush=True)
        report(
            "no stalled client, through nginx",
            probe(front, token, count=args.probes, timeout=args.probe_timeout),
            args.probe_timeout,
        )
        for title, base in (
            ("stalled, through nginx", front),
            ("stalled, straight to gunicorn", direct),
        ):
            stalled = stall(base, token, args.stalled)
            try:
                time.sleep(1)  # let every stalled request reach whoever reads it
                figures = probe(base, token, count=args.probes, timeout=args.probe_timeout)
            finally:
                for sock in stalled:
                    sock.close()
            report(title, figures, args.probe_timeout)
            time.sleep(2)  # the server frees what the closed clients held


if __name__ == "__main__":
    main()
