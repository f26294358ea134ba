"""Fit the claim outcome model on evaluation reports and write it with its card.

    python -m training.outcome.fit REPORT.json [REPORT.json ...] --out decisions/outcome_model.json

Every figure of the model is measured on cross-validated predictions: the claims are cut into
folds by a hash of their dataset and key, each fold is predicted by a model fitted on the others,
and the thresholds are chosen on those pooled held-out predictions, never on the predictions of a
model that saw the claim. The coefficients written are then fitted on all the claims. The same
reports and options always give the same file. See CARD.md.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from decisions.weighing import FEATURES, GATES, OUTCOMES
from training.outcome import logistic, thresholds
from training.outcome.data import Data, read_reports

FOLDS = 5
DIGITS = 6


def majority(y: np.ndarray) -> int:
    """The commonest gold outcome, ties to the earlier in OUTCOMES (as the evaluation's
    majority baseline breaks them)."""
    counts = np.bincount(y, minlength=len(OUTCOMES))
    return max(range(len(OUTCOMES)), key=lambda i: (counts[i], -i))


def cross_validate(data: Data, *, folds: int, l2: float, balanced: bool) -> np.ndarray:
    """Every claim's probabilities from a model fitted on the other folds, one row per claim."""
    x, y = data.x, data.y
    fold = np.asarray([c.fold(folds) for c in data.claims])
    held_out = np.zeros((len(y), len(OUTCOMES)))
    for held in range(folds):
        test, train = fold == held, fold != held
        if not test.any():
            continue
        try:
            fitted = logistic.fit(x[train], y[train], l2=l2, balanced=balanced)
        except ValueError as exc:
            raise ValueError(f"fold {held} of {folds}: {exc}; more claims are needed") from exc
        held_out[test] = logistic.probabilities(x[test], fitted.coefficients)
    return held_out


def majority_baseline(data: Data) -> dict[str, object]:
    """The figures of always proposing the commonest gold outcome; its log-loss is that of the
    outcome frequencies (a certain guess would score infinity on every miss). Taken over all
    the claims, not cross-validated: a fold's own majority flips with what the fold holds out,
    which would make the baseline look worse than it is."""
    y = data.y
    counts = np.bincount(y, minlength=len(OUTCOMES))
    prior = np.tile(counts / counts.sum(), (len(y), 1))
    top = OUTCOMES[majority(y)]
    return {"always": top} | thresholds.figures(
        prior, [c.gold for c in data.claims], [top] * len(y)
    )


def by_dataset(data: Data, held_out: np.ndarray, proposed: list[str]) -> dict[str, object]:
    """The held-out figures of each dataset's claims apart: a threshold chosen on all of them
    can be right 80% of the time overall and far less on one kind of claim."""
    figures: dict[str, object] = {}
    for dataset in data.datasets():
        rows = [n for n, c in enumerate(data.claims) if c.dataset == dataset]
        figures[dataset] = thresholds.figures(
            held_out[rows], [data.claims[n].gold for n in rows], [proposed[n] for n in rows]
        )
    return figures


def _gate(
    p: np.ndarray,
    gold: list[str],
    outcome: str,
    data: Data,
    by_gate: dict[str, thresholds.Threshold],
    *,
    read: np.ndarray,
    precision: float,
    groups: np.ndarray | None = None,
    min_group: int = 5,
) -> tuple[str, dict[str, dict[str, int]]]:
    """The outcome's gate: the strictest, unless a looser one gives the outcome more often and
    the claims it adds over the strictest are themselves right `precision` of the time, overall
    and in each dataset it adds `min_group` or more to (the threshold rule alone would let
    weaker evidence's decisions ride on the precision of the stronger's, and one dataset's on
    another's). Also, for each looser gate, the claims it adds and how many are right."""
    right = np.asarray([g == outcome for g in gold])
    strict = GATES[0]
    base = (
        thresholds.given(p, outcome, read, data.gated(outcome, strict), by_gate[strict].threshold)
        if by_gate[strict].threshold < thresholds.NEVER
        else np.zeros(len(p), dtype=bool)
    )
    best, added_by = strict, {}
    for gate in GATES[1:]:
        choice = by_gate[gate]
        if choice.threshold >= thresholds.NEVER:
            continue
        gated = data.gated(outcome, gate)
        added = thresholds.given(p, outcome, read, gated, choice.threshold) & ~base
        added_by[gate] = {"added": int(added.sum()), "added_right": int(right[added].sum())}
        better = choice.decisions > by_gate[best].decisions
        holds = added.any() and float(right[added].mean()) >= precision
        if (
            better
            and holds
            and thresholds.each_group_holds(added, right, groups, precision, min_group)
        ):
            best = gate
    return best, added_by


