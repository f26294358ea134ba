"""The soak bench's clients: editors posting claims, reading the queue (the API list and the
queue page) and overriding verdicts, each from a thread of its own, as a desk does all day.

Every request is kept as an `Answer` with its wall-clock start and end, so that the bench can
tell afterwards which answers fell into the seconds the database was down (a 503 is the right
answer then, and only then)."""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx

POST = "POST /api/claims"
LIST = "GET /api/claims"
DETAIL = "GET /api/claims/{id}"
PAGE = "GET / (queue page)"
OVERRIDE = "POST /api/claims/{id}/override"
KINDS = (POST, LIST, DETAIL, PAGE, OVERRIDE)
# What each request may answer while everything is up; a 5xx is judged apart (bench.soak_checks).
# An override may find the claim changed since it was read (412) or already at that outcome (409).
EXPECTED: dict[str, set[int]] = {
    POST: {202},
    LIST: {200},
    DETAIL: {200},
    PAGE: {200},
    OVERRIDE: {201, 409, 412},
}
OUTCOMES = ("true", "false", "invalid")


@dataclass(frozen=True)
class Answer:
    kind: str
    started: float  # time.time()
    ended: float
    status: int | None  # None: no answer at all (refused, reset, timed out)
    retry_after: str | None = None
    error: str = ""

    @property
    def ms(self) -> float:
        return (self.ended - self.started) * 1000


def claim_texts(path: Path) -> list[dict[str, str | None]]:
    """The demo claims, whose pages the demo corpus holds: claims the local index can find
    evidence for, so that runs write evidence and verdicts as real ones do."""
    items = json.loads(path.read_text())
    return [
        {
            "text": str(item["text"]),
            "timeframe_start": item.get("timeframe_start"),
            "timeframe_end": item.get("timeframe_end"),
        }
        for item in items
    ]


def login(base: str, *, username: str, password: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=30)
    page = client.get("/login/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    if not token:
        raise RuntimeError(f"no CSRF token on the login page ({page.status_code})")
    done = client.post(
        "/login/",
        data={"username": username, "password": password, "csrfmiddlewaretoken": token[1]},
        headers={"Referer": f"{base}/login/"},
    )
    if done.status_code not in (200, 302) or "sessionid" not in client.cookies:
        raise RuntimeError(f"login failed ({done.status_code})")
    return client


class Traffic:
    """`clients` threads, by turns a poster, a reader and an overrider. The posters together
    post `per_minute` claims a minute (each text made unique, so none is taken for a repeat
    of another); readers read every half second, overriders every two seconds."""

    def __init__(
        self,
        *,
        base: str,
        token: str,
        username: str,
        password: str,
        clients: int,
        per_minute: float,
        texts: list[dict[str, str | None]],
    ) -> None:
        self.base = base
        self.token = token
        self.username = username
        self.password = password
        self.roles = [("post", "read", "override")[i % 3] for i in range(clients)]
        self.per_minute = per_minute
        self.texts = texts
        self.answers: list[Answer] = []
        self.claim_ids: list[int] = []
        self.crashed: list[str] = []
        self.stop = threading.Event()
        self._lock = threading.Lock()
        self._numbers = iter(range(1, 10**9))
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        for n, role in enumerate(self.roles):
            target = {"post": self._poster, "read": self._reader, "override": self._overrider}
            thread = threading.Thread(
                target=self._guarded, args=(target[role],), name=f"{role}-{n}", daemon=True
            )
            thread.start()
            self._threads.append(thread)

    def finish(self) -> None:
        self.stop.set()
        for thread in self._threads:
            thread.join(timeout=45)

    def _guarded(self, loop: Callable[[], None]) -> None:
        # A client that dies of a bug would quietly lower the load: kept and reported instead.
        try:
            loop()
        except Exception as exc:
            with self._lock:
                self.crashed.append(f"{threading.current_thread().name}: {exc!r}")

    def _call(self, kind: str, send: Callable[[], httpx.Response]) -> httpx.Response | None:
        started = time.time()
        response: httpx.Response | None = None
        try:
            response = send()
            answer = Answer(
                kind,
                started,
                time.time(),
                response.status_code,
                response.headers.get("Retry-After"),
            )
        except httpx.HTTPError as exc:
            answer = Answer(kind, started, time.time(), None, error=type(exc).__name__)
        with self._lock:
            self.answers.append(answer)
        return response

    def _api(self) -> httpx.Client:
        return httpx.Client(
            base_url=self.base, timeout=30, headers={"Authorization": f"Bearer {self.token}"}
        )

    def _poster(self) -> None:
        posters = self.roles.count("post")
        pause = 60.0 * posters / self.per_minute
        api = self._api()
        self.stop.wait(random.uniform(0, pause))
        while not self.stop.is_set():
            with self._lock:
                number = next(self._numbers)
            item = dict(self.texts[number % len(self.texts)])
            item["text"] = f"{item['text']} (desk report {number})"
            body = {k: v for k, v in item.items() if v is not None}
            response = self._call(POST, lambda: api.post("/api/claims", json=body))  # noqa: B023
            if response is not None and response.status_code == 202:
                with self._lock:
                    self.claim_ids.extend(int(i) for i in response.json()["ids"])
            self.stop.wait(pause)

    def _reader(self) -> None:
        api = self._api()
        page = login(self.base, username=self.username, password=self.password)
        while not self.stop.is_set():
            self._call(LIST, lambda: api.get("/api/claims", params={"limit": 50}))
            self.stop.wait(0.25)
            self._call(PAGE, lambda: page.get("/"))
            self.stop.wait(0.25)

    def _overrider(self) -> None:
        api = self._api()
        while not self.stop.wait(2.0):
            listed = self._call(LIST, lambda: api.get("/api/claims?status=decided&limit=50"))
            if listed is None or listed.status_code != 200:
                continue
            with self._lock:
                ours = set(self.claim_ids)
            items = [item for item in listed.json()["items"] if item["id"] in ours]
            if not items:
                continue
            claim_id = random.choice(items)["id"]
            read = self._call(DETAIL, lambda: api.get(f"/api/claims/{claim_id}"))  # noqa: B023
            if read is None or read.status_code != 200:
                continue
            now = str(read.json().get("outcome") or "").lower()
            body = {
                "outcome": random.choice([o for o in OUTCOMES if o != now]),
                "reason": "Soak bench: a second source says otherwise",
            }
            headers = {"If-Match": read.headers.get("ETag", "*")}
            self._call(
                OVERRIDE,
                lambda: api.post(
                    f"/api/claims/{claim_id}/override",  # noqa: B023
                    json=body,  # noqa: B023
                    headers=headers,  # noqa: B023
                ),
            )
