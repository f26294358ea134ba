"""Search providers: one short module each, registered by name in `registry.PROVIDERS`."""

from harvester.providers import (  # noqa: F401
    brave,
    eventregistry,
    gdelt,
    google,
    local,
    newsapi,
    searxng,
    serper,
    yacy,
)
from harvester.providers.base import (
    HttpProvider,
    Provider,
    ProviderConfigError,
    ProviderHit,
    ProviderOutcome,
)
from harvester.providers.limits import reset_provider_state
from harvester.providers.registry import PROVIDERS, get_provider

__all__ = [
    "PROVIDERS",
    "HttpProvider",
    "Provider",
    "ProviderConfigError",
    "ProviderHit",
    "ProviderOutcome",
    "get_provider",
    "reset_provider_state",
]
