"""The local model server's memory as it answers: resident size when ready, then after each of N
requests of the kinds a claim makes (a stance reading of a page's passages with a JSON reply, and
an embedding of them), each with a prompt of its own as claims have. Printed: the size at each
step, the growth from the first answer to the last, and the seconds a request took.

    .venv/bin/python bench/llm_server_bench.py [--requests 12] [--cache-ram-mib 0]

`--cache-ram-mib` is passed to the server (llama.cpp's RAM cache of earlier prompts): 0, the
shipped setting, keeps its size steady; 8192 is llama.cpp's own default.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from integrations.llm.local_server import free_port, wait_healthy  # noqa: E402

TOPICS = (
    "The Senate approved the harbour budget bill by 60 votes to 38 on 5 March 2024.",
    "The port handled 3.1 million tonnes of grain in October 2024, the authority said.",
    "The medicines agency authorised the nasal flu vaccine after a review of two trials.",
    "The council adopted the battery passport regulation at its meeting in Brussels.",
)


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text(encoding="ascii").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _post(port: int, path: str, body: dict[str, object]) -> None:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/v1/{path}",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=300) as answer:
        answer.read()


def _passages(n: int) -> str:
    """A page's passages, different for every request: no two prompts alike."""
    return " ".join(f"{TOPICS[(n + i) % len(TOPICS)]} (item {n}-{i})" for i in range(40))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=12)
    parser.add_argument("--cache-ram-mib", type=int, default=0)
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryFile() as log:
        server = subprocess.Popen(
            [
                *[sys.executable, "-m", "integrations.llm.local_server", "--port", str(port)],
                *["--cache-ram-mib", str(args.cache_ram_mib)],
            ],
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        try:
            wait_healthy(port, timeout_s=120, alive=lambda: server.poll() is None)
            ready = _rss_mb(server.pid)
            print(f"model server ready: {ready:.0f} MB (cache-ram-mib {args.cache_ram_mib})")
            sizes, took = [], []
            for n in range(args.requests):
                started = time.monotonic()
                text = _passages(n)
                _post(
                    port,
                    "chat/completions",
                    {
                        "model": "smollm2",
                        "messages": [{"role": "user", "content": f"{TOPICS[n % 4]}\n{text}"}],
                        "max_tokens": 32,
                        "response_format": {"type": "json_object"},
                    },
                )
                _post(port, "embeddings", {"model": "smollm2", "input": [text[:900]]})
                took.append(time.monotonic() - started)
                sizes.append(_rss_mb(server.pid))
                print(f"  request {n + 1:>2}: {sizes[-1]:.0f} MB ({took[-1]:.1f} s)")
            print(
                f"after the first answer {sizes[0]:.0f} MB, after the last {sizes[-1]:.0f} MB: "
                f"{(sizes[-1] - sizes[0]) / max(1, len(sizes) - 1):.1f} MB a request after the "
                f"first; median request {sorted(took)[len(took) // 2]:.1f} s"
            )
        finally:
            server.terminate()
            server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
