"""Forms of the registry's admin pages: for each table (domains, entity aliases) its filters, a
row's fields, and a CSV file to import. They check the shape of the input; the rules (name
normalisation, tiers, weight range, alias spellings, CSV formats) live in registry.domain_rows and
registry.services, whose errors the views put back on these forms."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from django import forms
from django.db import models

from claimcheck.forms import DeskForm
from registry import domain_rows
from registry.csvformat import CsvProblem, ImportPlan
from registry.domain_rows import DomainCsvError
from registry.models import Domain, EntityAlias, EntityKind, Tier
from registry.services import aliases
from registry.services.aliases import AliasCsvError
from registry.services.domains import domains_import_plan

IMPORT_MAX_BYTES = 1_000_000


class FilterForm(DeskForm):
    """The search and filters above a list."""

    def values(self) -> dict[str, str]:
        """What the list is filtered by, one entry a field: empty when not given, or when the
        filters are not valid."""
        data = self.cleaned_data if self.is_bound and self.is_valid() else {}
        return {name: str(data.get(name) or "").strip() for name in self.fields}


class RowForm(DeskForm):
    """The fields of one row, edited in its place in the list or on a page of its own. Each
    row's fields are named apart (`row_prefix` and the row's id), so that several can be open
    on one page. The fields are the service's arguments of the same names."""

    row_prefix: ClassVar[str] = ""

    @classmethod
    def for_row(cls, row: models.Model, data: Any = None) -> Self:
        """The form bound to `data`, or, without data, showing what the row holds."""
        prefix = f"{cls.row_prefix}{row.pk}"
        if data is not None:
            return cls(data, prefix=prefix)
        return cls(initial={name: getattr(row, name) for name in cls.base_fields}, prefix=prefix)


# --- domains -------------------------------------------------------------------------------------


class DomainFilterForm(FilterForm):
    q = forms.CharField(required=False, max_length=253, label="Search")
    tier = forms.ChoiceField(required=False, choices=[("", "Any"), *Tier.choices], label="Tier")
    access = forms.ChoiceField(
        required=False,
        choices=[("", "Any"), ("allowed", "Allowed"), ("denied", "Denied")],
        label="Access",
    )


class DomainEditForm(RowForm):
    """The inline edit of a row: tier, weight, note and whether it is denied."""

    row_prefix = "d"

    tier = forms.ChoiceField(choices=Tier.choices)
    weight_override = forms.FloatField(
        required=False,
        min_value=0,
        max_value=1,
        label="Weight override",
        help_text="0 to 1; empty uses the tier's weight.",
        widget=forms.NumberInput(attrs={"step": "0.05", "min": "0", "max": "1"}),
    )
    note = forms.CharField(
        required=False, max_length=Domain._meta.get_field("note").max_length or 300
    )
    denied = forms.BooleanField(required=False, label="Denied (never read or counted)")


class DomainAddForm(DomainEditForm):
    name = forms.CharField(
        max_length=253,
        label="Domain",
        help_text="A registrable domain (reuters.com covers its subdomains) or a suffix like .gov.",
    )
    # A new domain counts as little as any unlisted source until an admin chooses otherwise:
    # the lowest tier that still counts (social media never does), as the API defaults to.
    tier = forms.ChoiceField(choices=Tier.choices, initial=Tier.OTHER)
    field_order = ["name", "tier", "weight_override", "note", "denied"]


# --- entity aliases ------------------------------------------------------------------------------

_ALIAS_NAME_MAX = EntityAlias._meta.get_field("name").max_length or 200
_ALIAS_NOTE_MAX = EntityAlias._meta.get_field("note").max_length or 300


class AliasFilterForm(FilterForm):
    q = forms.CharField(required=False, max_length=_ALIAS_NAME_MAX, label="Search")
    kind = forms.ChoiceField(
        required=False, choices=[("", "Any"), *EntityKind.choices], label="Kind"
    )


class AliasForm(RowForm):
    """An alias to add, or one row's inline edit: every field of it."""

    row_prefix = "a"

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


# --- CSV import ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ImportPreview(ImportPlan[Any, Any]):
    """What applying a file would do, line by line, or, when it has bad lines, each of them."""

    problems: list[CsvProblem] = field(default_factory=list)

    @property
    def applicable(self) -> bool:
        return not self.problems and self.changes > 0


class CsvImportForm(DeskForm):
    """A CSV file, uploaded or pasted; `cleaned_data["text"]` is its text either way. Each
    table's form says which header its files have, how it plans an import and which error
    refuses a file."""

    header: ClassVar[tuple[str, ...]] = ()
    refused: ClassVar[type[DomainCsvError] | type[AliasCsvError]]

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

    def plan(self, text: str) -> ImportPlan[Any, Any]:
        raise NotImplementedError  # each table's form reads its own lines

    def preview(self) -> ImportPreview:
        """What applying the file would do, line by line, without changing anything."""
        try:
            plan = self.plan(str(self.cleaned_data["text"]))
        except self.refused as exc:
            return ImportPreview(lines=[], problems=exc.problems)
        return ImportPreview(lines=plan.lines)


class DomainImportForm(CsvImportForm):
    header = domain_rows.CSV_HEADER
    refused = DomainCsvError

    def plan(self, text: str) -> ImportPlan[Any, Any]:
        return domains_import_plan(text=text)


class AliasImportForm(CsvImportForm):
    header = aliases.CSV_HEADER
    refused = AliasCsvError

    def plan(self, text: str) -> ImportPlan[Any, Any]:
        return aliases.aliases_import_plan(text=text)
