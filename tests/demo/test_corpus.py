"""The shipped demo corpus: consistent files, an idempotent loader, and claims that reach the
outcomes they are meant to reach on it, offline."""

from __future__ import annotations

import io
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pypdf
import pytest
import yaml
from django.core.management import call_command

from claimcheck.language import detect_language
from claims.models import Claim
from decisions import outcome_versions
from decisions.models import Verdict
from decisions.pipeline import claim_pipeline_run
from decisions.query import english_names
from decisions.services import claim_submit
from decisions.timeframe import parse_timeframe
from decisions.types import ClaimQuestion
from demo.loader import (
    DOMAINS_CSV,
    FETCHER_NAME,
    DemoClaim,
    DemoEntry,
    demo_claims,
    demo_load,
    demo_manifest,
)
from evidence.extraction import extract_document
from evidence.fetching import cached_page, page_fetch
from evidence.models import Evidence, Page
from harvester.local_index import search_documents
from harvester.models import LocalDocument
from harvester.rewriter import deterministic_rewrite
from harvester.schema import validate_schema
from integrations.http.canonical import canonicalize_url
from registry.domain_rows import parse_domains_csv
from registry.models import Domain
from tests.decisions.hits import COUNTING_ONLY
from tests.demo.runs import demo_run
from tests.evidence.factories import use_config

LIVE = [entry for entry in demo_manifest() if not entry.dead]
DEAD = [entry for entry in demo_manifest() if entry.dead]
CLAIMS = demo_claims()
# The Council's press release is published on 3 April about an adoption on 28 March.
COUNCIL_RELEASE = "https://council.example/press/2025/04/03/battery-passport-regulation-adopted/"


def _entry(url: str) -> DemoEntry:
    return next(entry for entry in LIVE if entry.url == url)


def _denied_names() -> set[str]:
    return {row.name for row in parse_domains_csv(DOMAINS_CSV.read_text()) if row.denied}


def _mapped(host: str, names: set[str]) -> bool:
    labels = host.split(".")
    return any(".".join(labels[i:]) in names for i in range(len(labels)))


# --- the files ----------------------------------------------------------------------------------


def test_the_manifest_lists_40_to_80_pages_each_with_an_existing_file() -> None:
    assert 40 <= len(LIVE) <= 80
    for entry in LIVE:
        assert entry.path.is_file(), entry.file
        assert entry.content_type in ("text/html", "application/pdf")
        assert (urlsplit(entry.url).hostname or "").endswith(".example")
    assert len({entry.url for entry in demo_manifest()}) == len(demo_manifest())


def test_the_corpus_has_one_readable_pdf() -> None:
    pdfs = [entry for entry in LIVE if entry.content_type == "application/pdf"]
    assert len(pdfs) == 1
    reader = pypdf.PdfReader(io.BytesIO(pdfs[0].path.read_bytes()))
    text = " ".join(page.extract_text() for page in reader.pages)
    assert "approved the merger of Halden Rail and Nordfrakt Logistics on 21 November 2024" in text


def test_the_hub_pages_link_to_press_releases_in_the_corpus() -> None:
    hubs = [entry for entry in LIVE if entry.role == "hub"]
    assert hubs
    known = {entry.url for entry in LIVE}
    for hub in hubs:
        html = hub.path.read_text()
        linked = {url for url in known if f'href="{url}"' in html and url != hub.url}
        assert len(linked) >= 2, hub.url


def test_dead_links_have_a_title_and_snippet_but_no_file() -> None:
    assert DEAD
    for entry in DEAD:
        assert entry.title and entry.snippet and not entry.file


def test_every_demo_host_is_mapped_in_the_domain_list_and_one_is_denied() -> None:
    names = {row.name for row in parse_domains_csv(DOMAINS_CSV.read_text())}
    for entry in demo_manifest():
        host = urlsplit(entry.url).hostname or ""
        assert _mapped(host, names), host
    denied = _denied_names()
    assert any(_mapped(urlsplit(e.url).hostname or "", denied) for e in LIVE)


