"""The domain registry: which tier a source belongs to, how much it counts, whether it is denied.

A `Domain` row names either a registrable domain (`reuters.com`, which also covers every
subdomain) or a suffix rule starting with a dot (`.gov`, which covers every host ending in
`.gov`). Lookup takes the longest matching name. The table is small and read on every fetch and
every piece of evidence, so it is held in memory, dropped when a row changes in this process,
and re-checked against the database every few seconds for changes made by other processes.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import io
import ipaddress
import logging
import re
import socket
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import tldextract
from django.db import connection, transaction
from django.db.models import Count, Max
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from claimcheck.config import get_config
from claimcheck.errors import ApplicationError
from evidence.models import Domain, Tier

logger = logging.getLogger(__name__)

DEFAULT_DOMAINS_CSV = Path(__file__).with_name("default_domains.csv")
CSV_HEADER = ("name", "tier", "weight_override", "denied", "note")

# How long another process's change may go unseen by this one.
_RECHECK_SECONDS = 5.0
_clock = time.monotonic
_NAME_MAX = 253
_LABEL = re.compile(r"^(?!-)[a-z0-9_-]{1,63}(?<!-)$")
_TRUE = frozenset({"1", "true", "yes", "y", "denied"})
_FALSE = frozenset({"", "0", "false", "no", "n", "allowed"})


class DomainError(ApplicationError):
    """A domain name or row that cannot be stored; the message says what is wrong and `field`
    which input. The API answers the message alone, as it always has."""

    error = "invalid domain"

    def __init__(self, message: str, *, field: str = "name") -> None:
        super().__init__(message, field=field)

    def payload(self) -> dict[str, Any]:
        return {"error": self.error, "details": self.message}


class DomainExists(DomainError):
    """A domain with that name is already in the registry."""

    status = 409
    error = "domain exists"


# --- host names ---------------------------------------------------------------------------------


@functools.cache
def _extractor() -> tldextract.TLDExtract:
    # No suffix-list URLs and no disk cache: the snapshot bundled with the package is used, so
    # a lookup never reaches the network (and never blocks on it).
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, fallback_to_snapshot=True)


def host_of(url_or_host: str) -> str:
    """The lower-case host of a URL or bare host name, without port, brackets or trailing dot.
    International names come back in their ASCII (punycode) form."""
    text = url_or_host.strip()
    bare = text.strip("[]").lower()
    if _is_ip(bare):
        return bare
    if "://" not in text:
        text = "//" + text
    try:
        host = urlsplit(text).hostname or ""
    except ValueError:
        return ""
    host = host.rstrip(".").lower()
    if not host.isascii():
        # A name the idna codec refuses keeps its Unicode form: it still equals itself.
        with contextlib.suppress(UnicodeError):
            host = host.encode("idna").decode("ascii")
    return host


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def registrable_domain(url_or_host: str) -> str:
    """`https://www.bbc.co.uk/news` → `bbc.co.uk`. IP addresses and names that are themselves a
    public suffix (or have none, like `localhost`) come back as the host, and so does such a
    suffix behind `www.` (`www.gov.uk` → `gov.uk`)."""
    host = host_of(url_or_host)
    if not host or _is_ip(host):
        return host
    parts = _extractor()(host)
    if parts.domain == "www" and parts.suffix:
        # `www.gov.uk` is the web name of the site `gov.uk`, a public suffix that is also one
        # publisher's site: one publisher, not two.
        return parts.suffix
    if parts.top_domain_under_public_suffix:
        return parts.top_domain_under_public_suffix
    if parts.suffix or "." not in host:
        return host  # the host is itself a public suffix, or a bare name like `localhost`
    # An ending the suffix list does not know (`.example`, `.internal`): treat the last label as
    # the suffix, so that `www.agency.example` and `agency.example` are one source, not two.
    return ".".join(host.split(".")[-2:])


# Endings that name no public publisher: loopback, mDNS, intranets and the special-use names.
# (`.example` and `.test` stay: documentation and test corpora use them as stand-in publishers.)
_INTERNAL_ENDINGS = (
    "localhost",
    "local",
    "internal",
    "intranet",
    "lan",
    "home",
    "corp",
    "private",
    "home.arpa",
    "invalid",
    "onion",
    "arpa",
)
_NUMERIC_HOST = re.compile(r"^[0-9a-fx.]+$")


def is_address_literal(host: str) -> bool:
    """Whether `host` spells an IP address in any form a resolver accepts: dotted, decimal
    (`2130706433`), hex or octal (`0x7f.1`, `0177.0.0.1`), short (`127.1`) or IPv6
    (`[::ffff:127.0.0.1]`)."""
    bare = host.strip().strip("[]").rstrip(".").lower()
    if not bare:
        return False
    if _is_ip(bare.split("%")[0]):
        return True
    if _NUMERIC_HOST.match(bare) and any(ch.isdigit() for ch in bare):
        try:
            socket.inet_aton(bare)
        except OSError:
            return False
        return True
    return False


def publisher_of(url_or_host: str) -> str | None:
    """The publisher a source counts as: its registrable domain. None for a host that names
    no publisher: an address literal in any spelling, a bare name (`localhost`, `intranet`)
    or an internal or special-use ending (`.local`, `.internal`, `.home.arpa`, ...). Such a
    source is never evidence, and two spellings of one address are never two publishers."""
    host = host_of(url_or_host)
    if not host or "." not in host or is_address_literal(host):
        return None
    if any(host == end or host.endswith("." + end) for end in _INTERNAL_ENDINGS):
        return None
    registrable = registrable_domain(host)
    return registrable or None


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
    if not _is_ip(bare) and not all(_LABEL.match(label) for label in bare.split(".")):
        raise DomainError(
            f"{raw!r} is not a domain name (letters, digits and hyphens between dots)"
        )
    if suffix_rule and _is_ip(bare):
        raise DomainError(f"{raw!r}: a suffix rule cannot be an IP address")
    return ("." if suffix_rule else "") + bare


# --- weighing a source ----------------------------------------------------------------------------


@dataclass(frozen=True)
class DomainRule:
    """What the registry says about one host."""

    registrable: str
    matched: str | None
    tier: str
    weight: float
    denied: bool


@dataclass(frozen=True)
class _Row:
    tier: str
    weight_override: float | None
    denied: bool


_Stamp = tuple[int, datetime | None]


class _Table:
    """The Domain table in memory, reloaded when it may have changed.

    Changes saved in this process drop it at once (signals). Changes from other processes are
    noticed by comparing (row count, newest updated_at) every few seconds. While this process
    holds uncommitted changes inside a transaction, reads go to the database: those changes may
    still roll back, and a table cached from them would outlive the rollback.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rows: dict[str, _Row] | None = None
        self._stamp: _Stamp | None = None
        self._checked_at = 0.0
        self._uncommitted = False

    def invalidate(self) -> None:
        with self._lock:
            self._rows = None
            self._stamp = None

    def note_change(self) -> None:
        with self._lock:
            self._rows = None
            self._stamp = None
            if connection.in_atomic_block:
                self._uncommitted = True
        transaction.on_commit(self._committed)

    def _committed(self) -> None:
        with self._lock:
            self._uncommitted = False
            self._rows = None
            self._stamp = None

    def rows(self) -> dict[str, _Row]:
        with self._lock:
            if self._uncommitted:
                if connection.in_atomic_block:
                    return _load_rows()
                # The transaction that changed rows has ended without commit: forget it.
                self._uncommitted = False
                self._rows = None
            now = _clock()
            if self._rows is not None and now - self._checked_at < _RECHECK_SECONDS:
                return self._rows
            stamp = _current_stamp()
            if self._rows is None or stamp != self._stamp:
                self._rows = _load_rows()
                self._stamp = stamp
            self._checked_at = now
            return self._rows


