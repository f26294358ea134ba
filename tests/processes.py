"""Real processes for tests, on the test database: a `manage.py qcluster` and a gunicorn server.
The slow search provider on loopback for the claims they run is bench/imitation_search.py."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection


def database_url() -> str:
    """The test database as a DATABASE_URL, for a process started from a test."""
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{Path(db['NAME']).resolve()}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@contextmanager
def qcluster(env: dict[str, str], log_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A qcluster in a session of its own, logging to `log_path`; stopped with a SIGTERM to its
    process group (then killed, if it does not stop within 20 s) on the way out."""
    with log_path.open("w") as log:
        cluster = subprocess.Popen(
            [sys.executable, "manage.py", "qcluster"],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            yield cluster
        finally:
            try:
                os.killpg(cluster.pid, signal.SIGTERM)
                cluster.wait(timeout=20)
            except ProcessLookupError:
                cluster.wait(timeout=20)  # the test killed it already
            except subprocess.TimeoutExpired:
                os.killpg(cluster.pid, signal.SIGKILL)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def gunicorn(env: dict[str, str], log_path: Path, *, any_answer: bool = False) -> Iterator[str]:
    """The production server (`config.wsgi:application`) on a free loopback port, as the
    README runs it; yields its base URL once /healthz answers 200 (with `any_answer`, any HTTP
    status: a server whose database is down), and stops it on the way out."""
    port = free_port()
    with log_path.open("w") as log:
        server = subprocess.Popen(  # noqa: S603 (fixed arguments and a port number)
            [
                sys.executable,
                "-m",
                "gunicorn",
                "config.wsgi:application",
                "--workers",
                "1",
                "--threads",
                "2",
                "--bind",
                f"127.0.0.1:{port}",
            ],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            _wait_until_up(f"{base}/healthz", server, log_path, any_answer=any_answer)
            yield base
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)


def _wait_until_up(
    url: str, server: subprocess.Popen[bytes], log_path: Path, *, any_answer: bool = False
) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited: {log_path.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except urllib.error.HTTPError:
            if any_answer:
                return
            time.sleep(0.3)
        except (urllib.error.URLError, OSError):
            time.sleep(0.3)
    raise RuntimeError(f"the server did not answer within 60 s: {log_path.read_text()[-3000:]}")


def wait_until(condition: Callable[[], bool], *, timeout: float, every: float = 0.3) -> bool:
    """Poll `condition` until it holds (True) or `timeout` seconds pass (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(every)
    return condition()
