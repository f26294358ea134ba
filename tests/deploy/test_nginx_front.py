"""The shipped nginx front (deploy/nginx/): its config passes `nginx -t`, it serves static files
from disk, and it passes requests, a token and a chunked body included, through to the app."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bench.nginx_front import check_config, nginx_front, write_config
from claimcheck.models import ApiToken
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def static_root(tmp_path: Path) -> Path:
    root = tmp_path / "staticfiles"
    (root / "css").mkdir(parents=True)
    (root / "css" / "only-on-disk.css").write_text("body { color: teal; }\n")
    return root


@pytest.fixture
def front(live_server: Any, tmp_path: Path, static_root: Path) -> Iterator[str]:
    upstream = live_server.url.removeprefix("http://")
    with nginx_front(work=tmp_path / "nginx", upstream=upstream, static_root=static_root) as base:
        yield base


def test_the_shipped_config_passes_nginx_t(tmp_path: Path, static_root: Path) -> None:
    config = write_config(
        work=tmp_path / "nginx", port=8080, upstream="127.0.0.1:8000", static_root=static_root
    )
    checked = check_config(config)
    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr


def test_a_request_passes_through_to_the_app(front: str) -> None:
    response = httpx.get(f"{front}/healthz", timeout=10)
    assert response.status_code == 200
    assert response.headers["server"].startswith("nginx")
    assert response.json()["database"]["ok"] is True


def test_a_token_and_a_chunked_body_reach_the_api(front: str) -> None:
    user = UserFactory(username="ada", groups=["admins", "editors"])
    token = ApiToken.issue(user=user, name="tests")[1]
    headers = {"Authorization": f"Bearer {token}"}
    me = httpx.get(f"{front}/api/me", headers=headers, timeout=10)
    assert me.status_code == 200 and me.json()["username"] == "ada"

    def body() -> Iterator[bytes]:
        yield b'{"name": "nginx-front.example", '
        yield b'"tier": "trade"}'

    added = httpx.post(f"{front}/api/domains", content=body(), headers=headers, timeout=10)
    assert added.status_code == 201, added.text
    assert added.json()["name"] == "nginx-front.example"


def test_static_files_come_from_disk(front: str) -> None:
    response = httpx.get(f"{front}/static/css/only-on-disk.css", timeout=10)
    assert response.status_code == 200
    assert response.text == "body { color: teal; }\n"
    assert "max-age=" in response.headers["cache-control"]
