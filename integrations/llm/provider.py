"""How the gateway reaches litellm and the configured model: the lazy litellm import, the
configuration in force, and the one logger every part of the gateway writes to."""

from __future__ import annotations

import logging
import os
from types import ModuleType

from claimcheck.config import LLMConfig, get_config

# litellm fetches its price list over the network at import unless told otherwise. Settings set
# this too; setting it here as well keeps a bare `import integrations.llm` offline. Nothing in the
# gateway imports litellm at module level: only `litellm_module()` does, after this line ran.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

# One name for the whole gateway, whichever of its modules writes: log filters and tests select
# on "integrations.llm".
logger = logging.getLogger("integrations.llm")


def litellm_module() -> ModuleType:
    # Imported lazily: litellm is slow to import and must see LITELLM_LOCAL_MODEL_COST_MAP first.
    import litellm

    # Otherwise litellm prints help banners to stdout for unknown models, outside our JSON logs.
    litellm.suppress_debug_info = True
    # No retries behind the gateway's back (retry.py is the only one). The calls pass
    # max_retries=0, but litellm 1.106 reads `max_retries or DEFAULT_MAX_RETRIES` for
    # OpenAI-compatible embeddings: 0 became 2, and the OpenAI client sent a failed embedding
    # request three times ("Retrying request to /embeddings"). With its default at 0 too, 0 holds.
    litellm.DEFAULT_MAX_RETRIES = 0  # type: ignore[misc]  # Final in its typing, read at call time
    return litellm


def resolve_config(config: LLMConfig | None) -> LLMConfig:
    return config if config is not None else get_config().llm


def is_enabled(config: LLMConfig | None = None) -> bool:
    """True when a chat model is configured; False selects the deterministic components."""
    return bool(resolve_config(config).model)
