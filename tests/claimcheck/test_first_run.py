"""The first run on a fresh machine: scripts/run, the signing key, the first admin, the demo."""

from __future__ import annotations

import io
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command

from claims.models import Claim, ClaimStatus
from demo.loader import demo_claims
from integrations.llm.local_server import LITELLM_MODEL, RUN_CONFIG

ROOT = Path(settings.BASE_DIR)
# scripts/run gives a busy worker five seconds, then kills it.
STOP_SECONDS = 10
PRINT_KEY = ("shell", "-c", "from django.conf import settings; print(settings.SECRET_KEY)")


def _clean_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DJANGO_SECRET_KEY", "DJANGO_DEBUG", "DJANGO_SETTINGS_MODULE"}
    }
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    env["CLAIMCHECK_ENV_FILE"] = str(tmp_path / ".env")
    env.update(extra)
    return env


def _manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 (fixed arguments)
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_management_commands_take_the_signing_key_from_the_env_file(tmp_path: Path) -> None:
    env = _clean_env(tmp_path)
    without = _manage(env, "check")
    assert without.returncode != 0
    assert "scripts/run writes one to .env" in without.stderr

    (tmp_path / ".env").write_text("# local\nDJANGO_SECRET_KEY=from-the-file-0123456789\n")
    shown = _manage(env, *PRINT_KEY)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip().splitlines()[-1] == "from-the-file-0123456789"

    env["DJANGO_SECRET_KEY"] = "from-the-environment"
    shown = _manage(env, *PRINT_KEY)
    assert shown.stdout.strip().splitlines()[-1] == "from-the-environment"


@pytest.mark.django_db
def test_bootstrap_decides_the_demo_claims_and_prints_the_password_last_in_a_box() -> None:
    out, progress = io.StringIO(), io.StringIO()
    call_command("bootstrap", "--url", "http://127.0.0.1:8123/", stdout=out, stderr=progress)

    # Progress on stderr; on stdout only the box, so that scripts/run can hold it back.
    assert "Checking demo claim 12 of 12" in progress.getvalue()
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    assert lines[0].startswith("+--") and lines[-1].startswith("+--")
    box = lines[1:-1]
    assert "Log in at http://127.0.0.1:8123/login/ as" in box[0]
    assert any("username: admin" in line for line in box)
    password = next(line for line in box if "password:" in line).split("password:")[1]
    password = password.strip(" |")
    assert get_user_model().objects.get(username="admin").check_password(password)
    assert any("changepassword admin" in line for line in box)

    claims = Claim.objects.all()
    assert claims.count() == len(demo_claims()) == 12
    assert set(claims.values_list("status", flat=True)) == {ClaimStatus.DECIDED}

    again = io.StringIO()
    call_command("bootstrap", stdout=again, stderr=io.StringIO())
    assert Claim.objects.count() == 12
    assert "changepassword" in again.getvalue()
    assert "shown only once" not in again.getvalue()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _session_members(sid: int) -> list[int]:
    """Every live process in the session scripts/run was started in (its server and worker)."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z" and int(fields[3]) == sid:
            members.append(int(entry.name))
    return members


class _Run:
    """scripts/run in a session of its own, its output read as it comes."""

    def __init__(self, tmp_path: Path, **extra: str) -> None:
        self.port = _free_port()
        env = _clean_env(tmp_path, PORT=str(self.port), CLAIMCHECK_DEMO="false", **extra)
        env.pop("CLAIMCHECK_LOG_LEVEL", None)
        self.process = subprocess.Popen(  # noqa: S603 (fixed arguments)
            [str(ROOT / "scripts" / "run")],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
            # As from a terminal: a test runner started in the background may ignore SIGINT, and
            # a shell cannot trap a signal that was ignored when it started.
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)

    def output(self) -> str:
        return "".join(self.lines)

    def wait_ready(self, seconds: float = 120) -> None:
        """Until it says where to open it, as a person at the terminal waits before Ctrl-C."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and self.process.poll() is None:
            if any(line.startswith("ClaimCheck: open ") for line in self.lines):
                break
            time.sleep(0.2)
        else:
            self.process.kill()
            pytest.fail(f"scripts/run never said it was ready: {self.output()[-2000:]}")
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=5) as answer:
            assert answer.status == 200
        # The server and at least the worker's main process are up.
        assert len(_session_members(self.process.pid)) >= 3

    def assert_all_stopped(self, seconds: float) -> str:
        started = time.monotonic()
        self.process.wait(timeout=seconds)
        self._reader.join(timeout=seconds)
        while _session_members(self.process.pid) and time.monotonic() - started < seconds:
            time.sleep(0.1)
        assert _session_members(self.process.pid) == [], "a server or worker outlived scripts/run"
        with socket.socket() as sock:
            assert sock.connect_ex(("127.0.0.1", self.port)) != 0
        return self.output()


def _start_run(tmp_path: Path, **extra: str) -> _Run:
    run = _Run(tmp_path, **extra)
    run.wait_ready()
    return run


