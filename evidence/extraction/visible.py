"""Whether a date is printed on the page a reader sees (not only in its markup).

Used to settle a disagreement between a page's declared publication and modification dates:
a page that shows readers only its modification date presents that date as its own.
"""

from __future__ import annotations

from datetime import date

from lxml.html import HtmlElement

# Month names of the languages most often met; a miss here only means "not shown".
_MONTH_NAMES = (
    ("January", "February", "March", "April", "May", "June", "July", "August", "September",
     "October", "November", "December"),
    ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September",
     "Oktober", "November", "Dezember"),
    ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
     "octobre", "novembre", "décembre"),
    ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
     "octubre", "noviembre", "diciembre"),
    ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto",
     "settembre", "ottobre", "novembre", "dicembre"),
)  # fmt: skip


def visible_text(tree: HtmlElement) -> str:
    parts = tree.xpath("//body//text()[not(ancestor::script) and not(ancestor::style)]")
    return " ".join(" ".join(str(part) for part in parts).split()).lower()


def renderings(day: date) -> set[str]:
    y, m, d = day.year, day.month, day.day
    forms = [
        day.isoformat(),
        f"{d:02d}.{m:02d}.{y}",
        f"{d}.{m}.{y}",
        f"{d:02d}.{m:02d}.{y % 100:02d}",
        f"{y}/{m:02d}/{d:02d}",
        f"{m:02d}/{d:02d}/{y}",
        f"{m}/{d}/{y}",
        f"{d:02d}/{m:02d}/{y}",
        f"{d}/{m}/{y}",
        f"{d:02d}-{m:02d}-{y}",
    ]
    for names in _MONTH_NAMES:
        name = names[m - 1]
        short = name[:3]
        forms += [
            f"{name} {d}, {y}",
            f"{name} {d} {y}",
            f"{d} {name} {y}",
            f"{d}. {name} {y}",
            f"{d} de {name} de {y}",
            f"{short} {d}, {y}",
            f"{short}. {d}, {y}",
            f"{d} {short} {y}",
        ]
    return {form.lower() for form in forms}


def is_shown(text: str, day: date) -> bool:
    """True when `text` (lower-cased visible text) prints `day` in a common format, not as
    part of a longer number."""
    for form in renderings(day):
        at = text.find(form)
        while at != -1:
            before = text[at - 1 : at] if at else ""
            after = text[at + len(form) : at + len(form) + 1]
            if not (before.isdigit() or after.isdigit()):
                return True
            at = text.find(form, at + 1)
    return False
