"""The gateway against a real model server (llama.cpp, SmolLM2-135M): replies validate into
the schema asked for, embeddings come one vector per text, and each way the server fails maps
onto one error kind, without the call being sent again. What the model says is not judged."""

from __future__ import annotations

import math
import threading
import time
from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field

from claimcheck.config import LLMConfig
from integrations import llm
from integrations.llm.local_server import LITELLM_MODEL, api_base, llm_section
from tests.llm_server import ModelServer, model_server

pytestmark = pytest.mark.llm_server

SYSTEM = "You read a sentence and say whether it supports a claim. Answer in JSON."
USER = "Claim: The sky is blue.\nSentence: On a clear day the sky looks blue."


class Reading(BaseModel):
    stance: Literal["support", "refute", "neutral"]
    score: float = Field(ge=0.0, le=1.0)


def _config(port: int, **overrides: Any) -> LLMConfig:
    return LLMConfig.model_validate({**llm_section(port=port), **overrides})


def _calls(caplog: pytest.LogCaptureFixture, message: str) -> list[str]:
    return [str(getattr(r, "purpose", "")) for r in caplog.records if r.getMessage() == message]


def test_a_json_reply_validates_into_the_schema_asked_for(llm_server: ModelServer) -> None:
    result = llm.complete_json(
        system=SYSTEM, user=USER, schema=Reading, purpose="stance", config=_config(llm_server.port)
    )

    assert isinstance(result.value, Reading)
    assert result.value.stance in ("support", "refute", "neutral")
    assert 0.0 <= result.value.score <= 1.0
    assert result.model == LITELLM_MODEL
    assert result.prompt_tokens > 0 and result.completion_tokens > 0
    assert result.cost_usd == 0.0  # a server of one's own costs nothing per call


def test_free_text_comes_back_stripped(llm_server: ModelServer) -> None:
    result = llm.complete_text(
        system="Answer in one short sentence.",
        user="What colour is the sky?",
        purpose="proof",
        config=_config(llm_server.port),
    )

    assert result.value and result.value == result.value.strip()


def test_embeddings_come_one_vector_per_text_all_of_one_width(llm_server: ModelServer) -> None:
    texts = ["The Senate approved the bill.", "Rain is expected.", "Il pleut."]

    result = llm.embed(texts=texts, config=_config(llm_server.port))

    assert len(result.value) == 3
    widths = {len(vector) for vector in result.value}
    assert len(widths) == 1 and widths.pop() > 16
    assert all(math.isfinite(x) for vector in result.value for x in vector)
    assert result.value[0] != result.value[1]
    assert result.prompt_tokens > 0 and result.cost_usd == 0.0


def test_a_reply_cut_off_at_max_tokens_is_a_bad_output(llm_server: ModelServer) -> None:
    config = _config(llm_server.port, max_tokens=16, response_format="none")

    with pytest.raises(llm.LLMError) as caught:
        llm.complete_json(
            system="Write a long story about the sea, then a JSON object.",
            user="Begin.",
            schema=Reading,
            purpose="stance",
            config=config,
        )

    assert caught.value.kind == "bad_output"
    assert "cut off at max_tokens=16" in caught.value.details
    assert caught.value.raw_text  # kept for the caller to audit


def test_prose_instead_of_json_is_a_bad_output(llm_server: ModelServer) -> None:
    # No response_format: nothing holds the model to JSON, and asked for prose it writes prose.
    config = _config(llm_server.port, response_format="none", max_tokens=200)

    with pytest.raises(llm.LLMError) as caught:
        llm.complete_json(
            system="You are a friendly assistant. Answer in two plain sentences.",
            user="Is the sky blue?",
            schema=Reading,
            purpose="stance",
            config=config,
        )

    assert caught.value.kind == "bad_output"
    assert caught.value.details.startswith("reply is not valid JSON")


def test_json_with_the_wrong_keys_is_a_bad_output_naming_the_missing_key(
    llm_server: ModelServer,
) -> None:
    # The server is held to another schema than the one the reply is checked against.
    other = {
        "type": "object",
        "properties": {"verdict": {"type": "string", "enum": ["yes", "no"]}},
        "required": ["verdict"],
        "additionalProperties": False,
    }

    with pytest.raises(llm.LLMError) as caught:
        llm.complete_json(
            system=SYSTEM,
            user=USER,
            schema=Reading,
            purpose="stance",
            config=_config(llm_server.port),
            response_schema=other,
        )

    assert caught.value.kind == "bad_output"
    assert caught.value.details.startswith("reply does not match Reading: stance: ")


def test_a_server_too_slow_for_the_timeout_is_a_timeout_asked_once(
    llm_server: ModelServer, caplog: pytest.LogCaptureFixture
) -> None:
    config = _config(llm_server.port, timeout_s=0.05, response_format="none", max_tokens=400)
    started = time.monotonic()

    with pytest.raises(llm.LLMError) as caught:
        llm.complete_text(
            system="Write a long story.", user="Begin.", purpose="proof", config=config
        )

    assert caught.value.kind == "timeout"
    # Not sent again behind our back (the OpenAI client would retry twice): one timeout's worth.
    assert time.monotonic() - started < 1.5
    assert _calls(caplog, "llm call failed") == ["proof"]
    assert _calls(caplog, "llm call refused; asked again") == []


def test_no_server_on_the_port_is_unavailable(llm_server: ModelServer) -> None:
    config = LLMConfig(model=LITELLM_MODEL, api_base=api_base(1), timeout_s=5)

    with pytest.raises(llm.LLMError) as caught:
        llm.complete_text(system="Hi.", user="Hi.", purpose="proof", config=config)

    assert caught.value.kind == "unavailable"
    assert "Connection error" in caught.value.details


def test_a_server_killed_mid_request_is_unavailable_and_not_asked_again(
    own_llm_server: ModelServer, caplog: pytest.LogCaptureFixture
) -> None:
    config = _config(own_llm_server.port, response_format="none", max_tokens=1000, timeout_s=60)
    threading.Timer(0.5, own_llm_server.kill).start()
    started = time.monotonic()

    with pytest.raises(llm.LLMError) as caught:
        llm.complete_text(
            system="Write a very long story.", user="Begin.", purpose="proof", config=config
        )

    assert caught.value.kind == "unavailable"
    assert "Connection error" in caught.value.details
    assert time.monotonic() - started < 10
    assert _calls(caplog, "llm call failed") == ["proof"]


def test_embeddings_from_a_server_started_without_them_fail_for_good(tmp_path: Path) -> None:
    with (
        model_server(tmp_path / "server.log", embeddings=False) as server,
        pytest.raises(llm.LLMError) as caught,
    ):
        llm.embed(texts=["a", "b"], config=_config(server.port))

    assert caught.value.kind == "failed"  # 501: asking again would not help
    assert "501" in caught.value.details
