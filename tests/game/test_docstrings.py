"""Every public name of the pure core says what it is: its module, each public class and
function, and each public method of those classes."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.backend_free  # reads the project's files, touches no backend

ROOT = Path(__file__).resolve().parents[2]
CORE = (
    sorted((ROOT / "tables/game").glob("*.py"))
    + [ROOT / f"roads/{name}.py" for name in ("engine", "entries", "derived", "grid", "patterns")]
    + [ROOT / f"tables/operations/{name}.py" for name in ("checks", "context", "logs")]
)


def undocumented(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    missing = [] if ast.get_docstring(tree) or (path.name == "__init__.py" and not tree.body) else ["module"]
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_"):
            if not ast.get_docstring(node):
                missing.append(node.name)
            if isinstance(node, ast.ClassDef):
                missing += [
                    f"{node.name}.{sub.name}"
                    for sub in node.body
                    if isinstance(sub, ast.FunctionDef) and not sub.name.startswith("_") and not ast.get_docstring(sub)
                ]
    return missing


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_public_name_of_the_pure_core_says_what_it_is(path: Path) -> None:
    assert undocumented(path) == []
