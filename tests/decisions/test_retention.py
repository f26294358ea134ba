"""The daily retention sweep: what is past the TTL goes, unless a verdict cites it; a stored
corpus is not a cache and stays."""

from __future__ import annotations

import os
import time
from datetime import timedelta
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from claims.models import Claim
from decisions.services.retention import evidence_retention_sweep
from evidence.models import Evidence, Page
from harvester.local_index import index_document, search_documents
from tests.factories import ClaimFactory, EvidenceFactory, PageFactory, VerdictFactory
from tests.processes import database_url, qcluster

LONG_AGO = timezone.now() - timedelta(days=45)


def _aged(model: type[Evidence] | type[Page], pk: int) -> None:
    if model is Evidence:
        Evidence.objects.filter(pk=pk).update(created_at=LONG_AGO)
    else:
        Page.objects.filter(pk=pk).update(fetched_at=LONG_AGO)


def _old_evidence(claim: Claim, url: str, *, fetcher: str = "http") -> Evidence:
    page = PageFactory.create(url=url, fetcher=fetcher)
    row = EvidenceFactory.create(claim=claim, page=page, url=url)
    _aged(Evidence, row.pk)
    _aged(Page, page.pk)
    return row


def _world() -> dict[str, Any]:
    claim = ClaimFactory.create()
    cited = _old_evidence(claim, "https://agency.example/cited")
    uncounted = _old_evidence(claim, "https://agency.example/shown-as-uncounted")
    stale = _old_evidence(claim, "https://agency.example/stale")
    fresh = EvidenceFactory.create(claim=claim, url="https://agency.example/fresh")
    corpus = PageFactory.create(url="https://agency.example/corpus", fetcher="demo-corpus")
    _aged(Page, corpus.pk)
    VerdictFactory.create(
        claim=claim,
        sources=[{"url": cited.url, "domain": "agency.example"}],
        unsided=[{"url": uncounted.url, "domain": "agency.example"}],
    )
    index_document(url=stale.url, title="Agency approves measure", text="quarterly wombat census")
    return {"cited": cited, "uncounted": uncounted, "stale": stale, "fresh": fresh}


def _found(text: str) -> list[str]:
    return [hit.url for hit in search_documents(query=text)]


@pytest.mark.django_db
def test_the_sweep_deletes_only_what_is_old_and_cited_by_no_verdict() -> None:
    rows = _world()
    assert _found("wombat census") == ["https://agency.example/stale"]
    result = evidence_retention_sweep()
    kept = set(Evidence.objects.values_list("url", flat=True))
    assert kept == {rows[name].url for name in ("cited", "uncounted", "fresh")}
    pages = set(Page.objects.values_list("url", flat=True))
    assert "https://agency.example/stale" not in pages  # its evidence went, then the page
    assert "https://agency.example/corpus" in pages  # the offline web is not a cache
    assert {rows["cited"].url, rows["uncounted"].url} <= pages
    assert (result.evidence_deleted, result.pages_deleted) == (1, 1)
    assert _found("wombat census") == []
    assert evidence_retention_sweep() == type(result)(evidence_deleted=0, pages_deleted=0)


@pytest.mark.django_db(transaction=True)
def test_the_daily_schedule_runs_the_sweep_in_a_real_worker(tmp_path: Path) -> None:
    from django.apps import apps
    from django_q.models import Schedule

    # The schedule as the migration writes it on a fresh install (an earlier test that
    # truncates the tables may have taken the migrated row away).
    import_module("decisions.migrations.0006_retention_schedule").schedule_retention(apps, None)
    rows = _world()
    schedule = Schedule.objects.get(name="evidence-retention")
    assert schedule.schedule_type == Schedule.DAILY
    cluster = f"retention-test-{os.getpid()}"
    # Due now, and for this test's cluster (a schedule of no cluster runs on the default one).
    Schedule.objects.filter(pk=schedule.pk).update(
        next_run=timezone.now() - timedelta(seconds=1), cluster=cluster
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "true",
        "DATABASE_URL": database_url(),
        "CLAIMCHECK_QUEUE": cluster,
        "CLAIMCHECK_WORKERS": "1",
    }
    env.pop("REDIS_URL", None)
    with qcluster(env, tmp_path / "qcluster.log"):
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if not Evidence.objects.filter(pk=rows["stale"].pk).exists():
                break
            time.sleep(0.5)
    log = (tmp_path / "qcluster.log").read_text()[-3000:]
    assert not Evidence.objects.filter(pk=rows["stale"].pk).exists(), log
    assert Evidence.objects.filter(pk=rows["cited"].pk).exists()
    schedule.refresh_from_db()
    assert schedule.next_run > timezone.now() + timedelta(hours=23)
