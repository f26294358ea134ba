"""Template filters that turn stored domain values into words an admin reads."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def change_value(value: object, field: str) -> str:
    """One value from a domain change record: `denied` as allowed / denied, other yes / no
    fields in words, a missing value as a dash."""
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        if field == "denied":
            return "denied" if value else "allowed"
        return "yes" if value else "no"
    if field == "weight_override" and isinstance(value, int | float):
        return f"{value:.2f}"
    return str(value)
