"""Figures by set for a list of pairs and the labels read for them."""

from __future__ import annotations

from training.stance.records import LABELS, REFUTE, SUPPORT, Pair


def macro(gold: list[str], predicted: list[str]) -> dict[str, float]:
    figures: dict[str, float] = {}
    f1s = []
    for label in LABELS:
        tp = sum(g == p == label for g, p in zip(gold, predicted, strict=True))
        fp = sum(p == label != g for g, p in zip(gold, predicted, strict=True))
        fn = sum(g == label != p for g, p in zip(gold, predicted, strict=True))
        f1 = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
        figures[f"f1_{label}"] = round(f1, 4)
        if label in gold:
            f1s.append(f1)
    figures["macro_f1"] = round(sum(f1s) / max(len(f1s), 1), 4)
    figures["accuracy"] = round(
        sum(g == p for g, p in zip(gold, predicted, strict=True)) / max(len(gold), 1), 4
    )
    figures["n"] = len(gold)
    return figures


def macro_report(rows: list[Pair], predicted: list[str]) -> dict[str, dict[str, float]]:
    out = {}
    for source in sorted({p.source for p in rows}):
        picked = [i for i, p in enumerate(rows) if p.source == source]
        out[source] = macro([rows[i].label for i in picked], [predicted[i] for i in picked])
    for kind, label in (("real", SUPPORT), ("counter", REFUTE)):
        picked = [i for i, p in enumerate(rows) if p.source == "covid-fact" and p.kind == kind]
        if picked:
            hits = sum(predicted[i] == label for i in picked)
            out[f"covid-fact {kind} read as {label}"] = {
                "share": round(hits / len(picked), 4),
                "n": len(picked),
            }
    return out


def print_report(name: str, figures: dict[str, dict[str, float]]) -> None:
    print(f"\n{name}")
    for source, values in figures.items():
        print(f"  {source:34s} " + "  ".join(f"{k} {v}" for k, v in values.items()))


def against(
    before: dict[str, dict[str, float]],
    after: dict[str, dict[str, float]],
    guards: tuple[str, ...],
    margin: float,
) -> list[str]:
    """Each set's held-out macro-F1 before and after, one line a set, with the guard sets that
    fell more than `margin` marked, and a closing line naming them (or saying none did)."""
    lines, fallen = [], []
    for source, figures in after.items():
        if "macro_f1" not in figures or "macro_f1" not in before.get(source, {}):
            continue
        old, new = before[source]["macro_f1"], figures["macro_f1"]
        mark = ""
        if source in guards:
            mark = "  guard"
            # The figures carry four decimals: 0.549 to 0.529 is at the margin, not past it.
            if round(old - new, 4) > margin:
                mark += f": more than {margin} below"
                fallen.append(source)
        lines.append(f"  {source:34s} {old:.4f} -> {new:.4f}  {new - old:+.4f}{mark}")
    if fallen:
        lines.append(f"  guard sets more than {margin} below: {', '.join(fallen)}")
    else:
        lines.append(f"  no guard set more than {margin} below")
    return lines
