"""Entities: extraction from ordinary prose, keys across spelling, script and inflection,
aliases from the admins' table, and the overlap ratio."""

from __future__ import annotations

import pytest

from evidence.entities import entity_key, entity_overlap, extract_entities, transliterate
from evidence.entities.extract import Entity
from evidence.models import EntityAlias, EntityKind
from evidence.services.aliases import (
    AliasCsvError,
    AliasError,
    AliasExists,
    ImportChange,
    alias_create,
    alias_delete,
    alias_update,
    aliases_export,
    aliases_import,
    aliases_import_plan,
    parse_aliases_csv,
)

pytestmark = pytest.mark.django_db


def names(text: str, language: str = "") -> dict[str, str]:
    return {e.name: e.kind for e in extract_entities(text, language=language)}


def test_transliteration_follows_each_language() -> None:
    assert transliterate("Київ", language="uk") == "Kyiv"
    assert transliterate("Москва") == "Moskva"
    assert transliterate("Харків") == "Kharkiv"
    assert transliterate("Chicago") == "Chicago"


def test_keys_fold_case_whitespace_accents_and_spelling() -> None:
    assert entity_key("  Zelenskyy ") == entity_key("zelensky")
    assert entity_key("Kyïv") == entity_key("KYIV")
    assert entity_key("Зеленский") == entity_key("Zelenskiy")


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


def test_an_alias_spelt_like_one_of_another_entity_is_refused() -> None:
    with pytest.raises(AliasExists, match="Kyiv"):
        alias_create(name="Somewhere Else", alias="KIEV")


def test_a_refused_spelling_names_the_alias_the_table_has() -> None:
    kiev = EntityAlias.objects.get(alias="Kiev")
    with pytest.raises(AliasExists) as raised:
        alias_create(name="Somewhere Else", alias="KIEV")
    assert raised.value.message == "KIEV is spelt like Kiev, already an alias of Kyiv"
    assert raised.value.existing == kiev
    assert raised.value.status == 409 and raised.value.field == "alias"


def test_an_alias_cannot_be_changed_into_a_spelling_another_has() -> None:
    google = alias_create(name="Alphabet", alias="Google", kind="organization")
    with pytest.raises(AliasExists, match="Kiev is already an alias of Kyiv"):
        alias_update(item=google, alias="Kiev")
    google.refresh_from_db()
    assert google.alias == "Google"
    assert alias_update(item=google, alias="GOOGLE").alias == "GOOGLE"


def test_an_alias_without_letters_is_refused_and_nothing_is_stored() -> None:
    count = EntityAlias.objects.count()
    with pytest.raises(AliasError, match="letters"):
        alias_create(name="Kyiv", alias="--")
    with pytest.raises(AliasError, match="kind"):
        alias_create(name="Kyiv", alias="Kyjiw", kind="city")
    assert EntityAlias.objects.count() == count


def test_the_csv_round_trip_keeps_every_alias() -> None:
    exported = aliases_export()
    assert exported.startswith("name,alias,kind,note\n")
    EntityAlias.objects.all().delete()
    result = aliases_import(text=exported)
    assert result.created == len(parse_aliases_csv(exported))
    assert aliases_export() == exported


def test_a_csv_with_a_bad_line_imports_nothing_and_names_the_line() -> None:
    count = EntityAlias.objects.count()
    text = (
        "name,alias,kind\nAlphabet,Google,organization\nKharkiv,Kharkov,city\nX,Kyjiw,\nY,Kyjiw,\n"
    )
    with pytest.raises(AliasCsvError) as raised:
        aliases_import(text=text)
    assert "line 3: kind" in str(raised.value)
    assert "line 5: Kyjiw is on line 4 already, an alias of X" in str(raised.value)
    with pytest.raises(AliasCsvError, match="line 3: KIEV is spelt like Kiev on line 2, an alias"):
        parse_aliases_csv("name,alias\nKyiv,Kiev\nSomewhere,KIEV\n")
    assert EntityAlias.objects.count() == count


def test_an_empty_csv_file_is_refused() -> None:
    with pytest.raises(AliasCsvError, match="line 1: the file is empty"):
        parse_aliases_csv("# only a comment\n\n")


def test_the_import_plan_says_what_each_line_would_do_and_changes_nothing() -> None:
    count = EntityAlias.objects.count()
    plan = aliases_import_plan(
        text="name,alias,kind,note\nKyiv,Kiev,place,\n"
        "Odesa,Odessa,place,old spelling\nAlphabet,Google,organization,\n"
    )
    assert [(line.row.alias, line.change) for line in plan.lines] == [
        ("Kiev", ImportChange.UNCHANGED),
        ("Odessa", ImportChange.UPDATED),
        ("Google", ImportChange.CREATED),
    ]
    assert plan.lines[1].fields == ("note",) and plan.lines[1].before is not None
    assert (plan.result.created, plan.result.updated, plan.result.unchanged) == (1, 1, 1)
    assert EntityAlias.objects.count() == count
    assert aliases_import(text="name,alias\nAlphabet,Google\n", dry_run=True).created == 1
    assert not EntityAlias.objects.filter(alias="Google").exists()


def test_importing_an_alias_already_in_the_table_changes_what_it_names() -> None:
    result = aliases_import(text="name,alias,kind,note\nKyiv,Kiev,place,old spelling\n")
    assert (result.created, result.updated) == (0, 1)
    assert EntityAlias.objects.get(alias="Kiev").note == "old spelling"


def test_spellings_that_fold_together_in_one_file_are_one_alias() -> None:
    rows = parse_aliases_csv("name,alias\nKyiv,Київ\nKyiv,KYIV\nKyiv,Kiev\n")
    assert [r.alias for r in rows] == ["Київ", "Kiev"]


def test_removing_an_alias_separates_the_names_again() -> None:
    item = alias_create(name="Alphabet", alias="Google", kind="organization")
    claim, page = "Shares of Alphabet rose", "Shares of Google rose"
    assert entity_overlap(extract_entities(claim), extract_entities(page)) == 1.0
    alias_delete(item=item)
    assert entity_overlap(extract_entities(claim), extract_entities(page)) == 0.0
