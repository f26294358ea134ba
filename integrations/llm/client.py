"""The calls themselves: chat completions (JSON validated into a schema, or free text) and
embeddings, each bounded by the configured timeout, timed, costed and logged, with a provider's
failure turned into an `LLMError`."""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from claimcheck.config import LLMConfig
from integrations.llm.accounting import call_cost, log_call, token_usage
from integrations.llm.errors import LLMError, error_kind, scrub
from integrations.llm.mock import LLMMockExhausted, MockResponse, take_mock
from integrations.llm.provider import litellm_module, logger, resolve_config
from integrations.llm.retry import with_retries

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)

_FENCE = re.compile(r"^\s*```[A-Za-z0-9_-]*[ \t]*\n?(.*?)\n?\s*```\s*$", re.DOTALL)


@dataclass(frozen=True)
class LLMResult(Generic[T]):
    value: T
    model: str
    cost_usd: float
    prompt_tokens: int
    completion_tokens: int
    latency_ms: int
    raw_text: str


def _api_key(config: LLMConfig) -> str | None:
    """Read at call time so a rotated key needs no restart. None lets litellm use the provider's
    own environment variable, or no key at all for local servers."""
    if not config.api_key_env:
        return None
    key = os.environ.get(config.api_key_env)
    if not key:
        raise LLMError("auth", f"environment variable {config.api_key_env} is not set")
    return key


# A server of one's own (llama.cpp, vLLM) usually asks for no key, but the OpenAI client that
# litellm uses refuses to send a request without one: it gets this stand-in, never a secret.
NO_KEY = "no-key"


def _key_sent(config: LLMConfig, api_key: str | None) -> str | None:
    if api_key is None and config.api_base and not config.api_key_env:
        return NO_KEY
    return api_key


def _json_mode_supported(model: str) -> bool:
    """Ask for JSON mode only where litellm knows the model takes it: unknown models (local
    servers, mocks) may reject `response_format`, and the prompt asks for JSON regardless."""
    litellm = litellm_module()
    try:
        if litellm.supports_response_schema(model=model):
            return True
        litellm.get_model_info(model=model)  # raises for models litellm has no entry for
        return "response_format" in (litellm.get_supported_openai_params(model=model) or [])
    except Exception as exc:
        logger.debug("llm json mode unknown", extra={"model": model, "error": type(exc).__name__})
        return False


def _response_format(
    config: LLMConfig, model: str, schema: dict[str, Any] | None, name: str
) -> dict[str, Any] | None:
    """What to send as `response_format` for a JSON reply (see `LLMConfig.response_format`)."""
    mode = config.response_format
    if mode == "json_schema" and schema is not None:
        return {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}
    if mode in ("json_schema", "json_object"):
        return {"type": "json_object"}
    if mode == "auto" and _json_mode_supported(model):
        return {"type": "json_object"}
    return None


def _strip_fences(text: str) -> str:
    match = _FENCE.match(text)
    return match.group(1) if match else text


def _first_problem(exc: ValidationError) -> str:
    item = exc.errors()[0]
    where = ".".join(str(part) for part in item["loc"]) or "(top level)"
    return f"{where}: {item['msg']}"


# --- completions -----------------------------------------------------------------------------


def _complete(
    *,
    system: str,
    user: str,
    purpose: str,
    config: LLMConfig,
    response_format: dict[str, Any] | None,
    mock_response: MockResponse | None,
) -> LLMResult[str]:
    """One chat call. The value is the reply as the model wrote it."""
    model = config.model
    if not model:
        raise LLMError("not_configured", "no LLM model is configured (llm.model is null)")
    api_key = _api_key(config)
    litellm = litellm_module()

    kwargs: dict[str, Any] = {
        "model": model,
        "messages": [
            {"role": "system", "content": system},
            {"role": "user", "content": user},
        ],
        # Always bounded: a hung provider must not hold a pipeline worker indefinitely.
        "timeout": config.timeout_s,
        "temperature": config.temperature,
        "max_tokens": config.max_tokens,
        "api_key": _key_sent(config, api_key),
        "api_base": config.api_base,
        # Only our own retries (429 / 503, see retry.py): the OpenAI client would otherwise send
        # a call that timed out or lost its connection again, and a provider may bill both.
        "max_retries": 0,
    }
    if response_format is not None:
        kwargs["response_format"] = response_format

    def call() -> Any:
        mock = mock_response if mock_response is not None else take_mock(purpose)
        if mock is not None:
            return litellm.completion(**kwargs, mock_response=mock)
        return litellm.completion(**kwargs)

    started = time.monotonic()
    try:
        response = with_retries(
            call,
            retries=config.retries,
            cap_s=config.timeout_s,
            context={"purpose": purpose, "model": model},
        )
    except LLMMockExhausted:
        raise  # a test that made more calls than it planned, never a provider's failure
    except Exception as exc:
        latency_ms = int((time.monotonic() - started) * 1000)
        kind = error_kind(exc)
        details = scrub(f"{type(exc).__name__}: {exc}", api_key)
        logger.warning(
            "llm call failed",
            extra={"purpose": purpose, "model": model, "latency_ms": latency_ms, "kind": kind},
        )
        raise LLMError(kind, details) from exc
    latency_ms = int((time.monotonic() - started) * 1000)

    prompt_tokens, completion_tokens = token_usage(response)
    cost = call_cost(response, model)
    log_call(
        purpose=purpose,
        model=model,
        latency_ms=latency_ms,
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        cost_usd=cost,
    )

    choice = response.choices[0] if getattr(response, "choices", None) else None
    text = getattr(getattr(choice, "message", None), "content", None)
    if not isinstance(text, str) or not text.strip():
        raise LLMError("bad_output", "the model returned no text")
    if getattr(choice, "finish_reason", None) == "length":
        # A reply cut off at max_tokens is incomplete even when it happens to parse.
        raise LLMError(
            "bad_output", f"reply cut off at max_tokens={config.max_tokens}", raw_text=text
        )
    return LLMResult(
        value=text,
        model=model,
        cost_usd=cost,
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        latency_ms=latency_ms,
        raw_text=text,
    )


