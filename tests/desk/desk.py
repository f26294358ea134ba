"""Helpers for the review desk page tests: the header an HTMX request carries, and a page's text."""

from __future__ import annotations

from typing import Any

HX = {"HX-Request": "true"}


def text(response: Any) -> str:
    return response.content.decode()
