"""Pages read as HTML, not as strings: the elements a test looks for, by tag and attributes.

Whole pages and the fragments a websocket pushes (several top-level elements,
``<template>`` and ``<svg>`` parts with ``hx-swap-oob``) read alike."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Prefix(str):
    """An attribute value that matches every value it begins: ``data_version=Prefix("1:2:0:")``;
    ``Prefix("")`` matches any value, the attribute being there."""


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    text: str = ""
    classes: set[str] = field(default_factory=set)
    html: str = field(default="", repr=False)  # its own markup, start tag to end tag, to look inside with find_all


class _Collector(HTMLParser):
    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self._open: list[tuple[Element, int]] = []  # each open element and where its markup starts
        self._html = html
        self._lines = [0]  # where each line starts, to turn getpos() into an offset
        for line in html.split("\n"):
            self._lines.append(self._lines[-1] + len(line) + 1)

    def _offset(self) -> int:
        line, column = self.getpos()
        return self._lines[line - 1] + column

    def _close(self, depth: int, end: int) -> None:
        """Ends the open elements from ``depth`` on at ``end``."""
        for element, start in self._open[depth:]:
            element.html = self._html[start:end]
        del self._open[depth:]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]], *, closed: bool = False) -> None:
        values = {name: value or "" for name, value in attrs}
        element = Element(tag, values, classes=set(values.get("class", "").split()))
        self.elements.append(element)
        if closed or tag in VOID:
            element.html = self.get_starttag_text() or ""
        else:
            self._open.append((element, self._offset()))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:  # <path .../>, in an svg
        self.handle_starttag(tag, attrs, closed=True)

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self._open) - 1, -1, -1):
            if self._open[depth][0].tag == tag:
                start = self._offset()
                self._close(depth + 1, start)  # left open (a <li> without </li>): ends where its parent ends
                self._close(depth, self._html.find(">", start) + 1 or len(self._html))
                return

    def handle_data(self, data: str) -> None:
        for element, _ in self._open:
            element.text += data

    def close(self) -> None:
        super().close()
        self._close(0, len(self._html))  # what was never closed runs to the end


def _matches(value: str | None, wanted: str) -> bool:
    if value is None:
        return False
    return value.startswith(wanted) if isinstance(wanted, Prefix) else value == wanted


def find_all(html: str, tag: str, *, cls: str | None = None, **attrs: str) -> list[Element]:
    """Every ``tag`` element of ``html`` (``"*"``: of any tag) with the class ``cls`` and the
    attributes given, in document order, each with the text and the markup inside it.

    ``cls`` is one class among the element's; ``class_`` is the whole attribute. An
    attribute's name is written with ``_`` for ``-`` (``data_version`` for
    ``data-version``) and ``name_`` for ``name``, and in lower case as the parser keeps
    it (``viewbox``); its value must be equal, or begin with it when it is a ``Prefix``.
    A test that an element is absent asks for ``"*"``, so no tag can slip past it."""
    collector = _Collector(html)
    collector.feed(html)
    collector.close()
    wanted = {name.rstrip("_").replace("_", "-"): value for name, value in attrs.items()}
    return [
        element
        for element in collector.elements
        if tag in ("*", element.tag)
        and (cls is None or cls in element.classes)
        and all(_matches(element.attrs.get(name), value) for name, value in wanted.items())
    ]


def find(html: str, tag: str, *, cls: str | None = None, **attrs: str) -> Element:
    """The one element ``find_all`` finds; fails, naming what was asked, on none or several."""
    found = find_all(html, tag, cls=cls, **attrs)
    if len(found) != 1:
        asked = " ".join([tag + (f".{cls}" if cls else ""), *(f"{name}={value!r}" for name, value in attrs.items())])
        raise AssertionError(f"{len(found)} elements match {asked}, not one")
    return found[0]
