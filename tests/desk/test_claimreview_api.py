"""A confirmed verdict goes out as schema.org ClaimReview: read back by structured-data parsers
(extruct from a published page, rdflib as linked data), it carries what search engines require,
rated with the editor's outcome under the newsroom's name for it. An unconfirmed claim has none."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import extruct
import pytest
from django.test import Client
from django.utils import timezone
from rdflib import RDF, Graph, Namespace, URIRef
from rdflib.term import Node

from claimcheck.models import ApiToken
from claims.models import Claim, Outcome
from decisions.services import claim_mark_reviewed, claim_rerun, verdict_override
from tests.factories import ClaimFactory, DecidedClaimFactory, UserFactory, VerdictFactory

pytestmark = pytest.mark.django_db

SCHEMA = Namespace("https://schema.org/")
# schema.org's context, as far as this document needs it, so that reading it as linked data
# never fetches https://schema.org: every term is schema.org's, and `url` is an address.
SCHEMA_CONTEXT = {"@vocab": str(SCHEMA), "url": {"@type": "@id"}}


def decided(
    text: str = "Veltria Motors opened its battery plant in Karsfeld", **fields: Any
) -> Claim:
    claim = DecidedClaimFactory.create(text=text, outcome=Outcome.TRUE, **fields)
    VerdictFactory.create(claim=claim, run_number=claim.run_number, outcome=Outcome.TRUE)
    return claim


def claim_review(client: Client, claim: Claim) -> Any:
    return client.get(f"/api/claims/{claim.pk}/claimreview")


def published(document: dict[str, Any]) -> list[dict[str, Any]]:
    """The JSON-LD as a crawler finds it: in a fact-check page's head, extracted by extruct."""
    script = json.dumps(document).replace("</", "<\\/")
    page = (
        '<!doctype html><html><head><title>Fact check</title><script type="application/ld+json">'
        f"{script}</script></head><body><h1>Fact check</h1></body></html>"
    )
    found: list[dict[str, Any]] = extruct.extract(page, syntaxes=["json-ld"])["json-ld"]
    return found


def as_graph(document: dict[str, Any]) -> tuple[Graph, Node]:
    """The document as linked data, and its one ClaimReview node."""
    assert document["@context"] == "https://schema.org"
    graph = Graph().parse(
        data=json.dumps({**document, "@context": SCHEMA_CONTEXT}), format="json-ld"
    )
    reviews = list(graph.subjects(RDF.type, SCHEMA.ClaimReview))
    assert len(reviews) == 1
    return graph, reviews[0]


def one(graph: Graph, subject: Node, name: str) -> Node:
    values = list(graph.objects(subject, SCHEMA[name]))
    assert len(values) == 1, (name, values)
    return values[0]


# rdflib's own JSON-LD parser still builds the graph it has deprecated.
@pytest.mark.filterwarnings("ignore:ConjunctiveGraph is deprecated:DeprecationWarning")
def test_a_kept_verdict_is_rated_with_its_outcome_and_parses_with_what_google_requires(
    api: Client, editor: Any, settings: Any
) -> None:
    settings.CLAIMCHECK_NEWSROOM_NAME = "Examplia Fact Desk"
    settings.CLAIMCHECK_NEWSROOM_URL = "https://facts.example.org/"
    claim = decided(source_channel="https://social.example/@auto_watch/1")
    claim_mark_reviewed(claim=claim, editor=editor)

    response = claim_review(api, claim)

    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("application/ld+json")
    [found] = published(response.json())
    assert found == response.json()
    graph, review = as_graph(found)
    assert str(one(graph, review, "claimReviewed")) == claim.text
    assert str(one(graph, review, "url")) == f"http://testserver/claims/{claim.pk}/"
    rating = one(graph, review, "reviewRating")
    assert (rating, RDF.type, SCHEMA.Rating) in graph
    assert str(one(graph, rating, "alternateName")) == "True"
    assert [
        int(str(one(graph, rating, n))) for n in ("ratingValue", "worstRating", "bestRating")
    ] == [
        3,
        1,
        3,
    ]
    author = one(graph, review, "author")
    assert (author, RDF.type, SCHEMA.Organization) in graph
    assert str(one(graph, author, "name")) == "Examplia Fact Desk"
    assert one(graph, author, "url") == URIRef("https://facts.example.org/")
    claim.refresh_from_db()
    assert claim.reviewed_at is not None
    assert str(one(graph, review, "datePublished")).startswith(claim.reviewed_at.date().isoformat())
    item = one(graph, review, "itemReviewed")
    assert (item, RDF.type, SCHEMA.Claim) in graph
    first = one(graph, item, "firstAppearance")
    assert one(graph, first, "url") == URIRef("https://social.example/@auto_watch/1")


