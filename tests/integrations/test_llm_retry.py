"""429 and 503 are asked again, as providers expect, after the wait they name; nothing else is.
Our own error handling, so litellm's `mock_response` stands in for the provider."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx
import litellm
import pytest

from claimcheck.config import LLMConfig
from integrations import llm
from integrations.llm.retry import retry_after_s, wait_s

MODEL = "openai/gpt-4o-mini"
REQUEST = httpx.Request("POST", "https://api.openai.com/v1/chat/completions")


def _config(**overrides: object) -> LLMConfig:
    return LLMConfig.model_validate({"model": MODEL, "timeout_s": 5, **overrides})


def _refused(status: int, **headers: str) -> Exception:
    response = httpx.Response(status, headers=headers, request=REQUEST)
    if status == 429:
        return litellm.RateLimitError(
            "slow down", llm_provider="openai", model=MODEL, response=response
        )
    return litellm.ServiceUnavailableError(
        "overloaded", llm_provider="openai", model=MODEL, response=response
    )


def test_a_429_is_asked_again_after_the_wait_it_names() -> None:
    started = time.monotonic()
    with llm.llm_mock([_refused(429, **{"retry-after-ms": "300"}), "All clear."]) as mock:
        result = llm.complete_text(system="s", user="u", purpose="proof", config=_config())

    assert result.value == "All clear."
    assert mock.purposes == ["proof", "proof"]
    assert time.monotonic() - started >= 0.3


def test_a_503_is_asked_again_up_to_the_configured_retries_then_is_unavailable() -> None:
    refusals = [_refused(503, **{"retry-after": "0"}) for _ in range(3)]
    with llm.llm_mock([*refusals, "never reached"]) as mock, pytest.raises(llm.LLMError) as caught:
        llm.complete_text(system="s", user="u", purpose="proof", config=_config(retries=2))

    assert caught.value.kind == "unavailable"
    assert mock.purposes == ["proof"] * 3  # the first call and two retries


def test_with_no_retries_configured_a_429_is_a_rate_limit_at_once() -> None:
    with (
        llm.llm_mock([_refused(429, **{"retry-after": "0"})]) as mock,
        pytest.raises(llm.LLMError) as caught,
    ):
        llm.complete_text(system="s", user="u", purpose="proof", config=_config(retries=0))

    assert caught.value.kind == "rate_limit"
    assert mock.purposes == ["proof"]


@pytest.mark.parametrize(
    "failure",
    [
        litellm.Timeout("too slow", model=MODEL, llm_provider="openai"),
        litellm.InternalServerError("Connection error.", llm_provider="openai", model=MODEL),
    ],
    ids=["timeout", "connection-lost"],
)
def test_a_failure_that_may_have_been_paid_for_is_never_sent_again(failure: Exception) -> None:
    with llm.llm_mock([failure, "never reached"]) as mock, pytest.raises(llm.LLMError):
        llm.complete_text(system="s", user="u", purpose="proof", config=_config())

    assert mock.purposes == ["proof"]


def test_retry_after_is_read_in_milliseconds_seconds_or_as_a_date() -> None:
    later = format_datetime(datetime.now(UTC) + timedelta(seconds=20), usegmt=True)

    assert retry_after_s(_refused(429, **{"retry-after-ms": "1500"})) == 1.5
    assert retry_after_s(_refused(429, **{"retry-after": "7"})) == 7.0
    assert 15 < (retry_after_s(_refused(429, **{"retry-after": later})) or 0) <= 20
    assert retry_after_s(_refused(429, **{"retry-after": "soon"})) is None
    assert retry_after_s(_refused(429)) is None


def test_a_long_named_wait_is_capped_by_the_timeout_and_a_missing_one_backs_off() -> None:
    assert wait_s(_refused(429, **{"retry-after": "3600"}), 0, cap_s=5) == 5
    first = wait_s(_refused(503), 0, cap_s=60)
    third = wait_s(_refused(503), 2, cap_s=60)
    assert 0.5 <= first <= 1.0 and 2.0 <= third <= 4.0
