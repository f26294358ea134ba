"""Google Fact Check Tools lookups: matches are stored, answers cached by normalized claim, calls
rate limited, and every failure leaves the claim as it was. The API is a respx route."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx
from django.forms.models import model_to_dict
from django.utils import timezone

from claims.models import claim_hash
from evidence import factcheck
from evidence.factcheck import API_URL, factcheck_lookup
from evidence.models import FactCheckCache, FactCheckMatch
from integrations.ratelimit import LocalTokenBucket
from tests.evidence.factories import install_fake_dns, use_config
from tests.factories import ClaimFactory

pytestmark = pytest.mark.django_db

KEY = "fc-test-key-123"
CLAIM = "The EU AI Act entered into force on 1 August 2024"

ANSWER = {
    "claims": [
        {
            "text": "EU AI Act took effect in August 2024",
            "claimant": "Social media posts",
            "claimDate": "2024-08-02T00:00:00Z",
            "claimReview": [
                {
                    "publisher": {"name": "Fact Desk", "site": "factdesk.example"},
                    "url": "https://factdesk.example/checks/ai-act",
                    "title": "Did the AI Act enter into force?",
                    "reviewDate": "2024-08-03T10:00:00Z",
                    "textualRating": "True",
                    "languageCode": "en",
                },
                {
                    "publisher": {"name": "Verifica"},
                    "url": "https://verifica.example/ai-act",
                    "reviewDate": "2024-08-05",
                    "textualRating": "Mostly true",
                },
                {"publisher": {"name": "Broken"}, "url": "javascript:alert(1)"},
            ],
        },
        {"text": "an entry with no reviews"},
    ]
}


@pytest.fixture(autouse=True)
def _enabled(settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    install_fake_dns(monkeypatch)
    monkeypatch.setenv("FACTCHECK_TEST_KEY", KEY)
    use_config(
        settings,
        tmp_path,
        "factcheck: {enabled: true, api_key_env: FACTCHECK_TEST_KEY, max_results: 5,"
        " cache_ttl_hours: 48, rate_per_minute: 600}\n",
    )
    factcheck.reset_rate_limiter()
    yield
    factcheck.reset_rate_limiter()


@pytest.fixture
def google() -> Iterator[respx.MockRouter]:
    with respx.mock(assert_all_called=False) as router:
        yield router


def test_matches_are_stored_with_publisher_rating_url_and_dates(google: respx.MockRouter) -> None:
    route = google.get(API_URL).respond(200, json=ANSWER)
    claim = ClaimFactory.create(text=CLAIM)

    matches = factcheck_lookup(claim=claim)

    assert route.call_count == 1
    params = route.calls[0].request.url.params
    assert (params["query"], params["key"], params["pageSize"]) == (CLAIM, KEY, "5")
    assert [m.url for m in matches] == [
        "https://factdesk.example/checks/ai-act",
        "https://verifica.example/ai-act",
    ]
    first = FactCheckMatch.objects.get(claim=claim, url="https://factdesk.example/checks/ai-act")
    assert (first.publisher, first.publisher_site, first.rating) == (
        "Fact Desk",
        "factdesk.example",
        "True",
    )
    assert first.claim_reviewed == "EU AI Act took effect in August 2024"
    assert first.review_date is not None and first.review_date.isoformat().startswith(
        "2024-08-03T10:00"
    )
    second = FactCheckMatch.objects.get(claim=claim, url="https://verifica.example/ai-act")
    assert second.publisher_site == "verifica.example"  # taken from the URL when not given
    assert second.review_date is not None and second.review_date.date().isoformat() == "2024-08-05"


def test_the_answer_is_cached_by_normalized_claim(google: respx.MockRouter) -> None:
    route = google.get(API_URL).respond(200, json=ANSWER)
    factcheck_lookup(claim=ClaimFactory.create(text=CLAIM))
    resubmitted = ClaimFactory.create(text="  the eu ai act ENTERED into force on 1 August 2024!  ")

    matches = factcheck_lookup(claim=resubmitted)

    assert route.call_count == 1
    assert len(matches) == 2
    assert FactCheckMatch.objects.filter(claim=resubmitted).count() == 2
    assert FactCheckCache.objects.filter(normalized_hash=claim_hash(CLAIM)).exists()


def test_a_lookup_twice_for_the_same_claim_stores_each_match_once(
    google: respx.MockRouter,
) -> None:
    google.get(API_URL).respond(200, json=ANSWER)
    claim = ClaimFactory.create(text=CLAIM)

    factcheck_lookup(claim=claim)
    factcheck_lookup(claim=claim)

    assert FactCheckMatch.objects.filter(claim=claim).count() == 2


def test_an_expired_cache_entry_is_asked_again(google: respx.MockRouter) -> None:
    route = google.get(API_URL).respond(200, json=ANSWER)
    FactCheckCache.objects.create(
        normalized_hash=claim_hash(CLAIM),
        result=[],
        cached_at=timezone.now() - timedelta(hours=49),
    )

    matches = factcheck_lookup(claim=ClaimFactory.create(text=CLAIM))

    assert route.call_count == 1
    assert len(matches) == 2
    assert len(FactCheckCache.objects.get(normalized_hash=claim_hash(CLAIM)).result) == 2


def test_no_match_returns_nothing_and_is_cached(google: respx.MockRouter) -> None:
    route = google.get(API_URL).respond(200, json={})
    claim = ClaimFactory.create(text=CLAIM)

    assert factcheck_lookup(claim=claim) == []
    assert factcheck_lookup(claim=ClaimFactory.create(text=CLAIM)) == []

    assert route.call_count == 1
    assert not FactCheckMatch.objects.exists()
    assert FactCheckCache.objects.get(normalized_hash=claim_hash(CLAIM)).result == []


@pytest.mark.parametrize(
    "response",
    [
        httpx.Response(429, json={"error": {"code": 429, "message": "Quota exceeded"}}),
        httpx.Response(500, text="backend error"),
        httpx.Response(403, json={"error": {"message": "API key not valid"}}),
        httpx.Response(200, text="<html>not json</html>"),
    ],
    ids=["429", "500", "403", "bad-json"],
)
def test_an_error_answer_leaves_the_claim_untouched_and_is_not_cached(
    google: respx.MockRouter, response: httpx.Response
) -> None:
    route = google.get(API_URL).mock(return_value=response)
    claim = ClaimFactory.create(text=CLAIM)
    before = model_to_dict(claim)

    assert factcheck_lookup(claim=claim) == []
    assert factcheck_lookup(claim=claim) == []

    assert route.call_count == 2  # not cached: the next lookup asks again
    assert not FactCheckMatch.objects.exists()
    assert not FactCheckCache.objects.exists()
    claim.refresh_from_db()
    assert model_to_dict(claim) == before


def test_a_network_failure_returns_nothing(google: respx.MockRouter) -> None:
    google.get(API_URL).mock(side_effect=httpx.ConnectError("connection refused"))

    assert factcheck_lookup(claim=ClaimFactory.create(text=CLAIM)) == []
    assert not FactCheckCache.objects.exists()


def test_the_api_key_never_reaches_the_logs(
    google: respx.MockRouter, caplog: pytest.LogCaptureFixture
) -> None:
    google.get(API_URL).respond(429, json={})

    with caplog.at_level(logging.DEBUG):
        factcheck_lookup(claim=ClaimFactory.create(text=CLAIM))

    assert caplog.records
    for record in caplog.records:
        assert KEY not in record.getMessage()
        assert KEY not in str(record.__dict__)


def test_calls_beyond_the_rate_limit_are_skipped(
    google: respx.MockRouter, settings: Any, tmp_path: Path
) -> None:
    use_config(
        settings,
        tmp_path,
        "factcheck: {enabled: true, api_key_env: FACTCHECK_TEST_KEY, rate_per_minute: 1}\n",
    )
    route = google.get(API_URL).respond(200, json=ANSWER)

    first = factcheck_lookup(claim=ClaimFactory.create(text=CLAIM))
    second = factcheck_lookup(
        claim=ClaimFactory.create(text="A different claim about the rail line opening")
    )

    assert len(first) == 2
    assert second == []
    assert route.call_count == 1


def test_the_token_bucket_refills_over_time() -> None:
    clock = [0.0]
    bucket = LocalTokenBucket(60, clock=lambda: clock[0])  # one a second, bursts of ten

    taken = sum(bucket.reserve(max_wait=0) is not None for _ in range(12))
    clock[0] += 2.0
    refilled = sum(bucket.reserve(max_wait=0) is not None for _ in range(12))

    assert (taken, refilled) == (10, 2)


@pytest.mark.parametrize(
    "config",
    [
        "factcheck: {enabled: false, api_key_env: FACTCHECK_TEST_KEY}\n",
        "factcheck: {enabled: true, api_key_env: FACTCHECK_MISSING_KEY}\n",
    ],
    ids=["disabled", "no-key"],
)
def test_no_call_is_made_when_disabled_or_without_a_key(
    google: respx.MockRouter, settings: Any, tmp_path: Path, config: str
) -> None:
    use_config(settings, tmp_path, config)
    route = google.get(API_URL).respond(200, json=ANSWER)

    assert factcheck_lookup(claim=ClaimFactory.create(text=CLAIM)) == []
    assert not route.called
    assert not FactCheckCache.objects.exists()


def test_a_claim_too_short_to_search_is_not_looked_up(google: respx.MockRouter) -> None:
    route = google.get(API_URL).respond(200, json=ANSWER)

    assert factcheck_lookup(claim=ClaimFactory.create(text="AI Act")) == []
    assert not route.called
