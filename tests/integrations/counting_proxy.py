"""A counting proxy in front of the real model server: every HTTP request the gateway sends is
recorded (method, path, the model it names) and passed on, so a test can say how many requests
one call made, whatever the client libraries do inside it."""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Seen:
    method: str
    path: str
    model: str | None  # the "model" of a JSON body, None without one


@dataclass
class CountingProxy:
    port: int
    seen: list[Seen] = field(default_factory=list)

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


def _model_of(body: bytes) -> str | None:
    try:
        data = json.loads(body) if body else None
    except ValueError:
        return None
    return str(data["model"]) if isinstance(data, dict) and "model" in data else None


def _handler(upstream_port: int, proxy: CountingProxy, lock: threading.Lock) -> type:
    class Handler(BaseHTTPRequestHandler):
        # Keep-alive as the OpenAI client expects: requests are counted, not connections.
        protocol_version = "HTTP/1.1"

        def _forward(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            with lock:
                proxy.seen.append(Seen(self.command, self.path, _model_of(body)))
            upstream = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=120)
            try:
                upstream.request(self.command, self.path, body=body, headers=dict(self.headers))
                answer = upstream.getresponse()
                payload = answer.read()
                self.send_response(answer.status)
                for name, value in answer.getheaders():
                    if name.lower() not in ("content-length", "transfer-encoding", "connection"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True  # the client gave up (a timeout under test)
            finally:
                upstream.close()

        do_GET = _forward
        do_POST = _forward

        def log_message(self, format: str, *args: object) -> None:
            return  # the test reads `seen`, not stderr

    return Handler


@contextmanager
def counting_proxy(upstream_port: int) -> Iterator[CountingProxy]:
    """A proxy on a free loopback port in front of `upstream_port`, stopped on the way out."""
    lock = threading.Lock()
    proxy = CountingProxy(port=0)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(upstream_port, proxy, lock))
    server.daemon_threads = True
    proxy.port = int(server.server_address[1])
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield proxy
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
