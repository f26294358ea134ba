"""The pipeline config: a good file loads; a bad one fails with a message naming the key."""

import re
from pathlib import Path

import pytest
from django.conf import settings

from claimcheck.config import ConfigError, load_config


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "claimcheck.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_shipped_default_loads_with_the_documented_budgets() -> None:
    config = load_config(settings.BASE_DIR / "claimcheck" / "default.yaml")
    assert config.search.cascade_order == ["local"]
    assert config.budgets.max_queries == 4
    assert config.budgets.top_k_results == 8
    assert config.budgets.crawls_per_turn == 3
    assert config.budgets.total_crawls == 4
    assert config.budgets.min_crawls == 2
    assert config.budgets.agreement_score == 1.6
    assert (config.budgets.lean_score, config.budgets.lean_ratio) == (0.4, 2.0)
    assert config.weights.for_tier("wire") == 0.8
    assert config.weights.for_tier("social") == 0.0
    assert config.llm.model is None
    assert config.fetcher.kind == "http"
    assert config.retention.ttl_days == 30
    assert config.retention.dedupe_similarity == 0.98
    assert config.retention.max_per_side == 5


def test_the_documented_cascade_and_provider_examples_load_when_uncommented(
    tmp_path: Path,
) -> None:
    """The second phase's order (self-hosted, then GDELT, Event Registry, NewsAPI, then a web
    search) is written in the shipped file as comments; uncommented, it is a valid config."""
    text = (settings.BASE_DIR / "claimcheck" / "default.yaml").read_text(encoding="utf-8")
    lines = []
    for line in text.splitlines():
        if line.startswith("  cascade_order:"):
            continue
        if line.startswith("  #   cascade_order:"):
            line = "  " + line.removeprefix("  #   ")
        elif re.match(r"    # [a-z]+: +\{", line):
            line = "    " + line.removeprefix("    # ")
        lines.append(line)
    config = load_config(write(tmp_path, "\n".join(lines)))
    assert config.search.cascade_order == [
        "local",
        "yacy",
        "gdelt",
        "eventregistry",
        "newsapi",
        "searxng",
    ]
    assert config.search.providers["eventregistry"].api_key_env == "EVENTREGISTRY_API_KEY"
    assert config.search.providers["newsapi"].api_key_env == "NEWSAPI_API_KEY"


def test_a_partial_file_fills_in_defaults(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, "budgets:\n  max_queries: 3\n"))
    assert config.budgets.max_queries == 3
    assert config.budgets.total_crawls == 4


def test_leaning_can_be_switched_off(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, "budgets:\n  lean_score: null\n"))
    assert config.budgets.lean_score is None


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("budgets:\n  max_querys: 3\n", "budgets.max_querys"),
        ("budgets:\n  max_queries: many\n", "budgets.max_queries"),
        ("budgets:\n  max_queries: 0\n", "budgets.max_queries"),
        ("weights:\n  wire: 1.5\n", "weights.wire"),
        ("search:\n  cascade_order: [bing]\n", "search.cascade_order"),
        ("search:\n  cascade_order: [serper]\n", "cascade_order names providers with no section"),
        (
            "search:\n  providers:\n    serper: {timeout_s: -1}\n",
            "search.providers.serper.timeout_s",
        ),
        ("fetcher:\n  kind: curl\n", "fetcher.kind"),
        ("budgets:\n  crawls_per_turn: 5\n  total_crawls: 4\n", "crawls_per_turn cannot exceed"),
        ("budgets:\n  lean_score: 2.0\n", "lean_score cannot exceed agreement_score"),
        ("budgets:\n  lean_ratio: 0.5\n", "budgets.lean_ratio"),
        (
            "llm:\n  model: openai/gpt-4o-mini\n  prompts: {rewrite: missing.txt}\n",
            "llm.prompts.rewrite",
        ),
        ("surprise: true\n", "surprise"),
        ("retention:\n  dedupe_similarity: 1.5\n", "retention.dedupe_similarity"),
        ("retention:\n  dedupe_similarity: 0.2\n", "retention.dedupe_similarity"),
        ("retention:\n  dedupe_similarity: nearly\n", "retention.dedupe_similarity"),
        ("retention:\n  max_per_side: five\n", "retention.max_per_side"),
        ("retention:\n  max_per_side: 500\n", "retention.max_per_side"),
        ("retention:\n  max_per_side: 0\n", "retention.max_per_side"),
    ],
)
def test_a_bad_file_fails_with_a_message_naming_the_key(
    tmp_path: Path, text: str, named: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, text))
    assert named in str(caught.value)


def test_room_for_fewer_than_two_publishers_a_side_is_refused_with_the_reason(
    tmp_path: Path,
) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, "retention:\n  max_per_side: 1\n"))
    assert "retention.max_per_side" in str(caught.value)
    assert "a side needs two independent publishers to decide a claim" in str(caught.value)


def test_a_file_that_is_not_yaml_says_so(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(write(tmp_path, "budgets: [unclosed\n"))


def test_a_missing_file_says_which_path(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"nowhere\.yaml"):
        load_config(tmp_path / "nowhere.yaml")


def test_a_file_whose_top_level_is_not_a_mapping_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="mapping"):
        load_config(write(tmp_path, "- a\n- b\n"))


def test_a_bad_file_stops_start_up(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = write(tmp_path, "budgets:\n  agreement_score: -2\n")
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=settings.BASE_DIR,
        env={"PATH": "/usr/bin:/bin", "DJANGO_DEBUG": "1", "CLAIMCHECK_CONFIG": str(path)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "budgets.agreement_score" in result.stderr
