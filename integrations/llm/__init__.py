"""The one gateway to language models: every completion and embedding goes through litellm here.

Callers get typed results (`LLMResult`) or one typed error (`LLMError`) whose `kind` says what
went wrong. A configured model that fails is an error, never a silent fallback: "no model
configured" (`is_enabled()` is False) selects the deterministic components up front, and a
caller that reads or writes offline after an error says so on the claim's timeline.

Logs (logger "integrations.llm") carry purpose, model, latency, tokens and cost. Prompts and
outputs are never logged, because they hold claim text; API keys are never logged or put in
error details.

Tests drive this package through litellm's own `mock_response` parameter, so litellm's request
path (argument handling, response objects, usage, cost) runs for real without a network call.
`llm_mock()` feeds such responses to code that calls the gateway indirectly.

By subject: `provider` (the lazy litellm import, the configuration in force, the logger),
`client` (the completion and embedding calls), `errors` (`LLMError` and how a provider's
exception maps onto it), `accounting` (tokens, cost and the call's log line; the daily counts of
repaired reply items), `replies` (a reply's list judged item by item: clipped or refused alone),
`prompts` (the prompt files and their hash) and `mock` (the `llm_mock()` test seam).
"""

from integrations.llm.accounting import replies_record
from integrations.llm.client import LLMResult, complete_json, complete_text, embed
from integrations.llm.errors import ErrorKind, LLMError
from integrations.llm.mock import LLMMock, LLMMockExhausted, MockResponse, llm_mock
from integrations.llm.prompts import PromptName, load_prompt
from integrations.llm.provider import is_enabled
from integrations.llm.replies import ReplyTally, items_check

__all__ = [
    "ErrorKind",
    "LLMError",
    "LLMMock",
    "LLMMockExhausted",
    "LLMResult",
    "MockResponse",
    "PromptName",
    "ReplyTally",
    "complete_json",
    "complete_text",
    "embed",
    "is_enabled",
    "items_check",
    "llm_mock",
    "load_prompt",
    "replies_record",
]
