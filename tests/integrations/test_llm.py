"""The LLM gateway, driven through litellm's own `mock_response`: litellm runs its real request
path (arguments, response objects, usage, cost) and never opens a connection."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from typing import Any

import litellm
import pytest
from pydantic import BaseModel

from claimcheck.config import LLMConfig, resolve_path
from integrations import llm
from integrations.llm import LLMError, LLMMockExhausted, LLMResult, PromptName

KEY_ENV = "CLAIMCHECK_TEST_LLM_KEY"
KEY = "sk-test-0123456789abcdef0123456789"
MODEL = "openai/gpt-4o-mini"  # known to litellm's local price map, so cost is > 0
UNKNOWN_MODEL = "openai/some-local-model"  # unknown to it: no price, no JSON-mode entry
PROMPTS: tuple[PromptName, ...] = ("rewrite", "stance", "proof")


class Finding(BaseModel):
    quote: str
    stance: str
    score: float


class Findings(BaseModel):
    findings: list[Finding]


GOOD = '{"findings": [{"quote": "It entered into force.", "stance": "support", "score": 0.9}]}'


@pytest.fixture
def config(monkeypatch: pytest.MonkeyPatch) -> LLMConfig:
    monkeypatch.setenv(KEY_ENV, KEY)
    return LLMConfig(model=MODEL, api_key_env=KEY_ENV, timeout_s=5)


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Record the keyword arguments of every litellm.completion call, still running the real
    function (and so still honouring mock_response)."""
    recorded: list[dict[str, Any]] = []
    real: Callable[..., Any] = litellm.completion

    def recording(*args: Any, **kwargs: Any) -> Any:
        recorded.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(litellm, "completion", recording)
    return recorded


def ask_json(config: LLMConfig, reply: str | Exception) -> LLMResult[Findings]:
    return llm.complete_json(
        system="Return JSON findings.",
        user="Claim: the act entered into force.",
        schema=Findings,
        purpose="stance",
        config=config,
        mock_response=reply,
    )


def test_a_valid_json_reply_is_validated_into_the_schema_with_tokens_and_cost(
    config: LLMConfig,
) -> None:
    result = ask_json(config, GOOD)

    assert result.value == Findings(
        findings=[Finding(quote="It entered into force.", stance="support", score=0.9)]
    )
    assert result.model == MODEL
    assert result.raw_text == GOOD
    assert result.prompt_tokens > 0
    assert result.completion_tokens > 0
    assert isinstance(result.cost_usd, float)
    assert result.cost_usd >= 0
    assert result.latency_ms >= 0


def test_a_json_reply_wrapped_in_markdown_fences_is_accepted(config: LLMConfig) -> None:
    result = ask_json(config, f"```json\n{GOOD}\n```")

    assert result.value.findings[0].stance == "support"


def test_a_reply_that_is_not_json_is_a_bad_output_error(config: LLMConfig) -> None:
    with pytest.raises(LLMError) as caught:
        ask_json(config, "Sure! Here are the findings: support, 0.9")

    assert caught.value.kind == "bad_output"
    assert "not valid JSON" in caught.value.details
    assert caught.value.raw_text == "Sure! Here are the findings: support, 0.9"


def test_json_that_does_not_match_the_schema_is_a_bad_output_error_naming_the_field(
    config: LLMConfig,
) -> None:
    reply = '{"findings": [{"quote": "x", "stance": "support", "score": "very high"}]}'

    with pytest.raises(LLMError) as caught:
        ask_json(config, reply)

    assert caught.value.kind == "bad_output"
    assert "findings.0.score" in caught.value.details


def test_with_no_model_configured_calls_are_refused_and_litellm_is_never_called(
    calls: list[dict[str, Any]],
) -> None:
    config = LLMConfig(model=None)

    assert llm.is_enabled(config) is False
    with pytest.raises(LLMError) as caught:
        ask_json(config, GOOD)
    assert caught.value.kind == "not_configured"
    with pytest.raises(LLMError) as caught:
        llm.complete_text(system="s", user="u", purpose="proof", config=config, mock_response="x")
    assert caught.value.kind == "not_configured"
    assert calls == []


