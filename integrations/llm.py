"""The one gateway to language models: every completion and embedding goes through litellm here.

Callers get typed results (`LLMResult`) or one typed error (`LLMError`) whose `kind` says what
went wrong. A configured model that fails is an error, never a silent fallback: only "no model
configured" (`is_enabled()` is False) selects the deterministic components, and that choice is
the caller's, made up front.

Logs (logger "integrations.llm") carry purpose, model, latency, tokens and cost. Prompts and
outputs are never logged, because they hold claim text; API keys are never logged or put in
error details.

Tests drive this module through litellm's own `mock_response` parameter, so litellm's request
path (argument handling, response objects, usage, cost) runs for real without a network call.
`llm_mock()` feeds such responses to code that calls the gateway indirectly.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import threading
import time
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from claimcheck.config import LLMConfig, get_config, resolve_path

# litellm fetches its price list over the network at import unless told otherwise. Settings set
# this too; setting it here as well keeps a bare `import integrations.llm` offline. Nothing above
# imports litellm: it is only imported inside functions (see _litellm), after this line ran.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

logger = logging.getLogger("integrations.llm")

ErrorKind = Literal[
    "not_configured", "timeout", "auth", "rate_limit", "unavailable", "bad_output", "failed"
]
PromptName = Literal["rewrite", "translate", "stance", "proof"]
MockResponse = str | Exception

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)

_DETAILS_MAX = 300
# Provider error texts sometimes echo part of a key back ("Incorrect API key provided: sk-...").
_KEY_LIKE = re.compile(r"\b(?:sk|pk|rk|key)-[A-Za-z0-9_\-*]{6,}")
_FENCE = re.compile(r"^\s*```[A-Za-z0-9_-]*[ \t]*\n?(.*?)\n?\s*```\s*$", re.DOTALL)


class LLMError(Exception):
    """The only error the gateway raises for a model call. `details` is short and key-free."""

    def __init__(self, kind: ErrorKind, details: str = "", *, raw_text: str | None = None) -> None:
        self.kind: ErrorKind = kind
        self.details = details
        # Kept for the caller to audit a bad output; deliberately left out of str() and logs.
        self.raw_text = raw_text
        super().__init__(f"{kind}: {details}" if details else kind)


@dataclass(frozen=True)
class LLMResult(Generic[T]):
    value: T
    model: str
    cost_usd: float
    prompt_tokens: int
    completion_tokens: int
    latency_ms: int
    raw_text: str


# --- test seam: queued mock responses -------------------------------------------------------


@dataclass(eq=False)  # identity, not contents: llm_mock() removes exactly its own entry
class LLMMock:
    """Responses still to hand out, and the purposes of the calls that took one."""

    responses: deque[MockResponse]
    purposes: list[str] = field(default_factory=list)


class LLMMockExhausted(RuntimeError):
    """A call inside `llm_mock()` found no response left. Deliberately not an LLMError, so that
    callers' LLMError handling cannot hide a test that made more calls than it planned."""


# Process-wide rather than a ContextVar: the pipeline calls the gateway from worker threads,
# which do not inherit a ContextVar, and a test's mocks must reach them. The lock makes each
# take atomic; the order across concurrent threads is whatever order they arrive in.
_mock_lock = threading.Lock()
_mock_stack: list[LLMMock] = []


@contextmanager
def llm_mock(responses: Sequence[MockResponse]) -> Iterator[LLMMock]:
    """Make the next len(responses) complete_* calls pass these, in order, to litellm as its
    `mock_response` (a string is the model's reply; an exception instance is raised by litellm
    as the provider's error would be). litellm still runs end to end, with no network call.

    It does not turn the LLM on: with no model configured, calls still raise "not_configured".
    Nested blocks shadow outer ones. A call after the responses run out raises
    LLMMockExhausted instead of reaching a real provider.
    """
    mock = LLMMock(responses=deque(responses))
    with _mock_lock:
        _mock_stack.append(mock)
    try:
        yield mock
    finally:
        with _mock_lock:
            _mock_stack.remove(mock)


