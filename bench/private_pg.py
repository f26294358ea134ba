"""A PostgreSQL server of one's own, for a bench or a test that restarts its database.

The machine's PostgreSQL is shared (other runs, another engineer's work): a bench may not
restart it, and a restart is exactly what the soak bench and the database-restart test need.
So each gets a cluster of its own: `initdb` into a temporary directory, on a free loopback port,
with its socket in that directory, tuned for speed rather than safety (no fsync: its data is
thrown away), started and restarted with `pg_ctl`, stopped and removed on the way out.

The server binaries are Debian's (/usr/lib/postgresql/VERSION/bin, the newest). PostgreSQL
refuses to run as root, so as root every command runs as `postgres` (runuser) and the directory
is made theirs; as anyone else, as that user.

    with private_postgres() as pg:
        pg.create_database("claimcheck")
        os.environ["DATABASE_URL"] = pg.url("claimcheck")
        outage = pg.restart(down_s=2)   # a fast restart: sessions ended, then 2 s without it
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import psycopg

# Quick, not durable; enough connections for gunicorn, a worker cluster and a bench's clients.
SETTINGS = """
listen_addresses = '127.0.0.1'
port = {port}
unix_socket_directories = '{socket_dir}'
max_connections = {max_connections}
fsync = off
synchronous_commit = off
full_page_writes = off
shared_buffers = 64MB
log_min_messages = warning
log_line_prefix = '%m [%p] '
"""


class PrivatePostgresError(RuntimeError):
    """The cluster cannot be made or started: no server binaries, or pg_ctl failed."""


def server_bin() -> Path:
    """The newest installed server's binary directory."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
        key=lambda path: int(path.parent.parent.name) if path.parent.parent.name.isdigit() else 0,
    )
    if not found:
        raise PrivatePostgresError("no PostgreSQL server under /usr/lib/postgresql/*/bin")
    return found[-1].parent


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class Outage:
    """One restart, in wall-clock seconds (time.time(), comparable with what other processes
    on this machine write): from the moment the stop was asked until the server accepted a
    connection again."""

    down_at: float
    up_at: float

    @property
    def seconds(self) -> float:
        return self.up_at - self.down_at


@dataclass
class PrivatePostgres:
    work: Path
    port: int
    bin_dir: Path
    as_postgres: bool

    @property
    def data(self) -> Path:
        return self.work / "data"

    @property
    def log(self) -> Path:
        return self.work / "server.log"

    def url(self, dbname: str = "postgres") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{dbname}"

    def _run(self, tool: str, *args: str, timeout: float = 120) -> None:
        command = [str(self.bin_dir / tool), *args]
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        # A session of its own: a Ctrl-C at the bench's terminal must not reach the server
        # (SIGINT is a fast shutdown to it), only the bench, which then stops it in order.
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=timeout,
            start_new_session=True,
            check=False,
        )
        if done.returncode != 0:
            raise PrivatePostgresError(
                f"{tool} {' '.join(args[:2])} failed ({done.returncode}): "
                f"{(done.stderr or done.stdout)[-2000:]}{self._log_tail()}"
            )

    def _log_tail(self) -> str:
        try:
            return "\nserver log:\n" + self.log.read_text(errors="replace")[-2000:]
        except OSError:
            return ""

    def init(self, *, max_connections: int = 200) -> None:
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
            "--no-instructions",
        )
        settings = SETTINGS.format(
            port=self.port, socket_dir=self.work, max_connections=max_connections
        )
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write(settings)

    def start(self) -> None:
        self._run("pg_ctl", "start", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60")
        self.wait_ready()

    def stop(self, *, mode: str = "fast") -> None:
        self._run("pg_ctl", "stop", "-D", str(self.data), "-m", mode, "-w", "-t", "60")

    def restart(self, *, down_s: float = 0.0) -> Outage:
        """A fast restart: every session is ended at once, the server stays down `down_s`
        seconds (a machine that takes a moment to come back), then starts again."""
        down_at = time.time()
        self.stop(mode="fast")
        time.sleep(down_s)
        self.start()
        return Outage(down_at=down_at, up_at=time.time())

    def ready(self) -> bool:
        try:
            with psycopg.connect(self.url(), connect_timeout=2) as conn:
                conn.execute("SELECT 1")
            return True
        except psycopg.OperationalError:
            return False

    def wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while not self.ready():
            if time.monotonic() > deadline:
                raise PrivatePostgresError(f"not accepting connections{self._log_tail()}")
            time.sleep(0.05)

    def create_database(self, name: str) -> str:
        """A new database on the cluster; its URL."""
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def postmaster_pid(self) -> int | None:
        try:
            return int((self.data / "postmaster.pid").read_text().split("\n", 1)[0])
        except (OSError, ValueError):
            return None

    def remove(self) -> None:
        """Stop the server however it can be stopped, and delete its directory."""
        try:
            if self.postmaster_pid() is not None:
                self.stop(mode="immediate")
        except (PrivatePostgresError, subprocess.TimeoutExpired):
            pid = self.postmaster_pid()
            if pid is not None:
                with suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        shutil.rmtree(self.work, ignore_errors=True)


@contextmanager
def private_postgres(*, max_connections: int = 200) -> Iterator[PrivatePostgres]:
    """A fresh cluster, started; stopped and deleted on the way out, whatever ends the block."""
    as_postgres = os.geteuid() == 0
    work = Path(tempfile.mkdtemp(prefix="claimcheck-pg-"))
    if as_postgres:
        owner = pwd.getpwnam("postgres")
        os.chown(work, owner.pw_uid, owner.pw_gid)
    work.chmod(0o700)
    pg = PrivatePostgres(
        work=work, port=_free_port(), bin_dir=server_bin(), as_postgres=as_postgres
    )
    try:
        pg.init(max_connections=max_connections)
        pg.start()
        yield pg
    finally:
        pg.remove()
