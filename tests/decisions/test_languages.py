"""Claims in other languages: the language is detected and stored, and a claim not in English
is also searched in English, by the names of its entities (or, with an LLM, a translated
query), so that English pages about the same people and places are found and read."""

from __future__ import annotations

from typing import Any

import pytest

from claims.models import Claim, EventKind
from decisions.gate import ClaimTerms, lead_relevance
from decisions.pipeline import claim_pipeline_run
from decisions.query import compose_initial_query, english_query
from decisions.services import claim_submit
from decisions.types import ClaimQuestion
from demo.loader import demo_load
from evidence.models import Evidence, Page
from evidence.services import Lead
from harvester.models import ProcessedResult, SearchRun
from integrations.llm import llm_mock
from tests.evidence.factories import use_config

pytestmark = pytest.mark.django_db

UKRAINIAN = "Київська міська рада затвердила бюджет Києва на 2025 рік."
RUSSIAN = "Порт Одессы в октябре 2024 года перевалил 3,1 миллиона тонн зерна."
KYIV_PAGES = {
    "https://kyivcity.example/news/2024/12/12/city-budget-2025-approved",
    "https://meridianwire.example/world/2024/12/12/kyiv-council-passes-2025-budget",
}
ODESA_PAGES = {
    "https://portodesa.example/en/news/october-2024-cargo",
    "https://cpa-wire.example/business/odesa-port-grain-october",
}


def _run(text: str) -> Claim:
    claim, _ = claim_submit(text=text, enqueue=False)
    claim_pipeline_run(claim_id=claim.pk)
    return Claim.objects.get(pk=claim.pk)


def _read(claim: Claim) -> set[str]:
    return set(Evidence.objects.filter(claim=claim).values_list("url", flat=True))


def test_a_submitted_claim_stores_its_language_and_the_detectors_confidence() -> None:
    claim, _ = claim_submit(text=UKRAINIAN, enqueue=False)
    assert claim.language == "uk"
    assert claim.language_confidence is not None and claim.language_confidence > 0.9
    english, _ = claim_submit(text="The council approved the city budget for 2025.", enqueue=False)
    assert english.language == "en"


def test_a_ukrainian_claim_finds_and_reads_the_english_pages_about_its_entities() -> None:
    demo_load()
    claim = _run(UKRAINIAN)
    assert _read(claim) >= KYIV_PAGES
    note = claim.events.filter(kind=EventKind.QUERY, message__startswith="Also searching")
    assert "Ukrainian" in note.get().message
    assert "Kyiv" in note.get().payload["query"]
    # Snippets and pages carry the language they are in.
    assert set(
        ProcessedResult.objects.filter(run__claim=claim).values_list("language", flat=True)
    ) >= {"en"}
    assert Page.objects.get(url__in=KYIV_PAGES, domain="kyivcity.example").language == "en"


def test_a_russian_claim_finds_the_english_pages_about_its_entities() -> None:
    demo_load()
    claim = _run(RUSSIAN)
    assert claim.language == "ru"
    assert _read(claim) & ODESA_PAGES
    queries = list(
        SearchRun.objects.filter(claim=claim).values_list("rewritten_template", flat=True)
    )
    assert any("Odesa" in query for query in queries)


def test_an_english_claim_is_searched_in_english_only() -> None:
    question = ClaimQuestion(text="Kyiv City Council approved the budget", language="en")
    assert english_query(question=question, base=compose_initial_query(question=question)) is None


def test_a_result_in_another_language_is_as_relevant_as_the_entities_it_shares() -> None:
    question = ClaimQuestion(text=UKRAINIAN, language="uk", language_confidence=0.99)
    claim = ClaimTerms.of(question)
    about = Lead(
        url="https://news.example/kyiv-budget",
        title="Kyiv City Council approves 2025 budget",
        snippet="Kyiv City Council approved the budget of Kyiv for 2025 on Thursday.",
    )
    elsewhere = Lead(
        url="https://news.example/lviv-budget",
        title="Lviv council approves 2025 budget",
        snippet="Lviv City Council approved the budget of Lviv for 2025 on Thursday.",
    )
    assert lead_relevance(about, claim) >= 0.5
    assert lead_relevance(elsewhere, claim) < 0.25


