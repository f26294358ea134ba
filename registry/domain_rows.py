"""The domain registry's rows: a valid registry name, a valid tier, weight and note, and the
CSV file of the whole registry (`name,tier,weight_override,denied,note`).

How much a source counts is `registry.weighing`; the host names of URLs are `registry.hosts`.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from claimcheck.errors import ApplicationError
from registry.csvformat import (
    CsvHeaderError,
    CsvProblem,
    csv_cell_read,
    csv_cell_safe,
    csv_records,
)
from registry.hosts import is_ip
from registry.models import Domain, Tier

DEFAULT_DOMAINS_CSV = Path(__file__).with_name("default_domains.csv")
CSV_HEADER = ("name", "tier", "weight_override", "denied", "note")

_NAME_MAX = 253
_LABEL = re.compile(r"^(?!-)[a-z0-9_-]{1,63}(?<!-)$")
_TRUE = frozenset({"1", "true", "yes", "y", "denied"})
_FALSE = frozenset({"", "0", "false", "no", "n", "allowed"})


class DomainError(ApplicationError):
    """A domain name or row that cannot be stored; the message says what is wrong and `field`
    which input."""

    def __init__(self, message: str, *, field: str = "name") -> None:
        super().__init__(message, field=field)


class DomainExists(DomainError):
    """A domain with that name is already in the registry."""

    status = 409
    error = "domain exists"


def normalize_domain_name(raw: str) -> str:
    """The stored form of a registry name: lower case, ASCII, `*.gov` written as `.gov`.
    Raises DomainError for anything that is not a host name or suffix."""
    name = raw.strip().lower()
    if name.startswith("*."):
        name = name[1:]
    if "://" in name or "/" in name:
        raise DomainError(f"{raw!r}: give a domain name, not a URL")
    suffix_rule = name.startswith(".")
    bare = name.lstrip(".").rstrip(".")
    if not bare:
        raise DomainError("the domain name is empty")
    if not bare.isascii():
        try:
            bare = bare.encode("idna").decode("ascii")
        except UnicodeError as exc:
            raise DomainError(f"{raw!r} is not a valid international domain name") from exc
    if len(bare) + suffix_rule > _NAME_MAX:
        raise DomainError(f"{raw!r} is longer than {_NAME_MAX} characters")
    if not is_ip(bare) and not all(_LABEL.match(label) for label in bare.split(".")):
        raise DomainError(
            f"{raw!r} is not a domain name (letters, digits and hyphens between dots)"
        )
    if suffix_rule and is_ip(bare):
        raise DomainError(f"{raw!r}: a suffix rule cannot be an IP address")
    return ("." if suffix_rule else "") + bare


@dataclass(frozen=True)
class DomainRow:
    """One validated line of a domains CSV file."""

    name: str
    tier: str
    weight_override: float | None
    denied: bool
    note: str
    line: int = 0


class DomainCsvError(DomainError):
    """A CSV file with bad lines. Nothing from it was imported."""

    def __init__(self, problems: list[CsvProblem]) -> None:
        self.problems = problems
        super().__init__("; ".join(str(problem) for problem in problems), field="text")


def parse_weight(raw: str | float | None) -> float | None:
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    try:
        weight = float(raw)
    except ValueError as exc:
        raise DomainError(
            f"weight_override {raw!r} is not a number", field="weight_override"
        ) from exc
    if not 0.0 <= weight <= 1.0:  # also refuses NaN
        raise DomainError(
            f"weight_override {raw!r} must be between 0 and 1", field="weight_override"
        )
    return weight


def parse_tier(raw: str) -> str:
    tier = raw.strip().lower()
    if tier not in Tier.values:
        raise DomainError(f"tier {raw!r} is not one of {', '.join(Tier.values)}", field="tier")
    return tier


def parse_note(raw: str) -> str:
    note = raw.strip()
    max_length = Domain._meta.get_field("note").max_length or 300
    if len(note) > max_length:
        raise DomainError(f"the note is longer than {max_length} characters", field="note")
    return note


def _parse_bool(raw: str) -> bool:
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise DomainError(f"denied {raw!r} must be true or false", field="denied")


def parse_domains_csv(text: str) -> list[DomainRow]:
    """Validate a whole file (header `name,tier,weight_override,denied,note`). Raises
    DomainCsvError listing every bad line by its line number; blank lines and lines starting
    with `#` are skipped."""
    try:
        records, problems = csv_records(text, columns=CSV_HEADER, required=("name", "tier"))
    except CsvHeaderError as exc:
        raise DomainCsvError([exc.problem]) from None
    rows: list[DomainRow] = []
    seen: dict[str, int] = {}
    for record in records:
        cells, line = record.cells, record.line
        try:
            row = DomainRow(
                name=normalize_domain_name(cells.get("name", "")),
                tier=parse_tier(cells.get("tier", "")),
                weight_override=parse_weight(cells.get("weight_override")),
                denied=_parse_bool(cells.get("denied", "")),
                note=parse_note(csv_cell_read(cells.get("note", ""))),
                line=line,
            )
        except DomainError as exc:
            problems.append(CsvProblem(line, str(exc)))
            continue
        if row.name in seen:
            problems.append(
                CsvProblem(line, f"{row.name} already appears on line {seen[row.name]}")
            )
            continue
        seen[row.name] = line
        rows.append(row)
    if problems:
        raise DomainCsvError(sorted(problems, key=lambda problem: problem.line))
    return rows


def default_domain_rows() -> list[DomainRow]:
    """The shipped list (registry/default_domains.csv)."""
    return parse_domains_csv(DEFAULT_DOMAINS_CSV.read_text(encoding="utf-8"))


def domains_to_csv(domains: Iterable[Domain]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for domain in domains:
        weight = "" if domain.weight_override is None else repr(float(domain.weight_override))
        writer.writerow(
            [
                csv_cell_safe(domain.name),
                domain.tier,
                weight,
                "true" if domain.denied else "false",
                csv_cell_safe(domain.note),
            ]
        )
    return out.getvalue()
