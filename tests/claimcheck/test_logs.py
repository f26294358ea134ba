"""Log lines: readable at a terminal, JSON for machines, and no chatter from commands."""

from __future__ import annotations

import io
import json
import logging
import os
import pty
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command

from claimcheck.logs import JsonFormatter, TextFormatter

ROOT = Path(settings.BASE_DIR)
# One warning with an extra field, logged the way the app logs.
SAY = (
    "shell",
    "-c",
    "import logging; logging.getLogger('claimcheck.x').warning('slow', extra={'latency_ms': 12})",
)


def _record() -> logging.LogRecord:
    record = logging.makeLogRecord(
        {"name": "harvester.services", "levelname": "INFO", "levelno": logging.INFO}
    )
    record.msg = "run stored"
    record.created = 1_700_000_000.0
    record.run_id = 4
    record.providers_used = ["local"]
    return record


def test_a_text_line_reads_as_time_level_logger_message_and_its_fields() -> None:
    line = TextFormatter().format(_record())
    assert line == (
        '22:13:20 INFO  harvester.services: run stored (run_id=4, providers_used=["local"])'
    )


def test_a_json_line_keeps_every_field() -> None:
    entry = json.loads(JsonFormatter().format(_record()))
    assert entry["message"] == "run stored"
    assert entry["run_id"] == 4
    assert entry["providers_used"] == ["local"]


def _env(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "CLAIMCHECK_LOG_FORMAT"}
    env.update(DJANGO_DEBUG="true", **extra)
    return env


def _stderr_of(env: dict[str, str], *, terminal: bool) -> str:
    """What a command writes to stderr when stderr is a pipe, or a terminal."""
    command = [sys.executable, "manage.py", *SAY]
    if not terminal:
        return subprocess.run(  # noqa: S603 (fixed arguments)
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=True
        ).stderr
    leader, follower = pty.openpty()
    try:
        subprocess.run(  # noqa: S603 (fixed arguments)
            command, cwd=ROOT, env=env, stderr=follower, stdout=subprocess.DEVNULL, timeout=60
        ).check_returncode()
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal is closed once everything was read
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks).decode()
    finally:
        os.close(leader)


def test_a_person_at_a_terminal_reads_lines_and_a_pipe_gets_json() -> None:
    at_terminal = _stderr_of(_env(), terminal=True).strip().splitlines()
    assert len(at_terminal) == 1, at_terminal
    assert at_terminal[0].endswith("WARNING claimcheck.x: slow (latency_ms=12)")

    piped = _stderr_of(_env(), terminal=False).strip().splitlines()
    assert len(piped) == 1, piped
    assert json.loads(piped[0])["latency_ms"] == 12


@pytest.mark.parametrize(("asked", "expect_json"), [("json", True), ("text", False)])
def test_the_format_asked_for_wins_either_way(asked: str, expect_json: bool) -> None:
    line = _stderr_of(_env(CLAIMCHECK_LOG_FORMAT=asked), terminal=expect_json).strip()
    assert line.startswith("{") is expect_json, line
    assert "slow" in line


def test_an_unknown_format_stops_the_command_with_its_name() -> None:
    run = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=_env(CLAIMCHECK_LOG_FORMAT="xml"),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode != 0
    assert "CLAIMCHECK_LOG_FORMAT must be one of auto, json, text, got 'xml'" in run.stderr


def test_a_command_does_not_announce_the_login_throttle() -> None:
    run = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "AXES" not in run.stderr + run.stdout
    assert run.stderr == ""


@pytest.mark.django_db
def test_load_demo_prints_a_summary_and_its_steps_log_only_with_v2(caplog: Any) -> None:
    out = io.StringIO()
    call_command("load_demo", "--decide-claims", stdout=out)
    info = [record for record in caplog.records if record.levelno < logging.WARNING]
    assert info == []
    lines = out.getvalue().splitlines()
    assert lines[0] == "Demo corpus loaded."
    assert "pages stored: 64 (of which PDF: 1)" in out.getvalue()
    assert lines[-1].startswith("Checked 12 demo claims: ")

    caplog.clear()
    call_command("load_demo", verbosity=2, stdout=io.StringIO())
    messages = {record.getMessage() for record in caplog.records}
    assert {"page stored", "demo corpus loaded"} <= messages


@pytest.mark.django_db
def test_a_refusal_is_logged_as_one_line_with_no_traceback(editor_client: Any) -> None:
    """A 403 (an editor at the domain list's admin pages) is the client's: one line, no
    traceback. The console handler the settings build carries the filter that does it."""
    from django.urls import reverse

    from claimcheck.logs import RefusalsOneLine

    console = next(
        h
        for h in logging.getLogger().handlers
        if any(isinstance(f, RefusalsOneLine) for f in h.filters)
    )
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    for kept in console.filters:
        handler.addFilter(kept)
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    try:
        assert editor_client.get(reverse("domains")).status_code == 403
    finally:
        logger.removeHandler(handler)

    lines = out.getvalue().splitlines()
    assert len(lines) == 1, lines
    entry = json.loads(lines[0])
    assert entry["level"] == "WARNING" and entry["message"].startswith("Forbidden")
    assert "exc" not in entry and "Traceback" not in lines[0]


def test_a_fault_keeps_its_traceback() -> None:
    from claimcheck.logs import RefusalsOneLine

    try:
        raise RuntimeError("boom")
    except RuntimeError:
        record = logging.makeLogRecord({"msg": "Internal Server Error", "status_code": 500})
        record.exc_info = sys.exc_info()
    assert RefusalsOneLine().filter(record) and record.exc_info is not None
