"""The shape of the code that review alone would let slip: module size and import loops. The
layers and the ban on research imports are import-linter's contracts (pyproject.toml), which
`scripts/test` checks."""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
from django.conf import settings

MAX_LINES = 450
PACKAGES = (
    "config",
    "desk",
    "decisions",
    "evidence",
    "registry",
    "harvester",
    "claims",
    "integrations",
    "claimcheck",
    "evaluation",
    "demo",
    "training",
    "tests",
)
SKIPPED_DIRS = {".venv", ".train", "node_modules", "migrations", "__pycache__", "artifacts"}


def _python_files() -> list[Path]:
    base = Path(settings.BASE_DIR)
    return [
        path
        for path in sorted(base.rglob("*.py"))
        if not SKIPPED_DIRS & set(path.relative_to(base).parts)
    ]


def test_no_module_outside_migrations_is_over_450_lines() -> None:
    base = Path(settings.BASE_DIR)
    long = {
        str(path.relative_to(base)): count
        for path in _python_files()
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def _circles(imports: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that reach each other through their imports (Tarjan's strongly
    connected components of more than one module), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in sorted(imports.get(module, ())):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(imports):
        if module not in index:
            visit(module)
    return sorted(found)


def test_no_module_reaches_itself_through_its_imports() -> None:
    """Not two modules that import each other, nor a longer circle, nor a package whose
    `__init__` imports a module that imports the package back (imports inside functions and
    under TYPE_CHECKING count too)."""
    packages = [name for name in PACKAGES if (Path(settings.BASE_DIR) / name).is_dir()]
    graph = grimp.build_graph(*packages, include_external_packages=False)
    imports = {module: graph.find_modules_directly_imported_by(module) for module in graph.modules}
    assert _circles(imports) == []


def test_the_circle_finder_finds_a_pair_and_a_longer_circle() -> None:
    imports = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"e"}, "e": {"c"}, "f": {"a"}}
    assert _circles(imports) == [["a", "b"], ["c", "d", "e"]]


def _own_package_imports(path: Path, module: str) -> list[str]:
    """The imports in a module of a package that go through the `__init__` of a package it is
    in, where that `__init__` imports modules of its own (`from evidence.stance import pick`
    inside `evidence.stance.model`): the `__init__` imports the module back, a circle however
    the name resolves."""
    base = Path(settings.BASE_DIR)
    ancestors = {
        name
        for depth in range(1, module.count(".") + 1)
        if "import"
        in (
            base / Path(*(name := ".".join(module.split(".")[:depth])).split(".")) / "__init__.py"
        ).read_text(encoding="utf-8")
    }
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in ancestors:
            found.append(f"{module}: from {node.module} import ...")
        elif isinstance(node, ast.Import):
            found.extend(f"{module}: import {a.name}" for a in node.names if a.name in ancestors)
    return found


def test_no_module_imports_through_its_own_package() -> None:
    base = Path(settings.BASE_DIR)
    found = []
    for path in _python_files():
        parts = path.relative_to(base).with_suffix("").parts
        if parts[0] in PACKAGES and parts[-1] != "__init__" and len(parts) > 1:
            found.extend(_own_package_imports(path, ".".join(parts)))
    assert found == []
