"""`manage.py aliases`: import a CSV file (all or nothing, or a dry run), export the table,
list it by kind and search."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from registry.models import EntityAlias

pytestmark = pytest.mark.django_db


def test_export_then_import_round_trips_the_table(tmp_path: Path) -> None:
    EntityAlias.objects.create(name="Alphabet", alias="Google", key="google", note="a, b")
    EntityAlias.objects.create(name="Formula", alias="Formulae", key="formulae", note="=1+1")
    exported = tmp_path / "aliases.csv"
    call_command("aliases", "export", str(exported))
    before = exported.read_text(encoding="utf-8")
    assert before.startswith("name,alias,kind,note\n")
    assert "Formula,Formulae,other,'=1+1\n" in before

    EntityAlias.objects.all().delete()
    call_command("aliases", "import", str(exported))
    again = tmp_path / "again.csv"
    call_command("aliases", "export", str(again))

    assert again.read_text(encoding="utf-8") == before
    assert EntityAlias.objects.get(alias="Formulae").note == "=1+1"


def test_export_without_a_file_writes_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("aliases", "export")
    out = capsys.readouterr().out
    assert out.startswith("name,alias,kind,note\n") and "Kyiv,Kiev,place,\n" in out


def test_import_adds_and_changes_aliases_and_says_how_many(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "in.csv"
    path.write_text(
        "name,alias,kind,note\nKyiv,Kiev,place,\nOdesa,Odessa,place,the Russian spelling\n"
        "Alphabet,Google,organization,\n",
        encoding="utf-8",
    )

    call_command("aliases", "import", str(path))

    assert "imported: 1 created, 1 updated, 1 unchanged" in capsys.readouterr().out
    assert EntityAlias.objects.get(alias="Odessa").note == "the Russian spelling"
    assert EntityAlias.objects.get(alias="Google").kind == "organization"


def test_a_bad_csv_is_reported_by_line_and_nothing_is_imported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = set(EntityAlias.objects.values_list("name", "alias", "kind", "note"))
    path = tmp_path / "bad.csv"
    path.write_text(
        "name,alias,kind\nAlphabet,Google,organization\nKharkiv,Kharkov,city\n,Nameless,\n",
        encoding="utf-8",
    )

    with pytest.raises(CommandError, match="2 bad line"):
        call_command("aliases", "import", str(path))

    err = capsys.readouterr().err
    assert "line 3: kind" in err and "line 4: name: must not be empty" in err
    assert set(EntityAlias.objects.values_list("name", "alias", "kind", "note")) == before


def test_a_dry_run_counts_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "in.csv"
    path.write_text("name,alias\nAlphabet,Google\n", encoding="utf-8")

    call_command("aliases", "import", str(path), "--dry-run")

    assert "would import: 1 created, 0 updated, 0 unchanged" in capsys.readouterr().out
    assert not EntityAlias.objects.filter(alias="Google").exists()


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="cannot read"):
        call_command("aliases", "import", str(tmp_path / "nope.csv"))


def test_list_filters_by_kind_and_search(capsys: pytest.CaptureFixture[str]) -> None:
    EntityAlias.objects.create(name="Alphabet", alias="Google", key="google", kind="organization")

    call_command("aliases", "list", "--kind", "organization", "--search", "goo")
    found = capsys.readouterr().out
    call_command("aliases", "list", "--search", "KHARKIV")
    kharkiv = capsys.readouterr().out

    assert found.splitlines() == [f"{'Google':<28} → {'Alphabet':<28} organization", "1 alias(es)"]
    assert "Kharkov" in kharkiv and "Google" not in kharkiv
    assert kharkiv.strip().endswith("2 alias(es)")


def test_an_export_to_a_relative_path_lands_where_the_command_runs_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    out = StringIO()
    call_command("aliases", "export", "aliases.csv", stdout=out)
    written = tmp_path / "aliases.csv"
    assert written.read_text(encoding="utf-8").startswith("name,alias,kind,note")
    assert out.getvalue().strip().endswith(f"aliases to {written}")


def test_the_docs_export_aliases_outside_the_repository() -> None:
    """The alias commands as docs/desk.md shows them (the README leads there)."""
    page = (Path(settings.BASE_DIR) / "docs" / "desk.md").read_text(encoding="utf-8")
    paths = re.findall(r"manage\.py aliases (?:export|import) (\S+)", page)
    assert paths and all(Path(p).is_absolute() for p in paths), paths
    assert not any(Path(p).is_relative_to(settings.BASE_DIR) for p in paths)