def test_the_shipped_configuration_runs_without_an_llm() -> None:
    assert llm.is_enabled() is False


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (litellm.Timeout(message="slow", model=MODEL, llm_provider="openai"), "timeout"),
        (litellm.RateLimitError(message="busy", model=MODEL, llm_provider="openai"), "rate_limit"),
        ("litellm.RateLimitError", "rate_limit"),
        (litellm.AuthenticationError(message="no", model=MODEL, llm_provider="openai"), "auth"),
        (
            litellm.ServiceUnavailableError(message="down", model=MODEL, llm_provider="openai"),
            "unavailable",
        ),
        (
            litellm.APIConnectionError(message="refused", model=MODEL, llm_provider="openai"),
            "unavailable",
        ),
        (litellm.BadRequestError(message="bad", model=MODEL, llm_provider="openai"), "failed"),
        (
            litellm.ContextWindowExceededError(message="long", model=MODEL, llm_provider="openai"),
            "failed",
        ),
    ],
    ids=lambda value: value if isinstance(value, str) else type(value).__name__,
)
def test_a_provider_error_raised_inside_litellm_becomes_an_llm_error_of_the_right_kind(
    config: LLMConfig, error: str | Exception, kind: str
) -> None:
    with pytest.raises(LLMError) as caught:
        ask_json(config, error)

    assert caught.value.kind == kind
    assert isinstance(caught.value.__cause__, Exception)


def test_error_details_never_contain_the_api_key(config: LLMConfig) -> None:
    leaky = litellm.AuthenticationError(
        message=f"Incorrect API key provided: {KEY}", model=MODEL, llm_provider="openai"
    )

    with pytest.raises(LLMError) as caught:
        ask_json(config, leaky)

    assert caught.value.kind == "auth"
    assert KEY not in caught.value.details
    assert KEY not in str(caught.value)


def test_a_missing_api_key_variable_is_an_auth_error_before_litellm_is_called(
    monkeypatch: pytest.MonkeyPatch, config: LLMConfig, calls: list[dict[str, Any]]
) -> None:
    monkeypatch.delenv(KEY_ENV)

    with pytest.raises(LLMError) as caught:
        ask_json(config, GOOD)

    assert caught.value.kind == "auth"
    assert KEY_ENV in caught.value.details
    assert calls == []


def test_the_configured_timeout_and_settings_are_always_passed_to_litellm(
    config: LLMConfig, calls: list[dict[str, Any]]
) -> None:
    ask_json(config, GOOD)
    llm.complete_text(system="s", user="u", purpose="proof", config=config, mock_response="ok")
    unknown = LLMConfig(model=UNKNOWN_MODEL, timeout_s=7.5, api_base="http://127.0.0.1:9/v1")
    ask_json(unknown, GOOD)

    assert [call["timeout"] for call in calls] == [5, 5, 7.5]
    json_call, text_call, unknown_call = calls
    assert json_call["model"] == MODEL
    assert json_call["api_key"] == KEY
    assert json_call["temperature"] == config.temperature
    assert json_call["max_tokens"] == config.max_tokens
    assert [m["role"] for m in json_call["messages"]] == ["system", "user"]
    # JSON mode only where litellm knows the model takes it, and never for free text.
    assert json_call["response_format"] == {"type": "json_object"}
    assert "response_format" not in text_call
    assert "response_format" not in unknown_call
    # A server of one's own with no key configured gets a stand-in: the OpenAI client that
    # litellm uses refuses to send a request without one.
    assert unknown_call["api_key"] == "no-key"
    assert unknown_call["api_base"] == "http://127.0.0.1:9/v1"


def test_a_model_without_a_known_price_costs_zero_rather_than_failing() -> None:
    result = ask_json(LLMConfig(model=UNKNOWN_MODEL, timeout_s=5), GOOD)

    assert result.cost_usd == 0.0
    assert result.value.findings


def test_complete_text_returns_the_reply_without_outer_whitespace(config: LLMConfig) -> None:
    result = llm.complete_text(
        system="Write a proof.",
        user="Sources: [1]",
        purpose="proof",
        config=config,
        mock_response="  **Supported.** Source [1] says so.\n",
    )

    assert result.value == "**Supported.** Source [1] says so."
    assert result.raw_text == "  **Supported.** Source [1] says so.\n"
    assert result.completion_tokens > 0


