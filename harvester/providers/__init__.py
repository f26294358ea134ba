"""Search providers: one short module each, registered by name in `base.PROVIDERS`."""

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
    PROVIDERS,
    HttpProvider,
    Provider,
    ProviderConfigError,
    ProviderHit,
    ProviderOutcome,
    get_provider,
    reset_provider_state,
)

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
