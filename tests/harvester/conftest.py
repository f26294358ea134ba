"""Harvester fixtures: fake public DNS for provider hosts, fresh provider state, no backoff
waits, and a helper that switches the pipeline config to a YAML written for the test."""

from __future__ import annotations

import ipaddress
import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from claimcheck.config import PipelineConfig, reload_config
from harvester.providers import base, limits
from integrations import http

PUBLIC_IP = ipaddress.ip_address("93.184.216.34")
_counter = itertools.count()


@pytest.fixture(autouse=True)
def fake_dns(monkeypatch: pytest.MonkeyPatch) -> None:
    # respx answers the request, but the SSRF pre-flight still resolves the host first.
    monkeypatch.setattr(http.addresses, "resolve", lambda host, port: [PUBLIC_IP])


@pytest.fixture(autouse=True)
def fresh_providers(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(base, "BACKOFF_BASE_S", 0.001)
    limits.reset_provider_state()
    yield
    limits.reset_provider_state()


UseConfig = Callable[[dict[str, Any]], PipelineConfig]


@pytest.fixture
def use_config(tmp_path: Path, settings: Any) -> UseConfig:
    def apply(data: dict[str, Any]) -> PipelineConfig:
        path = tmp_path / f"pipeline-{next(_counter)}.yaml"
        path.write_text(yaml.safe_dump(data), encoding="utf-8")
        settings.CLAIMCHECK_CONFIG = str(path)
        return reload_config()

    return apply


def providers_config(
    providers: dict[str, dict[str, Any]],
    *,
    llm: dict[str, Any] | None = None,
    budgets: dict[str, Any] | None = None,
    provider: str = "auto",
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "search": {
            "provider": provider,
            "cascade_order": list(providers),
            "providers": providers,
            "max_results": 10,
        }
    }
    if llm is not None:
        data["llm"] = llm
    if budgets is not None:
        data["budgets"] = budgets
    return data
