"""What the soak bench keeps an eye on: the processes it starts and kills (the worker cluster,
the model server), the memory of every process of the stack, and which claims are running.

A killed process is started again by the supervisor (`Supervised.ensure`): the cluster at once
(a service manager would), the model server after a pause that grows while it keeps dying, as
scripts/run does. A process that died without being killed is counted apart: that is a fault of
the app, not of the bench."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

import psycopg


class Supervised:
    """A command in a session (process group) of its own, started again when it dies."""

    def __init__(
        self, name: str, command: list[str], *, env: dict[str, str], cwd: Path, log: Path
    ) -> None:
        self.name = name
        self.command = command
        self.env = env
        self.cwd = cwd
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.kills = 0
        self.died_alone = 0
        self._killed = False
        self._restart_at: float | None = None
        self._pause = 1.0
        self._started_at = 0.0

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                self.command,
                cwd=self.cwd,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.starts += 1
        self._killed = False
        self._started_at = time.monotonic()

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> int:
        """SIGKILL to the whole process group; how many processes it held."""
        if self.process is None:
            return 0
        count = len(group_members(self.process.pid))
        with suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self.kills += 1
        self._killed = True
        return count

    def ensure(self, *, growing_pause: bool) -> str:
        """Start the process again if it is gone: at once, or (`growing_pause`) after 1 s,
        then 2, 4 ... at most 60 s, back to 1 s once it has run a minute. Says what it did."""
        if self.alive() or self.process is None:
            return ""
        now = time.monotonic()
        note = ""
        if self._restart_at is None:
            if not self._killed:
                self.died_alone += 1
                note = f"{self.name} exited by itself (status {self.process.returncode}); "
            if now - self._started_at >= 60:
                self._pause = 1.0
            self._restart_at = now + (self._pause if growing_pause else 0.0)
            if growing_pause:
                self._pause = min(self._pause * 2, 60.0)
                wait = self._restart_at - now
                return f"{note}{self.name} down; starting it again in {wait:.0f} s"
        if now < self._restart_at:
            return ""
        self._restart_at = None
        self.start()
        return f"{note}{self.name} started again (pid {self.pid})"

    def stop(self) -> None:
        """SIGTERM to the group, SIGKILL after 20 s."""
        if self.process is None or self.process.poll() is not None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=20)
        except ProcessLookupError:
            return
        except subprocess.TimeoutExpired:
            with suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


def _stat(pid: int) -> tuple[int, int] | None:
    """(parent pid, session id) of a live process."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    if fields[0] == "Z":
        return None
    return int(fields[1]), int(fields[3])


def _pids() -> list[int]:
    return [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()]


def group_members(leader: int) -> list[int]:
    """The live processes of the session `leader` started."""
    return [pid for pid in _pids() if (stat := _stat(pid)) and stat[1] == leader]


def tree(root: int) -> list[int]:
    """`root` and every live process below it."""
    children: dict[int, list[int]] = {}
    for pid in _pids():
        stat = _stat(pid)
        if stat:
            children.setdefault(stat[0], []).append(pid)
    if _stat(root) is None:
        return []
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return sorted(found)


@dataclass(frozen=True)
class ProcessMemory:
    pid: int
    name: str
    rss_mb: float


def _rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def _name(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except OSError:
        return "?"
    words = [w.rsplit("/", 1)[-1] if w.startswith("/") else w for w in raw.split()]
    return " ".join(words)[:60]


def memory(roots: dict[str, int | None]) -> dict[str, list[ProcessMemory]]:
    """The resident memory of every process under each role's root process."""
    found: dict[str, list[ProcessMemory]] = {}
    for role, root in roots.items():
        rows = []
        for pid in tree(root) if root else []:
            rss = _rss_mb(pid)
            if rss is not None:
                rows.append(ProcessMemory(pid=pid, name=_name(pid), rss_mb=rss))
        found[role] = rows
    return found


@dataclass
class RunningClaims:
    """Samples, twice a second, of the claims running and the take (started_at) each is on,
    from a connection of the bench's own that reconnects after the database restarts; and of
    those left running (`left`): running with no live lease, not renewed for `lease` seconds, so
    no worker is moving them. A claim whose worker is alive and waiting on a slow step (a model
    server's reply) renews its lease and is not left."""

    url: str
    lease: float
    samples: list[tuple[float, dict[int, float]]] = field(default_factory=list)
    left: list[tuple[float, dict[int, float]]] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self._loop, name="running-claims", daemon=True)
        thread.start()
        return thread

    def _loop(self) -> None:
        conn: psycopg.Connection | None = None
        while not self.stop.wait(0.5):
            try:
                if conn is None or conn.closed:
                    conn = psycopg.connect(
                        self.url, autocommit=True, connect_timeout=2, application_name="soak"
                    )
                asked = time.time()
                rows = conn.execute(
                    "SELECT id, started_at, updated_at < now() - make_interval(secs => %s) "
                    "FROM claimcheck_claim WHERE status = 'running'",
                    [self.lease],
                ).fetchall()
                takes = {int(i): s.timestamp() if s else 0.0 for i, s, _ in rows}
                self.samples.append((asked, takes))
                self.left.append((asked, {i: takes[int(i)] for i, _, stale in rows if stale}))
            except psycopg.Error:
                if conn is not None:
                    with suppress(psycopg.Error):
                        conn.close()
                conn = None
        if conn is not None:
            conn.close()
