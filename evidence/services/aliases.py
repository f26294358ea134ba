"""Actions on the entity alias table. The admin pages, the API and the command line all call
these, so validation lives in one place.

An alias row says that `alias` names the same entity as `name` (the name in English, as
searched). Two spellings with the same matching key are one alias: "Kiev" and "KIEV" cannot
point at two names. CSV files have the header `name,alias,kind,note`, one alias a line.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from django.contrib.auth.models import User
from django.db import transaction

from claimcheck.errors import ApplicationError
from evidence.domains import CsvProblem, csv_cell_read, csv_cell_safe
from evidence.entities.aliases import aliases_changed
from evidence.entities.normalize import entity_key
from evidence.models import EntityAlias, EntityKind

DEFAULT_ALIASES_CSV = Path(__file__).resolve().parent.parent / "default_aliases.csv"
CSV_HEADER = ("name", "alias", "kind", "note")
MAX_NAME = 200
MAX_NOTE = 300


class AliasError(ApplicationError):
    """An alias row that cannot be stored; the message says what is wrong, `field` which
    input."""

    error = "invalid alias"

    def __init__(self, message: str, *, field: str = "alias") -> None:
        super().__init__(message, field=field)


class AliasExists(AliasError):
    status = 409
    error = "alias exists"


class AliasCsvError(AliasError):
    """A CSV file with bad lines. Nothing from it was imported."""

    def __init__(self, problems: list[CsvProblem]) -> None:
        self.problems = problems
        super().__init__("; ".join(str(problem) for problem in problems), field="text")


@dataclass(frozen=True)
class AliasRow:
    name: str
    alias: str
    kind: str
    note: str = ""
    line: int = 0

    @property
    def key(self) -> str:
        return entity_key(self.alias)


def _text(value: str, *, field: str, limit: int, required: bool = True) -> str:
    cleaned = " ".join((value or "").split())
    if required and not cleaned:
        raise AliasError(f"{field}: must not be empty", field=field)
    if len(cleaned) > limit:
        raise AliasError(f"{field}: at most {limit} characters", field=field)
    if "\x00" in cleaned:
        raise AliasError(f"{field}: contains a NUL character", field=field)
    return cleaned


def parse_kind(value: str) -> str:
    kind = (value or "").strip().lower() or EntityKind.OTHER
    if kind not in EntityKind.values:
        raise AliasError(
            f"kind: {value!r} is not one of {', '.join(EntityKind.values)}", field="kind"
        )
    return kind


def alias_row(*, name: str, alias: str, kind: str = "", note: str = "", line: int = 0) -> AliasRow:
    """A validated row. The alias must have letters to match on."""
    row = AliasRow(
        name=_text(name, field="name", limit=MAX_NAME),
        alias=_text(alias, field="alias", limit=MAX_NAME),
        kind=parse_kind(kind),
        note=_text(note, field="note", limit=MAX_NOTE, required=False),
        line=line,
    )
    if not row.key:
        raise AliasError("alias: has no letters to match on", field="alias")
    return row


def parse_aliases_csv(text: str) -> list[AliasRow]:
    """Validate a whole file. Raises AliasCsvError listing every bad line by its number; blank
    lines and lines starting with `#` are skipped."""
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    problems: list[CsvProblem] = []
    rows: list[AliasRow] = []
    seen: dict[str, AliasRow] = {}
    header: list[str] | None = None
    for record in reader:
        line = reader.line_num
        if not record or not any(cell.strip() for cell in record):
            continue
        if record[0].lstrip().startswith("#"):
            continue
        if header is None:
            header = [cell.strip().lower() for cell in record]
            missing = [column for column in ("name", "alias") if column not in header]
            unknown = [column for column in header if column not in CSV_HEADER]
            if missing or unknown:
                raise AliasCsvError(
                    [
                        CsvProblem(
                            line,
                            f"the header must be {','.join(CSV_HEADER)}"
                            f" (missing: {missing or 'none'}, unknown: {unknown or 'none'})",
                        )
                    ]
                )
            continue
        if len(record) > len(header):
            problems.append(CsvProblem(line, f"{len(record)} fields, the header has {len(header)}"))
            continue
        cells = {
            column: csv_cell_read(value) for column, value in zip(header, record, strict=False)
        }
        try:
            row = alias_row(
                name=cells.get("name", ""),
                alias=cells.get("alias", ""),
                kind=cells.get("kind", ""),
                note=cells.get("note", ""),
                line=line,
            )
        except AliasError as exc:
            problems.append(CsvProblem(line, str(exc)))
            continue
        first = seen.get(row.key)
        if first is not None:
            # Spellings that fold to one key ("Киев", "Kiev") are one alias: harmless when
            # they name the same entity, a contradiction when not.
            if first.name != row.name:
                problems.append(
                    CsvProblem(
                        line,
                        f"{row.alias} is spelt like {first.alias} on line {first.line}, "
                        f"an alias of {first.name}",
                    )
                )
            continue
        seen[row.key] = row
        rows.append(row)
    if problems:
        raise AliasCsvError(problems)
    return rows


def default_alias_rows() -> list[AliasRow]:
    """The shipped table (evidence/default_aliases.csv)."""
    return parse_aliases_csv(DEFAULT_ALIASES_CSV.read_text(encoding="utf-8"))


def aliases_to_csv(aliases: list[EntityAlias]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for item in aliases:
        writer.writerow(
            [
                csv_cell_safe(item.name),
                csv_cell_safe(item.alias),
                item.kind,
                csv_cell_safe(item.note),
            ]
        )
    return out.getvalue()


def _acting(user: User | None) -> User | None:
    return user if user is not None and user.is_authenticated else None


def alias_create(
    *, name: str, alias: str, kind: str = "", note: str = "", user: User | None = None
) -> EntityAlias:
    row = alias_row(name=name, alias=alias, kind=kind, note=note)
    with transaction.atomic():
        taken = EntityAlias.objects.select_for_update().filter(key=row.key).first()
        if taken is not None:
            raise AliasExists(f"{row.alias!r} is already an alias of {taken.name}")
        created = EntityAlias.objects.create(
            name=row.name,
            alias=row.alias,
            key=row.key,
            kind=row.kind,
            note=row.note,
            updated_by=_acting(user),
        )
    aliases_changed()
    return created


def alias_update(
    *,
    item: EntityAlias,
    name: str | None = None,
    alias: str | None = None,
    kind: str | None = None,
    note: str | None = None,
    user: User | None = None,
) -> EntityAlias:
    row = alias_row(
        name=item.name if name is None else name,
        alias=item.alias if alias is None else alias,
        kind=item.kind if kind is None else kind,
        note=item.note if note is None else note,
    )
    with transaction.atomic():
        taken = EntityAlias.objects.filter(key=row.key).exclude(pk=item.pk).first()
        if taken is not None:
            raise AliasExists(f"{row.alias!r} is already an alias of {taken.name}")
        item.name, item.alias, item.key = row.name, row.alias, row.key
        item.kind, item.note, item.updated_by = row.kind, row.note, _acting(user)
        item.save()
    aliases_changed()
    return item


def alias_delete(*, item: EntityAlias) -> None:
    item.delete()
    aliases_changed()


@dataclass(frozen=True)
class AliasImport:
    created: int
    updated: int
    unchanged: int


def aliases_import(*, text: str, user: User | None = None) -> AliasImport:
    """Add or change every row of a CSV file, all or nothing. A row whose alias is in the
    table already changes that alias's name, kind and note."""
    rows = parse_aliases_csv(text)
    created = updated = unchanged = 0
    with transaction.atomic():
        existing = {a.key: a for a in EntityAlias.objects.select_for_update()}
        for row in rows:
            current = existing.get(row.key)
            if current is None:
                EntityAlias.objects.create(
                    name=row.name,
                    alias=row.alias,
                    key=row.key,
                    kind=row.kind,
                    note=row.note,
                    updated_by=_acting(user),
                )
                created += 1
            elif (current.name, current.alias, current.kind, current.note) != (
                row.name,
                row.alias,
                row.kind,
                row.note,
            ):
                current.name, current.alias = row.name, row.alias
                current.kind, current.note = row.kind, row.note
                current.updated_by = _acting(user)
                current.save()
                updated += 1
            else:
                unchanged += 1
    aliases_changed()
    return AliasImport(created=created, updated=updated, unchanged=unchanged)


def aliases_export() -> str:
    return aliases_to_csv(list(EntityAlias.objects.order_by("name", "alias")))
