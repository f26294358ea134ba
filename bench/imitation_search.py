"""A search provider on loopback (SearxNG's JSON API) that answers nothing, slowly: the claims a
benchmark or a test queues then take a few seconds each, spent waiting on the network, as real
searches do. Used by bench/crash_bench.py and by the tests that run a real worker cluster."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any


@dataclass
class ImitationSearch:
    """A search provider on loopback (SearxNG's JSON API) that answers nothing, slowly."""

    port: int
    requests: list[str] = field(default_factory=list)

    def config(self, path: Path) -> Path:
        """A pipeline config that searches this provider only, as a paid one."""
        path.write_text(
            "search:\n  cascade_order: [searxng]\n  providers:\n"
            f"    searxng: {{base_url: 'http://127.0.0.1:{self.port}', timeout_s: 20,"
            " cost_per_query_usd: 0.001}\n"
        )
        return path


@contextmanager
def imitation_search(
    *, latency_s: float, first_latency_s: float | None = None
) -> Iterator[ImitationSearch]:
    """The provider on a free loopback port, answering `{"results": []}` after `latency_s`
    (the first search after `first_latency_s`, when given: one still waiting for its answer
    while a test restarts the database); stopped on the way out."""
    lock = threading.Lock()
    imitation = ImitationSearch(port=0)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            with lock:
                first = not imitation.requests
                imitation.requests.append(self.path)
            time.sleep(first_latency_s if first and first_latency_s is not None else latency_s)
            body = b'{"results": []}'
            try:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the worker that asked was killed or stopped meanwhile

        def log_message(self, format: str, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    imitation.port = int(server.server_address[1])
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield imitation
    finally:
        server.shutdown()
        server.server_close()
