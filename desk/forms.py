"""Forms of the review desk. They only check the shape of the input; the rules live in
decisions.services, whose errors the views put back on these forms."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from typing import Any

from django import forms

from claimcheck.daterange import validate_date_range
from claimcheck.forms import DeskForm
from claims.models import CLAIM_MAX_CHARS, ClaimStatus, Outcome
from decisions.models import COMMENT_MAX_CHARS
from decisions.services import BATCH_MAX_CLAIMS, CHANNEL_MAX_CHARS, REASON_MAX_CHARS
from desk.selectors import QUEUE_SORT_DEFAULT, QUEUE_SORTS

BATCH_MAX_LINES = BATCH_MAX_CLAIMS


def day_start(value: date | None) -> datetime | None:
    return datetime.combine(value, time.min, tzinfo=UTC) if value else None


def day_end(value: date | None) -> datetime | None:
    return datetime.combine(value, time.max, tzinfo=UTC) if value else None


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self) -> None:
        super().__init__(format="%Y-%m-%d")


class QueueFilterForm(DeskForm):
    q = forms.CharField(required=False, max_length=200, label="Search")
    status = forms.ChoiceField(
        required=False, choices=[("", "Any"), *ClaimStatus.choices], label="Status"
    )
    outcome = forms.ChoiceField(
        required=False, choices=[("", "Any"), *Outcome.choices], label="Outcome"
    )
    overridden = forms.ChoiceField(
        required=False,
        choices=[("", "Either"), ("yes", "Overridden"), ("no", "Not overridden")],
        label="Overrides",
    )
    needs_review = forms.BooleanField(required=False, label="Needs review")
    mine = forms.BooleanField(required=False, label="Taken by me")
    cli = forms.BooleanField(required=False, label="Command-line claims")
    group = forms.BooleanField(required=False, label="Group restatements")
    channel = forms.CharField(required=False, max_length=CHANNEL_MAX_CHARS, label="Channel")
    created_from = forms.DateField(
        validators=[validate_date_range], required=False, label="From", widget=DateInput()
    )
    created_to = forms.DateField(
        validators=[validate_date_range], required=False, label="To", widget=DateInput()
    )
    sort = forms.ChoiceField(
        required=False, choices=[(key, key) for key in QUEUE_SORTS], label="Order"
    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        start, end = data.get("created_from"), data.get("created_to")
        if isinstance(start, date) and isinstance(end, date) and start > end:
            self.add_error("created_to", "The end date is before the start date.")
        return data

    def filters(self) -> dict[str, Any]:
        """The queue's filters from what validated; a bad field is left out, not an error page."""
        data = self.cleaned_data if self.is_bound else {}
        return {
            "q": (data.get("q") or "").strip(),
            "status": data.get("status") or "",
            "outcome": data.get("outcome") or "",
            "overridden": data.get("overridden") or "",
            "needs_review": bool(data.get("needs_review")),
            "mine": bool(data.get("mine")),
            "cli": bool(data.get("cli")),
            "group": bool(data.get("group")),
            "channel": (data.get("channel") or "").strip(),
            "created_from": data.get("created_from"),
            "created_to": data.get("created_to"),
        }

    def order(self) -> str:
        """The queue's order: a column's key from `QUEUE_SORTS`, newest first by default."""
        data = self.cleaned_data if self.is_bound else {}
        return str(data.get("sort") or QUEUE_SORT_DEFAULT)


class ClaimSubmitForm(DeskForm):
    text = forms.CharField(
        label="Claim",
        max_length=CLAIM_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="One factual statement, e.g. “The EU AI Act entered into force in August 2024”.",
    )
    timeframe_start = forms.DateField(
        validators=[validate_date_range], required=False, label="Happened from", widget=DateInput()
    )
    timeframe_end = forms.DateField(
        validators=[validate_date_range], required=False, label="Happened until", widget=DateInput()
    )
    source_channel = forms.CharField(
        required=False,
        max_length=CHANNEL_MAX_CHARS,
        label="Channel",
        help_text="Where the claim was seen, e.g. @newsdesk or a feed name.",
    )


class BatchSubmitForm(DeskForm):
    lines = forms.CharField(
        label="Claims, one per line",
        widget=forms.Textarea(attrs={"rows": 8}),
        help_text=f"Blank lines are skipped. Up to {BATCH_MAX_LINES} claims at once.",
    )
    source_channel = forms.CharField(
        required=False, max_length=CHANNEL_MAX_CHARS, label="Channel for all of them"
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # It shares its page with the one-claim form: its own ids, so that each label names
        # its own field ("id_batch_source_channel" beside "id_source_channel").
        kwargs.setdefault("auto_id", "id_batch_%s")
        super().__init__(*args, **kwargs)

    def clean_lines(self) -> list[str]:
        lines = self.cleaned_data["lines"].splitlines()
        if sum(1 for line in lines if line.strip()) > BATCH_MAX_LINES:
            raise forms.ValidationError(f"At most {BATCH_MAX_LINES} claims at once.")
        return lines


class OverrideForm(DeskForm):
    outcome = forms.ChoiceField(
        choices=Outcome.choices,
        label="New outcome",
        widget=forms.Select(attrs={"data-key": "o"}),
    )
    reason = forms.CharField(
        label="Reason",
        max_length=REASON_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Say what the sources missed; it is kept in the history.",
    )


class CommentForm(DeskForm):
    text = forms.CharField(
        label="Comment",
        max_length=COMMENT_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 3, "data-key": "c"}),
        help_text="Seen by every editor; kept in the claim's history.",
    )
