"""Cut a page's text into overlapping chunks that remember the headings above them.

Offsets are into the page text itself, so that a quote found in a chunk can be checked
against the page character for character.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_BREAKS = (re.compile(r"\n\s*\n"), re.compile(r"\n"), re.compile(r"(?<=[.!?])\s+"))


@dataclass(frozen=True)
class Chunk:
    text: str
    start: int
    end: int
    heading_path: list[str] = field(default_factory=list)


def _heading_positions(
    text: str, headings: list[str], levels: list[int] | None
) -> list[tuple[int, int, str]]:
    """(offset, level, heading) for each heading found on a line of its own, in order."""
    found: list[tuple[int, int, str]] = []
    cursor = 0
    for index, heading in enumerate(headings):
        if not heading.strip():
            continue
        pattern = re.compile(r"(?m)^[ \t]*" + re.escape(heading.strip()) + r"[ \t]*$")
        match = pattern.search(text, cursor)
        if match is None:
            continue
        level = levels[index] if levels and index < len(levels) else 2
        found.append((match.start(), level, heading.strip()))
        cursor = match.end()
    return found


def _path_at(offset: int, positions: list[tuple[int, int, str]]) -> list[str]:
    stack: list[tuple[int, str]] = []
    for at, level, heading in positions:
        if at > offset:
            break
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, heading))
    return [heading for _, heading in stack]


def _cut_point(text: str, start: int, limit: int, minimum: int) -> int:
    """The best place to end a chunk in text[start:limit]: a paragraph break, else a line
    break, else a sentence end, else a space; never before `minimum`."""
    if limit >= len(text):
        return len(text)
    window = text[minimum:limit]
    for pattern in _BREAKS:
        ends = [m.end() for m in pattern.finditer(window)]
        if ends:
            return minimum + ends[-1]
    space = window.rfind(" ")
    return minimum + space + 1 if space > 0 else limit


def chunk_text(
    *,
    text: str,
    headings: list[str] | None = None,
    heading_levels: list[int] | None = None,
    size: int = 1000,
    overlap: int = 200,
) -> list[Chunk]:
    """Chunks of about `size` characters, each starting `overlap` characters before the end of
    the previous one (moved forward to a word start), ending at natural breaks."""
    if size <= 0 or not 0 <= overlap < size:
        raise ValueError("size must be positive and overlap within [0, size)")
    positions = _heading_positions(text, headings or [], heading_levels)
    chunks: list[Chunk] = []
    start = 0
    length = len(text)
    while start < length:
        while start < length and text[start].isspace():
            start += 1
        if start >= length:
            break
        end = _cut_point(text, start, start + size, start + size // 2)
        body = text[start:end].rstrip()
        if body:
            # A chunk that opens a new section in its first half belongs to that section.
            opening = [at for at, _, _ in positions if start <= at < start + len(body) // 2]
            path = _path_at(opening[-1] if opening else start, positions)
            chunks.append(Chunk(body, start, start + len(body), path))
        if end >= length:
            break
        next_start = max(end - overlap, start + 1)
        space = text.find(" ", next_start, end)
        start = space + 1 if overlap and space != -1 else next_start
    return chunks
