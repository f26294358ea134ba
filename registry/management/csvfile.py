"""What the registry commands (`domains`, `aliases`) share: reading a CSV file to import,
reporting its bad lines, and writing an export to a file or standard output."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError


def read_csv(path: str) -> str:
    """The file's text ('-' reads standard input); a clear error when it cannot be read."""
    try:
        return sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise CommandError(f"{path} is not UTF-8 text") from exc


def refused(command: BaseCommand, path: str, problems: Sequence[object]) -> CommandError:
    """Each bad line on standard error, and the error that ends the command."""
    for problem in problems:
        command.stderr.write(f"{path}: {problem}")
    return CommandError(f"{len(problems)} bad line(s) in {path}; nothing was imported")


def write_export(command: BaseCommand, text: str, path: str, noun: str) -> None:
    """The CSV to `path`, or to standard output for '-'. A relative path is taken from the
    directory the command runs in; the message names the file in full, so that it is found."""
    if path == "-":
        command.stdout.write(text, ending="")
        return
    target = Path(path).absolute()
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot write {target}: {exc.strerror}") from exc
    command.stdout.write(f"exported {text.count(chr(10)) - 1} {noun} to {target}")