def _take_mock(purpose: str) -> MockResponse | None:
    with _mock_lock:
        if not _mock_stack:
            return None
        mock = _mock_stack[-1]
        if not mock.responses:
            raise LLMMockExhausted(
                f"llm_mock has no response left for purpose {purpose!r} "
                f"(already used by: {mock.purposes})"
            )
        mock.purposes.append(purpose)
        return mock.responses.popleft()


# --- helpers ---------------------------------------------------------------------------------


def _litellm() -> ModuleType:
    # Imported lazily: litellm is slow to import and must see LITELLM_LOCAL_MODEL_COST_MAP first.
    import litellm

    # Otherwise litellm prints help banners to stdout for unknown models, outside our JSON logs.
    litellm.suppress_debug_info = True
    return litellm


def _config(config: LLMConfig | None) -> LLMConfig:
    return config if config is not None else get_config().llm


def is_enabled(config: LLMConfig | None = None) -> bool:
    """True when a chat model is configured; False selects the deterministic components."""
    return bool(_config(config).model)


def _api_key(config: LLMConfig) -> str | None:
    """Read at call time so a rotated key needs no restart. None lets litellm use the provider's
    own environment variable, or no key at all for local servers."""
    if not config.api_key_env:
        return None
    key = os.environ.get(config.api_key_env)
    if not key:
        raise LLMError("auth", f"environment variable {config.api_key_env} is not set")
    return key


def _scrub(text: str, api_key: str | None) -> str:
    if api_key:
        text = text.replace(api_key, "***")
    text = _KEY_LIKE.sub("***", text)
    text = " ".join(text.split())
    return text if len(text) <= _DETAILS_MAX else text[: _DETAILS_MAX - 1] + "…"


def _error_kind(exc: BaseException) -> ErrorKind:
    """Map litellm's (OpenAI-shaped) exceptions onto our kinds. Order matters: Timeout is a
    subclass of APIConnectionError, and ContextWindowExceededError of BadRequestError."""
    litellm = _litellm()
    if isinstance(exc, litellm.Timeout):
        return "timeout"
    if isinstance(exc, litellm.AuthenticationError | litellm.PermissionDeniedError):
        return "auth"
    if isinstance(exc, litellm.RateLimitError):
        return "rate_limit"
    if isinstance(
        exc,
        litellm.ServiceUnavailableError
        | litellm.APIConnectionError
        | litellm.InternalServerError
        | litellm.BadGatewayError,
    ):
        return "unavailable"
    if isinstance(exc, litellm.APIResponseValidationError):
        return "bad_output"
    if isinstance(
        exc,
        litellm.BadRequestError | litellm.NotFoundError | litellm.UnprocessableEntityError,
    ):
        # The provider refused this request (bad parameter, unknown model, context too long,
        # content policy): retrying the same call will not help.
        return "failed"
    # Generic APIError / MockException: fall back on the HTTP status when there is one.
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        if status in (401, 403):
            return "auth"
        if status == 408:
            return "timeout"
        if status == 429:
            return "rate_limit"
        if status >= 500:
            return "unavailable"
    return "failed"


def _usage(response: Any) -> tuple[int, int]:
    usage = getattr(response, "usage", None)
    prompt = getattr(usage, "prompt_tokens", None) or 0
    completion = getattr(usage, "completion_tokens", None) or 0
    return int(prompt), int(completion)


def _cost(response: Any, model: str) -> float:
    try:
        cost = _litellm().completion_cost(completion_response=response)
    except Exception as exc:
        # litellm has no price for models missing from its map (local servers, new releases);
        # spend tracking then counts the call as free rather than failing a good answer.
        logger.debug("llm cost unknown", extra={"model": model, "error": type(exc).__name__})
        return 0.0
    return float(cost or 0.0)


