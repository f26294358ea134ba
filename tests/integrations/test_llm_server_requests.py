"""What the real model server receives (llama.cpp, SmolLM2-135M, behind a counting proxy): one
request per call, answered or failed, never sent again by a client library behind the gateway's
back; and the configured model name on every request, whatever name the server gives itself."""

from __future__ import annotations

import json
import logging
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field

from claimcheck.config import LLMConfig
from integrations import llm
from integrations.llm.local_server import MODEL_ALIAS, llm_section
from tests.integrations.counting_proxy import CountingProxy, Seen, counting_proxy
from tests.llm_server import ModelServer, model_server

pytestmark = pytest.mark.llm_server


class Reading(BaseModel):
    stance: Literal["support", "refute", "neutral"]
    score: float = Field(ge=0.0, le=1.0)


def _config(proxy: CountingProxy, **overrides: Any) -> LLMConfig:
    section = {**llm_section(port=proxy.port), "api_base": proxy.api_base}
    return LLMConfig.model_validate({**section, **overrides})


def _models_listed(port: int) -> list[str]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=5) as response:
        return [str(model["id"]) for model in json.load(response)["data"]]


def _retry_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "Retrying request" in r.getMessage()]


@pytest.fixture
def proxy(llm_server: ModelServer) -> Iterator[CountingProxy]:
    with counting_proxy(llm_server.port) as counting:
        yield counting


@pytest.fixture
def client_logs(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    """The OpenAI client's own log, where it says when it sends a request again."""
    caplog.set_level(logging.DEBUG, logger="openai")
    return caplog


def test_the_server_lists_its_model_under_the_configured_name(llm_server: ModelServer) -> None:
    assert _models_listed(llm_server.port) == [MODEL_ALIAS]


def test_each_answered_call_is_one_request_naming_the_configured_model(
    proxy: CountingProxy, client_logs: pytest.LogCaptureFixture
) -> None:
    config = _config(proxy)

    llm.complete_json(
        system="Say whether the sentence supports the claim. Answer in JSON.",
        user="Claim: The sky is blue.\nSentence: The sky looks blue.",
        schema=Reading,
        purpose="stance",
        config=config,
    )
    llm.complete_text(system="Answer in a few words.", user="Hi.", purpose="proof", config=config)
    llm.embed(texts=["one", "two"], config=config)

    assert proxy.seen == [
        Seen("POST", "/v1/chat/completions", MODEL_ALIAS),
        Seen("POST", "/v1/chat/completions", MODEL_ALIAS),
        Seen("POST", "/v1/embeddings", MODEL_ALIAS),
    ]
    assert _retry_lines(client_logs) == []


def test_a_completion_that_times_out_was_one_request(
    proxy: CountingProxy, client_logs: pytest.LogCaptureFixture
) -> None:
    config = _config(proxy, timeout_s=0.05, response_format="none", max_tokens=400)

    with pytest.raises(llm.LLMError) as caught:
        llm.complete_text(
            system="Write a long story.", user="Begin.", purpose="proof", config=config
        )

    assert caught.value.kind == "timeout"
    assert [seen.path for seen in proxy.seen] == ["/v1/chat/completions"]
    assert _retry_lines(client_logs) == []


def test_an_embedding_the_server_answers_with_an_error_was_one_request(
    tmp_path: Path, client_logs: pytest.LogCaptureFixture
) -> None:
    # A server without embeddings answers 501, which the OpenAI client would send twice more.
    with (
        model_server(tmp_path / "server.log", embeddings=False) as server,
        counting_proxy(server.port) as proxy,
        pytest.raises(llm.LLMError) as caught,
    ):
        llm.embed(texts=["a", "b"], config=_config(proxy))

    assert caught.value.kind == "failed"
    assert proxy.seen == [Seen("POST", "/v1/embeddings", MODEL_ALIAS)]
    assert _retry_lines(client_logs) == []


def test_a_server_that_names_its_model_otherwise_is_still_asked_by_the_configured_name(
    tmp_path: Path,
) -> None:
    with (
        model_server(tmp_path / "server.log", alias="2") as server,
        counting_proxy(server.port) as proxy,
    ):
        assert _models_listed(server.port) == ["2"]
        result = llm.complete_text(
            system="Answer in a few words.", user="Hi.", purpose="proof", config=_config(proxy)
        )

    assert result.value
    assert result.model == f"openai/{MODEL_ALIAS}"
    assert proxy.seen == [Seen("POST", "/v1/chat/completions", MODEL_ALIAS)]
