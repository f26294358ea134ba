"""An operator's week in an hour: the production stack under steady desk traffic while, on a
schedule, its parts fail, and afterwards the promises that must hold through it all checked.

Starts a PostgreSQL of its own (bench/private_pg.py: it is restarted, so it cannot be the
machine's), loads the demo corpus, and runs gunicorn (3 workers x 4 threads) behind the shipped
nginx front and one `qcluster` (--workers) on Redis. Claims are searched in the demo corpus
and on an imitation provider that answers slowly (bench/imitation_search.py), so each takes a
few seconds. With --llm the local model server (`python -m integrations.llm.local_server`, as
scripts/run starts it) reads them too. For the time given, --clients editors post claims
(--rate a minute in all), read the queue (`GET /api/claims` and the queue page) and override
verdicts (`POST /api/claims/{id}/override`), while every --every seconds, by turns:
- the worker cluster is killed (SIGKILL to its process group) and started again at once;
- PostgreSQL is restarted fast (`pg_ctl stop -m fast`), down for --pg-down seconds;
- (with --llm) the model server is killed, and started again after a pause that grows while
  it keeps dying, as scripts/run does; the app must go on answering meanwhile.
Then the traffic stops, the claims still queued are left to finish (--drain), and it prints
the answers by kind, each restart's outage, the memory (RSS) of every process at the start and
at the end, and the checks: every claim posted decided exactly once (one verdict and one verdict
event a run, no evidence or search run written twice, one override row per override made), no
5xx outside the seconds the database was down and only 503 with Retry-After within them, every
request answered, no claim a restart caught running left running (no live lease: no worker
moving it) one lease (--lease, CLAIMCHECK_LEASE_SECONDS) after the database answered again, no
process that exited by itself. It exits 1 when a check fails. Everything is stopped and removed
at the end, also when the run is cut short (Ctrl-C, SIGTERM, SIGHUP); the logs stay in
/tmp/soakbench-PID/.

    .venv/bin/python bench/soak_bench.py [--minutes 60 | --seconds 90] [--clients 6]
        [--rate 12] [--every 60] [--lease 20] [--pg-down 3] [--workers 2] [--llm]

Needs Debian's PostgreSQL server binaries, nginx, and Redis (BENCH_REDIS, default
redis://127.0.0.1:6379/11; only this run's queue keys are touched).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import signal
import sys
import time
from pathlib import Path

import httpx
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.imitation_search import imitation_search  # noqa: E402
from bench.load_bench import GUNICORN, PASSWORD, PY, SETUP, _free_port, _manage  # noqa: E402
from bench.nginx_front import nginx_front  # noqa: E402
from bench.private_pg import Outage, PrivatePostgres, private_postgres  # noqa: E402
from bench.soak_checks import (  # noqa: E402
    Check,
    answers_table,
    check_answers,
    check_decided_once,
    in_flight_after_restarts,
    memory_table,
    override_answers,
)
from bench.soak_traffic import Traffic, claim_texts  # noqa: E402
from bench.soak_watch import ProcessMemory, RunningClaims, Supervised, memory  # noqa: E402


def _end_on_signal(signum: int, frame: object) -> None:
    """SIGTERM and SIGHUP end the run as a Ctrl-C does: through the clean-up."""
    raise SystemExit(128 + signum)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=60, help="how long the traffic runs")
    parser.add_argument("--seconds", type=float, help="the same in seconds (wins over minutes)")
    parser.add_argument("--clients", type=int, default=6, help="posters, readers, overriders")
    parser.add_argument("--rate", type=float, default=12, help="claims posted a minute, in all")
    parser.add_argument("--every", type=float, default=60, help="seconds between faults")
    parser.add_argument("--lease", type=int, default=20, help="CLAIMCHECK_LEASE_SECONDS")
    parser.add_argument("--pg-down", type=float, default=3, help="seconds PostgreSQL stays down")
    parser.add_argument("--workers", type=int, default=2, help="qcluster worker processes")
    parser.add_argument("--latency", type=float, default=1.0, help="seconds per imitated search")
    parser.add_argument("--drain", type=float, default=240, help="seconds to finish the queue")
    parser.add_argument("--llm", action="store_true", help="run and kill the local model server")
    args = parser.parse_args()
    args.duration = args.seconds if args.seconds is not None else args.minutes * 60
    if not 10 <= args.duration <= 24 * 3600:
        parser.error("the run lasts 10 s to 24 h")
    if not (3 <= args.clients <= 64 and 0 < args.rate <= 600 and 1 <= args.workers <= 16):
        parser.error("--clients 3..64, --rate up to 600 a minute, --workers 1..16")
    if args.lease < 3 or args.every < 2 * args.lease + args.pg_down:
        # Faults closer than that would blur each other: a killed cluster's claims stay running
        # up to 1.5 leases, and a restart's claims are watched for one lease after it.
        parser.error("--lease at least 3, and --every at least 2 x --lease + --pg-down")
    return args


def _search_config(path: Path, port: int) -> Path:
    """The demo corpus (local) and the slow imitation provider, searched together."""
    path.write_text(
        "search:\n  cascade_order: [local, searxng]\n  providers:\n    local: {}\n"
        f"    searxng: {{base_url: 'http://127.0.0.1:{port}', timeout_s: 20,"
        " rate_per_minute: 6000}\n"
    )
    return path


class Clock:
    def __init__(self) -> None:
        self.t0 = time.monotonic()

    def say(self, message: str) -> None:
        print(f"[{time.monotonic() - self.t0:7.1f} s] {message}", flush=True)


def _model_server(stack: contextlib.ExitStack, env: dict[str, str], work: Path) -> Supervised:
    from integrations.llm.local_server import wait_healthy, write_config

    port = _free_port()
    server = Supervised(
        "model server",
        [PY, "-m", "integrations.llm.local_server", "--port", str(port)],
        env=env,
        cwd=ROOT,
        log=work / "model-server.log",
    )
    server.start()
    stack.callback(server.stop)
    wait_healthy(port, timeout_s=120, alive=server.alive)
    out = work / "pipeline-llm.yaml"
    write_config(base=Path(env["CLAIMCHECK_CONFIG"]), out=out, port=port)
    env["CLAIMCHECK_CONFIG"] = str(out)
    return server


def _fault(
    kind: str,
    *,
    pg: PrivatePostgres,
    cluster: Supervised,
    model: Supervised | None,
    args: argparse.Namespace,
) -> tuple[str, Outage | None]:
    if kind == "cluster":
        killed = cluster.kill()
        cluster.start()
        return f"worker cluster killed (SIGKILL to {killed} processes), started again", None
    if kind == "postgres":
        outage = pg.restart(down_s=args.pg_down)
        return f"PostgreSQL restarted (fast): down {outage.seconds:.1f} s", outage
    assert model is not None
    killed = model.kill()
    return f"model server killed (SIGKILL, {killed} process)", None


def _counts(url: str, ids: list[int]) -> dict[str, int]:
    try:
        with psycopg.connect(url, connect_timeout=3) as conn:
            rows = conn.execute(
                "SELECT status, count(*) FROM claimcheck_claim WHERE id = ANY(%s) GROUP BY status",
                [ids],
            ).fetchall()
    except psycopg.Error:
        return {}
    return {str(s): int(n) for s, n in rows}


def run(args: argparse.Namespace, stack: contextlib.ExitStack) -> int:
    clock = Clock()
    work = Path(f"/tmp/soakbench-{os.getpid()}")
    work.mkdir(exist_ok=True)
    redis_url = os.environ.get("BENCH_REDIS", "redis://127.0.0.1:6379/11")
    queue = f"soakbench-{os.getpid()}"
    stack.callback(_clear_queue, redis_url, queue)
    pg = stack.enter_context(private_postgres())
    db_url = pg.create_database("claimcheck_soak")
    search = stack.enter_context(imitation_search(latency_s=args.latency))
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "soak-bench-only",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_COOKIES": "false",
        "CLAIMCHECK_STATIC_FROM_SOURCE": "true",
        "DATABASE_URL": db_url,
        "REDIS_URL": redis_url,
        "CLAIMCHECK_QUEUE": queue,
        "CLAIMCHECK_WORKERS": str(args.workers),
        "CLAIMCHECK_LEASE_SECONDS": str(args.lease),
        "CLAIMCHECK_HTTP_ALLOW_LOOPBACK": "true",
        "CLAIMCHECK_CONFIG": str(_search_config(work / "pipeline.yaml", search.port)),
        "CLAIMCHECK_LOG_LEVEL": "INFO",
    }
    clock.say(f"private PostgreSQL on port {pg.port}; logs in {work}")
    model = _model_server(stack, env, work) if args.llm else None
    quiet = {**env, "CLAIMCHECK_LOG_LEVEL": "WARNING"}
    _manage(quiet, "migrate", "--verbosity", "0")
    # The demo corpus and the editor's account in one start of Django: it takes seconds.
    setup = "from django.core.management import call_command\ncall_command('load_demo')\n"
    setup += SETUP.format(password=PASSWORD)
    token = _manage(quiet, "shell", "-c", setup).split("TOKEN ")[1]
    port = _free_port()
    server = [GUNICORN, "config.wsgi:application", "--workers", "3", "--threads", "4"]
    gunicorn = Supervised(
        "gunicorn",
        [*server, "--bind", f"127.0.0.1:{port}"],
        env=env,
        cwd=ROOT,
        log=work / "gunicorn.log",
    )
    cluster = Supervised(
        "worker cluster",
        [PY, "manage.py", "qcluster"],
        env=env,
        cwd=ROOT,
        log=work / "qcluster.log",
    )
    for process in (gunicorn, cluster):
        process.start()
        stack.callback(process.stop)
    _wait_healthy(f"http://127.0.0.1:{port}", gunicorn)
    base = stack.enter_context(
        nginx_front(work=work / "nginx", upstream=f"127.0.0.1:{port}", static_root=ROOT / "static")
    )
    nginx_pid = int((work / "nginx" / "nginx.pid").read_text())
    time.sleep(5)  # the cluster's workers warm before the first figures

    def roots() -> dict[str, int | None]:
        found = {
            "gunicorn": gunicorn.pid,
            "qcluster": cluster.pid,
            "nginx": nginx_pid,
            "postgres": pg.postmaster_pid(),
        }
        return found | ({"model server": model.pid} if model else {})

    memory_start = memory(roots())
    traffic = Traffic(
        base=base,
        token=token.strip(),
        username="loadbench",
        password=PASSWORD,
        clients=args.clients,
        per_minute=args.rate,
        texts=claim_texts(ROOT / "demo" / "claims.json"),
    )
    sampler = RunningClaims(db_url, lease=args.lease)
    stack.callback(sampler.stop.set)
    stack.callback(traffic.finish)
    sampler.start()
    traffic.start()
    clock.say(
        f"traffic on {base}: {args.clients} clients, {args.rate:g} claims a minute, "
        f"a fault every {args.every:g} s for {args.duration:g} s"
    )

    kinds = ["cluster", "postgres"] + (["model server"] if model else [])
    faults = itertools.cycle(kinds)
    outages: list[Outage] = []
    started = time.monotonic()
    next_fault, next_note = started + args.every, started + 60

    def supervise() -> None:
        for process, growing in ((gunicorn, False), (cluster, False), (model, True)):
            if process is not None and (note := process.ensure(growing_pause=growing)):
                clock.say(note)

    while time.monotonic() - started < args.duration:
        supervise()
        if time.monotonic() >= next_fault:
            note, outage = _fault(next(faults), pg=pg, cluster=cluster, model=model, args=args)
            outages += [outage] if outage else []
            clock.say(note)
            next_fault += args.every
        if time.monotonic() >= next_note:
            next_note += 60
            clock.say(
                f"{len(traffic.answers)} answers, claims {_counts(db_url, traffic.claim_ids)}"
            )
        time.sleep(0.25)
    traffic.finish()
    ids = list(traffic.claim_ids)
    clock.say(f"traffic stopped; {len(ids)} claims posted, waiting for them to be decided")
    drain_until = time.monotonic() + args.drain
    while time.monotonic() < drain_until:
        supervise()
        counts = _counts(db_url, ids)
        if sum(n for s, n in counts.items() if s in ("decided", "failed")) >= len(ids):
            break
        time.sleep(1)
    clock.say(f"claims {_counts(db_url, ids)}")
    memory_end = memory(roots())
    sampler.stop.set()

    checks: list[Check] = check_answers(traffic.answers, outages)
    with psycopg.connect(db_url) as conn:
        checks += check_decided_once(
            conn, ids=ids, overrides_made=override_answers(traffic.answers)
        )
    stuck, restart_lines = in_flight_after_restarts(
        sampler.samples, outages, lease=float(args.lease), left=sampler.left
    )
    checks.append(stuck)
    alone = {p.name: p.died_alone for p in (gunicorn, cluster, model) if p and p.died_alone}
    if not _alive(nginx_pid):
        alone["nginx"] = 1
    checks.append(Check("no process exited by itself", not alone, [f"{alone}"] if alone else []))
    checks.append(Check("no client crashed", not traffic.crashed, traffic.crashed[:5]))
    _report(args, traffic, outages, restart_lines, memory_start, memory_end, checks, model)
    return 0 if all(c.ok for c in checks) else 1


def _report(
    args: argparse.Namespace,
    traffic: Traffic,
    outages: list[Outage],
    restart_lines: list[str],
    memory_start: dict[str, list[ProcessMemory]],
    memory_end: dict[str, list[ProcessMemory]],
    checks: list[Check],
    model: Supervised | None,
) -> None:
    print()
    print(
        f"soak {args.duration:g} s: {args.clients} clients, {args.rate:g} claims a minute, "
        f"{args.workers} workers, lease {args.lease} s, a fault every {args.every:g} s"
        f"{', with the model server' if model else ''}"
    )
    print(f"answers ({len(traffic.answers)}; p50 / p95 of the expected ones)")
    for line in answers_table(traffic.answers):
        print(line)
    down = sum(o.seconds for o in outages)
    print(f"PostgreSQL restarts {len(outages)}, down {down:.1f} s in all")
    for line in restart_lines:
        print(line)
    print("memory (RSS) at the start and at the end")
    for line in memory_table(memory_start, memory_end):
        print(line)
    print("checks")
    for check in checks:
        print(f"  {'ok  ' if check.ok else 'FAIL'} {check.name}")
        for detail in check.details:
            print(f"         {detail}")
    failed = sum(not c.ok for c in checks)
    print(f"{'all checks passed' if not failed else f'{failed} checks failed'}", flush=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _wait_healthy(base: str, server: Supervised) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if not server.alive():
            raise SystemExit(f"gunicorn exited; see {server.log}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                return
        time.sleep(0.3)
    raise SystemExit(f"gunicorn did not answer within 60 s; see {server.log}")


def _clear_queue(redis_url: str, queue: str) -> None:
    import redis

    try:
        client = redis.Redis.from_url(redis_url)
        keys = list(client.scan_iter(match=f"django_q:{queue}:*"))
        if keys:
            client.delete(*keys)
    except redis.RedisError as exc:  # the run's figures stand; say what was left behind
        print(f"could not clear the Redis queue {queue}: {exc}", file=sys.stderr)


def main() -> None:
    args = parse_args()
    signal.signal(signal.SIGTERM, _end_on_signal)
    signal.signal(signal.SIGHUP, _end_on_signal)
    stack = contextlib.ExitStack()
    code = 1
    try:
        code = run(args, stack)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        code = 130
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
        if exc.code and not isinstance(exc.code, int):
            print(exc.code, file=sys.stderr)
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, signal.SIG_IGN)
        print("stopping everything and removing the private PostgreSQL ...", flush=True)
        stack.close()
    sys.exit(code)


if __name__ == "__main__":
    main()