def test_the_claims_cover_every_outcome_and_every_kind_of_timeframe() -> None:
    assert {claim.expected for claim in CLAIMS} == {"true", "false", "invalid"}
    explicit = [c for c in CLAIMS if c.timeframe_start and c.timeframe_end]
    in_text = [c for c in CLAIMS if c.timeframe_start is None and parse_timeframe(c.text)]
    untimed = [c for c in CLAIMS if c.timeframe_start is None and not parse_timeframe(c.text)]
    assert explicit and in_text and untimed
    known = {entry.url for entry in LIVE}
    for claim in CLAIMS:
        assert claim.why and claim.sources and set(claim.sources) <= known


def test_an_event_date_stays_apart_from_the_publication_date() -> None:
    entry = _entry(COUNCIL_RELEASE)
    document = extract_document(
        content=entry.path.read_bytes(), content_type="text/html", url=entry.url, encoding="utf-8"
    )
    assert document.published_at is not None
    assert document.published_at.date() == date(2025, 4, 3)
    assert date(2025, 3, 28) in {mention.when for mention in document.event_dates}


# --- loading ------------------------------------------------------------------------------------


def _counts() -> tuple[int, int, int]:
    return Page.objects.count(), LocalDocument.objects.count(), Domain.objects.count()


@pytest.mark.django_db
def test_loading_twice_leaves_the_same_rows_and_counts() -> None:
    first = demo_load()
    after_first = _counts()
    second = demo_load()
    assert _counts() == after_first
    assert (first.pages, first.pdfs, first.dead_links, first.denied, first.indexed) == (
        second.pages,
        second.pdfs,
        second.dead_links,
        second.denied,
        second.indexed,
    )
    assert second.domains_created == 0 and second.domains_updated == 0
    assert first.pages == len(LIVE) - first.denied
    assert first.indexed == len(demo_manifest())


@pytest.mark.django_db
def test_the_command_loads_the_corpus_and_prints_the_counts() -> None:
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    assert f"pages stored: {Page.objects.count()}" in out.getvalue()
    assert f"dead links (indexed, not stored): {len(DEAD)}" in out.getvalue()


@pytest.mark.django_db
def test_loaded_pages_are_fresh_in_the_page_cache_and_need_no_network() -> None:
    demo_load()
    for entry in LIVE:
        if _mapped(urlsplit(entry.url).hostname or "", _denied_names()):
            assert cached_page(entry.url) is None
            continue
        page = cached_page(entry.url)
        assert page is not None, entry.url
        assert page.url == canonicalize_url(entry.url)
        assert (page.http_status, page.fetcher) == (200, FETCHER_NAME)
    # A fresh cached page is what the pipeline's fetch returns: nothing goes to the network.
    assert page_fetch(url=COUNCIL_RELEASE).fetcher == FETCHER_NAME


@pytest.mark.django_db
def test_dead_links_are_searchable_but_never_cached() -> None:
    demo_load()
    for entry in DEAD:
        assert not Page.objects.filter(url=canonicalize_url(entry.url)).exists()
        hits = search_documents(query=f'"{entry.title}"', limit=5)
        assert canonicalize_url(entry.url) in [hit.url for hit in hits]


@pytest.mark.django_db
def test_the_pdf_text_is_stored_on_its_page() -> None:
    demo_load()
    page = Page.objects.get(content_type="application/pdf")
    assert "approved the merger of Halden Rail and Nordfrakt Logistics" in page.text
    assert page.published_at is not None and page.published_at.date() == date(2024, 11, 21)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "published"),
    [
        (COUNCIL_RELEASE, date(2025, 4, 3)),  # JSON-LD (and the URL)
        (
            "https://meridianwire.example/markets/union-inflation-climbs-january",
            date(2025, 2, 18),
        ),  # <time datetime>
        ("https://energy-trade.example/storage/battery-passport-rules-final", date(2025, 4, 1)),
        (  # meta article:published_time
            "https://stats-office.example/releases/consumer-prices-january-2025",
            date(2025, 2, 18),
        ),
        (  # only written in the text
            "https://autotrade.example/batteries/inside-veltria-karsfeld-cell-plant",
            date(2024, 6, 17),
        ),
    ],
)
def test_dated_pages_keep_the_publication_date_the_extraction_finds(
    url: str, published: date
) -> None:
    demo_load()
    page = Page.objects.get(url=canonicalize_url(url))
    assert page.published_at is not None and page.published_at.date() == published
    assert page.date_source


