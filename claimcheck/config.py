"""The pipeline configuration: one YAML file parsed once into pydantic models.

The file names providers, budgets, tier weights, the LLM and the fetcher. Secrets never live
in it: a section names the environment variable that holds its key (`api_key_env`).
A wrong key or value stops start-up with a message that names it.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Annotated, Literal

import yaml
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

ProviderName = Literal[
    "local", "serper", "brave", "searxng", "yacy", "gdelt", "google", "eventregistry", "newsapi"
]
Tier = Literal["official", "wire", "trade", "other", "social"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ProviderConfig(_Strict):
    """One search provider. Keys come from the environment variable named here."""

    enabled: bool = True
    api_key_env: str | None = None
    base_url: str | None = None
    timeout_s: Annotated[float, Field(gt=0, le=60)] = 4.0
    retries: Annotated[int, Field(ge=0, le=5)] = 2
    rate_per_minute: Annotated[int, Field(gt=0, le=6000)] = 60
    breaker_failures: Annotated[int, Field(ge=1, le=100)] = 5
    breaker_cooldown_s: Annotated[float, Field(gt=0, le=3600)] = 600.0
    cost_per_query_usd: Annotated[float, Field(ge=0)] = 0.0
    options: dict[str, str | int | float | bool] = Field(default_factory=dict)

    def api_key(self) -> str | None:
        return os.environ.get(self.api_key_env) if self.api_key_env else None


def _default_cascade() -> list[ProviderName]:
    return ["local"]


def _default_providers() -> dict[ProviderName, ProviderConfig]:
    return {"local": ProviderConfig()}


class SearchConfig(_Strict):
    provider: Literal["auto"] | ProviderName = "auto"
    cascade_order: list[ProviderName] = Field(default_factory=_default_cascade)
    providers: dict[ProviderName, ProviderConfig] = Field(default_factory=_default_providers)
    max_results: Annotated[int, Field(ge=1, le=100)] = 10
    lang: str | None = "en"

    @model_validator(mode="after")
    def _cascade_names_configured(self) -> SearchConfig:
        missing = [name for name in self.cascade_order if name not in self.providers]
        if missing:
            raise ValueError(f"cascade_order names providers with no section: {missing}")
        if not self.cascade_order:
            raise ValueError("cascade_order must name at least one provider")
        if self.provider != "auto" and self.provider not in self.providers:
            raise ValueError(f"provider {self.provider!r} has no section under providers")
        return self


class BudgetConfig(_Strict):
    max_queries: Annotated[int, Field(ge=1, le=50)] = 4
    top_k_results: Annotated[int, Field(ge=1, le=50)] = 8
    crawls_per_turn: Annotated[int, Field(ge=1, le=10)] = 3
    total_crawls: Annotated[int, Field(ge=1, le=50)] = 4
    # A search that stops paying goes on (while queries remain) until this many pages were read.
    min_crawls: Annotated[int, Field(ge=0, le=50)] = 2
    agreement_score: Annotated[float, Field(gt=0, le=10)] = 1.6
    # An Invalid verdict's lean hint: the least weight a side needs (None: no hints), and by
    # how many times the other side's. A hint for the editor, never the outcome.
    lean_score: Annotated[float, Field(gt=0, le=10)] | None = 0.4
    lean_ratio: Annotated[float, Field(ge=1, le=100)] = 2.0
    # A sufficient side with more than this share of its weight counted against it is a
    # conflict (Invalid), not a verdict (None: any opposition short of sufficiency is allowed).
    max_opposition: Annotated[float, Field(ge=0, le=1)] | None = 0.5
    # The least sure a stance reading may be and still count toward True or False; less sure
    # readings only feed the lean hint.
    min_confidence: Literal["low", "medium", "high"] = "medium"
    # Stop searching once this many refinements in a row find nothing new worth reading.
    dry_attempts: Annotated[int, Field(ge=1, le=50)] = 1
    daily_usd: Annotated[float, Field(ge=0)] = 5.0
    monthly_usd: Annotated[float, Field(ge=0)] = 100.0
    dedupe_window_hours: Annotated[int, Field(ge=0)] = 24
    # The working time one run of a claim may spend searching and reading (this process's
    # clock); past it, the claim is decided with the evidence it has.
    claim_deadline_s: Annotated[float, Field(gt=0, le=600)] = 45.0
    # However the work was spread (a worker that died, a task handed out again), a run is
    # decided once this long has passed since its first step.
    claim_cap_s: Annotated[float, Field(gt=0, le=3600)] = 300.0

    @model_validator(mode="after")
    def _per_turn_within_total(self) -> BudgetConfig:
        if self.crawls_per_turn > self.total_crawls:
            raise ValueError("crawls_per_turn cannot exceed total_crawls")
        if self.lean_score is not None and self.lean_score > self.agreement_score:
            raise ValueError("lean_score cannot exceed agreement_score")
        if self.claim_deadline_s > self.claim_cap_s:
            raise ValueError("claim_deadline_s cannot exceed claim_cap_s")
        return self


class WeightConfig(_Strict):
    official: Annotated[float, Field(ge=0, le=1)] = 1.0
    wire: Annotated[float, Field(ge=0, le=1)] = 0.8
    trade: Annotated[float, Field(ge=0, le=1)] = 0.6
    other: Annotated[float, Field(ge=0, le=1)] = 0.4
    social: Annotated[float, Field(ge=0, le=1)] = 0.0

    def for_tier(self, tier: str) -> float:
        return float(getattr(self, tier))


class LLMPrompts(_Strict):
    rewrite: str = "integrations/prompts/rewrite_query.txt"
    translate: str = "integrations/prompts/translate_query.txt"
    stance: str = "integrations/prompts/stance.txt"
    proof: str = "integrations/prompts/proof.txt"


class LLMConfig(_Strict):
    """No model means the deterministic components run. A configured model that fails is an
    error, never a silent fallback: the pipeline says on the timeline what read or wrote
    instead."""

    model: str | None = None
    embedding_model: str | None = None
    api_key_env: str | None = None
    api_base: str | None = None
    timeout_s: Annotated[float, Field(gt=0, le=300)] = 20.0
    temperature: Annotated[float, Field(ge=0, le=2)] = 0.0
    max_tokens: Annotated[int, Field(ge=16, le=32000)] = 1024
    # How a JSON reply is asked for: "auto" sends `response_format` only to models litellm
    # knows take it; "json_schema" sends the reply's schema (servers such as llama.cpp, vLLM
    # and Ollama then constrain the reply to it); "json_object" asks for any JSON object;
    # "none" relies on the prompt alone.
    response_format: Literal["auto", "json_schema", "json_object", "none"] = "auto"
    # Answers of 429 (rate limit) and 503 (overloaded) are asked again this many times, after
    # the wait the provider names (Retry-After) or a growing backoff: the provider refused
    # them, so nothing was paid. Any other failure is never sent again.
    retries: Annotated[int, Field(ge=0, le=5)] = 2
    prompts: LLMPrompts = Field(default_factory=LLMPrompts)


class FirecrawlConfig(_Strict):
    api_url: str | None = None
    api_key_env: str = "FIRECRAWL_API_KEY"


class FetcherConfig(_Strict):
    kind: Literal["http", "firecrawl"] = "http"
    timeout_s: Annotated[float, Field(gt=0, le=120)] = 15.0
    max_bytes: Annotated[int, Field(ge=1024, le=100_000_000)] = 5_000_000
    cache_ttl_hours: Annotated[int, Field(ge=0)] = 24 * 7
    concurrency: Annotated[int, Field(ge=1, le=32)] = 4
    firecrawl: FirecrawlConfig = Field(default_factory=FirecrawlConfig)


class FactCheckConfig(_Strict):
    enabled: bool = False
    api_key_env: str = "FACTCHECK_GOOGLE_API_KEY"
    max_results: Annotated[int, Field(ge=1, le=50)] = 3
    cache_ttl_hours: Annotated[int, Field(ge=0)] = 48
    rate_per_minute: Annotated[int, Field(gt=0)] = 60
    min_claim_length: Annotated[int, Field(ge=0)] = 20


class RetentionConfig(_Strict):
    # Evidence rows and fetched pages older than this are deleted by the daily sweep, except
    # what a verdict cites (and so what an override of it stands on).
    ttl_days: Annotated[int, Field(ge=1, le=3650)] = 30
    # A quote at least this alike to another of the same run, from the same publisher and
    # read the same way, is the same statement: the better row is kept and the other stored
    # as its copy, neither shown nor counted apart (1.0: only quotes that are the same once
    # case, spacing and punctuation are set aside; quotes whose numbers differ never are).
    dedupe_similarity: Annotated[float, Field(ge=0.5, le=1.0)] = 0.98
    # A claim shows and weighs only its best rows of support and its best of refutation
    # (`decisions.ranking`); rows that took no side are background and all stay.
    max_per_side: Annotated[int, Field(le=100)] = 5

    @field_validator("max_per_side")
    @classmethod
    def _room_for_two_publishers(cls, value: int) -> int:
        # A side needs two independent publishers to decide: room for fewer would make every
        # verdict Invalid without saying why.
        if value < 2:
            raise ValueError(
                "must be at least 2: a side needs two independent publishers to decide a claim"
            )
        return value


class PipelineConfig(_Strict):
    search: SearchConfig = Field(default_factory=SearchConfig)
    budgets: BudgetConfig = Field(default_factory=BudgetConfig)
    weights: WeightConfig = Field(default_factory=WeightConfig)
    llm: LLMConfig = Field(default_factory=LLMConfig)
    fetcher: FetcherConfig = Field(default_factory=FetcherConfig)
    factcheck: FactCheckConfig = Field(default_factory=FactCheckConfig)
    retention: RetentionConfig = Field(default_factory=RetentionConfig)


class ConfigError(ImproperlyConfigured):
    """The pipeline configuration file is missing, unreadable or invalid."""


def _describe(error: ValidationError) -> str:
    lines = []
    for item in error.errors():
        where = ".".join(str(part) for part in item["loc"]) or "(top level)"
        lines.append(f"{where}: {item['msg']}")
    return "; ".join(lines)


def load_config(path: str | Path) -> PipelineConfig:
    """Parse and validate one YAML file. Raises ConfigError naming the offending key."""
    path = Path(path)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read pipeline config {path}: {exc.strerror}") from exc
    except yaml.YAMLError as exc:
        raise ConfigError(f"pipeline config {path} is not valid YAML: {exc}") from exc
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ConfigError(f"pipeline config {path} must be a mapping at the top level")
    try:
        config = PipelineConfig.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(f"pipeline config {path} is invalid: {_describe(exc)}") from exc
    for name, prompt in config.llm.prompts:
        if config.llm.model and not resolve_path(prompt).is_file():
            raise ConfigError(f"pipeline config {path}: llm.prompts.{name}: no file at {prompt}")
    return config


def resolve_path(path: str) -> Path:
    """Relative paths in the config are relative to the project root."""
    candidate = Path(path)
    return candidate if candidate.is_absolute() else Path(settings.BASE_DIR) / candidate


@functools.cache
def get_config() -> PipelineConfig:
    return load_config(settings.CLAIMCHECK_CONFIG)


def reload_config() -> PipelineConfig:
    get_config.cache_clear()
    return get_config()
