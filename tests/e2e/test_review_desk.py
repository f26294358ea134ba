"""The review desk in a real browser, on the demo corpus: an editor watches a claim being checked
and overrides the verdict; an admin denies a domain and a re-run stops using it; a pasted batch
with one bad line is refused with that line named. Every page is screenshotted."""

from __future__ import annotations

import pydoc
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from playwright.sync_api import expect

from claims.models import Claim, ClaimStatus, EventKind, Outcome
from demo.loader import demo_claims, demo_load
from evidence.models import Evidence, Stance
from harvester.models import SearchRun
from registry.models import Domain

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sign_in(page: Any, live_server: Any, user: Any) -> None:
    """Reuse a session made by Django's test client (the login form has its own test)."""
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


class BackgroundWorker:
    """Takes tasks from django-q's ORM broker and runs them in a thread of this process, so a
    submitted claim is checked after the request that queued it has answered. Each pipeline event
    is followed by a short pause, as a real check against the web would be, so the page has
    something to show between polls."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.stop = threading.Event()
        self.done: list[str] = []
        self.errors: list[str] = []
        self.thread = threading.Thread(target=self._run, name="test-worker", daemon=True)

    def _run(self) -> None:
        from django_q.brokers.orm import ORM
        from django_q.signing import SignedPackage

        self.go.wait()
        # django-q2's own ORM broker: the leases of the cluster's broker (claimcheck.queue) keep
        # a thread that would outlive the test in this process; test_cluster.py tests them.
        broker = ORM()
        try:
            while not self.stop.is_set():
                for ack_id, payload in broker.dequeue() or []:
                    task = SignedPackage.loads(payload)
                    func = pydoc.locate(task["func"])
                    try:
                        assert callable(func), task["func"]
                        func(*task["args"], **task["kwargs"])
                        self.done.append(task["name"])
                    except Exception as exc:  # reported to the test, which fails on it
                        self.errors.append(f"{task['name']}: {type(exc).__name__}: {exc}")
                    broker.acknowledge(ack_id)
                time.sleep(0.1)
        finally:
            connection.close()


@pytest.fixture
def worker(monkeypatch: pytest.MonkeyPatch) -> Iterator[BackgroundWorker]:
    from django_q.conf import Conf

    import decisions.step_events

    monkeypatch.setattr(Conf, "SYNC", False)
    monkeypatch.setattr(Conf, "ORM", "default")
    record = decisions.step_events.event_record

    def slow_record(**kwargs: Any) -> Any:
        event = record(**kwargs)
        time.sleep(0.25)
        return event

    monkeypatch.setattr(decisions.step_events, "event_record", slow_record)
    background = BackgroundWorker()
    background.thread.start()
    yield background
    background.go.set()
    background.stop.set()
    background.thread.join(timeout=30)


def test_an_editor_watches_a_claim_being_checked_then_overrides_the_verdict(
    live_server: Any, page: Any, editor: Any, screenshot: Any, worker: BackgroundWorker
) -> None:
    demo_load()
    demo = demo_claims()[0]
    polls: list[int] = []
    page.on("response", lambda r: polls.append(r.status) if "/live/" in r.url else None)
    sign_in(page, live_server, editor)

    page.goto(f"{live_server.url}/claims/new/")
    expect(page).to_have_title("Check a claim · ClaimCheck")
    screenshot("claim-new")
    page.get_by_label("Claim", exact=True).fill(demo.text)
    page.get_by_label("Channel", exact=True).fill("e2e-desk")
    page.get_by_role("button", name="Check this claim").click()

    # The submit answered before any work was done: the claim waits for the worker.
    expect(page.get_by_role("heading", name="Verdict pending")).to_be_visible()
    expect(page.locator("#claim-status")).to_contain_text("Queued")
    claim = Claim.objects.get(source_channel="e2e-desk")
    assert claim.status == ClaimStatus.QUEUED
    page.evaluate("window.__marker = 1")
    screenshot("claim-queued")

    worker.go.set()
    expect(page.locator(".tl-search").first).to_be_visible(timeout=30_000)
    expect(page.locator("#claim-status")).to_contain_text("Running")
    screenshot("claim-running")
    expect(page.get_by_role("heading", name="Verdict", exact=True)).to_be_visible(timeout=60_000)

    assert worker.errors == []
    expect(page.locator("#messages")).not_to_contain_text("Claim queued")
    assert page.evaluate("window.__marker") == 1, "the page was reloaded"
    assert 200 in polls and 286 not in polls, polls  # filled in step by step, still watching
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.DECIDED
    expect(page.locator("#claim-outcome")).to_have_text(Outcome(claim.outcome).label)
    expect(page.locator(".tl-verdict")).to_be_visible()
    expect(page.locator(".tl-decision").last).to_contain_text("threshold 1.6")
    assert page.locator(".tl-search").count() >= 1 and page.locator(".tl-gate").count() >= 1
    screenshot("claim-decided")
    polled = len(polls)
    page.wait_for_timeout(2500)
    # Decided, the page keeps watching for others' changes, slower, and nothing new is 204.
    later = polls[polled:]
    assert later and set(later) == {204}, polls

    new_outcome = Outcome.FALSE if claim.outcome != Outcome.FALSE else Outcome.TRUE
    page.get_by_label("New outcome").select_option(new_outcome.value)
    page.get_by_label("Reason").fill("The regulator's own register contradicts the wire report.")
    page.get_by_role("button", name="Override").click()
    history = page.locator("section", has=page.get_by_role("heading", name="History"))
    expect(history).to_contain_text("The regulator's own register contradicts the wire report.")
    expect(page.locator("#claim-outcome")).to_have_text(new_outcome.label)
    assert page.evaluate("window.__marker") == 1
    screenshot("claim-overridden")

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Claims").click()
    row = page.locator("tr", has_text=demo.text[:60])
    expect(row.locator(".badge-" + new_outcome.value)).to_have_text(new_outcome.label)
    expect(row).to_contain_text("overridden")
    screenshot("claims-queue")

    page.get_by_label("Overrides").select_option("yes")
    expect(page).to_have_url(
        f"{live_server.url}/?q=&status=&outcome=&overridden=yes&channel=&created_from=&created_to="
    )
    expect(page.locator("#claim-results tbody tr")).to_have_count(1)


def _supporting_domain(claim: Claim) -> str:
    """A non-official domain that supported the claim in its current run."""
    rows = Evidence.objects.filter(
        claim=claim, attempt__gt=claim.attempt_offset, stance=Stance.SUPPORT
    ).exclude(tier="official")
    domains = sorted(set(rows.values_list("domain", flat=True)))
    assert domains, "the first run found no supporting non-official source"
    return domains[0]


def test_an_admin_denies_a_domain_and_a_re_run_no_longer_uses_it(
    live_server: Any, page: Any, admin_user: Any, screenshot: Any
) -> None:
    demo_load()
    demo = demo_claims()[0]
    sign_in(page, live_server, admin_user)

    page.goto(f"{live_server.url}/claims/new/")
    page.get_by_label("Claim", exact=True).fill(demo.text)
    page.get_by_role("button", name="Check this claim").click()
    expect(page.get_by_role("heading", name="Verdict", exact=True)).to_be_visible(timeout=60_000)
    claim = Claim.objects.get(text=demo.text)
    denied = _supporting_domain(claim)
    evidence = page.locator("table.evidence")
    expect(evidence).to_contain_text(denied)

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Domains").click()
    expect(page).to_have_title("Domains · ClaimCheck")
    screenshot("domains")
    page.get_by_role("searchbox", name="Search").fill(denied)
    row = page.locator(f"#domain-{Domain.objects.get(name=denied).pk}")
    expect(page.locator("#domain-results tbody tr")).to_have_count(1)
    row.get_by_role("link", name=f"Edit {denied}").click()
    row.get_by_label("Denied (never read or counted)").check()
    screenshot("domain-edit")
    row.get_by_role("button", name="Save").click()
    expect(row.locator(".badge-denied")).to_be_visible()
    assert Domain.objects.get(name=denied).denied

    page.goto(f"{live_server.url}/claims/{claim.pk}/")
    page.get_by_role("button", name="Re-run").click()
    expect(page.locator("#confirm-question")).to_contain_text("Re-run the check of this claim?")
    page.locator("#confirm").get_by_role("button", name="Confirm").click()
    expect(page.get_by_text("Re-run queued")).to_be_visible()
    expect(page.get_by_role("heading", name="Verdict", exact=True)).to_be_visible(timeout=60_000)
    claim.refresh_from_db()
    assert claim.run_number == 2 and claim.status == ClaimStatus.DECIDED
    second_run = Evidence.objects.filter(claim=claim, attempt__gt=claim.attempt_offset)
    assert not second_run.filter(domain=denied).exists()
    crawled = claim.events.filter(kind=EventKind.CRAWL, payload__run=2)
    assert all(denied not in str(e.payload.get("url")) for e in crawled)
    expect(evidence).not_to_contain_text(denied)
    expect(
        page.locator("section", has=page.get_by_role("heading", name="History"))
    ).to_contain_text("Run 1 verdict")
    screenshot("claim-rerun")

    # The other admin pages, for the record.
    page.goto(f"{live_server.url}/domains/changes/")
    expect(page.locator("tbody tr").first).to_contain_text(denied)
    expect(page.locator("tbody tr").first).to_contain_text("ada")
    screenshot("domain-history")
    page.goto(f"{live_server.url}/domains/import/")
    page.get_by_label("Or paste the CSV").fill(
        "name,tier,weight_override,denied,note\nnew-agency.example,official,,false,\n"
        f"{denied},wire,0.5,true,\nbad line.example,celebrity,,,\n"
    )
    page.get_by_role("button", name="Preview changes").click()
    expect(page.get_by_role("alert")).to_contain_text("Line 4")
    screenshot("domain-import-errors")
    page.get_by_label("Or paste the CSV").fill(
        "name,tier,weight_override,denied,note\nnew-agency.example,official,,false,\n"
    )
    page.get_by_role("button", name="Preview changes").click()
    expect(page.get_by_text("1 added")).to_be_visible()
    screenshot("domain-import-preview")
    page.get_by_role("button", name="Apply 1 change").click()
    expect(page.get_by_text("Import applied: 1 added, 0 changed.")).to_be_visible()

    page.goto(f"{live_server.url}/search-runs/")
    expect(page).to_have_title("Search runs · ClaimCheck")
    screenshot("search-runs")
    run = SearchRun.objects.filter(claim=claim).order_by("id").first()
    assert run is not None
    page.goto(f"{live_server.url}/search-runs/{run.pk}/")
    expect(page.get_by_role("heading", name="Providers")).to_be_visible()
    screenshot("search-run-detail")
    page.goto(f"{live_server.url}/dashboard/")
    expect(page.locator("svg.chart").first).to_be_visible()
    page.locator("details.numbers").first.locator("summary").click()
    screenshot("dashboard")


def test_a_batch_with_one_bad_line_reports_that_line_and_saves_nothing(
    live_server: Any, page: Any, editor: Any, screenshot: Any
) -> None:
    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/claims/new/")
    lines = ["The harbour bridge opened in May 2024.", "x" * 2001, "The port reopened in June."]
    page.get_by_label("Claims, one per line").fill("\n".join(lines))
    page.get_by_role("button", name="Check all of them").click()

    problems = page.locator("#batch-problems")
    expect(problems).to_contain_text("Nothing was saved: 1 line cannot be checked.")
    expect(problems).to_contain_text("Line 2")
    expect(problems).to_contain_text("at most 2000")
    assert Claim.objects.count() == 0
    screenshot("batch-error")


def test_keyboard_users_can_skip_to_the_content_and_reach_the_filters(
    live_server: Any, page: Any, editor: Any
) -> None:
    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/")
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to content")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Review next")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Check a claim").last).to_be_focused()
    expect(page.get_by_text("No claims yet.")).to_be_visible()
