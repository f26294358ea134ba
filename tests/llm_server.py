"""A real model server for tests: `python -m integrations.llm.local_server` (llama.cpp with the
135M SmolLM2 model, one thread) on a free loopback port, waited for on /health and stopped by
its PID. The fixtures are in tests/conftest.py; tests that use them are marked `llm_server`."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from django.conf import settings

from claimcheck.config import PipelineConfig, reload_config
from integrations.llm.local_server import MODEL_ALIAS, llm_section, running


@dataclass(frozen=True)
class ModelServer:
    port: int
    pid: int
    ready_s: float
    log: Path

    def kill(self) -> None:
        """Gone at once, as a crashed server would be: no answer to what it was asked."""
        os.kill(self.pid, signal.SIGKILL)


@contextmanager
def model_server(
    log: Path, *, embeddings: bool = True, alias: str = MODEL_ALIAS
) -> Iterator[ModelServer]:
    """`alias` is the model's name in the server's /v1/models (a server of its own naming)."""
    with running(log, embeddings=embeddings, alias=alias) as server:
        yield ModelServer(port=server.port, pid=server.pid, ready_s=server.ready_s, log=log)


def use_model_server(
    test_settings: Any,
    server: ModelServer,
    tmp_path: Path,
    *,
    budgets: dict[str, Any] | None = None,
    **llm: Any,
) -> PipelineConfig:
    """Point the pipeline at `server` for every LLM step (rewrite, stance, embeddings, proof),
    from the shipped configuration; `llm` overrides keys of the `llm:` section. `test_settings`
    is pytest-django's `settings` fixture, which restores the setting afterwards."""
    config = yaml.safe_load(
        (Path(settings.BASE_DIR) / "claimcheck/default.yaml").read_text(encoding="utf-8")
    )
    config["llm"].update(llm_section(port=server.port))
    config["llm"].update(llm)
    config["budgets"].update(budgets or {})
    path = tmp_path / "pipeline-llm.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    test_settings.CLAIMCHECK_CONFIG = str(path)
    return reload_config()