@pytest.mark.django_db
def test_a_loaded_page_records_its_event_date_apart_from_its_publication_date() -> None:
    demo_load()
    page = Page.objects.get(url=canonicalize_url(COUNCIL_RELEASE))
    events = {item["when"] for item in page.metadata["event_dates"]}
    assert "2025-03-28" in events
    assert page.published_at is not None and page.published_at.date() == date(2025, 4, 3)


@pytest.mark.django_db
@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.text[:40])
def test_the_local_index_finds_each_claims_key_pages_by_its_words(claim: DemoClaim) -> None:
    """By the claim's own words, or for a claim in another language by the English names of
    its entities, which its English pages share (the words they do not)."""
    demo_load()
    language = detect_language(claim.text)
    if language.code != "en":
        names = english_names(
            ClaimQuestion(claim.text, language=language.code, language_confidence=1.0)
        )
        schema = validate_schema({"keywords": names, "boolean": "OR"})
    else:
        schema = deterministic_rewrite(claim.text).model_copy(update={"boolean": "OR"})
    found = {hit.url for hit in search_documents(query=schema, limit=20)}
    assert {canonicalize_url(url) for url in claim.sources} <= found


def _check(claim: DemoClaim) -> Verdict:
    """Load the corpus and run the demo claim as it is submitted."""
    demo_load()
    created, _ = claim_submit(
        text=claim.text,
        timeframe_start=claim.timeframe_start,
        timeframe_end=claim.timeframe_end,
        source_channel=claim.source_channel,
        enqueue=False,
    )
    verdict = claim_pipeline_run(claim_id=created.pk)
    assert verdict is not None
    return verdict


@pytest.mark.django_db
@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.text[:40])
def test_each_demo_claim_reaches_its_expected_outcome_offline(claim: DemoClaim) -> None:
    verdict = _check(claim)
    assert verdict.outcome == claim.expected, verdict.proof_markdown
    assert Claim.objects.get(pk=verdict.claim_id).outcome == claim.expected


# The launch happened, on 5 November 2024; the claim dates it wrongly.
WRONG_DATE = "The Borealis Space Agency launched the Aurora-3 weather satellite in March 2023"


@pytest.mark.django_db
def test_an_event_the_claim_dates_wrongly_is_false_from_pages_dated_outside_its_window() -> None:
    demo_load()
    created, _ = claim_submit(text=WRONG_DATE, enqueue=False)
    assert created.timeframe_start is not None and created.timeframe_end is not None
    assert (created.timeframe_start.date(), created.timeframe_end.date()) == (
        date(2023, 3, 1),
        date(2023, 3, 31),
    )

    verdict = claim_pipeline_run(claim_id=created.pk)

    assert verdict is not None
    assert (verdict.outcome, verdict.reason) == ("false", "sufficient"), verdict.proof_markdown
    refuting = [s for s in verdict.sources if s["stance"] == "refute"]
    assert len({s["publisher"] for s in refuting}) >= 2
    assert all(s["event_date"] == "2024-11-05" for s in refuting)
    # Read where they were published: pages, or snippets found on their live pages.
    rows = Evidence.objects.filter(claim=created, url__in=[s["url"] for s in refuting])
    assert rows.exists() and all(row.was_read for row in rows)
    # The first searches were limited to the claim's window; one went beyond it.
    runs = list(created.search_runs.order_by("attempt"))
    assert "after:2023-01-30" in runs[0].rewritten_template
    assert any("after:" not in run.rewritten_template for run in runs)


LONE_OFFICIAL = next(c for c in CLAIMS if c.text.startswith("The Union Medicines Agency"))


