"""Charts drawn on the server as SVG: a chart is a few rectangles and labels, each with the
numbers behind it as a table. Every label is escaped here, so the SVG string is safe to mark as
such."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

from django.utils.safestring import SafeString, mark_safe

WIDTH = 640
HEIGHT = 220
PAD_LEFT = 44
PAD_RIGHT = 12
PAD_TOP = 14
PAD_BOTTOM = 34


@dataclass(frozen=True)
class Series:
    name: str
    values: Sequence[float]
    css: str  # the class that colours it (see app.css, .chart .s-*)


@dataclass(frozen=True)
class Chart:
    slug: str
    title: str
    summary: str
    svg: SafeString
    headers: list[str]
    rows: list[list[str]]
    empty: bool = False
    legend: list[Series] = field(default_factory=list)  # keys under the chart, when it has several


def _ticks(value: float) -> list[float]:
    """Round axis ticks from 0 to at or above `value`: steps of 1, 2 or 5 times a power of ten."""
    raw = max(value, 1e-9) / 4
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if raw <= m * power)
    count = max(1, math.ceil(value / step - 1e-9))
    return [step * n for n in range(count + 1)]


def number_text(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


def _svg(title: str, desc: str, body: list[str], height: int = HEIGHT) -> SafeString:
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'preserveAspectRatio="xMidYMid meet" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title><desc>{escape(desc)}</desc>",
        *body,
        "</svg>",
    ]
    # Every piece of text above went through html.escape; numbers are formatted here.
    return mark_safe("".join(parts))  # noqa: S308


def bar_chart(
    *,
    title: str,
    desc: str,
    categories: Sequence[str],
    series: Sequence[Series],
    stacked: bool = False,
    unit: str = "",
    label_every: int = 1,
    min_top: float = 4,
    x_label: str = "",
    y_label: str = "",
) -> SafeString:
    """Vertical bars per category: side by side, or stacked. The axis reaches at least
    `min_top`, so a handful of counts gets whole-number ticks. `x_label` and `y_label` name
    the axes when the categories or counts do not say what they are."""
    count = max(1, len(categories))
    totals = [
        sum(s.values[i] for s in series)
        if stacked
        else max((s.values[i] for s in series), default=0)
        for i in range(len(categories))
    ]
    ticks = _ticks(max(max(totals, default=0), min_top))
    top = ticks[-1]
    plot_w = WIDTH - PAD_LEFT - PAD_RIGHT
    plot_h = HEIGHT - PAD_TOP - PAD_BOTTOM
    slot = plot_w / count
    gap = min(6.0, slot * 0.2)
    body: list[str] = []
    for value in ticks:
        y = PAD_TOP + plot_h - plot_h * value / top
        body.append(
            f'<line class="grid" x1="{PAD_LEFT}" x2="{WIDTH - PAD_RIGHT}" '
            f'y1="{y:.1f}" y2="{y:.1f}"/>'
            f'<text class="axis" x="{PAD_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">'
            f"{escape(number_text(value))}{escape(unit)}</text>"
        )
    bar_w = min(56.0, (slot - gap) / (1 if stacked else max(1, len(series))))
    inset = (slot - gap - bar_w * (1 if stacked else len(series))) / 2
    for i, category in enumerate(categories):
        x0 = PAD_LEFT + i * slot + gap / 2 + inset
        base = 0.0
        for n, s in enumerate(series):
            value = float(s.values[i])
            h = plot_h * value / top
            x = x0 if stacked else x0 + n * bar_w
            y = PAD_TOP + plot_h - h - (plot_h * base / top if stacked else 0)
            if value > 0:
                body.append(
                    f'<rect class="{escape(s.css)}" x="{x:.1f}" y="{y:.1f}" '
                    f'width="{max(bar_w - 1, 1):.1f}" height="{h:.1f}">'
                    f"<title>{escape(category)}: {escape(s.name)} {escape(number_text(value))}"
                    f"{escape(unit)}</title></rect>"
                )
            if stacked:
                base += value
        if i % label_every == 0 or i == len(categories) - 1:
            body.append(
                f'<text class="axis" x="{x0 - inset + (slot - gap) / 2:.1f}" '
                f'y="{HEIGHT - PAD_BOTTOM + 16}" '
                f'text-anchor="middle">{escape(category)}</text>'
            )
    body.append(
        f'<line class="baseline" x1="{PAD_LEFT}" x2="{WIDTH - PAD_RIGHT}" '
        f'y1="{PAD_TOP + plot_h}" y2="{PAD_TOP + plot_h}"/>'
    )
    if x_label:
        body.append(
            f'<text class="axis-label" x="{PAD_LEFT + plot_w / 2:.1f}" y="{HEIGHT - 2}" '
            f'text-anchor="middle">{escape(x_label)}</text>'
        )
    if y_label:
        middle = PAD_TOP + plot_h / 2
        body.append(
            f'<text class="axis-label" x="10" y="{middle:.1f}" text-anchor="middle" '
            f'transform="rotate(-90 10 {middle:.1f})">{escape(y_label)}</text>'
        )
    return _svg(title, desc, body)


def meter_chart(
    *, title: str, desc: str, rows: Sequence[tuple[str, float, float, str]]
) -> SafeString:
    """Horizontal bars, one per row: (label, value, limit, text). A bar past its limit is drawn
    in the warning colour; the limit is a tick."""
    row_h = 44
    height = PAD_TOP + row_h * max(1, len(rows)) + 6
    label_w = 150
    plot_w = WIDTH - label_w - PAD_RIGHT - 170
    body: list[str] = []
    for n, (label, value, limit, text) in enumerate(rows):
        y = PAD_TOP + n * row_h
        scale = max(limit, value, 1e-9)
        w = plot_w * value / scale
        css = "s-over" if limit and value > limit else "s-main"
        body.append(
            f'<text class="label" x="0" y="{y + 17}">{escape(label)}</text>'
            f'<rect class="track" x="{label_w}" y="{y + 4}" width="{plot_w}" height="18" rx="3"/>'
            f'<rect class="{css}" x="{label_w}" y="{y + 4}" width="{max(w, 0):.1f}" '
            f'height="18" rx="3">'
            f"<title>{escape(label)}: {escape(text)}</title></rect>"
        )
        if limit:
            tick = label_w + plot_w * limit / scale
            body.append(
                f'<line class="limit" x1="{tick:.1f}" x2="{tick:.1f}" y1="{y}" y2="{y + 26}"/>'
            )
        body.append(
            f'<text class="value" x="{label_w + plot_w + 8}" y="{y + 17}">{escape(text)}</text>'
        )
    return _svg(title, desc, body, height=height)
