"""Serve plotly.js from the plotly package itself, never from a CDN."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import plotly
from django.contrib.staticfiles.finders import BaseFinder
from django.core.files.storage import FileSystemStorage

PACKAGE_DATA = Path(plotly.__file__).parent / "package_data"


class PlotlyFinder(BaseFinder):
    """Finds ``plotly/plotly.min.js`` (and nothing else of the package's data)."""

    name = "plotly.min.js"
    prefix = "plotly"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.storage = FileSystemStorage(location=PACKAGE_DATA)
        self.storage.prefix = self.prefix  # type: ignore[attr-defined]

    def check(self, **kwargs: Any) -> list[Any]:
        return []

    # Django's own finders answer [] for "not here" (the stubs say None), and take the
    # deprecated ``all`` keyword as well as ``find_all``: this matches what Django calls.
    def find(self, path: str, find_all: bool = False, **kwargs: Any) -> str | list[str]:  # type: ignore[override]
        match = str(PACKAGE_DATA / self.name) if path == f"{self.prefix}/{self.name}" else None
        if find_all or kwargs.get("all"):
            return [match] if match else []
        return match or []

    def list(self, ignore_patterns: Any) -> Iterator[tuple[str, FileSystemStorage]]:
        yield self.name, self.storage
