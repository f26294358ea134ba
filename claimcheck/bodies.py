"""How the API reads a request body: as JSON whatever the Content-Type says, and only when every
string in it is text the database can store.

A JSON string may spell a lone surrogate (`"\\ud800"`), which no UTF-8 encoder accepts, or a NUL
(`"\\u0000"`), which PostgreSQL text cannot hold; bytes that are not UTF-8 are read as such
surrogates too. Left in, each failed deep inside a save with a 500. They are refused here, once
for every endpoint, with 422 naming the field as the client sent it."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest
from ninja.errors import ValidationError
from ninja.parser import Parser

NUL_MESSAGE = "must not hold a NUL character"
ENCODING_MESSAGE = (
    "the body must be JSON in UTF-8; it was sent in {encoding}: send it in UTF-8 (RFC 8259)"
)
UNICODE_MESSAGE = (
    "must be valid Unicode text: a lone surrogate (such as \\ud800) or a byte that is not"
    " UTF-8 cannot be stored"
)


def text_problem(value: str) -> str | None:
    """Why the text cannot be stored, or None when it can."""
    if "\x00" in value:
        return NUL_MESSAGE
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return UNICODE_MESSAGE
    return None


def _shown(key: str) -> str:
    """A key as it can be shown back in an answer (its bad characters escaped)."""
    return key.replace("\x00", "\\u0000").encode("utf-8", "backslashreplace").decode("utf-8")


def text_problems(value: Any, path: tuple[str | int, ...] = ()) -> list[dict[str, Any]]:
    """Every string (and key) in decoded JSON that cannot be stored, as validation errors
    located like pydantic's (`("body", 0, "source_channel")`)."""
    problems: list[dict[str, Any]] = []
    if isinstance(value, str):
        problem = text_problem(value)
        if problem:
            problems.append({"loc": ("body", *path), "msg": problem, "type": "text"})
    elif isinstance(value, list):
        for index, item in enumerate(value):
            problems.extend(text_problems(item, (*path, index)))
    elif isinstance(value, dict):
        for key, item in value.items():
            problem = text_problem(key)
            if problem:
                where = ("body", *path, _shown(key))
                problems.append({"loc": where, "msg": f"the field name {problem}", "type": "text"})
            else:
                problems.extend(text_problems(item, (*path, key)))
    return problems


class JsonBodyParser(Parser):
    """ninja's JSON parser, decoding leniently so that bad text can be named, then refusing it.
    ninja wraps what this raises in its 400 "Cannot parse request body"; the API root unwraps
    a ValidationError from it into the usual 422."""

    def parse_body(self, request: HttpRequest) -> Any:
        raw = request.body
        if not raw.strip():
            # No body at all: a write that needs none (take, release, ...) takes it as such;
            # one that needs a body says which fields are missing.
            return None
        encoding = json.detect_encoding(raw)
        if encoding not in ("utf-8", "utf-8-sig"):
            # UTF-16 or UTF-32 (told by its byte order mark or its NULs): JSON exchanged
            # between systems is UTF-8, and a body in another encoding changes nothing.
            message = ENCODING_MESSAGE.format(encoding=encoding.upper())
            raise ValidationError([{"loc": ("body",), "msg": message, "type": "encoding"}])
        data = json.loads(raw.decode(encoding, "surrogateescape"))
        problems = text_problems(data)
        if problems:
            raise ValidationError(problems)
        return data
