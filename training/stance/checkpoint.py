"""A training run's checkpoints: what one belongs to, and writing one so that a run killed
mid-save keeps the last whole one."""

from __future__ import annotations

import argparse
import hashlib
import os
from pathlib import Path

import torch

from training.stance import pairs as data


def fingerprint(args: argparse.Namespace, train: list[data.Pair]) -> str:
    """What a checkpoint belongs to: the arguments that shape training and the pairs."""
    digest = hashlib.sha256()
    keys = ("base", "epochs", "batch_size", "lr", "max_length", "seed", "sets", "limit", "weigh")
    for key in keys:
        digest.update(f"{key}={getattr(args, key)};".encode())
    if getattr(args, "skip", 0):
        digest.update(f"skip={args.skip};".encode())
    if getattr(args, "bf16", False):
        digest.update(b"bf16;")
    if args.init:
        digest.update(b"init=" + hashlib.sha256(args.init.read_bytes()).digest())
    if getattr(args, "soft", None):
        digest.update(f"soft_weight={args.soft_weight};temperature={args.temperature};".encode())
        for path in args.soft:
            digest.update(b"soft=" + hashlib.sha256(path.read_bytes()).digest())
    for pair in train:
        digest.update(f"{pair.claim}\x00{pair.evidence}\x00{pair.label}\x01".encode())
    return digest.hexdigest()[:16]


def save(where: Path, state: dict) -> None:
    where.mkdir(parents=True, exist_ok=True)
    partial = where / "state.pt.partial"
    torch.save(state, partial)
    os.replace(partial, where / "state.pt")  # a run killed mid-save keeps the last whole one
