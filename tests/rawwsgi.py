"""Requests replayed against the real WSGI entry point (`config.wsgi.application`) from a raw
environ, as a server hands them over: the body is a byte stream read by Django's own request
parsing, with or without a Content-Length or a Content-Type. Django's test client always sets
both, so it cannot show how a body sent in chunks or with no type is read."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.core.signals import request_finished, request_started
from django.db import close_old_connections

from config.wsgi import application


@dataclass(frozen=True)
class RawResponse:
    status: int
    headers: list[tuple[str, str]]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    def header(self, name: str) -> list[str]:
        return [value for key, value in self.headers if key.lower() == name.lower()]


@contextmanager
def _connection_kept() -> Iterator[None]:
    """A request closes the database connection it finds in a transaction; the test's own
    transaction must outlive it (Django's test client does the same)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def wsgi_request(
    method: str,
    path: str,
    *,
    body: bytes = b"",
    headers: dict[str, str] | None = None,
    chunked: bool = False,
    input_terminated: bool = True,
) -> RawResponse:
    """One request through the WSGI application. `chunked` sends the body as gunicorn hands on
    a chunked one: no CONTENT_LENGTH, the chunking undone, and `wsgi.input_terminated` set
    (unless `input_terminated` is False, as with a server that cannot read chunks)."""
    path, _, query = path.partition("?")
    environ: dict[str, Any] = {
        "REQUEST_METHOD": method,
        "SCRIPT_NAME": "",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
    }
    if chunked:
        environ["HTTP_TRANSFER_ENCODING"] = "chunked"
        environ["wsgi.input_terminated"] = input_terminated
    else:
        environ["CONTENT_LENGTH"] = str(len(body))
    for name, value in (headers or {}).items():
        key = name.upper().replace("-", "_")
        environ[key if key == "CONTENT_TYPE" else f"HTTP_{key}"] = value
    started: list[Any] = []

    def start_response(status: str, response_headers: list[tuple[str, str]], *_: Any) -> None:
        started.append((int(status.split()[0]), response_headers))

    with _connection_kept():
        result = application(environ, start_response)
        try:
            content = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
    status, response_headers = started[0]
    return RawResponse(status=status, headers=response_headers, body=content)