def test_an_overridden_verdict_is_rated_with_the_editors_outcome(api: Client, editor: Any) -> None:
    claim = decided()
    verdict_override(
        claim=claim, editor=editor, to_outcome=Outcome.FALSE, reason="The register says July."
    )

    body = claim_review(api, claim).json()

    assert body["reviewRating"]["alternateName"] == "False"
    assert body["reviewRating"]["ratingValue"] == 1
    assert body["claimReviewed"] == claim.text


def test_the_newsrooms_names_for_the_outcomes_are_the_ones_published(
    api: Client, editor: Any, settings: Any
) -> None:
    settings.CLAIMCHECK_RATING_NAMES = {"true": "Correct", "false": "Wrong", "invalid": "Unproven"}
    claim = decided()
    verdict_override(
        claim=claim, editor=editor, to_outcome=Outcome.INVALID, reason="Nobody can say yet."
    )

    rating = claim_review(api, claim).json()["reviewRating"]

    assert (rating["alternateName"], rating["ratingValue"]) == ("Unproven", 2)


def test_the_first_appearance_is_the_earliest_channel_the_claim_was_seen_in(
    api: Client, editor: Any
) -> None:
    now = timezone.now()
    claim = decided(source_channel="@auto_watch", created_at=now)
    ClaimFactory(
        text=claim.text,
        source_channel="https://wire.example/story",
        created_at=now - timedelta(hours=3),
    )
    claim_mark_reviewed(claim=claim, editor=editor)

    item = claim_review(api, claim).json()["itemReviewed"]

    assert item["firstAppearance"] == {"@type": "CreativeWork", "url": "https://wire.example/story"}
    assert item["appearance"] == [
        {"@type": "CreativeWork", "url": "https://wire.example/story"},
        {"@type": "CreativeWork", "name": "@auto_watch"},
    ]


def test_a_claim_seen_in_no_known_channel_has_no_appearance_made_up(
    api: Client, editor: Any
) -> None:
    claim = decided(text="Karsfeld's mayor resigned in June 2024", source_channel="")
    claim_mark_reviewed(claim=claim, editor=editor)

    item = claim_review(api, claim).json()["itemReviewed"]

    assert item == {"@type": "Claim"}


def test_a_claim_no_editor_confirmed_has_no_claimreview(api: Client) -> None:
    claim = decided()

    response = claim_review(api, claim)

    assert response.status_code == 404
    body = response.json()
    assert body["error"] == "not found"
    assert "no editor has confirmed its verdict" in body["details"]
    assert "@type" not in body


def test_a_claim_still_being_checked_has_no_claimreview(api: Client) -> None:
    claim = ClaimFactory.create()

    response = claim_review(api, claim)

    assert response.status_code == 404
    assert set(response.json()) == {"error", "details"}


def test_a_claim_rerun_since_its_review_has_no_claimreview_until_confirmed_again(
    api: Client, editor: Any
) -> None:
    claim = decided()
    claim_mark_reviewed(claim=claim, editor=editor)
    assert claim_review(api, claim).status_code == 200
    claim.refresh_from_db()
    claim_rerun(claim=claim, user=editor)

    assert claim_review(api, claim).status_code == 404


def test_an_unknown_claim_answers_404(api: Client) -> None:
    response = api.get("/api/claims/999999/claimreview")

    assert response.status_code == 404
    assert response.json()["error"] == "not found"


def test_without_a_token_it_answers_401(editor: Any) -> None:
    claim = decided()
    claim_mark_reviewed(claim=claim, editor=editor)

    response = claim_review(Client(), claim)

    assert response.status_code == 401
    assert response.json()["error"] == "unauthorized"


def test_a_token_of_someone_with_no_role_is_refused_with_403(outsider: Any, editor: Any) -> None:
    claim = decided()
    claim_mark_reviewed(claim=claim, editor=editor)
    _, raw = ApiToken.issue(user=outsider, name="t")

    response = claim_review(Client(headers={"Authorization": f"Bearer {raw}"}), claim)

    assert response.status_code == 403
    assert response.json()["error"] == "forbidden"


def test_a_viewer_may_read_it(editor: Any) -> None:
    claim = decided()
    claim_mark_reviewed(claim=claim, editor=editor)
    _, raw = ApiToken.issue(user=UserFactory(username="vera", groups=["viewers"]), name="t")

    response = claim_review(Client(headers={"Authorization": f"Bearer {raw}"}), claim)

    assert response.status_code == 200
    assert response.json()["@type"] == "ClaimReview"


def test_links_follow_the_public_address_when_one_is_set(
    api: Client, editor: Any, settings: Any
) -> None:
    settings.CLAIMCHECK_PUBLIC_URL = "https://desk.example.org"
    settings.CLAIMCHECK_NEWSROOM_URL = ""
    claim = decided()
    claim_mark_reviewed(claim=claim, editor=editor)

    body = claim_review(api, claim).json()

    assert body["url"] == f"https://desk.example.org/claims/{claim.pk}/"
    assert body["author"]["url"] == "https://desk.example.org/"
