"""The shipped nginx front (deploy/nginx/claimcheck.conf.template) run by an ordinary user: a
generated top-level config on a loopback port, with its pid, logs and temp files in a directory
of its own. Used by bench/stall_bench.py and by the test that the shipped config is valid."""

from __future__ import annotations

import grp
import os
import pwd
import shutil
import signal
import socket
import string
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "deploy" / "nginx" / "claimcheck.conf.template"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

MAIN = """\
user {user};
worker_processes 1;
pid {work}/nginx.pid;
error_log {work}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {work}/access.log;
    client_body_temp_path {work}/body;
    proxy_temp_path {work}/proxy;
    fastcgi_temp_path {work}/fastcgi;
    uwsgi_temp_path {work}/uwsgi;
    scgi_temp_path {work}/scgi;
    include {work}/claimcheck.conf;
}}
"""


def render_site(*, listen: str, upstream: str, static_root: Path) -> str:
    """The shipped template with its three variables filled in, as envsubst would."""
    values = {
        "CLAIMCHECK_LISTEN": listen,
        "CLAIMCHECK_UPSTREAM": upstream,
        "CLAIMCHECK_STATIC_ROOT": str(static_root),
    }
    text = string.Template(TEMPLATE.read_text()).safe_substitute(values)
    if "${CLAIMCHECK_" in text:
        raise ValueError("the nginx template names a variable that is not filled in")
    return text


def write_config(*, work: Path, port: int, upstream: str, static_root: Path) -> Path:
    """A whole nginx config in `work` (created): the shipped site on 127.0.0.1:`port`."""
    work.mkdir(parents=True, exist_ok=True)
    site = render_site(listen=f"127.0.0.1:{port}", upstream=upstream, static_root=static_root)
    (work / "claimcheck.conf").write_text(site)
    main = work / "nginx.conf"
    # Workers as the user who runs this (nginx ignores the line unless that is root, whose
    # workers would otherwise be `nobody`, unable to read a private temp directory).
    user = pwd.getpwuid(os.geteuid())
    main.write_text(
        MAIN.format(work=work, user=f"{user.pw_name} {grp.getgrgid(user.pw_gid).gr_name}")
    )
    return main


def nginx_command(config: Path, *extra: str) -> list[str]:
    # -e: the error log before the config is read (Debian's default, /var/log/nginx, is root's).
    return [NGINX, "-p", str(config.parent), "-c", str(config), "-e", "stderr", *extra]


def check_config(config: Path) -> subprocess.CompletedProcess[str]:
    """`nginx -t` on a generated config."""
    return subprocess.run(nginx_command(config, "-t"), capture_output=True, text=True, check=False)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def nginx_front(*, work: Path, upstream: str, static_root: Path) -> Iterator[str]:
    """nginx in the foreground of a session of its own; yields its base URL once it accepts
    connections, and stops it (SIGQUIT, then SIGKILL) on the way out."""
    port = free_port()
    config = write_config(work=work, port=port, upstream=upstream, static_root=static_root)
    checked = check_config(config)
    if checked.returncode != 0:
        raise RuntimeError(f"nginx -t refused the config: {checked.stderr}")
    with (work / "nginx.out").open("wb") as out:
        server = subprocess.Popen(
            nginx_command(config, "-g", "daemon off;"),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        _wait_for_port(port, server, work)
        yield f"http://127.0.0.1:{port}"
    finally:
        try:
            os.killpg(server.pid, signal.SIGQUIT)
            server.wait(timeout=10)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=10)


def _wait_for_port(port: int, server: subprocess.Popen[bytes], work: Path) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"nginx exited: {(work / 'nginx.out').read_text()[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("nginx did not accept connections within 20 s")
