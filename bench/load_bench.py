"""Load on the production shape: gunicorn (as the README runs it) and two qcluster workers on
PostgreSQL and Redis, all on loopback.

Creates a scratch PostgreSQL database, migrates it, loads the demo corpus (so claims can be
decided with no network), starts gunicorn behind the shipped nginx front (deploy/nginx/; `--via
gunicorn` talks to gunicorn straight) and one `qcluster` with two workers, then posts N claims
from C concurrent API clients. While the load runs it samples `GET /api/claims` and the
queue page (signed in), and the number of database connections in use. It prints accepted per
second, errors by status, POST p50 / p95, the sampled GET p50 / p95, the time until every claim
is decided, and the most connections the app held (the bench's own are not counted). Everything
is stopped and dropped at the end, also when the run is cut short (Ctrl-C, a kill or a timeout's
SIGTERM, a hang-up): nginx, the server and the worker with every process they started, the
scratch database and the run's Redis queue.

    .venv/bin/python bench/load_bench.py [--claims 400] [--concurrency 32] [--timeout 900]
        [--via nginx|gunicorn]

Needs PostgreSQL (BENCH_PG, default postgres://postgres@127.0.0.1:5432), Redis (BENCH_REDIS,
default redis://127.0.0.1:6379/0) and Debian's nginx.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.nginx_front import nginx_front  # noqa: E402

PY = str(ROOT / ".venv" / "bin" / "python")
GUNICORN = str(ROOT / ".venv" / "bin" / "gunicorn")
PASSWORD = "load-bench-" + secrets.token_hex(8)
# The bench's own database connections carry this name, and are not counted as the app's.
BENCH_CONNECTION = "claimcheck-load-bench"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [PY, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


SETUP = """
from django.contrib.auth.models import Group, User
from claimcheck.models import ApiToken
user = User.objects.create_user("loadbench", password={password!r})
user.groups.add(Group.objects.get_or_create(name="editors")[0])
print("TOKEN", ApiToken.issue(user=user, name="load bench")[1])
"""


def _login(base: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=30)
    page = client.get("/login/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    assert token, "no CSRF token on the login page"
    done = client.post(
        "/login/",
        data={"username": "loadbench", "password": PASSWORD, "csrfmiddlewaretoken": token[1]},
        headers={"Referer": f"{base}/login/"},
    )
    assert done.status_code in (200, 302) and "sessionid" in client.cookies, "login failed"
    return client


class Scratch:
    """What a run starts and must take away again, whatever ends it."""

    def __init__(self, *, pg: str, dbname: str, redis_url: str, queue: str) -> None:
        self.pg = pg
        self.dbname = dbname
        self.redis_url = redis_url
        self.queue = queue
        self.processes: list[subprocess.Popen[bytes]] = []
        self.fronts = contextlib.ExitStack()
        self.closed = False

    def create_database(self) -> None:
        with psycopg.connect(f"{self.pg}/postgres", autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{self.dbname}"')

    def start(self, command: list[str], *, env: dict[str, str], log: Path) -> None:
        """A server or worker in a process group of its own: a Ctrl-C meant for the bench does
        not reach it, and stopping the group reaches every process it forked."""
        with log.open("wb") as out:
            self.processes.append(
                subprocess.Popen(
                    command,
                    cwd=ROOT,
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )

    def close(self) -> None:
        """Stop the process groups (SIGTERM, then SIGKILL after 20 s), drop the database and
        delete the queue's Redis keys. Safe to call twice; a second Ctrl-C or a kill does not
        cut it short."""
        if self.closed:
            return
        self.closed = True
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, signal.SIG_IGN)
        print("stopping the server and the worker, dropping the scratch database ...", flush=True)
        self.fronts.close()
        for process in self.processes:
            _stop_group(process)
        try:
            with psycopg.connect(f"{self.pg}/postgres", autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{self.dbname}" WITH (FORCE)')
        except psycopg.Error as exc:
            print(f"could not drop {self.dbname}: {exc}", file=sys.stderr)
        try:
            import redis

            client = redis.Redis.from_url(self.redis_url)
            keys = list(client.scan_iter(match=f"django_q:{self.queue}:*"))
            if keys:
                client.delete(*keys)
        except Exception as exc:  # the run's figures stand; say what was left behind
            print(f"could not clear the Redis queue {self.queue}: {exc}", file=sys.stderr)


def wait_healthy(base: str, log: Path) -> None:
    """Wait until the server at `base` answers `/healthz` (about 30 s at most)."""
    for _ in range(100):
        try:
            if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise SystemExit(f"the server did not answer; see {log}")


def _stop_group(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)
    except ProcessLookupError:
        return  # gone already
    except subprocess.TimeoutExpired:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            return
        process.wait(timeout=10)


def _end_on_signal(signum: int, frame: object) -> None:
    """SIGTERM (a kill, a timeout) and SIGHUP end the run as a Ctrl-C does: through the
    clean-up."""
    raise SystemExit(128 + signum)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--claims", type=int, default=400)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--timeout", type=float, default=900, help="seconds, the whole run")
    parser.add_argument("--gunicorn-workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--pool", type=int, default=4, help="CLAIMCHECK_DB_POOL_MAX")
    parser.add_argument(
        "--via", choices=["nginx", "gunicorn"], default="nginx", help="what the clients talk to"
    )
    args = parser.parse_args()
    if not (1 <= args.claims <= 5000 and 1 <= args.concurrency <= 256):
        parser.error("--claims 1..5000 and --concurrency 1..256")
    started_all = time.monotonic()
    signal.signal(signal.SIGTERM, _end_on_signal)
    signal.signal(signal.SIGHUP, _end_on_signal)

    pg = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
    redis_url = os.environ.get("BENCH_REDIS", "redis://127.0.0.1:6379/0")
    dbname = f"claimcheck_loadbench_{os.getpid()}"
    scratch = Scratch(pg=pg, dbname=dbname, redis_url=redis_url, queue=f"loadbench-{os.getpid()}")
    try:
        scratch.create_database()
        _run(args, scratch=scratch, started_all=started_all)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        raise SystemExit(130) from None
    finally:
        scratch.close()


def _run(args: argparse.Namespace, *, scratch: Scratch, started_all: float) -> None:
    pg, dbname, redis_url = scratch.pg, scratch.dbname, scratch.redis_url
    port = _free_port()
    direct = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        # Debug serves static files without collectstatic; it keeps each request's queries
        # in memory (reset per request), a small cost on every figure below.
        "DJANGO_DEBUG": "true",
        "DJANGO_SECURE_COOKIES": "false",
        "DATABASE_URL": f"{pg}/{dbname}",
        "REDIS_URL": redis_url,
        "CLAIMCHECK_QUEUE": scratch.queue,
        "CLAIMCHECK_WORKERS": "2",
        "CLAIMCHECK_DB_POOL_MAX": str(args.pool),
        "CLAIMCHECK_LOG_LEVEL": "WARNING",
    }
    logs = Path(f"/tmp/loadbench-{os.getpid()}")
    logs.mkdir(exist_ok=True)
    print(f"setting up {dbname} ...", flush=True)
    _manage(env, "migrate", "--verbosity", "0")
    _manage(env, "load_demo")
    token = _manage(env, "shell", "-c", SETUP.format(password=PASSWORD)).split("TOKEN ")[1]
    token = token.strip()
    for name, command in (
        (
            "gunicorn",
            [
                GUNICORN,
                "config.wsgi:application",
                "--workers",
                str(args.gunicorn_workers),
                "--threads",
                str(args.threads),
                "--bind",
                f"127.0.0.1:{port}",
            ],
        ),
        ("qcluster", [PY, "manage.py", "qcluster"]),
    ):
        scratch.start(command, env=env, log=logs / f"{name}.log")
    wait_healthy(direct, logs / "gunicorn.log")
    base = direct
    if args.via == "nginx":
        base = scratch.fronts.enter_context(
            nginx_front(
                work=logs / "nginx", upstream=f"127.0.0.1:{port}", static_root=ROOT / "static"
            )
        )

    stop = threading.Event()
    most_connections = [0]
    gets: dict[str, list[float]] = {"/api/claims": [], "queue page": []}
    get_errors: Counter[str] = Counter()

    def sample_connections() -> None:
        with psycopg.connect(
            f"{pg}/postgres", autocommit=True, application_name=BENCH_CONNECTION
        ) as conn:
            while not stop.is_set():
                row = conn.execute(
                    "SELECT count(*) FROM pg_stat_activity"
                    " WHERE datname = %s AND application_name <> %s",
                    [dbname, BENCH_CONNECTION],
                ).fetchone()
                most_connections[0] = max(most_connections[0], int(row[0]) if row else 0)
                time.sleep(0.2)

    def sample_pages() -> None:
        api = httpx.Client(base_url=base, timeout=30, headers={"Authorization": f"Bearer {token}"})
        page = _login(base)
        while not stop.is_set():
            for label, client, url in (
                ("/api/claims", api, "/api/claims"),
                ("queue page", page, "/"),
            ):
                t0 = time.monotonic()
                try:
                    status: int | str = client.get(url).status_code
                except httpx.HTTPError as exc:
                    status = type(exc).__name__
                if status == 200:
                    gets[label].append((time.monotonic() - t0) * 1000)
                else:
                    get_errors[f"{label} {status}"] += 1
            time.sleep(0.25)

    samplers = [
        threading.Thread(target=sample_connections, daemon=True),
        threading.Thread(target=sample_pages, daemon=True),
    ]
    for thread in samplers:
        thread.start()

    statuses: Counter[str] = Counter()
    post_ms: list[float] = []
    lock = threading.Lock()
    local = threading.local()

    def post(i: int) -> None:
        if not hasattr(local, "client"):
            local.client = httpx.Client(
                base_url=base, timeout=60, headers={"Authorization": f"Bearer {token}"}
            )
        body = {"text": f"Load claim {i}: the council adopted the battery passport rules"}
        t0 = time.monotonic()
        try:
            status = str(local.client.post("/api/claims", json=body).status_code)
        except httpx.HTTPError as exc:
            status = type(exc).__name__
        with lock:
            statuses[status] += 1
            if status == "202":
                post_ms.append((time.monotonic() - t0) * 1000)

    print(f"posting {args.claims} claims from {args.concurrency} clients ...", flush=True)
    t_load = time.monotonic()
    pool = ThreadPoolExecutor(max_workers=args.concurrency)
    try:
        list(pool.map(post, range(args.claims)))
    finally:
        # Cut short: the posts not sent yet are never sent.
        pool.shutdown(wait=False, cancel_futures=True)
    load_s = time.monotonic() - t_load

    accepted = statuses.get("202", 0)
    decided_s: float | None = None
    with psycopg.connect(
        f"{pg}/{dbname}", autocommit=True, application_name=BENCH_CONNECTION
    ) as conn:
        while time.monotonic() - started_all < args.timeout:
            row = conn.execute(
                "SELECT count(*) FROM claimcheck_claim WHERE status IN ('decided', 'failed')"
            ).fetchone()
            if row and int(row[0]) >= accepted:
                decided_s = time.monotonic() - t_load
                break
            time.sleep(1)
        outcome_rows = conn.execute(
            "SELECT status, count(*) FROM claimcheck_claim GROUP BY status"
        ).fetchall()
    stop.set()
    for thread in samplers:
        thread.join(timeout=10)

    errors = {k: v for k, v in statuses.items() if k != "202"}
    print()
    print(
        f"claims {args.claims}, concurrency {args.concurrency}, via {args.via}, gunicorn "
        f"{args.gunicorn_workers}x{args.threads} threads, pool {args.pool}, 2 qcluster workers"
    )
    print(f"accepted          {accepted} in {load_s:.1f} s = {accepted / load_s:.1f} / s")
    print(f"errors by status  {errors or 'none'}")
    print(f"POST p50 / p95    {_pct(post_ms, 0.5):.0f} / {_pct(post_ms, 0.95):.0f} ms")
    for label, values in gets.items():
        print(
            f"GET {label:<13} p50 / p95 {_pct(values, 0.5):.0f} / {_pct(values, 0.95):.0f} ms"
            f" ({len(values)} samples)"
        )
    print(f"GET errors        {dict(get_errors) or 'none'}")
    if decided_s is None:
        print(f"decided           not all within {args.timeout:.0f} s: {dict(outcome_rows)}")
    else:
        print(f"all decided after {decided_s:.1f} s ({dict(outcome_rows)})")
    print(f"most DB connections the app held  {most_connections[0]}")


if __name__ == "__main__":
    main()