def test_the_call_log_carries_purpose_model_tokens_and_cost_but_never_prompt_or_key(
    config: LLMConfig, caplog: pytest.LogCaptureFixture
) -> None:
    secret_claim = "The mayor of Exampleville resigned on 2024-03-01."
    with caplog.at_level(logging.DEBUG, logger="integrations.llm"):
        llm.complete_text(
            system="Write a proof.",
            user=secret_claim,
            purpose="proof",
            config=config,
            mock_response="ok",
        )

    records = [r for r in caplog.records if r.name == "integrations.llm"]
    call = next(r for r in records if r.getMessage() == "llm call")
    assert vars(call)["purpose"] == "proof"
    assert vars(call)["model"] == MODEL
    assert vars(call)["prompt_tokens"] > 0
    assert vars(call)["cost_usd"] >= 0
    assert "latency_ms" in vars(call)
    for record in records:
        flat = repr(vars(record))
        assert secret_claim not in flat
        assert KEY not in flat


@pytest.mark.parametrize("name", PROMPTS)
def test_each_shipped_prompt_loads_with_its_text_and_a_stable_sha256(name: PromptName) -> None:
    config = LLMConfig()
    text, digest = llm.load_prompt(name, config)

    path = resolve_path(getattr(config.prompts, name))
    assert text == path.read_text(encoding="utf-8")
    assert text.strip()
    assert digest == hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert llm.load_prompt(name, config) == (text, digest)


def test_the_three_prompts_have_distinct_hashes() -> None:
    digests = {llm.load_prompt(name)[1] for name in PROMPTS}

    assert len(digests) == 3


def test_llm_mock_feeds_its_responses_to_calls_in_order_through_litellm(
    config: LLMConfig, calls: list[dict[str, Any]]
) -> None:
    with llm.llm_mock([GOOD, "first proof", "second proof"]) as mock:
        stance = llm.complete_json(
            system="s", user="u", schema=Findings, purpose="stance", config=config
        )
        first = llm.complete_text(system="s", user="u", purpose="proof", config=config)
        second = llm.complete_text(system="s", user="u", purpose="proof", config=config)
        with pytest.raises(LLMMockExhausted):
            llm.complete_text(system="s", user="u", purpose="extra", config=config)

    assert stance.value.findings[0].score == 0.9
    assert (first.value, second.value) == ("first proof", "second proof")
    assert [call["mock_response"] for call in calls] == [GOOD, "first proof", "second proof"]
    assert mock.purposes == ["stance", "proof", "proof"]
    assert not mock.responses


def test_llm_mock_can_feed_a_provider_error_and_is_gone_after_the_block(
    config: LLMConfig, calls: list[dict[str, Any]]
) -> None:
    busy = litellm.RateLimitError(message="busy", model=MODEL, llm_provider="openai")
    no_retries = config.model_copy(update={"retries": 0})
    with llm.llm_mock([busy]), pytest.raises(LLMError) as caught:
        llm.complete_text(system="s", user="u", purpose="proof", config=no_retries)
    assert caught.value.kind == "rate_limit"

    # Outside the block an explicit mock is used as is; nothing is left queued.
    result = llm.complete_text(
        system="s", user="u", purpose="proof", config=config, mock_response="after"
    )
    assert result.value == "after"
    assert calls[-1]["mock_response"] == "after"


def test_llm_mock_does_not_turn_the_llm_on() -> None:
    with llm.llm_mock([GOOD]) as mock, pytest.raises(LLMError) as caught:
        ask_json(LLMConfig(model=None), GOOD)

    assert caught.value.kind == "not_configured"
    assert mock.purposes == []


def test_embed_without_an_embedding_model_is_not_configured(config: LLMConfig) -> None:
    with pytest.raises(LLMError) as caught:
        llm.embed(texts=["a"], config=config, mock_response=[[0.1]])

    assert caught.value.kind == "not_configured"


def test_embed_returns_one_mock_vector_per_text_and_refuses_a_count_mismatch(
    config: LLMConfig,
) -> None:
    embedding = config.model_copy(update={"embedding_model": "openai/text-embedding-3-small"})

    result = llm.embed(texts=["a", "b"], config=embedding, mock_response=[[0.1, 0.2], [0.3, 0.4]])

    assert result.value == [[0.1, 0.2], [0.3, 0.4]]
    assert result.model == "openai/text-embedding-3-small"
    with pytest.raises(LLMError) as caught:
        llm.embed(texts=["a", "b"], config=embedding, mock_response=[[0.1, 0.2]])
    assert caught.value.kind == "bad_output"
