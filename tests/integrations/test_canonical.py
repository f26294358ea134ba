"""Canonical URLs: every spelling of one page folds to one key."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from integrations.http.canonical import canonicalize_url, dedupe_hash

BASE = "https://example.org/news/story?a=1&b=2"


@pytest.mark.parametrize(
    "variant",
    [
        "https://example.org/news/story?a=1&b=2",
        "http://example.org/news/story?a=1&b=2",
        "https://www.example.org/news/story?a=1&b=2",
        "https://EXAMPLE.org:443/news/story/?b=2&a=1",
        "http://www.example.org:80/news/story?a=1&b=2#comments",
        "https://example.org/news/story?utm_source=x&a=1&utm_medium=y&b=2&gclid=z&fbclid=w",
    ],
)
def test_spellings_of_one_page_fold_to_one_canonical_url(variant: str) -> None:
    assert canonicalize_url(variant) == BASE


def test_different_pages_stay_different() -> None:
    assert canonicalize_url("https://example.org/a") != canonicalize_url("https://example.org/b")
    assert canonicalize_url("https://example.org/?p=1") != canonicalize_url(
        "https://example.org/?p=2"
    )
    assert canonicalize_url("https://example.org:8443/") == "https://example.org:8443/"
    assert canonicalize_url("https://news.example.org/") != canonicalize_url("https://example.org/")


@pytest.mark.parametrize(
    "bad", ["ftp://example.org/x", "javascript:alert(1)", "not a url", "https://"]
)
def test_anything_but_an_http_url_is_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        canonicalize_url(bad)


def test_the_dedupe_hash_is_the_sha1_of_the_canonical_url() -> None:
    expected = hashlib.sha1(BASE.encode(), usedforsecurity=False).hexdigest()
    assert dedupe_hash("http://www.example.org/news/story/?b=2&a=1#x") == expected


segment = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_~.", min_size=1, max_size=8)
param = st.tuples(
    st.sampled_from(["a", "id", "q", "utm_source", "page", "gclid"]), st.text(max_size=6)
)


@given(
    host=st.sampled_from(["example.org", "www.example.org", "News.Example.COM"]),
    path=st.lists(segment, max_size=4),
    params=st.lists(param, max_size=4),
    slash=st.booleans(),
    fragment=st.text(max_size=5),
    scheme=st.sampled_from(["http", "https"]),
)
@example(host="example.org", path=["utm_"], params=[], slash=False, fragment="", scheme="http")
@example(
    host="example.org",
    path=["a"],
    params=[("utm_source", "x")],
    slash=False,
    fragment="",
    scheme="http",
)
def test_canonicalizing_is_idempotent(
    host: str,
    path: list[str],
    params: list[tuple[str, str]],
    slash: bool,
    fragment: str,
    scheme: str,
) -> None:
    from urllib.parse import parse_qsl, quote, urlencode, urlsplit

    url = f"{scheme}://{host}/" + "/".join(quote(p) for p in path) + ("/" if slash else "")
    if params:
        url += "?" + urlencode(params)
    if fragment:
        url += "#" + quote(fragment)
    once = canonicalize_url(url)
    assert canonicalize_url(once) == once
    parts = urlsplit(once)
    # Tracking parameters and the fragment go; a path segment may still be named "utm_".
    keys = [key for key, _ in parse_qsl(parts.query, keep_blank_values=True)]
    assert not [key for key in keys if key.startswith("utm_") or key == "gclid"]
    assert "#" not in once and not parts.fragment
    assert "://www." not in once
