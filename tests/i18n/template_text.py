"""The user-facing text of a template that no translation tag holds: what the reader
would see in English whatever language the page is in."""

from __future__ import annotations

import re
from html.parser import HTMLParser

# Template syntax, removed before the HTML is read: comments, translated text, the rest
# of the tags and variables (a variable's text is translated where it is made).
COMMENT = re.compile(r"\{#.*?#\}|\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}", re.S)
# A block that names CSS classes (body_class, admin's bodyclass) holds no words.
CLASS_BLOCK = re.compile(r"\{%\s*block\s+\w*class\s*%\}.*?\{%\s*endblock\b[^%]*%\}", re.S)
BLOCK_TRANSLATE = re.compile(r"\{%\s*blocktrans(?:late)?\b.*?\{%\s*endblocktrans(?:late)?\s*%\}", re.S)
TAG_OR_VARIABLE = re.compile(r"\{%.*?%\}|\{\{.*?\}\}", re.S)
LETTER = re.compile(r"[^\W\d_]")
# A template that is a run of attributes (``tables/_version.html``), included inside a tag.
ATTRIBUTES = re.compile(r'\s*([\w-]+="[^"]*"\s*)+')
# Attributes a reader sees or hears (a screen reader reads the aria ones).
SHOWN_ATTRIBUTES = {"title", "alt", "placeholder", "aria-label", "aria-roledescription", "aria-valuetext", "label"}
UNSHOWN_ELEMENTS = {"script", "style"}


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.unshown = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in UNSHOWN_ELEMENTS:
            self.unshown += 1
        for name, value in attrs:
            if name in SHOWN_ATTRIBUTES and value and LETTER.search(value):
                self.found.append(f'{name}="{value}"')

    def handle_endtag(self, tag: str) -> None:
        if tag in UNSHOWN_ELEMENTS:
            self.unshown = max(0, self.unshown - 1)

    def handle_data(self, data: str) -> None:
        if not self.unshown and LETTER.search(data) and not ATTRIBUTES.fullmatch(data):
            self.found.append(data.strip())


def untranslated_text(source: str) -> list[str]:
    """The text and shown attributes of ``source`` (a template) outside translation tags."""
    text = BLOCK_TRANSLATE.sub(" ", CLASS_BLOCK.sub(" ", COMMENT.sub(" ", source)))
    text = TAG_OR_VARIABLE.sub(" ", text)
    reader = _Reader()
    reader.feed(text)
    reader.close()
    return reader.found
