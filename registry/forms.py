"""Forms of the domain and alias admin pages. They check the shape of the input; the rules
(name normalisation, tiers, weight range, alias spellings, CSV formats) live in
registry.domains and registry.services, whose errors the views put back on these forms."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms

from claimcheck.forms import DeskForm
from registry import domains
from registry.csvformat import CsvProblem, ImportChange
from registry.domains import DomainCsvError, DomainRow, parse_domains_csv
from registry.models import Domain, EntityAlias, EntityKind, Tier
from registry.services import aliases
from registry.services.aliases import AliasCsvError, AliasPlanLine

IMPORT_MAX_BYTES = 1_000_000


class DomainFilterForm(DeskForm):
    q = forms.CharField(required=False, max_length=253, label="Search")
    tier = forms.ChoiceField(required=False, choices=[("", "Any"), *Tier.choices], label="Tier")
    access = forms.ChoiceField(
        required=False,
        choices=[("", "Any"), ("allowed", "Allowed"), ("denied", "Denied")],
        label="Access",
    )

    def values(self) -> dict[str, str]:
        data = self.cleaned_data if self.is_bound and self.is_valid() else {}
        return {
            "q": (data.get("q") or "").strip(),
            "tier": data.get("tier") or "",
            "access": data.get("access") or "",
        }


class DomainEditForm(DeskForm):
    """The inline edit of a row: tier, weight and flags."""

    tier = forms.ChoiceField(choices=Tier.choices)
    weight_override = forms.FloatField(
        required=False,
        min_value=0,
        max_value=1,
        label="Weight override",
        help_text="0 to 1; empty uses the tier's weight.",
        widget=forms.NumberInput(attrs={"step": "0.05", "min": "0", "max": "1"}),
    )
    denied = forms.BooleanField(required=False, label="Denied (never read or counted)")
    note = forms.CharField(
        required=False, max_length=Domain._meta.get_field("note").max_length or 300
    )

    @classmethod
    def for_domain(cls, domain: Domain) -> DomainEditForm:
        return cls(
            initial={
                "tier": domain.tier,
                "weight_override": domain.weight_override,
                "denied": domain.denied,
                "note": domain.note,
            },
            prefix=f"d{domain.pk}",
        )


class DomainAddForm(DomainEditForm):
    name = forms.CharField(
        max_length=253,
        label="Domain",
        help_text="A registrable domain (reuters.com covers its subdomains) or a suffix like .gov.",
    )
    # A new domain counts as little as any unlisted source until an admin chooses otherwise:
    # the lowest tier that still counts (social media never does), as the API defaults to.
    tier = forms.ChoiceField(choices=Tier.choices, initial=Tier.OTHER)
    field_order = ["name", "tier", "weight_override", "denied", "note"]


@dataclass(frozen=True)
class PreviewLine:
    line: int
    name: str
    change: str  # added | changed | unchanged
    row: DomainRow
    before: Domain | None
    fields: list[str]


@dataclass(frozen=True)
class ImportPreview:
    lines: list[PreviewLine]
    problems: list[CsvProblem]

    def count(self, change: str) -> int:
        return sum(1 for line in self.lines if line.change == change)

    @property
    def added(self) -> int:
        return self.count("added")

    @property
    def changed(self) -> int:
        return self.count("changed")

    @property
    def unchanged(self) -> int:
        return self.count("unchanged")

    @property
    def applicable(self) -> bool:
        return not self.problems and (self.added + self.changed) > 0


class CsvImportForm(DeskForm):
    """A CSV file, uploaded or pasted; `cleaned_data["text"]` is its text either way."""

    header: tuple[str, ...] = ()

    file = forms.FileField(required=False, label="CSV file")
    text = forms.CharField(
        required=False,
        label="Or paste the CSV",
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "class": "mono"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["text"].help_text = f"Header: {','.join(self.header)}"

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        upload = data.get("file")
        if upload is not None:
            if upload.size > IMPORT_MAX_BYTES:
                raise forms.ValidationError("The file is over 1 MB; split it into parts.")
            raw = upload.read()
            try:
                data["text"] = raw.decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                raise forms.ValidationError("The file is not UTF-8 text.") from exc
        if not str(data.get("text") or "").strip():
            raise forms.ValidationError("Choose a CSV file or paste its lines.")
        return data

    def preview(self) -> ImportPreview | AliasImportPreview:
        """What applying the file would do, line by line, without changing anything."""
        raise NotImplementedError  # each table's form reads its own lines


class DomainImportForm(CsvImportForm):
    header = domains.CSV_HEADER

    def preview(self) -> ImportPreview:
        """What applying the file would do, line by line, without changing anything."""
        text = str(self.cleaned_data["text"])
        try:
            rows = parse_domains_csv(text)
        except DomainCsvError as exc:
            return ImportPreview(lines=[], problems=exc.problems)
        existing = {d.name: d for d in Domain.objects.filter(name__in=[r.name for r in rows])}
        lines = []
        for row in rows:
            before = existing.get(row.name)
            fields = (
                []
                if before is None
                else [
                    f
                    for f in ("tier", "weight_override", "denied", "note")
                    if getattr(before, f) != getattr(row, f)
                ]
            )
            change = "added" if before is None else ("changed" if fields else "unchanged")
            lines.append(PreviewLine(row.line, row.name, change, row, before, fields))
        return ImportPreview(lines=lines, problems=[])


# --- entity aliases ------------------------------------------------------------------------------

_ALIAS_NAME_MAX = EntityAlias._meta.get_field("name").max_length or 200
_ALIAS_NOTE_MAX = EntityAlias._meta.get_field("note").max_length or 300


class AliasFilterForm(DeskForm):
    q = forms.CharField(required=False, max_length=_ALIAS_NAME_MAX, label="Search")
    kind = forms.ChoiceField(
        required=False, choices=[("", "Any"), *EntityKind.choices], label="Kind"
    )

    def values(self) -> dict[str, str]:
        data = self.cleaned_data if self.is_bound and self.is_valid() else {}
        return {"q": (data.get("q") or "").strip(), "kind": data.get("kind") or ""}


class AliasForm(DeskForm):
    """An alias to add, or one row's inline edit: every field of it."""

    name = forms.CharField(
        max_length=_ALIAS_NAME_MAX,
        label="Name",
        help_text="The name in English, as searched: Kyiv.",
    )
    alias = forms.CharField(
        max_length=_ALIAS_NAME_MAX,
        label="Alias",
        help_text="Another name or spelling of it: Kiev, Київ.",
    )
    # Not required: left out (as by a script posting the form), it is "other", as in a CSV file.
    kind = forms.ChoiceField(
        required=False, choices=EntityKind.choices, initial=EntityKind.OTHER, label="Kind"
    )
    note = forms.CharField(required=False, max_length=_ALIAS_NOTE_MAX, label="Note")

    @classmethod
    def for_alias(cls, item: EntityAlias) -> AliasForm:
        return cls(
            initial={"name": item.name, "alias": item.alias, "kind": item.kind, "note": item.note},
            prefix=f"a{item.pk}",
        )


@dataclass(frozen=True)
class AliasImportPreview:
    lines: list[AliasPlanLine]
    problems: list[CsvProblem]

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
    def applicable(self) -> bool:
        return not self.problems and self.changes > 0


class AliasImportForm(CsvImportForm):
    header = aliases.CSV_HEADER

    def preview(self) -> AliasImportPreview:
        """What applying the file would do, line by line, without changing anything."""
        try:
            plan = aliases.aliases_import_plan(text=str(self.cleaned_data["text"]))
        except AliasCsvError as exc:
            return AliasImportPreview(lines=[], problems=exc.problems)
        return AliasImportPreview(lines=plan.lines, problems=[])
