"""The alias list: the admin page, the API and the command line read it through one selector,
which searches the name, the alias and the note, and the alias by its matching key."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from claimcheck.errors import Forbidden, NotFound
from registry.models import EntityAlias, EntityKind
from registry.selectors import alias_for_admin, alias_get, alias_list
from registry.services.aliases import alias_create

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def table() -> None:
    """Only these rows, not the shipped table, so each expectation lists all it finds."""
    EntityAlias.objects.all().delete()
    alias_create(name="Kyiv", alias="Kiev", kind="place", note="old spelling")
    alias_create(name="Kyiv", alias="Київ", kind="place")
    alias_create(name="Alphabet", alias="Google", kind="organization", note="parent of Kyiv office")
    alias_create(name="Volodymyr Zelenskyy", alias="Зеленский", kind="person")


def aliases(**filters: str) -> list[str]:
    return [item.alias for item in alias_list(**filters)]


def test_the_list_is_sorted_by_name_then_alias() -> None:
    assert aliases() == ["Google", "Kiev", "Київ", "Зеленский"]


def test_a_search_matches_the_name_the_alias_or_the_note_ignoring_case() -> None:
    assert aliases(search="  KYIV ") == ["Google", "Kiev", "Київ"]
    assert aliases(search="goo") == ["Google"]
    assert aliases(search="OLD SPELLING") == ["Kiev"]


def test_a_search_finds_an_alias_in_another_script_by_its_key() -> None:
    assert aliases(search="київ") == ["Київ"]
    assert aliases(search="zelensk") == ["Зеленский"]
    # Two letters are too few to match keys: "ki" would find every "ky" and "kj" as well.
    assert aliases(search="ki") == ["Kiev"]


def test_a_search_by_key_matches_from_the_start_of_a_word_not_inside_another_name() -> None:
    alias_create(name="Kharkiv", alias="Харків", kind="place")
    alias_create(name="Kyiv City Council", alias="Київська міська рада", kind="organization")
    # The key of "kyiv" ends the key of "Харків": it is another city all the same.
    assert aliases(kind=EntityKind.PLACE, search="kyiv") == ["Kiev", "Київ"]
    assert aliases(search="харків") == ["Харків"]
    assert aliases(search="міська") == ["Київська міська рада"]


def test_the_kind_filter_keeps_one_kind() -> None:
    assert aliases(kind=EntityKind.PLACE) == ["Kiev", "Київ"]
    assert aliases(kind=EntityKind.PERSON, search="kyiv") == []


def test_an_alias_is_found_by_id_and_only_by_an_admin(editor: User, admin_user: User) -> None:
    kiev = EntityAlias.objects.get(alias="Kiev")
    assert alias_get(pk=kiev.pk) == kiev
    assert alias_for_admin(user=admin_user, pk=kiev.pk) == kiev
    with pytest.raises(Forbidden):
        alias_for_admin(user=editor, pk=kiev.pk)
    with pytest.raises(Forbidden):
        alias_for_admin(user=editor, pk=10**9)
    with pytest.raises(NotFound):
        alias_for_admin(user=admin_user, pk=10**9)