def run(
    paths: list[Path],
    *,
    l2: float = 1.0,
    balanced: bool = True,
    precision: float = 0.8,
    min_decisions: int = 10,
    min_group: int = 5,
    folds: int = FOLDS,
    own_pages_only: bool = False,
) -> dict[str, Any]:
    """The model file's content: the fields the product reads, and the card."""
    data = read_reports(paths, own_pages_only=own_pages_only)
    if not data.claims:
        raise ValueError("no decided claims in the reports")
    gold = [c.gold for c in data.claims]
    held_out = cross_validate(data, folds=folds, l2=l2, balanced=balanced)
    read = thresholds.was_read(data.x)
    groups = np.asarray([c.dataset for c in data.claims])
    chosen: dict[str, thresholds.Threshold] = {}
    gates: dict[str, str] = {}
    tried: dict[str, dict[str, Any]] = {}
    for outcome in (thresholds.TRUE, thresholds.FALSE):
        by_gate = {
            gate: thresholds.choose(
                held_out,
                gold,
                outcome,
                precision=precision,
                min_decisions=min_decisions,
                read=read,
                gated=data.gated(outcome, gate),
                groups=groups,
                min_group=min_group,
            )
            for gate in GATES
        }
        gate, added = _gate(
            held_out, gold, outcome, data, by_gate,
            read=read, precision=precision, groups=groups, min_group=min_group,
        )  # fmt: skip
        chosen[outcome], gates[outcome] = by_gate[gate], gate
        tried[outcome] = {g: asdict(choice) | added.get(g, {}) for g, choice in by_gate.items()}
    cut = {outcome: choice.threshold for outcome, choice in chosen.items()}
    gated = {outcome: data.gated(outcome, gate) for outcome, gate in gates.items()}
    final = logistic.fit(data.x, data.y, l2=l2, balanced=balanced)
    coefficients = {
        outcome: [round(float(v), DIGITS) for v in row]
        for outcome, row in zip(OUTCOMES, final.coefficients, strict=False)
    }
    fitted = logistic.probabilities(data.x, final.coefficients)
    proposed = thresholds.propose(held_out, cut, read, gated)
    return {
        "features": list(FEATURES),
        "coefficients": coefficients,
        "thresholds": cut,
        "gates": gates,
        "card": {
            "data": {
                "reports": [asdict(source) for source in data.sources],
                "datasets": data.datasets(),
                "claims": len(data.claims),
                "gold": data.gold_counts(),
            },
            "fit": {
                "model": "multinomial logistic regression, invalid the reference class at 0",
                "method": "Newton's method with a backtracking line search",
                "l2": l2,
                "l2_on": "every coefficient but the bias",
                "balanced": balanced,
                "class_weights": {
                    k: round(v, 4)
                    for k, v in logistic.class_weights(data.y, balanced=balanced).items()
                },
                "iterations": final.iterations,
                "converged": final.converged,
                "objective": round(final.objective, DIGITS),
                "log_loss": round(logistic.log_loss(fitted, data.y), DIGITS),
            },
            "thresholds": {
                "rule": (
                    f"lowest of {thresholds.GRID[0]} to {thresholds.GRID[-1]} by 0.01 at which "
                    f"at least {precision} of the claims given the outcome are right, over at "
                    f"least {min_decisions} of them, and no dataset given it {min_group} times or "
                    f"more right less often; {thresholds.NEVER} (never proposed) where none is; "
                    "with each gate of decisions.weighing.GATES, the one that gives the outcome "
                    "most often kept"
                ),
                "chosen_on": f"pooled held-out predictions of {folds} folds by claim key hash",
                "precision": precision,
                "min_decisions": min_decisions,
                "min_group": min_group,
                "gates": gates,
                "gates_tried": tried,
                **{outcome: asdict(choice) for outcome, choice in chosen.items()},
            },
            "figures": {
                "how": (
                    f"the model on its pooled held-out predictions over {folds} folds, with the "
                    "thresholds above; the baseline over all the claims"
                ),
                "folds": folds,
                "model": thresholds.figures(held_out, gold, proposed),
                "by_dataset": by_dataset(data, held_out, proposed),
                "majority_baseline": majority_baseline(data),
            },
        },
    }


def _share(value: float | None) -> str:
    return "none given" if value is None else f"{value:.3f}"


