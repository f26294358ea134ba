"""Fixtures the integrations tests share: fake DNS and a real local server for the HTTP tests."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from typing import Any

import pytest

from integrations import http
from tests.integrations.http_doubles import LocalHandler, fake_resolve


@pytest.fixture
def fake_dns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hosts resolve through `http_doubles.FAKE_DNS`, never the system resolver."""
    monkeypatch.setattr(http.addresses, "resolve", fake_resolve)


@pytest.fixture
def local_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), LocalHandler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def allow_loopback(settings: Any) -> None:
    settings.CLAIMCHECK_HTTP_ALLOW_LOOPBACK = True
