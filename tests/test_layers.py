"""Layers you can see: the import contract holds, and no import hides inside a function
to dodge a cycle, except the one Celery task seam."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.backend_free  # reads the project's files, touches no backend

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("tables", "roads", "config")
SEAM = ("tables/services.py", ".")  # `from . import tasks`: services queue Celery tasks, tasks call services


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


def test_no_import_hides_inside_a_function_but_the_celery_task_seam() -> None:
    found = [
        (path, module)
        for package in PACKAGES
        for file in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in file.parts
        for path, module in imports_inside_functions(file)
    ]
    assert found == [SEAM]


def test_the_layers_contract_holds() -> None:
    lint_imports = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    assert lint_imports, "import-linter is installed with the test extras"
    done = subprocess.run([lint_imports, "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
