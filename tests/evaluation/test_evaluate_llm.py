"""`manage.py evaluate ... --llm`: the same claims read offline and with a model, side by side,
with seconds, LLM tokens and cost per claim; and clear refusals. Figures are not judged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from integrations.llm.accounting import usage_so_far
from integrations.llm.local_server import LITELLM_MODEL
from tests.evaluation.test_evaluate_command import MINI, _Sink


def test_llm_cannot_be_combined_with_in_place(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="leave out --in-place"):
        call_command(
            "evaluate", str(MINI), "--format", "averitec", "--in-place", "--llm", "local",
            "--out", str(tmp_path), stdout=_Sink(),
        )  # fmt: skip


def test_llm_configured_with_no_model_configured_says_so(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="names no model"):
        call_command(
            "evaluate", str(MINI), "--format", "averitec", "--llm", "configured",
            "--out", str(tmp_path), stdout=_Sink(),
        )  # fmt: skip


@pytest.mark.llm_server
def test_llm_local_reads_the_same_claims_offline_and_with_the_local_model(
    tmp_path: Path,
) -> None:
    before = usage_so_far()

    call_command(
        "evaluate", str(MINI), "--format", "averitec", "--limit", "1", "--llm", "local",
        "--out", str(tmp_path), stdout=(output := _Sink()),
    )  # fmt: skip

    offline = json.loads((tmp_path / "offline" / "averitec-report.json").read_text())
    with_llm = json.loads((tmp_path / "llm" / "averitec-report.json").read_text())
    assert offline["config"]["llm_model"] is None
    assert with_llm["config"]["llm_model"] == LITELLM_MODEL
    assert [r["key"] for r in offline["results"]] == [r["key"] for r in with_llm["results"]]
    assert offline["cost"]["llm_tokens_per_claim"]["total"] == 0
    [claim] = with_llm["results"]
    assert claim["llm_calls"] >= 2 and claim["llm_tokens"] > 0  # the rewrite and the proof
    assert claim["llm_cost_usd"] == 0.0  # a server of one's own
    text = "".join(output.parts)
    assert "The same 1 claims:" in text
    assert "offline reader (no LLM)" in text and f"LLM {LITELLM_MODEL}" in text
    assert "Local model server on port" in text and "MB resident" in text
    assert usage_so_far() == before  # the claims ran in processes of their own


def test_the_diagnostics_ask_the_rule_with_no_llm_so_no_proof_is_paid_for(
    settings: object, tmp_path: Path
) -> None:
    from evaluation.runner import _without_llm
    from integrations import llm
    from tests.evidence.factories import use_config

    use_config(settings, tmp_path, "llm:\n  model: openai/gpt-4o-mini\n")

    with _without_llm():
        assert not llm.is_enabled()
    assert llm.is_enabled()
