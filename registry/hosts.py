"""Host names of URLs, and the publisher each one counts as.

A source is weighed by its host (`registry.weighing`), and counted once per publisher: its
registrable domain (`https://www.bbc.co.uk/news` is `bbc.co.uk`). A host that names no public
publisher (an address literal, `localhost`, an intranet name) is never one.
"""

from __future__ import annotations

import contextlib
import functools
import ipaddress
import re
import socket
from urllib.parse import urlsplit

import tldextract


@functools.cache
def _extractor() -> tldextract.TLDExtract:
    # No suffix-list URLs and no disk cache: the snapshot bundled with the package is used, so
    # a lookup never reaches the network (and never blocks on it).
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, fallback_to_snapshot=True)


def host_of(url_or_host: str) -> str:
    """The lower-case host of a URL or bare host name, without port, brackets or trailing dot.
    International names come back in their ASCII (punycode) form."""
    text = url_or_host.strip()
    bare = text.strip("[]").lower()
    if is_ip(bare):
        return bare
    if "://" not in text:
        text = "//" + text
    try:
        host = urlsplit(text).hostname or ""
    except ValueError:
        return ""
    host = host.rstrip(".").lower()
    if not host.isascii():
        # A name the idna codec refuses keeps its Unicode form: it still equals itself.
        with contextlib.suppress(UnicodeError):
            host = host.encode("idna").decode("ascii")
    return host


def is_ip(host: str) -> bool:
    """Whether `host` is an IP address in its standard spelling (see `is_address_literal` for
    every other)."""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def registrable_domain(url_or_host: str) -> str:
    """`https://www.bbc.co.uk/news` → `bbc.co.uk`. IP addresses and names that are themselves a
    public suffix (or have none, like `localhost`) come back as the host, and so does such a
    suffix behind `www.` (`www.gov.uk` → `gov.uk`)."""
    host = host_of(url_or_host)
    if not host or is_ip(host):
        return host
    parts = _extractor()(host)
    if parts.domain == "www" and parts.suffix:
        # `www.gov.uk` is the web name of the site `gov.uk`, a public suffix that is also one
        # publisher's site: one publisher, not two.
        return parts.suffix
    if parts.top_domain_under_public_suffix:
        return parts.top_domain_under_public_suffix
    if parts.suffix or "." not in host:
        return host  # the host is itself a public suffix, or a bare name like `localhost`
    # An ending the suffix list does not know (`.example`, `.internal`): treat the last label as
    # the suffix, so that `www.agency.example` and `agency.example` are one source, not two.
    return ".".join(host.split(".")[-2:])


# Endings that name no public publisher: loopback, mDNS, intranets and the special-use names.
# (`.example` and `.test` stay: documentation and test corpora use them as stand-in publishers.)
_INTERNAL_ENDINGS = (
    "localhost",
    "local",
    "internal",
    "intranet",
    "lan",
    "home",
    "corp",
    "private",
    "home.arpa",
    "invalid",
    "onion",
    "arpa",
)
_NUMERIC_HOST = re.compile(r"^[0-9a-fx.]+$")


def is_address_literal(host: str) -> bool:
    """Whether `host` spells an IP address in any form a resolver accepts: dotted, decimal
    (`2130706433`), hex or octal (`0x7f.1`, `0177.0.0.1`), short (`127.1`) or IPv6
    (`[::ffff:127.0.0.1]`)."""
    bare = host.strip().strip("[]").rstrip(".").lower()
    if not bare:
        return False
    if is_ip(bare.split("%")[0]):
        return True
    if _NUMERIC_HOST.match(bare) and any(ch.isdigit() for ch in bare):
        try:
            socket.inet_aton(bare)
        except OSError:
            return False
        return True
    return False


def publisher_of(url_or_host: str) -> str | None:
    """The publisher a source counts as: its registrable domain. None for a host that names
    no publisher: an address literal in any spelling, a bare name (`localhost`, `intranet`)
    or an internal or special-use ending (`.local`, `.internal`, `.home.arpa`, ...). Such a
    source is never evidence, and two spellings of one address are never two publishers."""
    host = host_of(url_or_host)
    if not host or "." not in host or is_address_literal(host):
        return None
    if any(host == end or host.endswith("." + end) for end in _INTERNAL_ENDINGS):
        return None
    registrable = registrable_domain(host)
    return registrable or None
