"""The entity alias table's actions: a spelling maps to one name, refusals say what the table
has, and CSV files import all or nothing."""

from __future__ import annotations

import pytest

from registry.csvformat import ImportChange
from registry.models import EntityAlias
from registry.services.aliases import (
    AliasCsvError,
    AliasError,
    AliasExists,
    alias_create,
    alias_update,
    aliases_export,
    aliases_import,
    aliases_import_plan,
    parse_aliases_csv,
)

pytestmark = pytest.mark.django_db


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
