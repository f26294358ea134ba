"""Background tasks of the core app. Tasks take plain values or ids and call one service."""

from __future__ import annotations

import os
import socket


def worker_ping(token: str) -> dict[str, str | int]:
    """Answer from whichever worker picks this up: proves the queue is being processed."""
    return {"token": token, "host": socket.gethostname(), "pid": os.getpid()}
