"""Pages read as HTML, not as strings: the elements a test looks for, by tag and attributes."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    text: str = ""
    classes: set[str] = field(default_factory=set)


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self._open: list[Element] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        element = Element(tag, values, classes=set(values.get("class", "").split()))
        self.elements.append(element)
        if tag not in VOID:
            self._open.append(element)

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self._open) - 1, -1, -1):
            if self._open[depth].tag == tag:
                del self._open[depth:]
                return

    def handle_data(self, data: str) -> None:
        for element in self._open:
            element.text += data


def find_all(html: str, tag: str, *, cls: str | None = None, **attrs: str) -> list[Element]:
    """Every ``tag`` element of ``html`` with the class ``cls`` and the attributes given
    (``name_`` for ``name``), in document order, each with the text inside it."""
    collector = _Collector()
    collector.feed(html)
    wanted = {name.rstrip("_").replace("_", "-"): value for name, value in attrs.items()}
    return [
        element
        for element in collector.elements
        if element.tag == tag
        and (cls is None or cls in element.classes)
        and all(element.attrs.get(name) == value for name, value in wanted.items())
    ]