def _current_stamp() -> _Stamp:
    found = Domain.objects.aggregate(count=Count("id"), newest=Max("updated_at"))
    return int(found["count"]), found["newest"]


def _load_rows() -> dict[str, _Row]:
    return {
        name: _Row(tier=tier, weight_override=weight, denied=denied)
        for name, tier, weight, denied in Domain.objects.values_list(
            "name", "tier", "weight_override", "denied"
        )
    }


_table = _Table()


def invalidate_cache() -> None:
    """Forget the in-memory table (after bulk writes that send no signals)."""
    _table.invalidate()


@receiver(post_save, sender=Domain, dispatch_uid="evidence.domains.saved")
@receiver(post_delete, sender=Domain, dispatch_uid="evidence.domains.deleted")
def _domain_changed(**kwargs: Any) -> None:
    _table.note_change()


def _candidates(host: str) -> list[str]:
    """Registry names that could cover `host`: itself and every parent, each both as a plain
    name and as a suffix rule."""
    if _is_ip(host):
        return [host]
    labels = host.split(".")
    names: list[str] = []
    for start in range(len(labels)):
        parent = ".".join(labels[start:])
        # A suffix rule also covers the bare suffix as a host: `.gov.uk` covers `gov.uk`.
        names.extend((parent, "." + parent))
    return names


def weigh_source(url_or_host: str) -> DomainRule:
    """How much a source counts: the registry's rule for a URL or host (its tier, weight and
    whether it is denied), from the longest matching row, or tier `other`."""
    host = host_of(url_or_host)
    registrable = registrable_domain(host) if host else ""
    rows = _table.rows()
    matched = (
        max((name for name in _candidates(host) if name in rows), key=len, default=None)
        if host
        else None
    )
    weights = get_config().weights
    if matched is None:
        return DomainRule(
            registrable=registrable,
            matched=None,
            tier=Tier.OTHER.value,
            weight=weights.for_tier(Tier.OTHER.value),
            denied=False,
        )
    row = rows[matched]
    weight = row.weight_override if row.weight_override is not None else weights.for_tier(row.tier)
    return DomainRule(
        registrable=registrable,
        matched=matched,
        tier=row.tier,
        weight=float(weight),
        denied=row.denied,
    )


def is_denied(url_or_host: str) -> bool:
    return weigh_source(url_or_host).denied


# --- CSV ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DomainRow:
    """One validated line of a domains CSV file."""

    name: str
    tier: str
    weight_override: float | None
    denied: bool
    note: str
    line: int = 0


@dataclass(frozen=True)
class CsvProblem:
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


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
    """The shipped list (evidence/default_domains.csv)."""
    return parse_domains_csv(DEFAULT_DOMAINS_CSV.read_text(encoding="utf-8"))


# A spreadsheet runs a cell that starts with one of these as a formula. On export such a cell is
# written with a leading apostrophe (shown as text, OWASP's advice); import takes it off again,
# so that export -> import -> export is stable.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell_safe(value: str) -> str:
    return "'" + value if value.startswith(_FORMULA_STARTS) else value


def csv_cell_read(value: str) -> str:
    return value[1:] if value.startswith("'") and value[1:].startswith(_FORMULA_STARTS) else value


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
