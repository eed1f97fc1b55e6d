"""The pure core (the rules in tables/game/ and the roads engine) imports only the
standard library and itself: no Django, Channels, Celery or database models."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

pytestmark = pytest.mark.backend_free  # reads the project's files, touches no backend

ROOT = Path(__file__).resolve().parents[2]
ROADS_ENGINE = ["roads/engine.py", "roads/entries.py", "roads/derived.py", "roads/grid.py", "roads/patterns.py"]
OPERATIONS = [
    "tables/operations/checks.py",
    "tables/operations/context.py",
    "tables/operations/logs.py",
]  # readiness checks, the probes' log filter


def python_files(entry: str) -> list[str]:
    """A file, or every module of a package directory, relative to the project."""
    path = ROOT / entry
    return sorted(str(p.relative_to(ROOT)) for p in path.rglob("*.py")) if path.is_dir() else [entry]


def module_name(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".").removesuffix(".__init__")


PURE_FILES = python_files("tables/game") + ROADS_ENGINE + OPERATIONS
PURE_MODULES = {module_name(p) for p in PURE_FILES}
# `from tables.game import x` names the packages on the way to a module of the core.
PURE_PACKAGES = {"tables", "tables.game", "tables.operations", "roads"}


def imported_modules(source: str, module: str, *, package: bool = False) -> set[str]:
    """Every module ``source`` imports, wherever the import is (inside functions too),
    relative imports resolved against ``module``."""
    parent = module if package else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = parent.rsplit(".", node.level - 1)[0] if node.level else ""
            imported = ".".join(part for part in (base, node.module) if part)
            names.add(imported)
            # `from . import outcome` imports a module; `from .outcome import Winner` a name.
            submodules = {f"{imported}.{alias.name}" for alias in node.names}
            names.update(submodules & PURE_MODULES)
    return names


def file_imports(path: str) -> set[str]:
    return imported_modules((ROOT / path).read_text(), module_name(path), package=path.endswith("__init__.py"))


def outside_the_core(modules: set[str]) -> list[str]:
    allowed = PURE_MODULES | PURE_PACKAGES
    return sorted(m for m in modules if m not in allowed and m.split(".")[0] not in sys.stdlib_module_names)


@pytest.mark.parametrize("path", PURE_FILES)
def test_each_module_of_the_core_imports_only_the_standard_library_and_the_core(path: str) -> None:
    assert outside_the_core(file_imports(path)) == []


def test_the_walk_finds_imports_inside_functions_and_resolves_relative_ones() -> None:
    source = (
        "from .outcome import Winner\nfrom . import cards\n\n"
        "def later():\n    from ..models import Round\n    import django.db\n"
    )
    found = imported_modules(source, "tables.game.probe")
    assert {"tables.game.outcome", "tables.game.cards", "tables.models", "django.db"} <= found
    assert outside_the_core(found) == ["django.db", "tables.models"]


def test_importing_the_core_loads_no_framework_and_no_model() -> None:
    code = (
        f"import sys, {', '.join(sorted(PURE_MODULES))}\n"
        "frameworks = ('django', 'channels', 'celery', 'ninja', 'redis', 'plotly')\n"
        "loaded = [m for m in sys.modules if m.split('.')[0] in frameworks or m == 'tables.models']\n"
        "sys.exit(', '.join(loaded) or None)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert (result.returncode, result.stderr) == (0, "")


def test_mypy_checks_exactly_the_core_strictly() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert config["strict"] is True
    assert {module_name(p) for entry in config["files"] for p in python_files(entry)} == PURE_MODULES


def test_the_core_packages_say_they_are_typed() -> None:
    assert (ROOT / "tables/game/py.typed").is_file() and (ROOT / "roads/py.typed").is_file()
