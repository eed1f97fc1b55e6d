"""ruff (lint and format) is part of the suite, so CI keeps the code clean."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.backend_free  # reads the project's files, touches no backend

ROOT = Path(__file__).resolve().parent.parent


def ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_lint_is_clean() -> None:
    result = ruff("check", ".")
    assert result.returncode == 0, result.stdout


def test_ruff_format_is_clean() -> None:
    result = ruff("format", "--check", ".")
    assert result.returncode == 0, result.stdout


def test_templates_hold_no_inline_script_or_handler() -> None:
    """Scripts are static files: the Content-Security-Policy runs no inline script."""
    inline = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>|\son[a-z]+=", re.I)
    found = [
        f"{path.relative_to(ROOT)}: {m.group()}"
        for path in (ROOT / "templates").rglob("*.html")
        for m in inline.finditer(path.read_text())
    ]
    assert found == []
