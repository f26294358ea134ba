"""Real worker processes for tests: a `manage.py qcluster` on the test database."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
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
    """A qcluster in a session of its own, logging to `log_path`; stopped (then killed, if it
    does not stop within 20 s) on the way out."""
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
            os.killpg(cluster.pid, signal.SIGTERM)
            try:
                cluster.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(cluster.pid, signal.SIGKILL)


def wait_until(condition: Callable[[], bool], *, timeout: float, every: float = 0.3) -> bool:
    """Poll `condition` until it holds (True) or `timeout` seconds pass (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(every)
    return condition()
