"""`manage.py evaluate ... --llm`: the same claims twice, each in a scratch database of its
own, once read by this machine's offline reader (no LLM) and once with the model: the local
llama.cpp server (`--llm local`, started for the run and stopped after it) or the model the
pipeline configuration names (`--llm configured`). The two reports are put side by side:
macro-F1, the reader's macro-F1, and per claim seconds, LLM tokens and LLM cost."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from claimcheck.config import get_config
from integrations.llm.local_server import Running, llm_section, running

MODES = ("local", "configured")


class CompareError(ValueError):
    """The comparison cannot run as asked (no model configured for `--llm configured`)."""


@dataclass(frozen=True)
class Side:
    name: str
    config_path: Path
    out: Path


def _write(data: dict[str, Any], path: Path) -> Path:
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


@contextmanager
def sides(mode: str, directory: Path, out: Path) -> Iterator[tuple[Side, Side, Running | None]]:
    """(offline side, LLM side, the local server when `mode` is "local") for the run whose
    scratch files go in `directory`."""
    base = get_config().model_dump(mode="json")
    offline = json.loads(json.dumps(base))
    offline["llm"].update(model=None, embedding_model=None)
    offline_side = Side("offline", _write(offline, directory / "offline.yaml"), out / "offline")
    if mode == "configured":
        if not base["llm"]["model"]:
            raise CompareError(
                "--llm configured: the pipeline configuration names no model (llm.model); "
                "give one, or use --llm local"
            )
        yield offline_side, Side("llm", _write(base, directory / "llm.yaml"), out / "llm"), None
        return
    with running(directory / "model-server.log") as server:
        with_llm = json.loads(json.dumps(base))
        with_llm["llm"].update(llm_section(port=server.port))
        yield (
            offline_side,
            Side("llm", _write(with_llm, directory / "llm.yaml"), out / "llm"),
            server,
        )


def latest_report(folder: Path) -> dict[str, Any]:
    reports = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime)
    if not reports:
        raise CompareError(f"no report was written to {folder}")
    data: dict[str, Any] = json.loads(reports[-1].read_text(encoding="utf-8"))
    return data


def comparison_lines(offline: dict[str, Any], with_llm: dict[str, Any]) -> list[str]:
    """The two runs side by side, one line each, then what the LLM run cost per claim."""

    def line(name: str, report: dict[str, Any]) -> str:
        cost = report["cost"]
        return (
            f"{name:<28} macro-F1 {report['scores']['macro_f1']:.3f} "
            f"(reader {report['reader_macro_f1']:.3f}), accuracy "
            f"{report['scores']['accuracy']:.3f}; per claim "
            f"{cost['seconds_per_claim']['mean']:.1f} s, "
            f"{cost['llm_tokens_per_claim']['mean']:.0f} LLM tokens, "
            f"${cost['llm_cost_usd_per_claim']['mean']:.4f}"
        )

    same = [r["key"] for r in offline["results"]] == [r["key"] for r in with_llm["results"]]
    return [
        f"The same {offline['claims']} claims"
        + ("" if same else " (WARNING: the two runs read different claims)")
        + ":",
        line("offline reader (no LLM)", offline),
        line(f"LLM {with_llm['config']['llm_model']}", with_llm),
    ]
