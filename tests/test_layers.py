"""Layers you can see: the import contract holds, no module imports itself through
others (the Celery task seam included), and no import hides inside a function to dodge
a cycle."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

pytestmark = pytest.mark.backend_free  # reads the project's files, touches no backend

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("tables", "roads", "config")


def imports_inside_functions(path: Path) -> list[tuple[str, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import):
                    found += [(str(path.relative_to(ROOT)), alias.name) for alias in inner.names]
                elif isinstance(inner, ast.ImportFrom):
                    found.append((str(path.relative_to(ROOT)), "." * inner.level + (inner.module or "")))
    return found


def test_no_import_hides_inside_a_function() -> None:
    found = [
        (path, module)
        for package in PACKAGES
        for file in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in file.parts
        for path, module in imports_inside_functions(file)
    ]
    assert found == []


def import_cycles(package: str) -> list[list[str]]:
    """Every strongly connected group of more than one module in ``package``'s imports
    (Tarjan's algorithm over the graph import-linter builds)."""
    graph = grimp.build_graph(package)
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in order:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], order[imported])
        if low[module] == order[module]:
            group = []
            while (member := stack.pop()) != module:
                group.append(member)
            if group:
                cycles.append(sorted([module, *group]))

    for module in sorted(graph.modules):
        if module not in order:
            visit(module)
    return cycles


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_imports_itself_through_others(package: str) -> None:
    assert import_cycles(package) == []


def test_the_layers_contract_holds() -> None:
    lint_imports = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    assert lint_imports, "import-linter is installed with the test extras"
    done = subprocess.run([lint_imports, "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_test_module_imports_another() -> None:
    """Shared fixtures live in conftest.py, shared helpers in modules of their own
    (tests/dealers.py, tests/rounds.py, ...): a test module imports neither a test module
    nor a conftest."""
    found = []
    for file in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(file.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [f"{node.module or ''}.{alias.name}" for alias in node.names]
            for name in names:
                last = name.rsplit(".", 1)[-1]
                if last.startswith("test_") or last == "conftest":
                    found.append((str(file.relative_to(ROOT)), name))
    assert found == []
