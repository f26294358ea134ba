"""Forms of the domain admin pages. They check the shape of the input; the registry's rules
(name normalisation, tiers, weight range, CSV format) live in evidence.domains and
evidence.services, whose errors the views put back on these forms."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms

from evidence.domains import CsvProblem, DomainCsvError, DomainRow, parse_domains_csv
from evidence.models import Domain, Tier

IMPORT_MAX_BYTES = 1_000_000


class DeskForm(forms.Form):
    """The review desk's forms: labels without a trailing colon."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


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


class DomainImportForm(DeskForm):
    file = forms.FileField(required=False, label="CSV file")
    text = forms.CharField(
        required=False,
        label="Or paste the CSV",
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "class": "mono"}),
        help_text="Header: name,tier,weight_override,denied,note",
    )

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
