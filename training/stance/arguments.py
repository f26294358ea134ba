"""The stance training command's arguments, checked before anything loads.

python -m training.stance.train --help
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from training.stance import encoders, recipe
from training.stance import pairs as data

ROOT = Path(__file__).resolve().parents[2]
DESCRIPTION = "Fine-tune the stance model, calibrate it and export it for the runtime."


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=DESCRIPTION)
    parser.add_argument("--eval-root", type=Path, default=ROOT.parent / "shared" / "eval")
    parser.add_argument("--out", type=Path, default=ROOT / "evidence" / "stance" / "model")
    parser.add_argument("--base", choices=sorted(encoders.ENCODERS), default="minilm")
    parser.add_argument("--epochs", type=float, default=1.0)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--lr", type=float, default=5e-5)
    parser.add_argument("--max-length", type=int, default=128)
    parser.add_argument(
        "--sets", default=",".join(data.TRAINED), help="comma-separated pair sets (DATA_CARD.md)"
    )
    parser.add_argument(
        "--open", action="store_true", help="train on the openly licensed sets alone"
    )
    parser.add_argument(
        "--init",
        type=Path,
        default=None,
        help="start from this shipped stance.onnx (int8, or fp32 stored as fp16) instead of the"
        " bare encoder",
    )
    parser.add_argument(
        "--weigh",
        default="",
        help="weights over recipe.py's, e.g. liar-plus=3,covid-fact=2 (set or set:kind)",
    )
    parser.add_argument(
        "--cap",
        default="",
        help="caps over recipe.py's, e.g. fnc-1=900 (the most pairs of a set or set:kind that"
        " train; a set named alone drops the recipe's caps on its kinds)",
    )
    parser.add_argument(
        "--decisive",
        default="",
        help="also train on the sentence of each joined pair of these sets that decides it,"
        " as the teacher reads them (decisive.py), e.g. liar-plus,covid-fact",
    )
    parser.add_argument(
        "--specific",
        action="store_true",
        help="pick the sentence whose reading stands highest above its reading against a"
        " like claim of the same set (decisive.py), not the likeliest alone",
    )
    parser.add_argument(
        "--teacher",
        type=Path,
        default=None,
        help="the int8 stance.onnx that picks the deciding sentences (default: --init)",
    )
    parser.add_argument(
        "--teach",
        type=Path,
        default=None,
        help="train a teacher: read the unlabelled page sentences and the labelled training"
        " pairs of distil.TAUGHT_SETS with the trained model, write their probabilities to this"
        " file, and export nothing",
    )
    parser.add_argument(
        "--soft",
        type=Path,
        nargs="+",
        default=None,
        help="teachers' soft-label files (--teach): also train on their page sentences, and learn"
        " their probabilities beside the labels of the pairs they read (where two files read the"
        " same pair, the later file's reading is learnt)",
    )
    parser.add_argument("--soft-weight", type=float, default=0.5)
    parser.add_argument("--temperature", type=float, default=2.0)
    parser.add_argument(
        "--bf16",
        action="store_true",
        help="train and read under bf16 autocast (fp32 weights; the CPU's AMX units)",
    )
    parser.add_argument(
        "--ship",
        choices=("auto", "int8", "fp32"),
        default="auto",
        help="the ONNX copy that ships; auto: int8 unless it loses more than ship.INT8_LOSS"
        " of macro-F1 on a measured set",
    )
    parser.add_argument(
        "--copies-on",
        default="all",
        help="the held-out sets the ONNX copies are read on (comma-separated, all or none)",
    )
    parser.add_argument(
        "--keep-copies",
        action="store_true",
        help="also write the fp32 export and the int8 copy to --out, whichever ships",
    )
    parser.add_argument(
        "--torch-on",
        default="all",
        help="the held-out sets the trained model is read on in PyTorch (all or none too)",
    )
    parser.add_argument(
        "--calibrate-on",
        default="all",
        help="the sets of the calibration split the shipped copy is calibrated on",
    )
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--limit", type=int, default=None, help="train on this many pairs")
    parser.add_argument(
        "--skip",
        type=int,
        default=0,
        help="leave out the first N pairs of the mix (the part an --init model already learnt)",
    )
    parser.add_argument(
        "--checkpoint", type=Path, default=ROOT / "artifacts" / "stance-checkpoints"
    )
    parser.add_argument("--checkpoint-minutes", type=float, default=5.0)
    args = parser.parse_args(argv)
    if args.open:
        args.sets = ",".join(data.OPEN)
    try:
        recipe.weighed(args.weigh)
        recipe.capped(args.cap)
    except ValueError as error:
        parser.error(str(error))
    args.teacher = args.teacher or args.init
    if args.decisive and args.teacher is None:
        parser.error("--decisive needs a teacher: --teacher or --init")
    if args.specific and not args.decisive:
        parser.error("--specific picks deciding sentences: name their sets with --decisive")
    if args.teach and args.soft:
        parser.error("--teach trains a teacher, --soft a student: not both in one run")
    return args
