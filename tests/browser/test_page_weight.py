"""What a table page weighs on the wire, as Chromium counts it: a first visit at most
1.5 MB, a repeat visit at most 100 KB, on the embedded default (static files from the
source folders, compressed as they leave) and in production (gunicorn, collectstatic's
hashed and compressed copies, cached for good)."""

from __future__ import annotations

import random
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tables.game.shoe import DealingShoe
from tests import servers

from .browsing import ROOT, LiveServer, serving

FIRST_VISIT = 1_500_000
REPEAT_VISIT = 100_000


@dataclass
class ProductionServer(LiveServer):
    """The Procfile's ``web`` process: gunicorn on the WSGI application, with the static
    files collectstatic wrote (STATIC_MANIFEST=true)."""

    def env(self) -> dict[str, str]:
        return {**super().env(), "STATIC_MANIFEST": "true"}

    def command(self) -> list[str]:
        return servers.gunicorn(self.port)

    def prepare(self) -> None:
        super().prepare()
        self.manage("collectstatic", "--noinput", "-v0")


@pytest.fixture(scope="module")
def production(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from serving(ProductionServer(tmp_path_factory.mktemp("production")))


def transferred(page: Any, url: str) -> dict[str, int]:
    """Bytes received for each response while ``url`` loads and draws its charts
    (headers included; 0 for what came from the browser's cache)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    names: dict[str, str] = {}
    sizes: dict[str, int] = {}
    cdp.on("Network.responseReceived", lambda event: names.__setitem__(event["requestId"], event["response"]["url"]))
    cdp.on("Network.loadingFinished", lambda event: sizes.__setitem__(event["requestId"], event["encodedDataLength"]))
    page.goto(url)
    page.wait_for_selector("[data-chart] .main-svg", state="attached")  # plotly.js came and drew
    page.wait_for_load_state("networkidle")
    cdp.detach()
    return {names.get(request, request): int(size) for request, size in sizes.items()}


def visit_twice(server: LiveServer, page: Any, slug: str) -> tuple[dict[str, int], dict[str, int]]:
    server.table(slug, "Weighed")
    server.post(slug, "shoes")
    shoe, dealt = DealingShoe.shuffled(rng=random.Random(18)), []
    for _ in range(60):
        outcome = shoe.deal()
        dealt.append(
            {"player": [c.code for c in outcome.player_cards], "banker": [c.code for c in outcome.banker_cards]}
        )
    server.record(slug, dealt)  # before the page opens: at once
    url = f"{server.url}/tables/{slug}/"
    return transferred(page, url), transferred(page, url)


@pytest.mark.parametrize("served", ["server", "production"])  # the embedded default; gunicorn
def test_a_table_page_weighs_at_most_1_5_mb_first_and_100_kb_again(
    served: str, page: Any, request: pytest.FixtureRequest
) -> None:
    server: LiveServer = request.getfixturevalue(served)
    first, repeat = visit_twice(server, page, f"weighed-{served}")
    print(f"\n{served}: first visit {sum(first.values())} bytes, repeat {sum(repeat.values())}")
    assert sum(first.values()) <= FIRST_VISIT, first
    assert sum(repeat.values()) <= REPEAT_VISIT, repeat
    plotly = next(url for url in first if "plotly-basic" in url)
    assert first[plotly] < (ROOT / "static" / "plotly" / "plotly-basic.min.js").stat().st_size / 2, "sent compressed"
    if served == "production":
        with urllib.request.urlopen(urllib.request.Request(plotly, headers={"Accept-Encoding": "br, gzip"})) as answer:
            assert answer.headers["Content-Encoding"] in ("br", "gzip")
            assert "immutable" in answer.headers["Cache-Control"], "hashed names are cached for good"
