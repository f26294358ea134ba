"""Entities: extraction from ordinary prose, across spelling, script and inflection, aliases
from the admins' table, and the overlap ratio."""

from __future__ import annotations

import pytest

from evidence.entities import entity_overlap, extract_entities
from evidence.entities.extract import Entity
from registry.models import EntityKind
from registry.services.aliases import alias_create, alias_delete

pytestmark = pytest.mark.django_db


def names(text: str, language: str = "") -> dict[str, str]:
    return {e.name: e.kind for e in extract_entities(text, language=language)}


def test_it_finds_people_organisations_and_places_in_english_prose() -> None:
    found = names(
        "Ukrainian President Volodymyr Zelensky met officials of the Bank of England in "
        "London on Monday, and the European Commission said it welcomed the talks."
    )
    assert found["Volodymyr Zelensky"] == EntityKind.PERSON
    assert found["Bank of England"] == EntityKind.ORGANIZATION
    assert found["London"] == EntityKind.PLACE
    assert found["European Commission"] == EntityKind.ORGANIZATION
    assert "Monday" not in found


@pytest.mark.parametrize(
    "company",
    ["Veltria Motors", "Halden Rail", "Acme Holdings Ltd", "Brightwater Capital", "Nordia Group"],
)
def test_a_name_ending_in_a_companys_word_is_an_organisation_not_a_person(company: str) -> None:
    assert names(f"{company} opened its battery cell plant in Karsfeld.")[company] == (
        EntityKind.ORGANIZATION
    )
    # Two plain names are still a person.
    assert names("Ilse Brandt opened the plant.")["Ilse Brandt"] == EntityKind.PERSON


def test_two_companies_joined_by_and_are_two_and_a_possessive_ends_a_name() -> None:
    found = names("The authority cleared the merger of Halden Rail and Nordfrakt Logistics.")
    assert found["Halden Rail"] == found["Nordfrakt Logistics"] == EntityKind.ORGANIZATION
    found = names("The budget of the Department of Health and Human Services grew.")
    assert found["Department of Health and Human Services"] == EntityKind.ORGANIZATION
    assert "Department of Health" not in found
    found = names("Halvard Energy's Nordvik wind farm began operation.")
    assert found["Halvard Energy"] == EntityKind.ORGANIZATION
    assert "Nordvik" in found and "Halvard Energy's Nordvik" not in found


def test_a_word_that_only_starts_a_sentence_is_not_a_name() -> None:
    found = names("Officials said the council would meet. Residents were not told.")
    assert "Officials" not in found
    assert "Residents" not in found


def test_inflected_ukrainian_and_russian_names_are_the_places_and_people_they_name() -> None:
    ukrainian = names("Президент України Володимир Зеленський підписав закон у Києві.", "uk")
    russian = names("Президент Украины Владимир Зеленский подписал закон в Киеве.", "ru")
    for found in (ukrainian, russian):
        assert found["Ukraine"] == EntityKind.PLACE
        assert found["Kyiv"] == EntityKind.PLACE
        assert found["Volodymyr Zelensky"] == EntityKind.PERSON


def test_an_adjective_of_a_place_names_the_place() -> None:
    assert names("Харківська обласна адміністрація повідомила про обстріл.", "uk").get(
        "Kharkiv"
    ) == (EntityKind.PLACE)


def test_acronyms_are_organisations_or_what_the_table_says() -> None:
    found = names("Leaders of NATO and the EU met in Brussels; the IAEA sent inspectors.")
    assert found["NATO"] == EntityKind.ORGANIZATION
    assert found["European Union"] == EntityKind.ORGANIZATION
    assert found["IAEA"] == EntityKind.ORGANIZATION


def test_the_same_entities_overlap_fully_across_languages() -> None:
    ukrainian = extract_entities("Зеленський провів зустріч у Києві", language="uk")
    english = extract_entities("Zelensky held a meeting in Kyiv", language="en")
    assert entity_overlap(ukrainian, english) == 1.0


def test_overlap_is_intersection_over_union_with_people_places_and_orgs_weighted_higher() -> None:
    claim = [Entity("Kyiv", "Kyiv", EntityKind.PLACE, "kiv")]
    claim.append(Entity("Budget Act", "Budget Act", EntityKind.OTHER, "budget act"))
    other = [Entity("Kyiv", "Kyiv", EntityKind.PLACE, "kiv")]
    other.append(Entity("Lviv", "Lviv", EntityKind.PLACE, "lviv"))
    # shared: Kyiv (1.0); union: Kyiv 1.0 + Budget Act 0.5 + Lviv 1.0
    assert entity_overlap(claim, other) == pytest.approx(1.0 / 2.5, abs=0.001)
    assert entity_overlap(claim, []) == 0.0
    assert entity_overlap([], other) is None


def test_an_alias_added_by_an_admin_joins_two_names() -> None:
    claim = "The regulator fined Facebook in Dublin"
    page = "Meta Platforms was fined by the regulator in Dublin"
    before = entity_overlap(extract_entities(claim), extract_entities(page))
    assert before is not None and before < 0.5
    alias_create(name="Meta Platforms", alias="Facebook", kind="organization")
    assert entity_overlap(extract_entities(claim), extract_entities(page)) == 1.0


def test_removing_an_alias_separates_the_names_again() -> None:
    item = alias_create(name="Alphabet", alias="Google", kind="organization")
    claim, page = "Shares of Alphabet rose", "Shares of Google rose"
    assert entity_overlap(extract_entities(claim), extract_entities(page)) == 1.0
    alias_delete(item=item)
    assert entity_overlap(extract_entities(claim), extract_entities(page)) == 0.0
