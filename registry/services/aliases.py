"""Actions on the entity alias table. The admin pages, the API and the command line all call
these, so validation lives in one place.

An alias row says that `alias` names the same entity as `name` (the name in English, as
searched). Two spellings with the same matching key are one alias: "Kiev" and "KIEV" cannot
point at two names. CSV files have the header `name,alias,kind,note`, one alias a line.
"""

from __future__ import annotations

import csv
import io
import logging
from dataclasses import dataclass
from pathlib import Path

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from claimcheck.errors import ApplicationError
from registry.csvformat import (
    CsvHeaderError,
    CsvProblem,
    ImportChange,
    ImportPlan,
    ImportResult,
    PlanLine,
    csv_cell_read,
    csv_cell_safe,
    csv_records,
)
from registry.entity_keys import entity_key
from registry.known_names import aliases_changed
from registry.models import EntityAlias, EntityKind

DEFAULT_ALIASES_CSV = Path(__file__).resolve().parent.parent / "default_aliases.csv"
CSV_HEADER = ("name", "alias", "kind", "note")
MAX_NAME = 200
MAX_NOTE = 300

logger = logging.getLogger(__name__)


class AliasError(ApplicationError):
    """An alias row that cannot be stored; the message says what is wrong, `field` which
    input."""

    def __init__(self, message: str, *, field: str = "alias") -> None:
        super().__init__(message, field=field)


class AliasExists(AliasError):
    """The spelling is in the table already; `existing` is the alias that has it."""

    status = 409
    error = "alias exists"

    def __init__(self, message: str, *, existing: EntityAlias | None = None) -> None:
        super().__init__(message, field="alias")
        self.existing = existing


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
    try:
        records, problems = csv_records(text, columns=CSV_HEADER, required=("name", "alias"))
    except CsvHeaderError as exc:
        raise AliasCsvError([exc.problem]) from None
    rows: list[AliasRow] = []
    seen: dict[str, AliasRow] = {}
    for record in records:
        line = record.line
        cells = {column: csv_cell_read(value) for column, value in record.cells.items()}
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
                where = (
                    f"is on line {first.line} already"
                    if first.alias == row.alias
                    else f"is spelt like {first.alias} on line {first.line}"
                )
                problems.append(CsvProblem(line, f"{row.alias} {where}, an alias of {first.name}"))
            continue
        seen[row.key] = row
        rows.append(row)
    if problems:
        raise AliasCsvError(sorted(problems, key=lambda problem: problem.line))
    return rows


def default_alias_rows() -> list[AliasRow]:
    """The shipped table (registry/default_aliases.csv)."""
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


def _who(user: User | None) -> str:
    acting = _acting(user)
    return acting.get_username() if acting is not None else ""


def _clash(row: AliasRow, *, exclude: int | None = None) -> AliasExists | None:
    """The refusal of a spelling the table has, naming the alias already there (which may be
    written differently: "KIEV" is spelt like "Kiev"); None when the spelling is free."""
    aliases = EntityAlias.objects.filter(key=row.key)
    if exclude is not None:
        aliases = aliases.exclude(pk=exclude)
    taken = aliases.first()
    if taken is None:
        return None
    if taken.alias == row.alias:
        message = f"{row.alias} is already an alias of {taken.name}"
    else:
        message = f"{row.alias} is spelt like {taken.alias}, already an alias of {taken.name}"
    return AliasExists(message, existing=taken)


def _lost_race(row: AliasRow, *, exclude: int | None = None) -> AliasExists:
    """A concurrent write of the same spelling was saved first."""
    return _clash(row, exclude=exclude) or AliasExists(f"{row.alias} is in the table already")


def alias_create(
    *,
    name: str,
    alias: str,
    kind: str = "",
    note: str = "",
    user: User | None = None,
    via: str = "",
) -> EntityAlias:
    row = alias_row(name=name, alias=alias, kind=kind, note=note)
    if (clash := _clash(row)) is not None:
        raise clash
    try:
        with transaction.atomic():
            created = EntityAlias.objects.create(
                name=row.name,
                alias=row.alias,
                key=row.key,
                kind=row.kind,
                note=row.note,
                updated_by=_acting(user),
            )
    except IntegrityError as exc:  # a concurrent add of the same spelling won the race
        raise _lost_race(row) from exc
    aliases_changed()
    logger.info(
        "alias created",
        extra={"alias": created.alias, "entity": created.name, "user": _who(user), "via": via},
    )
    return created