def complete_json(
    *,
    system: str,
    user: str,
    schema: type[M],
    purpose: str,
    config: LLMConfig | None = None,
    mock_response: MockResponse | None = None,
    response_schema: dict[str, Any] | None = None,
) -> LLMResult[M]:
    """Ask for a JSON object and validate it into `schema`.

    `purpose` names the call in logs ("stance", "rewrite"...). `mock_response` is passed to
    litellm as is: a string is the reply, an exception instance is raised as a provider error.
    `response_schema` is the JSON schema sent to a server that follows one
    (`llm.response_format: json_schema`), when it is not `schema`'s own.
    """
    cfg = resolve_config(config)
    sent = response_schema if response_schema is not None else schema.model_json_schema()
    reply = _complete(
        system=system,
        user=user,
        purpose=purpose,
        config=cfg,
        response_format=_response_format(cfg, cfg.model or "", sent, schema.__name__),
        mock_response=mock_response,
    )
    text = reply.raw_text
    try:
        value = schema.model_validate_json(_strip_fences(text))
    except ValidationError as exc:
        if exc.errors()[0]["type"] == "json_invalid":
            details = f"reply is not valid JSON ({exc.errors()[0]['msg']})"
        else:
            details = f"reply does not match {schema.__name__}: {_first_problem(exc)}"
        raise LLMError("bad_output", details, raw_text=text) from exc
    return LLMResult(
        value=value,
        model=reply.model,
        cost_usd=reply.cost_usd,
        prompt_tokens=reply.prompt_tokens,
        completion_tokens=reply.completion_tokens,
        latency_ms=reply.latency_ms,
        raw_text=text,
    )


def complete_text(
    *,
    system: str,
    user: str,
    purpose: str,
    config: LLMConfig | None = None,
    mock_response: MockResponse | None = None,
) -> LLMResult[str]:
    """Free text (e.g. the markdown proof). The value is the reply with outer whitespace off."""
    reply = _complete(
        system=system,
        user=user,
        purpose=purpose,
        config=resolve_config(config),
        response_format=None,
        mock_response=mock_response,
    )
    return replace(reply, value=reply.value.strip())


# --- embeddings ------------------------------------------------------------------------------


def embed(
    *,
    texts: list[str],
    config: LLMConfig | None = None,
    mock_response: list[list[float]] | None = None,
) -> LLMResult[list[list[float]]]:
    """One vector per text, in the order given.

    litellm's embedding mock takes a single vector and always returns exactly one, whatever the
    input length, so it cannot stand in for a batch; a mock here therefore short-circuits inside
    the gateway (after the same configuration checks) instead of going through litellm.
    """
    cfg = resolve_config(config)
    model = cfg.embedding_model
    if not model:
        raise LLMError("not_configured", "no embedding model is configured")
    if mock_response is not None:
        if len(mock_response) != len(texts):
            raise LLMError(
                "bad_output", f"{len(mock_response)} mock vectors for {len(texts)} texts"
            )
        return LLMResult(
            value=[list(vector) for vector in mock_response],
            model=model,
            cost_usd=0.0,
            prompt_tokens=0,
            completion_tokens=0,
            latency_ms=0,
            raw_text="",
        )
    if not texts:
        # Providers reject an empty batch; there is nothing to pay for either.
        return LLMResult(
            value=[],
            model=model,
            cost_usd=0.0,
            prompt_tokens=0,
            completion_tokens=0,
            latency_ms=0,
            raw_text="",
        )

    api_key = _api_key(cfg)
    litellm = litellm_module()
    started = time.monotonic()
    try:
        response = with_retries(
            lambda: litellm.embedding(
                model=model,
                input=texts,
                timeout=cfg.timeout_s,
                api_key=_key_sent(cfg, api_key),
                api_base=cfg.api_base,
                max_retries=0,
            ),
            retries=cfg.retries,
            cap_s=cfg.timeout_s,
            context={"purpose": "embed", "model": model},
        )
    except Exception as exc:
        latency_ms = int((time.monotonic() - started) * 1000)
        kind = error_kind(exc)
        logger.warning(
            "llm embedding failed",
            extra={"purpose": "embed", "model": model, "latency_ms": latency_ms, "kind": kind},
        )
        raise LLMError(kind, scrub(f"{type(exc).__name__}: {exc}", api_key)) from exc
    latency_ms = int((time.monotonic() - started) * 1000)

    items = sorted(
        response.data,
        key=lambda item: item["index"] if isinstance(item, dict) else item.index,
    )
    vectors = [
        list(item["embedding"] if isinstance(item, dict) else item.embedding) for item in items
    ]
    if len(vectors) != len(texts):
        raise LLMError("bad_output", f"{len(vectors)} vectors returned for {len(texts)} texts")
    prompt_tokens, _ = token_usage(response)
    cost = call_cost(response, model)
    log_call(
        purpose="embed",
        model=model,
        latency_ms=latency_ms,
        prompt_tokens=prompt_tokens,
        completion_tokens=0,
        cost_usd=cost,
    )
    return LLMResult(
        value=vectors,
        model=model,
        cost_usd=cost,
        prompt_tokens=prompt_tokens,
        completion_tokens=0,
        latency_ms=latency_ms,
        raw_text="",
    )
