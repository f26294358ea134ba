"""Similar claims: an earlier claim that says the same (reworded, or in another language) is
found as "same"; one that differs in a number, date, party or place, direction or negation is
at most "related"; the index is written when a claim is stored, before any worker runs it."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from claims.models import Claim
from decisions.errors import ClaimError
from decisions.models import ClaimKey, ClaimRestatement, ClaimSameness
from decisions.services import claim_submit, claims_mark_same
from decisions.similar import similar_claims

pytestmark = pytest.mark.django_db

ODESA = "The port of Odesa handled 3.1 million tonnes of grain in October 2024"
GERMANY = "Germany banned imports of Ukrainian grain in March 2024"
INFLATION = "Inflation in Sweden rose to 5% in January 2025"
PLANT = "Veltria Motors opened its battery cell plant in Karsfeld in June 2024"


@pytest.fixture
def stored() -> dict[str, int]:
    return {
        text: claim_submit(text=text, enqueue=False)[0].pk
        for text in (ODESA, GERMANY, INFLATION, PLANT)
    }


def _top(text: str) -> tuple[int | None, str | None]:
    found = similar_claims(text=text)
    return (found[0].id, found[0].relation) if found else (None, None)


@pytest.mark.parametrize(
    ("text", "original"),
    [
        ("In October 2024 Odesa's port handled 3.1 million tonnes of grain", ODESA),
        ("Порт Одессы в октябре 2024 года обработал 3,1 млн тонн зерна", ODESA),
        ("Imports of Ukrainian grain were banned by Germany in March 2024", GERMANY),
        ("Германия запретила импорт украинского зерна в марте 2024 года", GERMANY),
        ("Swedish inflation climbed to 5% in January 2025", INFLATION),
        ("In June 2024 Veltria Motors opened a battery cell factory in Karsfeld", PLANT),
    ],
    ids=["reordered", "russian", "passive", "russian-passive", "synonyms", "reworded"],
)
def test_a_restatement_finds_the_claim_it_restates_first_as_same(
    stored: dict[str, int], text: str, original: str
) -> None:
    assert _top(text) == (stored[original], "same")


@pytest.mark.parametrize(
    ("text", "original", "why"),
    [
        ("The port of Odesa handled 1.3 million tonnes of grain in October 2024", ODESA, "number"),
        ("The port of Odesa handled 3.1 million tonnes of grain in October 2023", ODESA, "year"),
        ("The port of Odesa handled 3.1 million tonnes of grain in November 2024", ODESA, "month"),
        ("Belgium banned imports of Ukrainian grain in March 2024", GERMANY, "party or place"),
        ("Germany allowed imports of Ukrainian grain in March 2024", GERMANY, "permission"),
        ("Inflation in Sweden fell to 5% in January 2025", INFLATION, "amount"),
        ("Veltria Motors closed its battery cell plant in Karsfeld in June 2024", PLANT, "opening"),
        (
            "Veltria Motors did not open its battery cell plant in Karsfeld in June 2024",
            PLANT,
            "negated",
        ),
    ],
)
def test_a_near_miss_is_related_never_the_same(
    stored: dict[str, int], text: str, original: str, why: str
) -> None:
    found = {s.id: s for s in similar_claims(text=text)}
    assert found[stored[original]].relation == "related"
    assert why in found[stored[original]].why
    assert all(s.relation != "same" for s in found.values())


def test_a_claim_on_another_subject_is_not_listed(stored: dict[str, int]) -> None:
    assert similar_claims(text="The central bank of Chile cut its interest rate to 4%") == []


def test_a_stored_claim_is_indexed_at_once_and_matchable_before_any_worker_ran(
    stored: dict[str, int],
) -> None:
    keys = set(ClaimKey.objects.filter(claim_id=stored[ODESA]).values_list("key", flat=True))
    assert {"e:odes", "n:3.1", "y:2024", "m:10"} <= keys
    assert similar_claims(text=ODESA, exclude=stored[ODESA])[:1] == []


def test_the_command_prints_the_matches_as_json_best_first(stored: dict[str, int]) -> None:
    out = io.StringIO()
    call_command(
        "similar",
        "Odesa's port handled 3.1 million tonnes of grain in October 2024",
        "--json",
        stdout=out,
    )
    found = json.loads(out.getvalue())
    assert found[0] == {
        "id": stored[ODESA],
        "text": ODESA,
        "relation": "same",
        "score": found[0]["score"],
        "outcome": None,
        "decided_by": None,
    }
    assert 0.6 <= found[0]["score"] <= 1


def test_the_command_refuses_no_text() -> None:
    with pytest.raises(CommandError, match="give the claim's text"):
        call_command("similar", stdout=io.StringIO())


def test_reindex_indexes_claims_stored_before_the_index(stored: dict[str, int]) -> None:
    ClaimKey.objects.all().delete()
    err = io.StringIO()
    call_command("similar", "--reindex", stdout=io.StringIO(), stderr=err)
    assert "Indexed 4 claims." in err.getvalue()
    assert _top(ODESA) == (stored[ODESA], "same")


def test_an_editors_word_on_a_pair_stands_over_the_matchers_reading(
    stored: dict[str, int], editor: Any
) -> None:
    """Marked not the same, a restatement is at most related; marked the same, a claim the
    matcher reads as another one (a number apart) is the same, from either side of the pair."""
    restated, _ = claim_submit(
        text="In October 2024 Odesa's port handled 3.1 million tonnes of grain", enqueue=False
    )
    near, _ = claim_submit(
        text="The port of Odesa handled 1.3 million tonnes of grain in October 2024", enqueue=False
    )

    def relation(claim_id: int, other: int) -> str | None:
        claim = Claim.objects.get(pk=claim_id)
        found = similar_claims(text=claim.text, language=claim.language, exclude=claim_id)
        return next((s.relation for s in found if s.id == other), None)

    assert relation(restated.pk, stored[ODESA]) == "same"
    assert relation(near.pk, stored[ODESA]) == "related"
    claims_mark_same(claim=restated, other_id=stored[ODESA], same=False, editor=editor)
    claims_mark_same(
        claim=Claim.objects.get(pk=stored[ODESA]), other_id=near.pk, same=True, editor=editor
    )

    assert relation(restated.pk, stored[ODESA]) == "related"
    assert relation(stored[ODESA], restated.pk) == "related"
    assert relation(near.pk, stored[ODESA]) == "same"
    # Said again, the later word replaces the earlier one.
    claims_mark_same(claim=restated, other_id=stored[ODESA], same=True, editor=editor)
    assert relation(restated.pk, stored[ODESA]) == "same"
    assert ClaimSameness.objects.count() == 2
    assert restated.events.filter(
        message__contains=f"marked it the same claim as claim #{stored[ODESA]}"
    ).exists()


def test_marking_a_claim_against_itself_or_no_claim_is_refused(
    stored: dict[str, int], editor: Any
) -> None:
    claim = Claim.objects.get(pk=stored[ODESA])
    with pytest.raises(ClaimError, match="the same as itself"):
        claims_mark_same(claim=claim, other_id=claim.pk, same=True, editor=editor)
    with pytest.raises(ClaimError, match="there is no claim 999999"):
        claims_mark_same(claim=claim, other_id=999999, same=True, editor=editor)
    assert not ClaimSameness.objects.exists()


def test_the_claim_page_lists_similar_claims_and_an_editor_marks_them(
    stored: dict[str, int], editor_client: Any, client: Any
) -> None:
    restated, _ = claim_submit(
        text="In October 2024 Odesa's port handled 3.1 million tonnes of grain", enqueue=False
    )
    page = editor_client.get(f"/claims/{restated.pk}/").content.decode()
    assert f'id="similar-{stored[ODESA]}"' in page
    assert "says the same" in page

    answer = editor_client.post(f"/claims/{restated.pk}/same/{stored[ODESA]}/", {"same": "no"})
    assert answer.status_code == 302
    assert ClaimSameness.objects.get().same is False
    page = editor_client.get(f"/claims/{restated.pk}/").content.decode()
    assert "An editor marked them not the same" in page

    assert (
        editor_client.post(
            f"/claims/{restated.pk}/same/{stored[ODESA]}/", {"same": "maybe"}
        ).status_code
        == 302
    )
    assert ClaimSameness.objects.get().same is False  # refused, nothing changed
    # A viewer or a stranger may not mark.
    assert client.post(
        f"/claims/{restated.pk}/same/{stored[ODESA]}/", {"same": "yes"}
    ).status_code in (302, 403)
    assert ClaimSameness.objects.get().same is False


def test_the_queue_groups_a_claim_with_its_restatements(
    stored: dict[str, int], editor_client: Any, editor: Any
) -> None:
    """A restatement is grouped under the first claim of its group when it is stored; the
    queue's "Group restatements" shows that claim once, with the count, and an editor's
    "not the same" takes a claim out of the group."""
    restated, _ = claim_submit(
        text="In October 2024 Odesa's port handled 3.1 million tonnes of grain", enqueue=False
    )
    again, _ = claim_submit(
        text="Odesa's port handled 3.1 million tonnes of grain in October 2024", enqueue=False
    )
    near, _ = claim_submit(
        text="The port of Odesa handled 1.3 million tonnes of grain in October 2024", enqueue=False
    )
    assert restated.restates.of_id == stored[ODESA]
    assert again.restates.of_id == stored[ODESA]
    assert not ClaimRestatement.objects.filter(claim=near).exists()

    grouped = editor_client.get("/?group=on").content.decode()
    assert f'href="/claims/{stored[ODESA]}/#similar"' in grouped
    assert "+2 restatements" in grouped
    assert f'href="/claims/{restated.pk}/"' not in grouped
    assert f'href="/claims/{near.pk}/"' in grouped
    assert f'href="/claims/{restated.pk}/"' in editor_client.get("/").content.decode()

    claims_mark_same(claim=again, other_id=stored[ODESA], same=False, editor=editor)
    assert "+1 restatement<" in editor_client.get("/?group=on").content.decode()
    claims_mark_same(claim=near, other_id=stored[ODESA], same=True, editor=editor)
    assert ClaimRestatement.objects.get(claim=near).by_editor
    assert "+2 restatements" in editor_client.get("/?group=on").content.decode()
