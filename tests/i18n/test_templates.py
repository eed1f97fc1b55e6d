"""Issue 21: every user-facing string of every template is in a translation tag, so a
page in Chinese, Korean, Vietnamese or Thai shows no English left over."""

from __future__ import annotations

from pathlib import Path

import pytest

from .template_text import untranslated_text

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
    ],
)
def test_the_check_finds_text_and_shown_attributes_and_nothing_else(source: str, found: list[str]) -> None:
    assert untranslated_text(source) == found
