"""Small template filters for the review desk pages."""

from __future__ import annotations

from urllib.parse import urlsplit

from django import template

register = template.Library()


@register.filter
def http_url(value: object) -> str:
    """The URL if it is http(s), else "": links built from fetched or searched data must never
    carry a javascript: or data: URL into an href."""
    text = str(value or "").strip()
    try:
        scheme = urlsplit(text).scheme.lower()
    except ValueError:
        return ""
    return text if scheme in ("http", "https") else ""


@register.filter
def host(value: object) -> str:
    try:
        return urlsplit(str(value or "")).hostname or str(value or "")
    except ValueError:
        return str(value or "")
