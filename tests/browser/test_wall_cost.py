"""What a push costs the browser that shows it (issue 52): TV boxes are the slowest part of
the path. A push to one table of a 13-table wall (two pages), to a display, lays the page
out at most twice, however many tables the wall holds: the browser's own counters
(DevTools' Performance domain) around each push."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tables.game.patterns import deal_pattern

from .browsing import LiveServer, serving, sized_page

TABLES = 13
DEALT = 30  # rounds each table has before the page opens
PUSHES = 4
MOST_LAYOUTS = 2  # a push's own layouts: the swap, and what the page's script reads after it


class PromptServer(LiveServer):
    """Pushes each round as it comes (no push interval): one push, one round."""

    def env(self) -> dict[str, str]:
        return {**super().env(), "PUSH_INTERVAL": "0"}


def next_round(seed: int, number: int) -> dict[str, list[str]]:
    """Round ``number`` (1 first) of the shoe ``shoe_deal --pattern ... --seed`` deals."""
    outcome = deal_pattern("." * number, seed)[-1]
    return {"player": [c.code for c in outcome.player_cards], "banker": [c.code for c in outcome.banker_cards]}


DEALTS: dict[str, int] = {}  # each table's rounds so far


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    for live in serving(PromptServer(tmp_path_factory.mktemp("wall-cost"))):
        for n in range(TABLES):
            slug = f"cost-{n:02d}"
            live.table(slug, f"Baccarat {n + 1:02d}")
            live.manage("shoe_deal", slug, "--pattern", "." * DEALT, "--seed", str(n))
            DEALTS[slug] = DEALT
        yield live


# The round a page shows of the table: on the wall, its card's third fact; on its own
# pages, the game info's version ("shoe:round:...").
ROUND_SHOWN = """([slug, n]) => {
    const card = document.querySelector(`#table-${slug} .facts div:nth-child(3) dd`);
    const info = document.getElementById('game-info');
    return card ? card.textContent.trim() == n : !!info && info.dataset.version.split(':')[1] == n;
}"""


# Counts the pushes the page takes in (live.js swaps each in, then htmx says so).
COUNT_PUSHES = "window.pushesSeen = 0; document.addEventListener('htmx:wsAfterMessage', () => window.pushesSeen++)"


def layouts(client: Any) -> int:
    metrics = client.send("Performance.getMetrics")["metrics"]
    return int(next(m["value"] for m in metrics if m["name"] == "LayoutCount"))


def settled(page: Any) -> None:
    """Two frames painted: what the push changed is on the screen."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def push_costs(server: LiveServer, page: Any, slugs: list[str]) -> list[float]:
    """Layouts per push as a round is posted to each of ``slugs`` in turn, on ``page``."""
    page.wait_for_selector("#connection.connection-live", state="attached")
    settled(page)
    page.evaluate(COUNT_PUSHES)
    client = page.context.new_cdp_session(page)
    client.send("Performance.enable")
    costs = []
    for slug in slugs:
        number = DEALTS[slug] = DEALTS[slug] + 1
        settled(page)
        before, pushes = layouts(client), page.evaluate("window.pushesSeen")
        server.post(slug, "rounds", next_round(int(slug.rsplit("-", 1)[1]), number))
        page.wait_for_function(ROUND_SHOWN, arg=[slug, str(number)], timeout=5000)
        settled(page)
        # A round may come as two pushes (its card, then its odds once worked out).
        costs.append((layouts(client) - before) / (page.evaluate("window.pushesSeen") - pushes))
    return costs


@pytest.mark.parametrize("size", ["tv", "tv-portrait"])
def test_a_push_to_one_table_of_a_13_table_wall_lays_the_wall_out_at_most_twice(
    server: LiveServer, browser: Any, size: str
) -> None:
    with sized_page(browser, size) as page:
        page.clock.install()  # the wall's clock and page turns wait: what is counted is the push's
        page.goto(f"{server.url}/lobby/screen/")
        costs = push_costs(server, page, [f"cost-{n:02d}" for n in range(PUSHES)])
        print(f"\n{size}: layouts per push {costs}")
        assert max(costs) <= MOST_LAYOUTS, costs


@pytest.mark.parametrize("size", ["tv", "tv-portrait"])
def test_a_push_to_a_tables_display_lays_it_out_at_most_twice(server: LiveServer, browser: Any, size: str) -> None:
    with sized_page(browser, size) as page:
        page.clock.install()
        page.goto(f"{server.url}/tables/cost-12/display/")
        costs = push_costs(server, page, ["cost-12"] * PUSHES)
        print(f"\n{size}: layouts per push {costs}")
        assert max(costs) <= MOST_LAYOUTS, costs
