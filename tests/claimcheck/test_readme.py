"""The README is a five-minute read that works as written: at most 200 lines, every relative link
in it and in docs/*.md leads to a file that exists (and, for `#anchor`, to a heading), and every
command in its shell blocks either runs here, on a scratch SQLite database set up as
`scripts/run` sets one up, or is named in LONG_RUNNING as one that does not return on its own."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
MAX_README_LINES = 200
TIMEOUT_S = 120
SHELL_LANGUAGES = {"sh", "bash", "console"}
EXTERNAL = re.compile(r"^(?:https?|mailto):", re.IGNORECASE)
ENV_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
FENCE = re.compile(r"^\s*(```|~~~)\s*([\w+-]*)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
# `[text](target)` and `![alt](target)`, text over line breaks too; an optional "title" after.
LINK = re.compile(r"!?\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")
INLINE_CODE = re.compile(r"`[^`]*`")

# Commands the README shows that do not return on their own: what they start, and why the test
# leaves them alone. A command is matched by its words after any leading `NAME=value`.
LONG_RUNNING: dict[str, str] = {
    "scripts/run": "installs, then serves the product with a worker until Ctrl-C",
    "scripts/test": "installs, lints, type-checks and runs the whole suite twice (about 30 min)",
    ".ci/run": "CI's entry point: scripts/test on a fresh clone",
    ".venv/bin/python manage.py runserver": "a development server, until stopped",
    ".venv/bin/python manage.py qcluster": "a task worker, until stopped",
    ".venv/bin/gunicorn": "the production server, until stopped",
    "docker compose up": "the whole stack in containers",
}
# What `scripts/run` does to a fresh database before anything else runs (without the demo).
SET_UP = (
    ".venv/bin/python manage.py migrate --noinput",
    ".venv/bin/python manage.py bootstrap --no-demo",
)


@dataclass(frozen=True)
class CodeBlock:
    language: str
    lines: tuple[str, ...]


def markdown_files() -> list[Path]:
    return [README, *sorted((ROOT / "docs").glob("*.md"))]


def code_blocks(text: str) -> Iterator[CodeBlock]:
    """The fenced blocks of a markdown text, each with its language ("" when none)."""
    language: str | None = None
    fence = ""
    lines: list[str] = []
    for line in text.splitlines():
        match = FENCE.match(line)
        if language is None:
            if match:
                fence, language, lines = match[1], match[2].lower(), []
        elif match and match[1] == fence and not match[2]:
            yield CodeBlock(language, tuple(lines))
            language = None
        else:
            lines.append(line)


def outside_fences(text: str) -> str:
    """The text outside fenced blocks, their lines left empty so that line numbers hold."""
    kept: list[str] = []
    fence = ""
    for line in text.splitlines():
        match = FENCE.match(line)
        if not fence and match:
            fence = match[1]
            kept.append("")
        elif fence:
            if match and match[1] == fence and not match[2]:
                fence = ""
            kept.append("")
        else:
            kept.append(line)
    return "\n".join(kept)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading anchor of a markdown file; a repeated heading gets -1, -2, ..."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    for line in outside_fences(path.read_text(encoding="utf-8")).splitlines():
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match[2])
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def relative_links(path: Path) -> list[str]:
    text = INLINE_CODE.sub("", outside_fences(path.read_text(encoding="utf-8")))
    targets = (match["target"] for match in LINK.finditer(text))
    return [target for target in targets if not EXTERNAL.match(target)]


def link_problem(source: Path, target: str) -> str | None:
    """Why a relative link of `source` leads nowhere, or None when it resolves."""
    address, _, anchor = target.partition("#")
    resolved = (source.parent / unquote(address)).resolve() if address else source
    if not resolved.is_relative_to(ROOT):
        return "leads out of the repository"
    if not resolved.exists():
        return "no such file"
    if anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
        return f"no heading #{anchor} in {resolved.relative_to(ROOT)}"
    return None


def strip_comment(line: str) -> str:
    """The line without its shell comment: a `#` outside quotes, at the start or after a space."""
    quote = ""
    for index, char in enumerate(line):
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1].isspace()):
            return line[:index].rstrip()
    return line.rstrip()


def commands(block: CodeBlock) -> list[str]:
    """The commands of a shell block: comments stripped, blank lines skipped, lines ending in
    `\\` joined to the next; in a console block only the `$ ` lines are commands."""
    found: list[str] = []
    pending = ""
    for raw in block.lines:
        line = raw.strip()
        if block.language == "console" and not pending:
            if not line.startswith("$ "):
                continue
            line = line[2:]
        line = strip_comment(line)
        if line.endswith("\\"):
            pending += line[:-1].strip() + " "
            continue
        command = (pending + line).strip()
        pending = ""
        if command:
            found.append(command)
    return found


def readme_commands() -> list[str]:
    text = README.read_text(encoding="utf-8")
    blocks = (block for block in code_blocks(text) if block.language in SHELL_LANGUAGES)
    return [command for block in blocks for command in commands(block)]


def without_assignments(command: str) -> str:
    words = shlex.split(command)
    while words and ENV_ASSIGNMENT.match(words[0]):
        words.pop(0)
    return " ".join(words)


def long_running_reason(command: str) -> str | None:
    words = without_assignments(command)
    for prefix, why in LONG_RUNNING.items():
        if words == prefix or words.startswith(prefix + " "):
            return why
    return None


def scratch_environment(tmp: Path) -> dict[str, str]:
    """The environment a README command runs in: the developer's, with a scratch SQLite
    database, no Redis, no `.env` file and Django's own settings rather than the suite's."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in {"DJANGO_SETTINGS_MODULE", "REDIS_URL", "DATABASE_URL"}
    }
    env_file = tmp / "scratch.env"
    env_file.write_text("", encoding="utf-8")
    env.update(
        DJANGO_DEBUG="true",
        DATABASE_URL=f"sqlite:///{tmp / 'readme.sqlite3'}",
        CLAIMCHECK_ENV_FILE=str(env_file),
        CLAIMCHECK_LOG_LEVEL="WARNING",
    )
    return env