@pytest.mark.django_db
def test_the_regulators_own_notice_is_a_weighed_true_for_the_editor_to_review() -> None:
    _, verdict = demo_run(LONE_OFFICIAL.text)

    # Short of the counting bar (one publisher), the official page's sure support is what the
    # weighed True stands on; the proof says it is a proposal.
    assert (verdict.outcome, verdict.reason) == ("true", "weighed")
    assert 0 < verdict.support_total < 1.6 and verdict.refute_total == 0
    assert verdict.proposal is not None and verdict.proposal["proposed"] == "true"
    assert "a proposal for the editor to review" in verdict.proof_markdown
    assert "medicines-agency.example, official, weight 1.0, support" in verdict.proof_markdown


@pytest.mark.django_db
@pytest.mark.parametrize("lean_score", [0.4, None])
def test_a_claim_short_of_the_agreement_score_is_invalid_and_its_lean_only_a_hint(
    settings: Any, tmp_path: Path, lean_score: float | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Where the weighed proposal does not decide either (here an outcome model that proposes
    # nothing), the claim is Invalid and the lean is a hint.
    monkeypatch.setattr(outcome_versions, "outcome_model", lambda *args: COUNTING_ONLY)
    config = yaml.safe_load(Path(settings.CLAIMCHECK_CONFIG).read_text(encoding="utf-8"))
    config.setdefault("budgets", {})["lean_score"] = lean_score
    use_config(settings, tmp_path, yaml.safe_dump(config))
    demo_load()
    created, _ = claim_submit(text=LONE_OFFICIAL.text, enqueue=False)

    verdict = claim_pipeline_run(claim_id=created.pk)

    assert verdict is not None
    assert (verdict.outcome, verdict.reason) == ("invalid", "insufficient")
    assert 0 < verdict.support_total < 1.6 and verdict.refute_total < verdict.support_total
    if lean_score is None:
        assert verdict.lean is None
        assert "a hint for the editor" not in verdict.proof_markdown
        # The weighed proposal is not the lean hint: it is there with hints switched off.
        assert verdict.proposal is not None and verdict.proposal["proposed"] == "invalid"
        assert f"**Weighed together:** {verdict.proposal['text']}" in verdict.proof_markdown
    else:
        assert verdict.lean is not None
        assert verdict.lean["outcome"] == "true"
        assert (
            verdict.lean["text"]
            == "leans True: 1.0 from one official source (medicines-agency.example)"
        )
        assert "leans True" in verdict.proof_markdown


@pytest.mark.django_db
@pytest.mark.parametrize(
    "claim", [c for c in CLAIMS if c.expected != "invalid"], ids=lambda c: c.text[:40]
)
def test_a_decided_demo_claims_sources_all_took_its_side_and_were_read(claim: DemoClaim) -> None:
    verdict = _check(claim)
    side = "support" if claim.expected == "true" else "refute"
    assert verdict.sources, verdict.proof_markdown
    assert {s["stance"] for s in verdict.sources} == {side}
    # Counted, a side rests on two independent publishers; weighed, on at least one sure one.
    least = 2 if verdict.reason == "sufficient" else 1
    assert len({s["publisher"] for s in verdict.sources}) >= least
    assert "No sources found" not in verdict.proof_markdown
    hubs = {url for url, page in _pages_by_url().items() if page.metadata.get("hub")}
    assert not hubs & {s["url"] for s in verdict.sources}
    assert not hubs & {s["url"] for s in verdict.unsided}


def _pages_by_url() -> dict[str, Page]:
    return {page.url: page for page in Page.objects.all()}


@pytest.mark.django_db
def test_the_corpus_listing_pages_are_read_as_hubs_and_nothing_else_is() -> None:
    demo_load()
    hubs = sorted(url for url, page in _pages_by_url().items() if page.metadata.get("hub"))
    assert hubs == sorted(
        canonicalize_url(url)
        for url in (
            "https://borealis-space.example/news/",
            "https://council.example/press/",
            "https://stats-office.example/releases/",
        )
    )
