"""The test seam: responses queued by `llm_mock()` and handed to litellm as its `mock_response`,
so code that calls the gateway indirectly runs litellm end to end without a network call."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

MockResponse = str | Exception


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


def take_mock(purpose: str) -> MockResponse | None:
    """The next queued response of the innermost `llm_mock()` block, or None outside any."""
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
