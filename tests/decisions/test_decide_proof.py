"""The proof under a verdict: rendered safely, and when an LLM writes it, citing only the verdict's
own sources."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from decisions.decide import decide_from_history
from decisions.proof import check_citations, render_proof
from decisions.types import Final, SearchHistory
from tests.decisions.hits import WINDOW, hit


def test_the_rendered_proof_shows_script_tags_as_text() -> None:
    html = render_proof('**Claim:** <script>alert("x")</script> and [link](javascript:alert(1))')
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert "javascript:" not in html


def test_an_llm_proof_citing_unknown_sources_is_refused() -> None:
    from decisions.types import Source
    from integrations.llm import LLMError

    sources = [Source(url="https://europa.eu/a", title="A", pub_date=None, excerpt="x")]
    check_citations("As [1] says, see https://europa.eu/a.", sources=sources)
    with pytest.raises(LLMError):
        check_citations("As [2] says.", sources=sources)
    with pytest.raises(LLMError):
        check_citations("See https://elsewhere.example/b", sources=sources)


def test_with_an_llm_configured_the_proof_is_written_by_it_and_may_cite_only_its_sources(
    settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from integrations.llm import llm_mock
    from tests.evidence.factories import use_config

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real")
    use_config(
        settings, tmp_path, "llm:\n  model: openai/gpt-4o-mini\n  api_key_env: OPENAI_API_KEY\n"
    )
    hits = [hit("europa.eu", "official"), hit("reuters.com", "wire")]
    history = SearchHistory(evidence=hits, queries=["q"], pages_visited=2)

    def decide() -> Any:
        return decide_from_history(
            question=WINDOW, history=history, attempts=1, max_attempts=10, threshold=1.6
        )

    with llm_mock(["The Commission's notice [1] and Reuters [2] both date it to 1 August."]):
        decision = decide()
    assert isinstance(decision, Final)
    assert decision.result.proof.startswith("The Commission's notice [1]")
    with llm_mock(["As a blog [7] says."]) as mock:
        plain = decide()
    # One call, not sent again: the template writes the proof and the verdict says why.
    assert mock.purposes == ["proof"]
    assert isinstance(plain, Final)
    assert plain.result.proof.startswith("**Claim:**")
    assert str(plain.result.debug["proof_llm_error"]).startswith("bad_output: ")