def run(command: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    # The README's own commands, run through bash as a reader would paste them.
    return subprocess.run(  # noqa: S603
        ["bash", "-c", command],  # noqa: S607
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )


def test_the_readme_is_a_five_minute_read() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES, f"README.md has {len(lines)} lines"


@pytest.mark.parametrize("path", markdown_files(), ids=lambda path: path.name)
def test_every_relative_link_resolves(path: Path) -> None:
    problems = [
        f"{target}: {why}"
        for target in relative_links(path)
        if (why := link_problem(path, target)) is not None
    ]
    assert not problems, f"{path.relative_to(ROOT)} links nowhere:\n" + "\n".join(problems)


def test_the_two_set_up_commands_share_one_block() -> None:
    text = README.read_text(encoding="utf-8")
    blocks = [commands(block) for block in code_blocks(text) if block.language == "sh"]
    assert ["scripts/run", "scripts/test"] in blocks, blocks


def test_every_long_running_command_names_something_that_exists() -> None:
    for prefix in LONG_RUNNING:
        program = prefix.split()[0]
        if "/" in program:
            assert (ROOT / program).exists(), prefix


def test_every_readme_command_runs_or_is_known_to_run_on(tmp_path: Path) -> None:
    runnable = [command for command in readme_commands() if long_running_reason(command) is None]
    assert runnable, "the README shows no command a reader can run and see return"
    env = scratch_environment(tmp_path)
    for command in SET_UP:
        done = run(command, env)
        assert done.returncode == 0, f"set-up `{command}` failed:\n{done.stderr}"
    failed = []
    for command in runnable:
        done = run(command, env)
        if done.returncode != 0:
            failed.append(f"$ {command}\nexit {done.returncode}\n{done.stdout}{done.stderr}")
    assert not failed, "README commands that fail as written:\n\n" + "\n\n".join(failed)


def test_the_parser_reads_comments_continuations_and_prompts() -> None:
    block = CodeBlock("sh", ("a \\", "  b  # a comment", "", "# only a comment", "c '#x' d"))
    assert commands(block) == ["a b", "c '#x' d"]
    console = CodeBlock("console", ("$ run --fast", "output line", "$ other"))
    assert commands(console) == ["run --fast", "other"]
    assert long_running_reason("PORT=8001 scripts/run") is not None
    assert long_running_reason("scripts/runner") is None
    heading = "Writing to a claim: `ETag` and `If-Match`"
    assert slug(heading) == "writing-to-a-claim-etag-and-if-match"
