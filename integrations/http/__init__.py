"""The one way out: every outbound HTTP request of ClaimCheck goes through this package.

Page fetching, search-provider APIs and the fact-check API all ask for URLs that come, directly
or through redirects, from the open web. So each request here is guarded against server-side
request forgery twice: a pre-flight check resolves the host and refuses non-public addresses
(repeated for every redirect hop), and the network backend resolves, vets and connects to the
vetted IP itself, so a DNS answer that changes between check and connect cannot slip through.

Non-2xx statuses are not errors here: callers decide what a 404 or a 503 means to them.
Transport problems become `HttpError` subclasses with a stable `kind`.

By subject: `addresses` (the SSRF policy and the offline switch), `backends` (connections only to
vetted addresses, under one deadline), `canonical` (one spelling per URL, the key pages and
results are stored and merged by), `charset` (what a body is encoded in), `client` (the
request: redirects, headers, byte caps, the response) and `errors`.
"""

from integrations.http.addresses import IPAddress, check_url, offline, resolve
from integrations.http.backends import USER_AGENT
from integrations.http.charset import detect_encoding
from integrations.http.client import Response, aget, arequest, get, request
from integrations.http.errors import (
    BadJSON,
    BlockedURL,
    ConnectFailed,
    FetchTimeout,
    HttpError,
    InvalidURL,
    Offline,
    TooLarge,
    TooManyRedirects,
    TransferFailed,
)

__all__ = [
    "USER_AGENT",
    "BadJSON",
    "BlockedURL",
    "ConnectFailed",
    "FetchTimeout",
    "HttpError",
    "IPAddress",
    "InvalidURL",
    "Offline",
    "Response",
    "TooLarge",
    "TooManyRedirects",
    "TransferFailed",
    "aget",
    "arequest",
    "check_url",
    "detect_encoding",
    "get",
    "offline",
    "request",
    "resolve",
]
