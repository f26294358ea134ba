"""The providers by name: each adapter module registers its class when it is imported."""

from __future__ import annotations

from typing import TypeVar

from claimcheck.config import ProviderConfig
from harvester.providers.base import Provider, ProviderConfigError

PROVIDERS: dict[str, type[Provider]] = {}
P = TypeVar("P", bound="type[Provider]")


def register(cls: P) -> P:
    PROVIDERS[cls.name] = cls
    return cls


def get_provider(name: str, config: ProviderConfig) -> Provider:
    try:
        cls = PROVIDERS[name]
    except KeyError:
        raise ProviderConfigError(f"no adapter for provider {name!r}") from None
    return cls(config)
