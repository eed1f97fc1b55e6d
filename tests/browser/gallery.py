"""The screenshot gallery (docs/screenshots): every screen at every size the product is
used on, on each hard shoe (tables/game/patterns.py), for a reviewer to look at all at
once. One command, on a fresh embedded server of its own:

    .venv/bin/python -m tests.browser.gallery

It writes docs/screenshots/<screen>-<shoe>-<size>.png and docs/screenshots/README.md,
which shows them by screen and shoe; ``--only table`` makes one screen's again."""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from tables.game.patterns import HARD_SHOES

from .browsing import CHROMIUM, CHROMIUM_ARGS, ROOT, LiveServer, serving, sized_page, table_with_limits

GALLERY = ROOT / "docs" / "screenshots"
SHOES = tuple(HARD_SHOES)
PHONES_AND_DESKTOP = ("phone-360", "phone-390", "desktop")
TVS = ("tv", "tv-portrait")


@dataclass(frozen=True)
class Screen:
    """A page of one table (or of all: ``per_shoe`` False), at the sizes it is used on;
    ``whole``: the whole page's length on the sizes one scrolls (else the first screen)."""

    name: str
    title: str
    path: str
    ready: str
    sizes: tuple[str, ...]
    per_shoe: bool = True
    whole: bool = False


LIVE = "#connection.connection-live"
EVERY_SIZE = (*PHONES_AND_DESKTOP, *TVS)
SCREENS = (
    Screen("table", "Table page (players)", "/tables/{slug}/", LIVE, EVERY_SIZE, whole=True),
    Screen(
        "display",
        "Table display (TV beside the table)",
        "/tables/{slug}/display/",
        "svg.road[data-cell]",
        ("desktop", *TVS),
    ),
    Screen("lobby", "Lobby (players)", "/", "#lobby-filter", EVERY_SIZE, per_shoe=False, whole=True),
    Screen("wall", "Lobby wall (TV)", "/lobby/screen/", LIVE, TVS, per_shoe=False),
)


def deal_hard_shoes(server: LiveServer) -> None:
    """A table for each hard shoe, its shoe dealt by ``manage.py shoe_deal``."""
    for shoe in SHOES:
        table_with_limits(server, shoe, shoe.replace("-", " ").title())
        server.manage("shoe_deal", shoe, "--shoe", shoe, "--seed", "7")


def shots(screens: tuple[Screen, ...]) -> Iterator[tuple[Screen, str | None, str]]:
    for screen in screens:
        for shoe in SHOES if screen.per_shoe else (None,):
            for size in screen.sizes:
                yield screen, shoe, size


def file_name(screen: Screen, shoe: str | None, size: str) -> str:
    return f"{screen.name}-{shoe or 'all'}-{size}.png"


@contextmanager
def chromium() -> Iterator[Any]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def take(browser: Any, server: LiveServer, screen: Screen, shoe: str | None, size: str) -> Path:
    path = GALLERY / file_name(screen, shoe, size)
    with sized_page(browser, size) as page:
        page.goto(server.url + screen.path.format(slug=shoe))
        page.wait_for_selector(screen.ready, state="attached")
        page.evaluate("document.fonts.ready")
        whole = screen.whole and size not in TVS
        page.screenshot(path=str(path), full_page=whole)
    return path


def index(screens: tuple[Screen, ...]) -> str:
    """docs/screenshots/README.md: each screen, a row a shoe, a column a size."""
    lines = [
        "# Screenshots",
        "",
        "Made by `.venv/bin/python -m tests.browser.gallery` (tests/browser/gallery.py) on the hard",
        "shoes of tables/game/patterns.py, each dealt by `manage.py shoe_deal` from seed 7. Phones and the",
        "desktop show the whole page; the TVs their one screen.",
        "",
    ]
    for screen in screens:
        lines += [f"## {screen.title}", "", "| shoe | " + " | ".join(screen.sizes) + " |"]
        lines.append("|---" * (len(screen.sizes) + 1) + "|")
        for shoe in SHOES if screen.per_shoe else (None,):
            names = [file_name(screen, shoe, size) for size in screen.sizes]
            cells = [f"[![{name}]({name})]({name})" for name in names]
            lines.append(f"| {shoe or 'all tables'} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None, progress: Callable[[str], object] = print) -> list[Path]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=[screen.name for screen in SCREENS], action="append")
    args = parser.parse_args(argv)
    screens = tuple(screen for screen in SCREENS if not args.only or screen.name in args.only)
    GALLERY.mkdir(parents=True, exist_ok=True)
    made = []
    with tempfile.TemporaryDirectory(prefix="gallery-") as data, chromium() as browser:
        for server in serving(LiveServer(Path(data))):
            deal_hard_shoes(server)
            for screen, shoe, size in shots(screens):
                made.append(take(browser, server, screen, shoe, size))
                progress(made[-1].name)
    (GALLERY / "README.md").write_text(index(SCREENS) + "\n")
    return made


if __name__ == "__main__":
    main()