def _json_mode_supported(model: str) -> bool:
    """Ask for JSON mode only where litellm knows the model takes it: unknown models (local
    servers, mocks) may reject `response_format`, and the prompt asks for JSON regardless."""
    litellm = _litellm()
    try:
        if litellm.supports_response_schema(model=model):
            return True
        litellm.get_model_info(model=model)  # raises for models litellm has no entry for
        return "response_format" in (litellm.get_supported_openai_params(model=model) or [])
    except Exception as exc:
        logger.debug("llm json mode unknown", extra={"model": model, "error": type(exc).__name__})
        return False


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
    json_mode: bool,
    mock_response: MockResponse | None,
) -> LLMResult[str]:
    """One chat call. The value is the reply as the model wrote it."""
    model = config.model
    if not model:
        raise LLMError("not_configured", "no LLM model is configured (llm.model is null)")
    if mock_response is None:
        mock_response = _take_mock(purpose)
    api_key = _api_key(config)
    litellm = _litellm()

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
        "api_key": api_key,
        "api_base": config.api_base,
    }
    if json_mode and _json_mode_supported(model):
        kwargs["response_format"] = {"type": "json_object"}
    if mock_response is not None:
        kwargs["mock_response"] = mock_response

    started = time.monotonic()
    try:
        response = litellm.completion(**kwargs)
    except Exception as exc:
        latency_ms = int((time.monotonic() - started) * 1000)
        kind = _error_kind(exc)
        details = _scrub(f"{type(exc).__name__}: {exc}", api_key)
        logger.warning(
            "llm call failed",
            extra={"purpose": purpose, "model": model, "latency_ms": latency_ms, "kind": kind},
        )
        raise LLMError(kind, details) from exc
    latency_ms = int((time.monotonic() - started) * 1000)

    prompt_tokens, completion_tokens = _usage(response)
    cost = _cost(response, model)
    logger.info(
        "llm call",
        extra={
            "purpose": purpose,
            "model": model,
            "latency_ms": latency_ms,
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "cost_usd": cost,
        },
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
) -> LLMResult[M]:
    """Ask for a JSON object and validate it into `schema`.

    `purpose` names the call in logs ("stance", "rewrite"...). `mock_response` is passed to
    litellm as is: a string is the reply, an exception instance is raised as a provider error.
    """
    reply = _complete(
        system=system,
        user=user,
        purpose=purpose,
        config=_config(config),
        json_mode=True,
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
        config=_config(config),
        json_mode=False,
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
    cfg = _config(config)
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
    litellm = _litellm()
    started = time.monotonic()
    try:
        response = litellm.embedding(
            model=model,
            input=texts,
            timeout=cfg.timeout_s,
            api_key=api_key,
            api_base=cfg.api_base,
        )
    except Exception as exc:
        latency_ms = int((time.monotonic() - started) * 1000)
        kind = _error_kind(exc)
        logger.warning(
            "llm embedding failed",
            extra={"purpose": "embed", "model": model, "latency_ms": latency_ms, "kind": kind},
        )
        raise LLMError(kind, _scrub(f"{type(exc).__name__}: {exc}", api_key)) from exc
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
    prompt_tokens, _ = _usage(response)
    cost = _cost(response, model)
    logger.info(
        "llm call",
        extra={
            "purpose": "embed",
            "model": model,
            "latency_ms": latency_ms,
            "prompt_tokens": prompt_tokens,
            "completion_tokens": 0,
            "cost_usd": cost,
        },
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


# --- prompts ---------------------------------------------------------------------------------


def load_prompt(name: PromptName, config: LLMConfig | None = None) -> tuple[str, str]:
    """The prompt text and the sha256 hex of it; runs record the hash so a verdict can be
    traced to the exact prompt wording that produced it."""
    prompts = _config(config).prompts
    if name not in type(prompts).model_fields:
        raise ValueError(f"unknown prompt {name!r}")
    path = resolve_path(getattr(prompts, name))
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise LLMError(
            "not_configured", f"prompt {name!r} cannot be read from {path}: {exc.strerror}"
        ) from exc
    return text, hashlib.sha256(text.encode("utf-8")).hexdigest()
