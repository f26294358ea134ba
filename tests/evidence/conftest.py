"""Fixtures the evidence tests share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import respx


@pytest.fixture
def web() -> Iterator[respx.MockRouter]:
    """The outside web, mocked: each test says what each URL answers."""
    with respx.mock(assert_all_called=False) as router:
        yield router
