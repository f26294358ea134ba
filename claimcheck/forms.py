"""What the site's forms share."""

from __future__ import annotations

from typing import Any

from django import forms


class DeskForm(forms.Form):
    """The review desk's forms, and the admin pages': labels without a trailing colon."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
