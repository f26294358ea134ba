"""Shared fixtures: named personas (an editor, an admin, an outsider, an API client)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from claimcheck.config import reload_config
from claimcheck.models import ApiToken
from registry.known_names import aliases_changed
from tests.factories import UserFactory
from tests.llm_server import ModelServer, model_server

PASSWORD = "pass-word-123"


@pytest.fixture(autouse=True)
def _fresh_config() -> Any:
    """Each test starts from the shipped pipeline config and reads the alias table afresh
    (a rolled-back test leaves the same row count and date behind)."""
    reload_config()
    aliases_changed()
    yield
    reload_config()
    aliases_changed()


@pytest.fixture
def lexical_stance(settings: Any, tmp_path: Any) -> None:
    """Stance read by the lexical scorer alone, as when the stance model is absent."""
    settings.STANCE_MODEL_DIR = str(tmp_path / "no-stance-model")


@pytest.fixture
def editor(db: None) -> Any:
    return UserFactory(username="edna", groups=["editors"])


@pytest.fixture
def admin_user(db: None) -> Any:
    return UserFactory(username="ada", groups=["admins"])


@pytest.fixture
def outsider(db: None) -> Any:
    """Signed in, but in neither group."""
    return UserFactory(username="otto")


@pytest.fixture
def editor_client(editor: Any) -> Client:
    client = Client()
    client.force_login(editor)
    return client


@pytest.fixture
def admin_client_(admin_user: Any) -> Client:
    client = Client()
    client.force_login(admin_user)
    return client


@pytest.fixture
def outsider_client(outsider: Any) -> Client:
    client = Client()
    client.force_login(outsider)
    return client


@pytest.fixture
def api_token(editor: Any) -> str:
    """A raw bearer token belonging to the editor persona."""
    _, raw = ApiToken.issue(user=editor, name="tests")
    return raw


@pytest.fixture
def admin_api_token(admin_user: Any) -> str:
    _, raw = ApiToken.issue(user=admin_user, name="tests")
    return raw


@pytest.fixture
def api(api_token: str) -> Client:
    """An API client persona: requests carry the editor's bearer token."""
    return Client(headers={"Authorization": f"Bearer {api_token}"})


@pytest.fixture(scope="session")
def llm_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModelServer]:
    """A real llama.cpp model server, shared by the session's tests that only ask it things."""
    with model_server(tmp_path_factory.mktemp("llm") / "server.log") as server:
        yield server


@pytest.fixture
def own_llm_server(tmp_path: Path) -> Iterator[ModelServer]:
    """A real model server of this test's own, for a test that kills it."""
    with model_server(tmp_path / "server.log") as server:
        yield server
