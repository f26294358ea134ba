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
def offline_fetching(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hosts resolve through the fake DNS of `factories`, and a failed fetch is retried at once."""
    install_fake_dns(monkeypatch)
    monkeypatch.setattr(reading, "RETRY_DELAY_S", 0)
