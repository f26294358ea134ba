"""Stand-ins for the outside world in the HTTP tests: a fake DNS, a chunked body and a real
server on 127.0.0.1 for the tests that need the real network backend."""

from __future__ import annotations

import ipaddress
import socket
import time
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler

import httpx

from integrations import http

FAKE_DNS = {
    "public.example.org": ["93.184.216.34"],
    "other.example.net": ["151.101.1.69", "2606:2800:220:1::1"],
    "internal.example.org": ["10.1.2.3"],
    "mixed.example.org": ["93.184.216.34", "192.168.1.20"],
    "v6-private.example.org": ["fd12:3456::1"],
}
# respx routes are matched on URL, so these hosts must also resolve publicly for the pre-flight.
FAKE_DNS["api.example.org"] = FAKE_DNS["public.example.org"]

PAGE = b"<!doctype html><html><head><title>Local</title></head><body>hello</body></html>"


def fake_resolve(host: str, port: int) -> list[http.IPAddress]:
    try:
        return [ipaddress.ip_address(a) for a in FAKE_DNS[host]]
    except KeyError:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known") from None


class ChunkStream(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A body without Content-Length, sent in chunks, that remembers whether it was read."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks
        self.read = False

    def __iter__(self) -> Iterator[bytes]:
        self.read = True
        yield from self.chunks

    async def __aiter__(self) -> AsyncIterator[bytes]:
        self.read = True
        for chunk in self.chunks:
            yield chunk


class LocalHandler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        try:
            if self.path.startswith("/go/"):
                # /go/<scheme>/<port>: a redirect to that scheme and port on this same host.
                _, _, scheme, port = self.path.split("/", 3)
                self.send_response(302)
                self.send_header("Location", f"{scheme}://127.0.0.1:{port}/page")
                self.end_headers()
                return
            route = getattr(self, "route_" + self.path.strip("/").replace("-", "_"), None)
            if route is None:
                self.send_error(404)
            else:
                route()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client hung up on purpose: that is what the cap and deadline tests do

    def route_page(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def route_redirect(self) -> None:
        self.send_response(302)
        self.send_header("Location", "/page")
        self.end_headers()

    def route_to_private(self) -> None:
        self.send_response(302)
        self.send_header("Location", "http://10.0.0.7/")
        self.end_headers()

    def route_big(self) -> None:
        # HTTP/1.0 and no Content-Length: only reading the stream reveals the size.
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        chunk = b"a" * 65536
        for _ in range(32):  # 2 MiB
            self.wfile.write(chunk)

    def route_drip(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        for _ in range(100):
            self.wfile.write(b"x")
            self.wfile.flush()
            time.sleep(0.1)

    def route_stall(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        for _ in range(15):
            self.wfile.write(b"x")
            self.wfile.flush()
            time.sleep(0.1)
        time.sleep(5)  # then nothing: one read now blocks past the caller's deadline

    def log_message(self, format: str, *args: object) -> None:
        pass  # keep pytest output readable