def test_within_one_language_a_result_is_as_relevant_as_the_claims_words_it_shows() -> None:
    question = ClaimQuestion(
        text="Kyiv City Council approved the 2025 budget", language="en", language_confidence=0.9
    )
    claim = ClaimTerms.of(question)
    same_names = Lead(
        url="https://news.example/kyiv-metro",
        title="Kyiv City Council debates new metro line",
        snippet="Members of Kyiv City Council debated the metro extension on Tuesday.",
    )
    shared = {"kyiv", "city", "council"}
    # Names weigh twice a plain word, a year half one; the first word's capital marks no name.
    assert claim.words == {
        "kyiv": 1.0, "city": 2.0, "council": 2.0, "approv": 1.0, "2025": 0.5, "budget": 1.0
    }  # fmt: skip
    assert lead_relevance(same_names, claim) == pytest.approx(5 / 7.5)
    assert shared <= set(claim.words)


def test_entity_overlap_is_stored_on_each_piece_of_evidence() -> None:
    demo_load()
    claim = _run(UKRAINIAN)
    overlaps = list(Evidence.objects.filter(claim=claim).values_list("entity_overlap", flat=True))
    assert overlaps and all(o is not None for o in overlaps)
    assert max(o for o in overlaps if o is not None) > 0


def test_with_an_llm_a_claim_in_another_language_has_its_query_translated(
    settings: Any, tmp_path: Any
) -> None:
    use_config(settings, tmp_path, "llm:\n  model: openai/gpt-4o-mini\n")
    question = ClaimQuestion(
        text="Die Stadt Kyjiw hat den Haushalt 2025 beschlossen.", language="de"
    )
    reply = '{"keywords": ["Kyiv", "city budget", "2025"], "boolean": "AND", "filters": {}}'
    with llm_mock(
        ['{"keywords": ["Kyjiw", "Haushalt", "2025"], "boolean": "AND", "filters": {}}', reply]
    ) as mock:
        base = compose_initial_query(question=question)
        english = english_query(question=question, base=base)
    assert mock.purposes == ["rewrite", "translate"]
    assert english is not None
    assert set(english.schema.keywords) == {"Kyiv", "city budget", "2025"}
    assert english.schema.filters.lang == "en"
    assert "German" in english.tweak


def test_the_api_gives_a_claims_language_and_the_entities_it_names(api: Any) -> None:
    claim, _ = claim_submit(
        text="Президент України Володимир Зеленський підписав закон у Києві.", enqueue=False
    )
    body = api.get(f"/api/claims/{claim.pk}").json()
    assert body["language"] == "uk"
    assert body["language_confidence"] > 0.9
    kinds = {e["name"]: e["kind"] for e in body["entities"]}
    assert kinds == {"Ukraine": "place", "Volodymyr Zelensky": "person", "Kyiv": "place"}


def test_the_claim_page_names_the_language_and_the_entities(editor_client: Any) -> None:
    claim, _ = claim_submit(text=UKRAINIAN, enqueue=False)
    html = editor_client.get(f"/claims/{claim.pk}/").content.decode()
    assert "Ukrainian" in html
    assert "searched in English too" in html
    assert '<span class="entity entity-place" title="place: Київська">Kyiv</span>' in html


def test_an_english_claim_naming_someone_in_cyrillic_is_also_searched_by_the_english_name() -> None:
    question = ClaimQuestion(
        text="Зеленский said that Kyiv will host the peace summit in 2025",
        language="en",
        language_confidence=0.84,
    )
    english = english_query(question=question, base=compose_initial_query(question=question))
    assert english is not None
    assert "Volodymyr Zelensky" in english.schema.keywords
    assert "Cyrillic" in english.tweak


def test_a_claim_the_detector_is_unsure_of_is_searched_in_both() -> None:
    question = ClaimQuestion(
        text="Президент Зеленський said the summit in Kyiv will take place in 2025",
        language="uk",
        language_confidence=0.52,
    )
    english = english_query(question=question, base=compose_initial_query(question=question))
    assert english is not None
    assert "detected Ukrainian at 0.52" in english.tweak
    assert {"Volodymyr Zelensky", "Kyiv"} <= set(english.schema.keywords)
