"""kill -9 the server during a burst of posts, on the run's backend: every round the
server acknowledged is stored, none is half-written, and after a restart every stored
round gets its odds.

On the embedded default the odds jobs wait in the server's memory and die with it; the
restarted server's start-up sweep computes them. Scaled out, the jobs wait in Redis: the
test empties the broker's queue as well (a Redis restarted without persistence, as it is
run here), and Celery beat's sweep computes them."""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from tables.game.shoe import DealingShoe

from . import servers
from .served import Served, scaled

TABLES = 4
KILL_AFTER = 80  # acknowledged rounds, all tables together
ODDS_WITHIN = 90  # seconds after the restart


@dataclass
class DealerSystem:
    """Posts one table's shoe round after round, each with its number, and remembers what
    the server acknowledged. On a broken connection it stops, keeping the round in flight
    to send again (a dealer system retries)."""

    url: str
    slug: str
    token: str
    seed: int
    acknowledged: dict[int, dict] = field(default_factory=dict)  # number -> the round as answered
    in_flight: dict | None = None

    def __post_init__(self) -> None:
        shoe = DealingShoe.shuffled(rng=random.Random(self.seed))
        self.rounds = []
        while not shoe.finished:
            outcome = shoe.deal()
            cards = {"player": [c.code for c in outcome.player_cards], "banker": [c.code for c in outcome.banker_cards]}
            self.rounds.append({**cards, "round": len(self.rounds) + 1, "dealer": "Anna"})

    def post(self, path: str, body: dict | None = None) -> tuple[int, dict]:
        request = urllib.request.Request(
            f"{self.url}/api/tables/{self.slug}/{path}",
            data=json.dumps(body).encode() if body is not None else b"",
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def deal(self, acknowledged: threading.Semaphore) -> None:
        for body in self.rounds:
            self.in_flight = body
            try:
                status, answer = self.post("rounds", body)
            except (OSError, http.client.HTTPException):
                return  # the server is gone (killed before or while answering: no acknowledgement)
            assert status == 201, answer
            self.acknowledged[body["round"]] = answer["round"]
            self.in_flight = None
            acknowledged.release()


@pytest.fixture
def served(tmp_path) -> Iterator[Served]:
    if problem := servers.missing():
        servers.unavailable(problem)
    running = Served.create(tmp_path, ODDS_SWEEP_SECONDS="2")
    try:
        yield running
    finally:
        running.stop()


def test_a_server_killed_mid_burst_keeps_every_acknowledged_round_whole_and_all_get_their_odds(served) -> None:
    served.start_http()  # first: its manage.py process loads Django meanwhile (Served.create)
    dealers = [DealerSystem(served.url, f"kill-{i}", served.table(f"kill-{i}"), seed=i) for i in range(TABLES)]
    for dealer in dealers:
        assert dealer.post("shoes")[0] == 201
    acknowledged = threading.Semaphore(0)
    threads = [threading.Thread(target=dealer.deal, args=(acknowledged,)) for dealer in dealers]
    for thread in threads:
        thread.start()
    for _ in range(KILL_AFTER):
        assert acknowledged.acquire(timeout=60), "the burst stalled"
    served.kill("http")  # mid-burst: every dealer has a round in flight or about to be
    for thread in threads:
        thread.join(timeout=30)
    if scaled():
        served.redis("flushdb")  # the broker's queue is lost too

    before = served.audit()
    stored = {(r["table"], r["number"]): r for r in before["rounds"]}
    total = sum(len(d.acknowledged) for d in dealers)
    assert total >= KILL_AFTER
    for dealer in dealers:
        for number, answered in dealer.acknowledged.items():
            kept = stored[(dealer.slug, number)]  # acknowledged, so stored
            assert kept["id"] == answered["id"]
            assert kept["player"] == "".join(answered["player_cards"])
    assert before["problems"] == []  # no round half-written, every shoe whole
    assert before["without_odds"] > 0, "the kill lost no odds job: the test proves nothing"

    served.start_http()
    if scaled():
        served.start_workers()
    # Nothing is posted yet (a new round would queue its shoe's odds): the sweep alone
    # must find them, in the server (embedded) or a worker (scaled).
    deadline = time.monotonic() + ODDS_WITHIN
    while (after := served.audit())["without_odds"] and time.monotonic() < deadline:
        time.sleep(0.5)
    assert after["without_odds"] == 0, f"{after['without_odds']} of {len(after['rounds'])} rounds never got odds"
    for dealer in dealers:  # the dealer systems send the round in flight again
        if dealer.in_flight is not None:
            status, answer = dealer.post("rounds", dealer.in_flight)
            assert status in (200, 201), answer  # 200: it was stored before the kill, unacknowledged
    assert served.audit()["problems"] == []
    print(f"\nkill -9: {total} rounds acknowledged, {before['without_odds']} without odds at the kill, all computed")
