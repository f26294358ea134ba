"""Canonical URLs: one spelling per page, so that results from several providers merge and
pages are stored once.

Folded: the scheme (http and https name the same page for dedupe purposes; https is kept),
case of scheme and host, a leading `www.`, default ports, a trailing slash, the fragment,
tracking parameters, and the order of the remaining query parameters.
"""

from __future__ import annotations

import hashlib
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

_TRACKING_PARAMS = frozenset(
    {
        "gclid",
        "dclid",
        "gbraid",
        "wbraid",
        "fbclid",
        "msclkid",
        "yclid",
        "igshid",
        "mc_cid",
        "mc_eid",
        "_ga",
        "_gl",
        "_hsenc",
        "_hsmi",
        "mkt_tok",
        "ref_src",
        "ref_url",
        "spm",
        "cmpid",
        "ocid",
    }
)
_TRACKING_PREFIXES = ("utm_", "pk_", "mtm_")
_DEFAULT_PORTS = {"http": 80, "https": 443}


def _is_tracking(name: str) -> bool:
    lowered = name.lower()
    return lowered in _TRACKING_PARAMS or lowered.startswith(_TRACKING_PREFIXES)


def canonicalize_url(url: str) -> str:
    """The canonical form of an http(s) URL. Raises ValueError for anything else."""
    text = url.strip()
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise ValueError(f"not a valid URL: {text[:200]!r}") from exc
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        raise ValueError(f"not an http(s) URL: {text[:200]!r}")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise ValueError(f"URL has no host: {text[:200]!r}")
    try:
        host = host.encode("idna").decode("ascii").lower()
    except UnicodeError:
        host = host.lower()
    if host.startswith("www."):
        host = host[4:]
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    netloc = host
    if port is not None and port != _DEFAULT_PORTS[scheme]:
        netloc = f"{host}:{port}"
    path = parts.path or "/"
    if len(path) > 1:
        path = path.rstrip("/") or "/"
    params = [
        (name, value)
        for name, value in parse_qsl(parts.query, keep_blank_values=True)
        if not _is_tracking(name)
    ]
    params.sort()
    query = urlencode(params, doseq=False)
    return urlunsplit(("https", netloc, path, query, ""))


def dedupe_hash(url: str) -> str:
    """sha1 hex of the canonical URL: the merge key of processed results."""
    return hashlib.sha1(canonicalize_url(url).encode("utf-8"), usedforsecurity=False).hexdigest()


def site_of(url: str) -> str:
    """The site of a canonical URL: its host without `www.`, what site filters compare against.
    (`registry.hosts.host_of` keeps the `www.`: the registry matches the host as served.)"""
    host = (urlsplit(url).hostname or "").lower().rstrip(".")
    return host[4:] if host.startswith("www.") else host
