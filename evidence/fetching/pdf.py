"""Text out of PDF documents (reports, papers, official notices), with pypdf."""

from __future__ import annotations

import io
import logging
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime

from pypdf import PdfReader
from pypdf.errors import PyPdfError

logger = logging.getLogger(__name__)

PDF_MAGIC = b"%PDF-"
_MAX_PAGES = 200
_MAX_CHARS = 2_000_000


class PdfUnreadable(Exception):
    """A PDF pypdf cannot open or read (damaged, or encrypted with a password)."""


@dataclass(frozen=True)
class PdfText:
    text: str
    title: str
    pages: int
    created_at: datetime | None
    modified_at: datetime | None


def looks_like_pdf(content: bytes) -> bool:
    # The header may follow a little junk (the spec allows it within the first KiB).
    return PDF_MAGIC in content[:1024]


def pdf_text(content: bytes, *, max_pages: int = _MAX_PAGES) -> PdfText:
    """The text of the first `max_pages` pages, the document title and its dates."""
    try:
        reader = PdfReader(io.BytesIO(content), strict=False)
        if reader.is_encrypted and not reader.decrypt(""):
            raise PdfUnreadable("the PDF is encrypted")
        parts: list[str] = []
        size = 0
        for page in reader.pages[:max_pages]:
            text = page.extract_text() or ""
            parts.append(text)
            size += len(text)
            if size > _MAX_CHARS:
                break
        info = reader.metadata
        title = str(info.title or "").strip() if info else ""
        created = _aware(info.creation_date) if info else None
        modified = _aware(info.modification_date) if info else None
        pages = len(reader.pages)
    # pypdf reports damaged files through its own errors and, deeper down, through whatever the
    # parser tripped over; all of them mean the same thing here.
    except (
        PyPdfError,
        ValueError,
        KeyError,
        TypeError,
        IndexError,
        AttributeError,
        zlib.error,
    ) as exc:
        raise PdfUnreadable(f"{type(exc).__name__}: {str(exc)[:200]}") from exc
    except RecursionError as exc:
        raise PdfUnreadable("the PDF nests too deeply") from exc
    text = "\n\n".join(part.strip() for part in parts if part.strip())[:_MAX_CHARS]
    return PdfText(text=text, title=title, pages=pages, created_at=created, modified_at=modified)


def _aware(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)
