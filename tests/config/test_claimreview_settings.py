"""The ClaimReview settings come from the environment: the newsroom's names for the outcomes
replace the defaults one by one, and a value that cannot be meant stops start-up with a sentence
that names the variable, instead of publishing a default nobody chose."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from config.env import env_names, env_url

DEFAULT = {"true": "True", "false": "False", "invalid": "Unproven"}


def names(monkeypatch: pytest.MonkeyPatch, value: str) -> dict[str, str]:
    monkeypatch.setenv("CLAIMCHECK_RATING_NAMES", value)
    return env_names("CLAIMCHECK_RATING_NAMES", default=DEFAULT)


def test_unset_the_defaults_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLAIMCHECK_RATING_NAMES", raising=False)
    assert env_names("CLAIMCHECK_RATING_NAMES", default=DEFAULT) == DEFAULT


def test_configured_names_replace_the_defaults_and_the_others_stay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert names(monkeypatch, "true=Correct, FALSE = Wrong") == {
        "true": "Correct",
        "false": "Wrong",
        "invalid": "Unproven",
    }


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("true:Correct", "must be key=Name pairs"),
        ("true=", "must be key=Name pairs"),
        ("true=Correct,,false=Wrong", "must be key=Name pairs"),
        ("maybe=Half true", "unknown key 'maybe'"),
        ("true=Correct,true=Right", "'true' is named twice"),
    ],
)
def test_a_malformed_value_is_refused_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, value: str, words: str
) -> None:
    with pytest.raises(ImproperlyConfigured, match="CLAIMCHECK_RATING_NAMES") as refused:
        names(monkeypatch, value)
    assert words in str(refused.value)


@pytest.mark.parametrize("value", ["facts.example.org", "ftp://facts.example.org", "https://"])
def test_a_newsroom_address_that_is_not_http_is_refused(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("CLAIMCHECK_NEWSROOM_URL", value)
    with pytest.raises(ImproperlyConfigured, match="CLAIMCHECK_NEWSROOM_URL must be an http"):
        env_url("CLAIMCHECK_NEWSROOM_URL")


def _start(**env: str) -> subprocess.CompletedProcess[str]:
    """Django started in a process of its own with these variables, printing the names."""
    program = (
        "import json, django; django.setup(); from django.conf import settings; "
        "print(json.dumps([settings.CLAIMCHECK_RATING_NAMES, settings.CLAIMCHECK_NEWSROOM_NAME]))"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMCHECK_")}
    clean.pop("DATABASE_URL", None)
    return subprocess.run(  # noqa: S603 (this interpreter, a fixed program)
        [sys.executable, "-c", program],
        env={
            **clean,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_DEBUG": "1",
            "CLAIMCHECK_ENV_FILE": os.devnull,
            **env,
        },
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_at_start_up_the_configured_names_are_the_settings() -> None:
    started = _start(
        CLAIMCHECK_RATING_NAMES="true=Correct,invalid=Not proven",
        CLAIMCHECK_NEWSROOM_NAME="Examplia Fact Desk",
    )
    assert started.returncode == 0, started.stderr
    assert json.loads(started.stdout) == [
        {"true": "Correct", "false": "False", "invalid": "Not proven"},
        "Examplia Fact Desk",
    ]


def test_a_malformed_value_stops_start_up_with_a_clear_error() -> None:
    started = _start(CLAIMCHECK_RATING_NAMES="true=Correct,perhaps=Maybe")
    assert started.returncode != 0
    assert "ImproperlyConfigured: CLAIMCHECK_RATING_NAMES: unknown key 'perhaps'" in started.stderr
