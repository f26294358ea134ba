"""The API examples and commands of the README and the pages under docs/ it leads to (the API's
in docs/api.md, `verify` and its kin in docs/engine.md) work as written on the demo data that
scripts/run loads."""

from __future__ import annotations

import io
import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client

from decisions.pipeline import claim_pipeline_run
from demo.loader import demo_load

pytestmark = pytest.mark.django_db

# The README and the docs/ pages it leads to, read as one text.
_PAGES = [
    Path(settings.BASE_DIR) / "README.md",
    *sorted((Path(settings.BASE_DIR) / "docs").glob("*.md")),
]
README = "\n".join(page.read_text(encoding="utf-8") for page in _PAGES)


def _example_body(route: str) -> Any:
    """The JSON a README `curl -d '...'` example posts to `route`."""
    for match in re.finditer(r"-d '(?P<body>[^']*)' \\\s*\n\s*(?P<url>\S+)", README):
        if match["url"].endswith(route):
            return json.loads(match["body"])
    raise AssertionError(f"the README has no example posting to {route}")


def test_the_readme_claim_example_is_decided_true_from_its_own_sources(api: Client) -> None:
    demo_load()
    body = _example_body("/api/claims")
    response = api.post("/api/claims", data=json.dumps(body), content_type="application/json")
    assert response.status_code == 202, response.content
    claim_id = response.json()["ids"][0]
    claim_pipeline_run(claim_id=claim_id)

    detail = api.get(f"/api/claims/{claim_id}").json()
    assert detail["status"] == "decided"
    assert detail["result"]["outcome"] == "True"
    publishers = {source["publisher"] for source in detail["result"]["sources"]}
    assert len(publishers) >= 2, detail["result"]["sources"]
    assert "battery passport" not in detail["result"]["proof"].lower()


def test_the_readme_search_run_example_answers_201(api: Client) -> None:
    demo_load()
    body = _example_body("/api/search-runs")
    response = api.post("/api/search-runs", data=json.dumps(body), content_type="application/json")
    assert response.status_code == 201, response.content
    assert response.json()["providers_used"] == ["local"]
    assert response.json()["urls"], response.json()


def test_the_readme_promises_no_claim_id_and_its_list_filters_work_as_written(
    api: Client,
) -> None:
    # A fresh install numbers the demo claims first: the examples take the id from the answer.
    assert not re.search(r"/api/claims/\d", README)
    assert "/api/claims/$CLAIM" in README
    listed = re.findall(r"`GET (/api/search-runs\?[^`]+)`", README)
    assert listed == ["/api/search-runs?query=&from=&to="]
    assert api.get(listed[0]).status_code == 200


# Commands the README shows that run to completion on their own (not servers, not placeholders).
_RUNNABLE = {"verify", "harvest", "load_demo", "apitoken"}


def _readme_commands() -> list[list[str]]:
    commands = []
    for line in README.splitlines():
        text = line.strip()
        if not text.startswith(".venv/bin/python manage.py "):
            continue
        args = shlex.split(text.split("#", 1)[0])[2:]
        if args and args[0] in _RUNNABLE and "cc_AbCdEfG" not in args:
            commands.append(args)
    return commands


def test_the_readme_commands_run_as_written_after_set_up() -> None:
    call_command("bootstrap", stdout=io.StringIO())
    commands = _readme_commands()
    assert {args[0] for args in commands} == _RUNNABLE, commands
    for args in commands:
        out = io.StringIO()
        call_command(*args, stdout=out)
        assert out.getvalue().strip(), args
