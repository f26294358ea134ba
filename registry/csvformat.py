"""The CSV files of the registry's tables (domains, entity aliases): reading the lines under a
header, spreadsheet-safe cells, and the plan of an import (what each line would change)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from django.db import models


@dataclass(frozen=True)
class CsvProblem:
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass(frozen=True)
class CsvRecord:
    line: int
    cells: dict[str, str]
    """Column name → cell, as written (`csv_cell_read` undoes a spreadsheet-safe cell)."""


class CsvHeaderError(ValueError):
    """A CSV file whose header is wrong, or that has none: no line of it can be read."""

    def __init__(self, problem: CsvProblem) -> None:
        self.problem = problem
        super().__init__(str(problem))


def csv_records(
    text: str, *, columns: tuple[str, ...], required: tuple[str, ...]
) -> tuple[list[CsvRecord], list[CsvProblem]]:
    """The lines of a CSV file under its header (`columns`, of which `required` must be there),
    with the lines that have more fields than the header, or a NUL character (no database text
    can hold one), as problems. Blank lines and lines starting with `#` are skipped. Raises
    CsvHeaderError for a wrong header or an empty file."""
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    records: list[CsvRecord] = []
    problems: list[CsvProblem] = []
    header: list[str] | None = None
    for record in reader:
        line = reader.line_num
        if not record or not any(cell.strip() for cell in record):
            continue
        if record[0].lstrip().startswith("#"):
            continue
        if header is None:
            header = [cell.strip().lower() for cell in record]
            missing = [column for column in required if column not in header]
            unknown = [column for column in header if column not in columns]
            if missing or unknown:
                raise CsvHeaderError(
                    CsvProblem(
                        line,
                        f"the header must be {','.join(columns)}"
                        f" (missing: {missing or 'none'}, unknown: {unknown or 'none'})",
                    )
                )
            continue
        if len(record) > len(header):
            problems.append(CsvProblem(line, f"{len(record)} fields, the header has {len(header)}"))
            continue
        if any("\x00" in cell for cell in record):
            problems.append(CsvProblem(line, "holds a NUL character, which no field can store"))
            continue
        records.append(CsvRecord(line, dict(zip(header, record, strict=False))))
    if header is None:
        raise CsvHeaderError(
            CsvProblem(1, f"the file is empty (expected a header {','.join(columns)})")
        )
    return records, problems


# A spreadsheet runs a cell that starts with one of these as a formula. On export such a cell is
# written with a leading apostrophe (shown as text, OWASP's advice); import takes it off again,
# so that export -> import -> export is stable.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell_safe(value: str) -> str:
    return "'" + value if value.startswith(_FORMULA_STARTS) else value


def csv_cell_read(value: str) -> str:
    return value[1:] if value.startswith("'") and value[1:].startswith(_FORMULA_STARTS) else value


class ImportChange(models.TextChoices):
    """What importing one line does to the table."""

    CREATED = "created", "Added"
    UPDATED = "updated", "Changed"
    UNCHANGED = "unchanged", "Unchanged"


class _Line(Protocol):
    @property
    def line(self) -> int: ...


RowT = TypeVar("RowT", bound=_Line)
StoredT = TypeVar("StoredT", bound=models.Model)


@dataclass(frozen=True)
class ImportResult:
    """How many lines of a file added, changed, and left alone a row."""

    created: int
    updated: int
    unchanged: int


@dataclass(frozen=True)
class PlanLine(Generic[RowT, StoredT]):
    """One line of a file and what importing it does; `before` is the row it changes and
    `fields` which of its fields differ."""

    row: RowT
    change: ImportChange
    before: StoredT | None = None
    fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class ImportPlan(Generic[RowT, StoredT]):
    """What importing a whole file would do, line by line."""

    lines: list[PlanLine[RowT, StoredT]]

    def count(self, change: ImportChange) -> int:
        return sum(1 for line in self.lines if line.change == change)

    @property
    def created(self) -> int:
        return self.count(ImportChange.CREATED)

    @property
    def updated(self) -> int:
        return self.count(ImportChange.UPDATED)

    @property
    def unchanged(self) -> int:
        return self.count(ImportChange.UNCHANGED)

    @property
    def changes(self) -> int:
        return self.created + self.updated

    @property
    def result(self) -> ImportResult:
        return ImportResult(created=self.created, updated=self.updated, unchanged=self.unchanged)
