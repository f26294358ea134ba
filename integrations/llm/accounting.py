"""What a call used and cost, read from litellm's response, and the log line that records it;
and what was repaired in the replies, counted per day in the database. Prompts and outputs
never go into the log line: they hold claim text."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from integrations.llm.provider import litellm_module, logger
from integrations.llm.replies import ReplyTally


@dataclass(frozen=True)
class Usage:
    """What this process's answered LLM calls used, all told (`usage_so_far()`); the difference
    of two readings is what happened in between (the evaluation's tokens per claim)."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0

    def __sub__(self, other: Usage) -> Usage:
        return Usage(
            calls=self.calls - other.calls,
            prompt_tokens=self.prompt_tokens - other.prompt_tokens,
            completion_tokens=self.completion_tokens - other.completion_tokens,
            cost_usd=self.cost_usd - other.cost_usd,
        )


_usage_lock = threading.Lock()
_usage = Usage()


def usage_so_far() -> Usage:
    with _usage_lock:
        return _usage


def token_usage(response: Any) -> tuple[int, int]:
    """(prompt tokens, completion tokens); 0 where the provider reported none."""
    usage = getattr(response, "usage", None)
    prompt = getattr(usage, "prompt_tokens", None) or 0
    completion = getattr(usage, "completion_tokens", None) or 0
    return int(prompt), int(completion)


def call_cost(response: Any, model: str) -> float:
    try:
        cost = litellm_module().completion_cost(completion_response=response)
    except Exception as exc:
        # litellm has no price for models missing from its map (local servers, new releases);
        # spend tracking then counts the call as free rather than failing a good answer.
        logger.debug("llm cost unknown", extra={"model": model, "error": type(exc).__name__})
        return 0.0
    return float(cost or 0.0)


def log_call(
    *,
    purpose: str,
    model: str,
    latency_ms: int,
    prompt_tokens: int,
    completion_tokens: int,
    cost_usd: float,
) -> None:
    global _usage
    with _usage_lock:
        _usage = Usage(
            calls=_usage.calls + 1,
            prompt_tokens=_usage.prompt_tokens + prompt_tokens,
            completion_tokens=_usage.completion_tokens + completion_tokens,
            cost_usd=_usage.cost_usd + cost_usd,
        )
    logger.info(
        "llm call",
        extra={
            "purpose": purpose,
            "model": model,
            "latency_ms": latency_ms,
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "cost_usd": cost_usd,
        },
    )


def replies_record(tally: ReplyTally) -> None:
    """Add a tally's clipped and refused items to today's counts for its purpose. Called by the
    thread that owns the database connection (not a reading's worker thread); nothing is
    written when nothing was repaired."""
    if not tally.clipped and not tally.refused:
        return
    # Imported here: the gateway is also imported where Django's apps are not loaded (the local
    # model server's process, the configuration tools).
    from django.db.models import F
    from django.utils import timezone

    from claimcheck.models import ModelReplyDay

    day, _ = ModelReplyDay.objects.get_or_create(day=timezone.localdate(), purpose=tally.purpose)
    # One UPDATE with F(): workers counting at the same time add up instead of overwriting.
    ModelReplyDay.objects.filter(pk=day.pk).update(
        clipped=F("clipped") + tally.clipped, refused=F("refused") + tally.refused
    )
