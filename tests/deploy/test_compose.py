"""compose.yaml and the image's entry point with the local model server as a guest: nothing waits
on it, it is started again when it dies, and the web app and the worker are pointed at it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml
from django.conf import settings

ROOT = Path(settings.BASE_DIR)


def _compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))


def test_the_model_server_is_a_service_nothing_depends_on_and_compose_restarts() -> None:
    services = _compose()["services"]
    llm = services["llm"]
    assert llm["profiles"] == ["llm"]  # only with --profile llm
    assert llm["restart"] == "unless-stopped"
    assert llm["command"] == ["llm"]
    assert llm["build"]["args"]["WITH_LLM"] == "true"
    for name, service in services.items():
        assert "llm" not in (service.get("depends_on") or {}), name
    for name in ("web", "worker"):
        assert "CLAIMCHECK_LLM_HOST" in services[name]["environment"]


def _entrypoint(tmp_path: Path, **env: str) -> str:
    """What the image's entry point hands a command: its CLAIMCHECK_CONFIG's contents."""
    environment = {
        **{k: v for k, v in os.environ.items() if k != "CLAIMCHECK_CONFIG"},
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
        "TMPDIR": str(tmp_path),
        **env,
    }
    shown = subprocess.run(  # noqa: S603 (fixed arguments)
        [
            str(ROOT / "scripts" / "docker-entrypoint"),
            "sh",
            "-c",
            'if [ -n "${CLAIMCHECK_CONFIG:-}" ]; then cat "$CLAIMCHECK_CONFIG"; fi',
        ],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return shown.stdout


def test_the_entry_point_points_the_app_at_the_model_server_it_is_told_of(tmp_path: Path) -> None:
    config = yaml.safe_load(_entrypoint(tmp_path, CLAIMCHECK_LLM_HOST="llm"))
    assert config["llm"]["api_base"] == "http://llm:8081/v1"
    assert config["llm"]["model"]
    shipped = yaml.safe_load((ROOT / "claimcheck" / "default.yaml").read_text(encoding="utf-8"))
    assert config["budgets"] == shipped["budgets"]  # the rest as shipped

    assert _entrypoint(tmp_path) == ""  # no model server named: the shipped configuration
