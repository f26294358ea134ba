"""Fixtures the evidence tests share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import respx

from evidence.fetching import reading
from tests.evidence.factories import install_fake_dns


@pytest.fixture
def web() -> Iterator[respx.MockRouter]:
    """The outside web, mocked: each test says what each URL answers."""
    with respx.mock(assert_all_called=False) as router:
        yield router


@pytest.fixture
def fake_dns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hosts resolve through the fake DNS of `factories`, never the system resolver."""
    install_fake_dns(monkeypatch)


@pytest.fixture
def offline_fetching(fake_dns: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fake DNS, and a failed fetch retried at once."""
    monkeypatch.setattr(reading, "RETRY_DELAY_S", 0)