def test_ctrl_c_stops_the_server_and_the_worker_within_seconds(tmp_path: Path) -> None:
    run = _start_run(tmp_path)
    port = run.port
    os.killpg(run.process.pid, signal.SIGINT)  # what a terminal's Ctrl-C sends
    output = run.assert_all_stopped(seconds=STOP_SECONDS)
    assert "ClaimCheck stopped." in output
    lines = [line for line in output.splitlines() if line.strip()]
    box_end = max(i for i, line in enumerate(lines) if line.startswith("+--"))
    box = "\n".join(lines[box_end - 6 : box_end])
    assert "password:" in box
    # The box names the port it serves on, and comes once the server has said it is up, so
    # that its start-up lines do not push the password out of sight.
    assert f"Log in at http://127.0.0.1:{port}/login/" in box
    started = next(i for i, line in enumerate(lines) if "Starting development server" in line)
    assert started < box_end - 6
    assert f"open http://127.0.0.1:{port}/" in lines[box_end + 1]
    assert "DJANGO_SECRET_KEY=" in (tmp_path / ".env").read_text()


def test_a_port_in_use_is_refused_before_any_set_up(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = subprocess.run(  # noqa: S603 (fixed arguments)
            [str(ROOT / "scripts" / "run")],
            cwd=ROOT,
            env=_clean_env(tmp_path, PORT=str(port)),
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert run.returncode == 1
    assert f"Port {port} is in use; PORT=8001 scripts/run serves on another one." in run.stderr
    # No admin was created whose password nobody saw.
    assert not (tmp_path / "db.sqlite3").exists()
    assert not (tmp_path / ".env").exists()


def test_a_kill_of_the_script_alone_stops_the_server_and_the_worker(tmp_path: Path) -> None:
    run = _start_run(tmp_path)
    run.process.terminate()  # SIGTERM to scripts/run only, as `kill PID` does
    run.assert_all_stopped(seconds=STOP_SECONDS)


@pytest.mark.llm_server
def test_claimcheck_llm_local_runs_the_model_server_beside_them_and_stops_it_with_them(
    tmp_path: Path,
) -> None:
    llm_port = _free_port()
    run = _start_run(tmp_path, CLAIMCHECK_LLM="local", LLM_PORT=str(llm_port))
    with urllib.request.urlopen(f"http://127.0.0.1:{llm_port}/health", timeout=5) as answer:
        assert answer.status == 200
    configs = [
        Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        for pid in _session_members(run.process.pid)
    ]
    used = {line for env in configs for line in env if line.startswith(b"CLAIMCHECK_CONFIG=")}
    assert len(used) == 1  # the app and the worker read the one written for the model server
    config_path = Path(used.pop().split(b"=", 1)[1].decode())
    assert config_path == RUN_CONFIG  # where `verify --llm` reads it; git ignores var/
    assert f"api_base: http://127.0.0.1:{llm_port}/v1" in config_path.read_text()
    git = shutil.which("git") or "git"
    ignored = subprocess.run(  # noqa: S603 (fixed arguments)
        [git, "check-ignore", "-q", str(config_path)], cwd=ROOT, check=False
    )
    assert ignored.returncode == 0

    # `verify --llm` in another terminal uses the model server scripts/run started.
    checked = _manage(_clean_env(tmp_path), "verify", "--llm", "The harbour bill passed in 2024.")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"Using the model server at http://127.0.0.1:{llm_port}/v1" in checked.stdout
    assert f"First query, written by {LITELLM_MODEL} (model server)" in checked.stdout

    # The model server is a guest: killed, it is started again, and the desk answers meanwhile.
    first = int(run.output().split("Local model server: ")[1].split("(pid ")[1].split(")")[0])
    os.kill(first, signal.SIGKILL)
    with urllib.request.urlopen(f"http://127.0.0.1:{run.port}/login/", timeout=10) as answer:
        assert answer.status == 200
    assert run.process.poll() is None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and "Local model server started again" not in run.output():
        time.sleep(0.2)
    assert "The local model server stopped" in run.output()
    second = int(run.output().split("Local model server started again (pid ")[1].split(")")[0])
    assert second != first and not Path(f"/proc/{first}").exists()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{llm_port}/health", timeout=5) as answer:
                if answer.status == 200:
                    break
        except OSError:
            time.sleep(0.5)
    else:
        pytest.fail(f"the model server did not come back: {run.output()[-2000:]}")
    with urllib.request.urlopen(f"http://127.0.0.1:{run.port}/healthz", timeout=10) as answer:
        assert answer.status == 200

    run.process.terminate()
    output = run.assert_all_stopped(seconds=STOP_SECONDS)

    assert f"Local model server: http://127.0.0.1:{llm_port}/v1" in output
    with socket.socket() as sock:
        assert sock.connect_ex(("127.0.0.1", llm_port)) != 0
    assert not config_path.exists()
    refused = _manage(_clean_env(tmp_path), "verify", "--llm", "The harbour bill passed in 2024.")
    assert refused.returncode != 0
    assert "--llm: no model server settings" in refused.stderr
    assert "CLAIMCHECK_LLM=local scripts/run" in refused.stderr
