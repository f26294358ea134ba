"""How the WSGI entry point (config.wsgi) reads a body sent in chunks. Kept apart from the
Django middleware: it wraps the application before Django has set itself up."""

from __future__ import annotations

import io
from typing import Any

from django.conf import settings


def sent_in_chunks(environ: dict[str, Any]) -> bool:
    """A body with no Content-Length, sent with `Transfer-Encoding: chunked`."""
    chunked = "chunked" in str(environ.get("HTTP_TRANSFER_ENCODING", "")).lower()
    return chunked and not environ.get("CONTENT_LENGTH")


def chunked_body_buffered(app: Any) -> Any:
    """Wraps the WSGI application. Django reads a body only as far as its Content-Length, so a
    body sent in chunks reached every view empty ("Field required"). When the server has
    undone the chunking and marks its stream as ending where the body ends
    (`wsgi.input_terminated`, which gunicorn sets), the body is read here, at most
    DATA_UPLOAD_MAX_MEMORY_SIZE + 1 bytes, and handed on with its length; InputGuardMiddleware
    then refuses one over the limit as it would any other. Without that mark a read could wait
    on the socket for good, so the body is left alone and the guard answers 411."""

    def buffered(environ: dict[str, Any], start_response: Any) -> Any:
        if sent_in_chunks(environ) and environ.get("wsgi.input_terminated"):
            body = _read_at_most(environ["wsgi.input"], settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
        return app(environ, start_response)

    return buffered


def _read_at_most(stream: Any, limit: int | None) -> bytes:
    """The stream to its end, or its first limit + 1 bytes: enough to know it is too long."""
    if limit is None:
        return bytes(stream.read())
    parts: list[bytes] = []
    size = 0
    while size <= limit:
        part = stream.read(min(65_536, limit + 1 - size))
        if not part:
            break
        parts.append(part)
        size += len(part)
    return b"".join(parts)
