"""Two editors, one claim, from outside the test suite: on a scratch SQLite database set up with
the app's own commands (migrate, load_demo, verify, people, apitoken) and served by a real
server, editor2 overrides a claim that editor1 read; editor1's override sent on what it read
is refused (412) and changes nothing; sent again on the claim as it now is, it lands, and the
claim's history holds both overrides. Prints each step; exits 1 at the first that fails.

    .venv/bin/python scripts/check_two_editors.py
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
CLAIM = "The Council of the Union adopted the Battery Passport Regulation in March 2025"


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(  # noqa: S603 - our own manage.py with fixed arguments
        [PYTHON, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        sys.exit(f"manage.py {' '.join(args)} failed:\n{done.stderr[-2000:]}")
    return done.stdout


def call(
    base: str, token: str, method: str, path: str, body: Any = None, **headers: str
) -> tuple[int, dict[str, str], Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{base}{path}", data=data, method=method)  # noqa: S310
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("Content-Type", "application/json")
    for name, value in headers.items():
        request.add_header(name.replace("_", "-"), value)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
            return response.status, dict(response.headers), json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read() or b"null")


def check(condition: bool, what: str) -> None:
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        sys.exit(1)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def main() -> None:
    scratch = Path(tempfile.mkdtemp(prefix="two-editors-"))
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{scratch / 'db.sqlite3'}",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "two-editors-check-only",
        "DJANGO_SECURE_COOKIES": "false",
        "CLAIMCHECK_STATIC_FROM_SOURCE": "true",
        "CLAIMCHECK_ENV_FILE": str(scratch / ".env"),
        "CLAIMCHECK_LOG_LEVEL": "WARNING",
    }
    env.pop("REDIS_URL", None)
    manage(env, "migrate", "--noinput")
    manage(env, "load_demo")
    manage(env, "verify", CLAIM)
    tokens = {}
    for name in ("editor1", "editor2"):
        manage(env, "people", "add", name, "--role", "editor")
        tokens[name] = manage(env, "apitoken", "create", name, "--name", "check").split()[-1]
    port = free_port()
    server = subprocess.Popen(  # noqa: S603 - our own manage.py with fixed arguments
        [PYTHON, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{base}/healthz", timeout=1)  # noqa: S310
                break
            except OSError:
                time.sleep(0.2)
        run(base, tokens)
    finally:
        server.terminate()
        server.wait(timeout=10)


def run(base: str, tokens: dict[str, str]) -> None:
    one, two = tokens["editor1"], tokens["editor2"]
    status, _, listing = call(base, one, "GET", "/api/claims?q=Battery+Passport&limit=1")
    check(status == 200 and listing["count"] >= 1, "the verified demo claim is listed")
    claim = listing["items"][0]
    path = f"/api/claims/{claim['id']}"
    status, headers, read = call(base, one, "GET", path)
    seen = headers.get("ETag", "")
    check(
        status == 200 and bool(seen),
        f"editor1 reads claim {claim['id']}: {read['outcome']}, ETag {seen}",
    )
    other = "false" if read["outcome"] != "False" else "invalid"
    status, headers, _ = call(
        base, two, "POST", f"{path}/override", {"outcome": other, "reason": "editor2's reading"}
    )
    check(status == 201, f"editor2 overrides it to {other}: {status}")
    target = "true" if other != "true" else "invalid"
    body = {"outcome": target, "reason": "editor1's reading"}
    status, headers, refused = call(base, one, "POST", f"{path}/override", body, If_Match=seen)
    check(status in (409, 412), f"editor1's override on what it read is refused: {status}")
    check(
        refused["current"]["set_by"] == "editor2" and refused["current"]["outcome"] == other,
        f"the refusal says what the claim is now: {refused['details']}",
    )
    status, _, now = call(base, one, "GET", path)
    check(now["outcome"].lower() == other, "the refused override changed nothing")
    status, headers, _ = call(
        base, one, "POST", f"{path}/override", body, If_Match=refused["current"]["etag"]
    )
    check(status == 201, f"editor1's override on the claim as it now is lands: {status}")
    status, _, final = call(base, one, "GET", path)
    editors = [o["editor"] for o in final["overrides"]]
    check(final["outcome"].lower() == target, f"the claim shows editor1's {target}")
    check(editors == ["editor1", "editor2"], f"two overrides recorded, newest first: {editors}")
    check(
        final["overrides"][0]["from_outcome"].lower() == other,
        "editor1's override records the outcome it replaced: editor2's",
    )
    print("Two editors, one truth: passed.")


if __name__ == "__main__":
    main()
