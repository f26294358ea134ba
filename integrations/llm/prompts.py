"""The prompt files named in the configuration (llm.prompts, by default under
integrations/prompts/), read with the hash that runs record."""

from __future__ import annotations

import hashlib
from typing import Literal

from claimcheck.config import LLMConfig, resolve_path
from integrations.llm.errors import LLMError
from integrations.llm.provider import resolve_config

PromptName = Literal["rewrite", "translate", "stance", "proof"]


def load_prompt(name: PromptName, config: LLMConfig | None = None) -> tuple[str, str]:
    """The prompt text and the sha256 hex of it; runs record the hash so a verdict can be
    traced to the exact prompt wording that produced it."""
    prompts = resolve_config(config).prompts
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