def alias_update(
    *,
    item: EntityAlias,
    name: str | None = None,
    alias: str | None = None,
    kind: str | None = None,
    note: str | None = None,
    user: User | None = None,
    via: str = "",
) -> EntityAlias:
    """Change the given fields; the whole row is validated before anything is saved."""
    row = alias_row(
        name=item.name if name is None else name,
        alias=item.alias if alias is None else alias,
        kind=item.kind if kind is None else kind,
        note=item.note if note is None else note,
    )
    if (clash := _clash(row, exclude=item.pk)) is not None:
        raise clash
    before = (item.name, item.alias, item.key, item.kind, item.note, item.updated_by)
    try:
        with transaction.atomic():
            item.name, item.alias, item.key = row.name, row.alias, row.key
            item.kind, item.note, item.updated_by = row.kind, row.note, _acting(user)
            item.save()
    except IntegrityError as exc:
        # The rollback leaves the object as it was set; put back what the row still holds.
        item.name, item.alias, item.key, item.kind, item.note, item.updated_by = before
        raise _lost_race(row, exclude=item.pk) from exc
    aliases_changed()
    logger.info(
        "alias updated",
        extra={"alias": item.alias, "entity": item.name, "user": _who(user), "via": via},
    )
    return item


def alias_delete(*, item: EntityAlias, user: User | None = None, via: str = "") -> None:
    alias, entity = item.alias, item.name
    item.delete()
    aliases_changed()
    logger.info(
        "alias deleted", extra={"alias": alias, "entity": entity, "user": _who(user), "via": via}
    )


AliasImport = ImportResult
AliasPlanLine = PlanLine[AliasRow, EntityAlias]
AliasImportPlan = ImportPlan[AliasRow, EntityAlias]


_COMPARED = ("name", "alias", "kind", "note")


def _plan(rows: list[AliasRow], existing: dict[str, EntityAlias]) -> AliasImportPlan:
    lines: list[AliasPlanLine] = []
    for row in rows:
        current = existing.get(row.key)
        if current is None:
            lines.append(AliasPlanLine(row=row, change=ImportChange.CREATED))
            continue
        fields = tuple(f for f in _COMPARED if getattr(current, f) != getattr(row, f))
        change = ImportChange.UPDATED if fields else ImportChange.UNCHANGED
        lines.append(AliasPlanLine(row=row, change=change, before=current, fields=fields))
    return AliasImportPlan(lines=lines)


def aliases_import_plan(*, text: str) -> AliasImportPlan:
    """What importing `text` would do, line by line, changing nothing: the preview. A file
    with any bad line raises AliasCsvError naming each."""
    rows = parse_aliases_csv(text)
    return _plan(rows, {a.key: a for a in EntityAlias.objects.all()})


def aliases_import(
    *, text: str, user: User | None = None, dry_run: bool = False, via: str = "csv import"
) -> AliasImport:
    """Add or change every row of a CSV file, all or nothing. A row whose alias is in the
    table already changes that alias's name, kind and note. `dry_run` only counts."""
    if dry_run:
        return aliases_import_plan(text=text).result
    rows = parse_aliases_csv(text)
    acting = _acting(user)
    with transaction.atomic():
        plan = _plan(rows, {a.key: a for a in EntityAlias.objects.select_for_update()})
        for line in plan.lines:
            row = line.row
            if line.change == ImportChange.CREATED:
                EntityAlias.objects.create(
                    name=row.name,
                    alias=row.alias,
                    key=row.key,
                    kind=row.kind,
                    note=row.note,
                    updated_by=acting,
                )
            elif line.change == ImportChange.UPDATED and line.before is not None:
                current = line.before
                current.name, current.alias = row.name, row.alias
                current.kind, current.note = row.kind, row.note
                current.updated_by = acting
                current.save()
    aliases_changed()
    result = plan.result
    logger.info(
        "aliases imported",
        extra={
            "aliases_created": result.created,
            "aliases_updated": result.updated,
            "user": _who(user),
            "via": via,
        },
    )
    return result


def aliases_export() -> str:
    return aliases_to_csv(list(EntityAlias.objects.order_by("name", "alias")))