def describe(model: dict[str, Any]) -> str:
    """The card as lines for people (what the command prints)."""
    card = model["card"]
    data, fit, chosen = card["data"], card["fit"], card["thresholds"]
    lines = [f"Reports: {', '.join(r['path'] for r in data['reports'])}"]
    for report in data["reports"]:
        left = ", ".join(f"{n} {status}" for status, n in report["left_out"].items())
        lines.append(
            f"  {report['path']}: dataset {report['dataset']}, {report['claims']} decided "
            f"claims fitted" + (f"; left out: {left}" if left else "")
        )
    lines.append(
        f"Claims: {data['claims']} ({', '.join(f'{k} {v}' for k, v in data['gold'].items())}); "
        f"datasets: {', '.join(f'{k} {v}' for k, v in data['datasets'].items())}"
    )
    lines.append(
        f"Fit: l2 {fit['l2']}, balanced {fit['balanced']} (class weights "
        f"{', '.join(f'{k} {v}' for k, v in fit['class_weights'].items())}), "
        f"{fit['iterations']} Newton steps, converged {fit['converged']}, final log-loss "
        f"{fit['log_loss']:.4f} (penalised weighted objective {fit['objective']:.4f})"
    )
    lines.append(f"{'feature':<20}{'true':>12}{'false':>12}")
    for number, name in enumerate(model["features"]):
        lines.append(
            f"{name:<20}{model['coefficients']['true'][number]:>12.4f}"
            f"{model['coefficients']['false'][number]:>12.4f}"
        )
    for outcome in (thresholds.TRUE, thresholds.FALSE):
        choice = chosen[outcome]
        if choice["threshold"] >= thresholds.NEVER:
            lines.append(
                f"Threshold {outcome}: {thresholds.NEVER}, never proposed (no threshold reached "
                f"precision {chosen['precision']} over {chosen['min_decisions']} claims)"
            )
        else:
            lines.append(
                f"Threshold {outcome}: {choice['threshold']:.2f}, gate {chosen['gates'][outcome]} "
                f"(held-out precision {choice['precision']:.3f} over {choice['decisions']} claims)"
            )
        for gate, tried in chosen["gates_tried"][outcome].items():
            found = (
                f"{tried['threshold']:.2f}: {tried['precision']:.3f} over {tried['decisions']}"
                if tried["threshold"] < thresholds.NEVER
                else "none qualifies"
            )
            if "added" in tried:
                found += f"; adds {tried['added']}, {tried['added_right']} right"
            lines.append(f"  gate {gate:<12} {found}")
    validated = card["figures"]
    lines.append(
        f"Figures (the model on pooled held-out predictions of {validated['folds']} folds; "
        "the baseline over all claims):"
    )
    lines.append(
        f"{'':<20}{'coverage':>10}{'prec true':>11}{'prec false':>11}{'macro-F1':>10}"
        f"{'accuracy':>10}{'log-loss':>10}"
    )
    baseline = validated["majority_baseline"]
    rows = [("model (held out)", validated["model"]), (f"always {baseline['always']}", baseline)]
    for name, row in rows:
        lines.append(
            f"{name:<20}{row['coverage']:>10.3f}"
            f"{_share(row['precision']['true']):>11}{_share(row['precision']['false']):>11}"
            f"{row['macro_f1']:>10.3f}{row['accuracy']:>10.3f}{row['log_loss']:>10.4f}"
        )
    lines.append("The model held out, by dataset (given: proposals true / false, right):")
    for dataset, row in validated["by_dataset"].items():
        given, right = row["given"], row["right"]
        lines.append(
            f"  {dataset:<18}{row['claims']:>5} claims, coverage {row['coverage']:.3f}, "
            f"true {right['true']}/{given['true']}, false {right['false']}/{given['false']}, "
            f"macro-F1 {row['macro_f1']:.3f}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m training.outcome.fit", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("reports", nargs="+", type=Path, help="JSON reports of manage.py evaluate")
    parser.add_argument("--out", type=Path, help="the model file to write")
    parser.add_argument(
        "--own-pages-only",
        action="store_true",
        help="print what the weighing would reach from readings of each claim's own pages alone"
        " (the evaluation's answer key: a ceiling, never written as a model)",
    )
    parser.add_argument("--l2", type=float, default=1.0, help="L2 strength (not on the bias)")
    parser.add_argument(
        "--balanced",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="weigh each outcome by its inverse frequency (default on)",
    )
    parser.add_argument("--precision", type=float, default=0.8, help="precision to propose at")
    parser.add_argument("--min-decisions", type=int, default=10, help="claims to show it")
    parser.add_argument(
        "--min-group",
        type=int,
        default=5,
        help="a dataset given an outcome this often must be right --precision of the time too",
    )
    parser.add_argument("--folds", type=int, default=FOLDS, help="cross-validation folds")
    args = parser.parse_args(argv)
    if args.own_pages_only and args.out:
        parser.error("--own-pages-only measures a ceiling; it writes no model (drop --out)")
    if not args.own_pages_only and not args.out:
        parser.error("--out is required")
    try:
        model = run(
            args.reports,
            l2=args.l2,
            balanced=args.balanced,
            precision=args.precision,
            min_decisions=args.min_decisions,
            min_group=args.min_group,
            folds=args.folds,
            own_pages_only=args.own_pages_only,
        )
    except (OSError, ValueError) as exc:
        parser.exit(1, f"error: {exc}\n")
    if args.own_pages_only:
        print("Readings of each claim's own pages only: a ceiling, not a model to ship.")
        print(describe(model))
        return
    args.out.write_text(json.dumps(model, indent=2) + "\n", encoding="utf-8")
    print(describe(model))
    print(f"Wrote {args.out}")


if __name__ == "__main__":
    main()
