"""Issue 21: every user-facing string of every template is in a translation tag, so a
page in Chinese, Korean, Vietnamese or Thai shows no English left over."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .template_text import untranslated_text

pytestmark = pytest.mark.backend_free  # reads the project's files, touches no backend

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


@pytest.mark.parametrize("template", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_a_template_shows_no_text_outside_translate_and_blocktranslate(template: Path) -> None:
    assert untranslated_text(template.read_text()) == []


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("<p>Banker wins</p>", ["Banker wins"]),
        ('<button title="Verify the card">✓</button>', ['title="Verify the card"']),
        ("{% translate 'Banker wins' %} · {{ table.name }} {# a note #}", []),
        ("{% blocktranslate count n=rounds %}{{ n }} round{% plural %}{{ n }} rounds{% endblocktranslate %}", []),
        ('<svg><text x="1">B</text></svg>', ["B"]),
        ("<script>var live = 'live';</script><p>—</p>", []),
        (' data-version="{{ version }}"', []),
        ("{% block body_class %}screen{% endblock %}<p>Lobby</p>", ["Lobby"]),
    ],
)
def test_the_check_finds_text_and_shown_attributes_and_nothing_else(source: str, found: list[str]) -> None:
    assert untranslated_text(source) == found


STYLESHEETS = sorted((TEMPLATES.parent / "static" / "css").glob("*.css"))
CSS_WORDS = re.compile(r"content:\s*(\"[^\"]*[^\W\d_][^\"]*\"|'[^']*[^\W\d_][^']*')")


@pytest.mark.parametrize("stylesheet", STYLESHEETS, ids=lambda p: p.name)
def test_a_stylesheet_writes_no_words_a_page_would_show_in_english(stylesheet: Path) -> None:
    """Words a stylesheet adds (``content: "Player"``) escape the catalogues: a cell's
    label comes from its template's translated data-label instead."""
    assert CSS_WORDS.findall(stylesheet.read_text()) == []
