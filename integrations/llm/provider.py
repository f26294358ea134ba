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
    return litellm


def resolve_config(config: LLMConfig | None) -> LLMConfig:
    return config if config is not None else get_config().llm


def is_enabled(config: LLMConfig | None = None) -> bool:
    """True when a chat model is configured; False selects the deterministic components."""
    return bool(resolve_config(config).model)
