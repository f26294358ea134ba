"""Marks on result URLs from the apps above the harvester (the domain registry marks denied
domains), without the harvester importing them: they register a marker when they start."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol, TypeVar

UrlMarker = Callable[[str], str]
"""Takes a URL, returns a short mark ("denied") or "" for none."""

_markers: list[UrlMarker] = []


def url_marker_register(marker: UrlMarker) -> None:
    if marker not in _markers:
        _markers.append(marker)


def url_marks(url: str) -> list[str]:
    return [mark for marker in _markers if (mark := marker(url))]


class _Result(Protocol):
    @property
    def url(self) -> str: ...


R = TypeVar("R", bound=_Result)


def results_marked(results: Iterable[R]) -> list[tuple[R, list[str]]]:
    """Each result with its marks; marked ones (never read) after the rest, order kept."""
    pairs = [(result, url_marks(result.url)) for result in results]
    return sorted(pairs, key=lambda pair: bool(pair[1]))
