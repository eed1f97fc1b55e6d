"""What a table page weighs on the wire, as Chromium counts it: a first visit at most
1.5 MB, a repeat visit at most 100 KB, on the embedded default (static files from the
source folders, compressed as they leave) and in production (gunicorn, collectstatic's
hashed and compressed copies, cached for good)."""

from __future__ import annotations

import random
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tables.game.shoe import Shoe
from tests import servers

from .conftest import ROOT, LiveServer

FIRST_VISIT = 1_500_000
REPEAT_VISIT = 100_000


@dataclass
class ProductionServer(LiveServer):
    """The Procfile's ``web`` process: gunicorn on the WSGI application, with the static
    files collectstatic wrote (STATIC_MANIFEST=true)."""

    def env(self) -> dict[str, str]:
        return {**super().env(), "STATIC_MANIFEST": "true"}

    def start(self) -> None:
        self.log = (self.data_dir / "server.log").open("a")
        command = servers.gunicorn(self.port)
        self.process = subprocess.Popen(command, cwd=ROOT, env=self.env(), stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/api/openapi.json", timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("gunicorn did not start: see " + str(self.data_dir / "server.log"))


@pytest.fixture(scope="module")
def production(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ProductionServer]:
    live = ProductionServer(tmp_path_factory.mktemp("production"))
    live.manage("migrate", "-v0")
    live.manage("collectstatic", "--noinput", "-v0")
    live.start()
    yield live
    live.stop()


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
    shoe = Shoe.shuffled(rng=random.Random(18))
    for _ in range(60):
        outcome = shoe.deal()
        cards = {"player": [c.code for c in outcome.player_cards], "banker": [c.code for c in outcome.banker_cards]}
        server.post(slug, "rounds", cards)
    url = f"{server.url}/tables/{slug}/"
    return transferred(page, url), transferred(page, url)


def test_a_table_page_weighs_at_most_1_5_mb_first_and_100_kb_again_on_the_embedded_default(
    server: LiveServer, page: Any
) -> None:
    first, repeat = visit_twice(server, page, "weighed")
    print(f"\nembedded default: first visit {sum(first.values())} bytes, repeat {sum(repeat.values())}")
    assert sum(first.values()) <= FIRST_VISIT, first
    assert sum(repeat.values()) <= REPEAT_VISIT, repeat
    plotly = next(url for url in first if "plotly-basic" in url)
    assert first[plotly] < (ROOT / "static" / "plotly" / "plotly-basic.min.js").stat().st_size / 2, "sent compressed"


def test_a_table_page_weighs_at_most_1_5_mb_first_and_100_kb_again_in_production(
    production: ProductionServer, page: Any
) -> None:
    first, repeat = visit_twice(production, page, "weighed-production")
    print(f"\nproduction: first visit {sum(first.values())} bytes, repeat {sum(repeat.values())}")
    assert sum(first.values()) <= FIRST_VISIT, first
    assert sum(repeat.values()) <= REPEAT_VISIT, repeat
    plotly = next(url for url in first if "plotly-basic" in url)
    with urllib.request.urlopen(urllib.request.Request(plotly, headers={"Accept-Encoding": "br, gzip"})) as answer:
        assert answer.headers["Content-Encoding"] in ("br", "gzip")
        assert "immutable" in answer.headers["Cache-Control"], "hashed names are cached for good"
