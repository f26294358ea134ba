"""A claim page watched while a real check runs never contradicts itself: every animation frame
is recorded, and in each the status bar, the verdict, the counts and the evidence table follow
the step shown (no outcome before the step that decides, counts that never go back, the table's
rows and heading count from the same step, queries counted per attempt, step numbers that only
rise)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from claims.models import Claim
from decisions.pipeline import claim_pipeline_run
from decisions.services import claim_submit
from demo.loader import demo_claims, demo_load
from tests.e2e.test_review_desk import BackgroundWorker, sign_in, worker  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every frame the browser paints: what the page shows, read as an editor would see it.
RECORD_FRAMES = """() => {
  window.__frames = [];
  const seen = (el) => Boolean(el && el.offsetParent !== null);
  const frame = () => {
    const steps = [...document.querySelectorAll('li.tl[id^="event-"]')].filter(seen);
    const last = steps.reduce((a, b) => (!a || +b.id.slice(6) > +a.id.slice(6) ? b : a), null);
    const rows = [...document.querySelectorAll('tbody.ev-row')].filter(seen);
    const step = document.getElementById('claim-step');
    window.__frames.push({
      last: last ? {seq: +last.id.slice(6), step: +last.dataset.step, kind: last.className,
        queries: +last.dataset.queries, pages: +last.dataset.pages,
        evidence: +last.dataset.evidence, support: last.dataset.support} : null,
      searches: steps.filter((li) => li.classList.contains('tl-search')).length,
      stepText: seen(step) ? step.textContent : '',
      counters: (document.getElementById('claim-counters') || {}).textContent || '',
      outcome: seen(document.getElementById('claim-outcome')),
      verdict: seen(document.querySelector('#verdict:not(.verdict-pending)')),
      review: seen(document.getElementById('review')),
      evidenceCount: (document.getElementById('evidence-count') || {}).textContent || '',
      rows: rows.length,
      rowSeqs: rows.map((row) => +row.dataset.seq),
      support: (document.getElementById('meter-support-value') || {}).textContent || '',
    });
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}"""

COUNTERS = re.compile(r"Run \d+ · (\d+) quer(?:y|ies) · (\d+) pages? read · (\d+) evidence")
STEP = re.compile(r"^Step (\d+): (.*)$")
QUERY = re.compile(r"(composing query|searching: query) (\d+) of at most \d+")


def check_frames(frames: list[dict[str, Any]]) -> None:
    """Each frame agrees with itself, and nothing goes back from one frame to the next."""
    assert frames, "no frame recorded"
    before: tuple[int, ...] = (0, 0, 0)
    step_before = 0
    for number, frame in enumerate(frames):
        where = f"frame {number}: {frame}"
        last = frame["last"]
        decided = last is not None and "tl-verdict" in last["kind"]
        # No outcome, verdict card or review before the step that decides.
        if frame["outcome"] or frame["verdict"] or frame["review"]:
            assert decided, where
        # The status bar counts what the last step shown carries, and never less than before.
        counted = COUNTERS.search(frame["counters"])
        assert counted, where
        counts = tuple(int(n) for n in counted.groups())
        if last is not None:
            assert counts == (last["queries"], last["pages"], last["evidence"]), where
            assert frame["support"].startswith(f"{float(last['support']):.1f} /"), where
        assert all(now >= was for now, was in zip(counts, before, strict=True)), where
        before = counts
        # The table's heading counts the rows it shows, each reported by a step shown.
        assert frame["evidenceCount"] == str(frame["rows"]), where
        if last is not None:
            assert all(seq <= last["seq"] for seq in frame["rowSeqs"]), where
        # The step label is the last step shown; its number only rises; queries per attempt.
        said = STEP.match(frame["stepText"])
        if said:
            assert last is not None and int(said[1]) == last["step"], where
            assert int(said[1]) >= step_before, where
            step_before = int(said[1])
            query = QUERY.search(said[2])
            if query:
                sent = frame["searches"]
                expected = sent + 1 if query[1] == "composing query" else sent
                assert int(query[2]) == expected, where


def watch(page: Any, live_server: Any, editor: Any, claim: Claim) -> None:
    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/claims/{claim.pk}/")
    expect(page.locator("li.tl")).to_have_count(1)
    page.evaluate(RECORD_FRAMES)


def settle(page: Any, claim: Claim) -> list[dict[str, Any]]:
    """Waits until the verdict and every step are shown, then a moment more; the frames."""
    deadline = time.monotonic() + 60
    while not Claim.objects.get(pk=claim.pk).is_terminal and time.monotonic() < deadline:
        time.sleep(0.2)
    total = Claim.objects.get(pk=claim.pk).events.count()
    expect(page.locator("li.tl:visible")).to_have_count(total, timeout=30_000)
    expect(page.get_by_role("heading", name="Verdict", exact=True)).to_be_visible()
    page.wait_for_timeout(600)
    frames: list[dict[str, Any]] = page.evaluate("window.__frames")
    return frames


def test_a_whole_check_arriving_in_one_refresh_is_shown_step_by_step_in_agreement(
    live_server: Any, page: Any, editor: Any, screenshot: Any
) -> None:
    demo_load()
    # A claim whose check searches three times and reads pages in between.
    text = demo_claims()[7].text
    claim, _ = claim_submit(text=text, source_channel="e2e-frames", enqueue=False)
    watch(page, live_server, editor, claim)
    claim_pipeline_run(claim_id=claim.pk)  # the whole check, before the next refresh
    frames = settle(page, claim)
    screenshot("live-frames-decided")
    check_frames(frames)
    steps = {frame["last"]["seq"] for frame in frames if frame["last"]}
    total = Claim.objects.get(pk=claim.pk).events.count()
    assert len(steps) >= total - 2, (total, sorted(steps))  # shown one after another
    assert any(frame["rows"] == 0 for frame in frames)
    assert frames[-1]["rows"] > 0 and frames[-1]["verdict"]


def test_a_check_watched_as_it_runs_never_contradicts_itself(
    live_server: Any,
    page: Any,
    editor: Any,
    worker: BackgroundWorker,  # noqa: F811
) -> None:
    demo_load()
    claim, _ = claim_submit(text=demo_claims()[7].text, source_channel="e2e-frames")
    watch(page, live_server, editor, claim)
    worker.go.set()
    frames = settle(page, claim)
    assert worker.errors == []
    check_frames(frames)
    searches = {frame["searches"] for frame in frames}
    assert max(searches) >= 2, searches  # attempts after the first were watched and counted
