"""Six reviewers forcing a fresh report of a long history while a dealer posts rounds:
the outside probe's scenario (gunicorn 2 workers x 4 threads, PostgreSQL, Redis, a
Celery worker for the odds and, where the checkout has one, a reports worker as the
Procfile runs it).

The history is ``--rounds`` rounds (the probe's 55,568) in shoes of whole 8-deck
shoes dealt by the game core, written straight to the database. A dealer posts 5
rounds a second throughout; after ``--seconds`` alone, six reviewers at once ask for a
fresh whole-history report the way the checkout offers it (``GET /review/?fresh=1``
in the oldest, whose answer is the report; "compute now", a POST, and then the review
page until it shows the report, where reports were kept by a job; a plain ``GET
/review/``, summed from the kept shoe days, since). For each phase: the dealer's rounds acknowledged and
latency (p50, p99); each reviewer's answer time and status; how long until the report
was there; the web workers' memory before and after (what they keep), and the peak of
any reports worker.

    python -m benchmarks.forced_reports                  # this checkout
    python -m benchmarks.forced_reports --root /tmp/old  # another checkout, same load
"""

from __future__ import annotations

import argparse
import re
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

from benchmarks import load
from benchmarks.login_flood import CSRF, Dealer, call, production_stack

REVIEWERS = 6
COMPUTED_AT = re.compile(rb'id="computed-at"')

# Run by the checkout's own ``manage.py shell``: whole shoes dealt by the game core,
# written as the recording service writes them, without queueing 55,000 odds jobs.
HISTORY = """
from django.contrib.auth.models import User
from tables import services
from tables.game.bets import results_to_data, settle_bets
from tables.game.cards import pack_cards
from tables.game.shoe import DealingShoe
from tables.models import Round, Shoe, Table

for n in range({reviewers}):
    User.objects.create_superuser(f"reviewer-{{n}}", password="pw-reviewer-1")
table = Table.objects.get(slug="baccarat-2")
paytable, left = table.get_paytable(), {rounds}
while left > 0:
    shoe = services.shoe_start(table=table).shoe
    dealing, rows, dealt = DealingShoe.shuffled(), [], ""
    while not dealing.finished and len(rows) < left:
        outcome = dealing.deal()
        player, banker = pack_cards(outcome.player_cards), pack_cards(outcome.banker_cards)
        dealt += player + banker
        rows.append(Round(
            round_id=f"H{{shoe.pk:07d}}{{len(rows) + 1:03d}}", shoe=shoe, table=table, number=len(rows) + 1,
            player_cards=player, banker_cards=banker, winner=outcome.winner.value,
            player_score=outcome.player_score, banker_score=outcome.banker_score,
            player_card_count=len(outcome.player_cards), banker_card_count=len(outcome.banker_cards),
            player_natural=outcome.player_natural, banker_natural=outcome.banker_natural,
            player_pair=outcome.player_pair, banker_pair=outcome.banker_pair,
            player_perfect_pair=outcome.player_perfect_pair, banker_perfect_pair=outcome.banker_perfect_pair,
            banker_wins_with_six=outcome.banker_wins_with_six, margin=outcome.margin,
            bets=results_to_data(settle_bets(outcome, paytable, round_number=len(rows) + 1)),
        ))
    Round.objects.bulk_create(rows)
    Shoe.objects.filter(pk=shoe.pk).update(last_number=len(rows), dealt=dealt)
    left -= len(rows)
try:
    from tables.services.shoe_days import shoe_days_rebuild
except ImportError:  # a checkout from before the kept shoe days
    pass
else:
    shoe_days_rebuild()  # what recording these rounds one by one would have kept
    try:
        from tables.services.shoe_days import history_sums_rebuild
    except ImportError:  # a checkout from before the sums of all history
        pass
    else:
        history_sums_rebuild()
print(Round.objects.count())
"""


class Reviewer:
    """A signed-in reviewer (a session of its own)."""

    def __init__(self, url: str, name: str) -> None:
        self.url = url
        status, headers, page = call(url, "GET", "/admin/login/")
        self.cookies = self._cookies(headers, {})
        form = {"csrfmiddlewaretoken": self._token(page), "username": name, "password": "pw-reviewer-1"}
        status, headers, _ = self.send("POST", "/admin/login/", urlencode(form).encode(), form=True)
        if status != 302:
            raise RuntimeError(f"{name} could not sign in: {status}")
        self.cookies = self._cookies(headers, self.cookies)

    @staticmethod
    def _cookies(headers: list[tuple[str, str]], cookies: dict[str, str]) -> dict[str, str]:
        for name, value in headers:
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                cookies[key] = rest.split(";")[0]
        return cookies

    @staticmethod
    def _token(page: bytes) -> str:
        found = CSRF.search(page)
        if found is None:
            raise RuntimeError("no CSRF token on the page")
        return found.group(1).decode()

    def send(self, method: str, path: str, body: bytes | None = None, form: bool = False):
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        headers["Referer"] = f"https://127.0.0.1{self.url[self.url.rindex(':') :]}{path}"
        if form:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        return call(self.url, method, path, body, headers)

    def force(self, post: bool) -> tuple[int, float]:
        """Ask for a fresh whole-history report; the answer's status and seconds."""
        began = time.monotonic()
        if post:
            _, _, page = self.send("GET", "/review/")
            body = urlencode({"csrfmiddlewaretoken": self._token(page)}).encode()
            status, _, _ = self.send("POST", "/review/", body, form=True)
        else:
            status, _, _ = self.send("GET", "/review/?fresh=1")
        return status, time.monotonic() - began

    def wait_for_report(self, timeout: float) -> float:
        """Seconds until the review page shows a report (polling as its refresh does)."""
        began = time.monotonic()
        while time.monotonic() - began < timeout:
            status, _, page = self.send("GET", "/review/")
            if status == 200 and COMPUTED_AT.search(page) and b'id="computing"' not in page:
                return time.monotonic() - began
            time.sleep(1)
        return float("nan")


def has_reports_queue(root: Path) -> bool:
    return (root / "tables" / "desk" / "reports.py").exists()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=load.ROOT, help="the checkout whose servers run")
    parser.add_argument("--rounds", type=int, default=55_568)
    parser.add_argument("--seconds", type=float, default=10)
    options = parser.parse_args()
    stack = production_stack(options.root)
    with stack.running():
        began = time.monotonic()
        stored = stack.manage("shell", "-c", HISTORY.format(reviewers=REVIEWERS, rounds=options.rounds))
        stored = stored.splitlines()[-1]
        print(f"history: {stored} rounds written in {time.monotonic() - began:.0f} s", flush=True)
        post = has_reports_queue(options.root)
        if post:
            celery = ("-m", "celery", "-A", "config", "worker", "-Q", "reports", "-n", "reports@%h")
            stack.spawn("reports", sys.executable, *celery, "--concurrency", "1", "--max-tasks-per-child", "1")
        url = stack.http_urls[0]
        dealer = Dealer(url, "baccarat-1", stack.tokens["baccarat-1"])
        reviewers = [Reviewer(url, f"reviewer-{n}") for n in range(REVIEWERS)]
        load.report("dealer alone", phase_figures(*dealer.deal(options.seconds, rate=5)))

        web_before = {pid: load.rss_kib(pid) for pid in stack.http_pids()}
        peak = PeakRSS(stack)
        answers: list[tuple[int, float]] = []
        waits: list[float] = []

        def review(reviewer: Reviewer) -> None:
            status, seconds = reviewer.force(post)
            answers.append((status, seconds))
            # Before, the forced page was the report; after, it is there once kept.
            waits.append(seconds + reviewer.wait_for_report(timeout=600) if post else seconds)

        threads = [threading.Thread(target=review, args=(r,), daemon=True) for r in reviewers]
        for thread in threads:
            thread.start()
        dealt = dealer.deal(options.seconds * 2, rate=5)
        for thread in threads:
            thread.join()
        peak.stop()
        figures = phase_figures(*dealt)
        figures |= {
            "answers 2xx/3xx": sum(status < 400 for status, _ in answers),
            "answers 429": sum(status == 429 for status, _ in answers),
            "answer s, slowest": max(seconds for _, seconds in answers),
            "report there after s, slowest": max(waits),
            "web workers MiB before (sum)": sum(web_before.values()) / 1024,
            "web workers MiB after (sum)": sum(load.rss_kib(pid) for pid in stack.http_pids()) / 1024,
            "web worker MiB peak (largest)": peak.web / 1024,
            "reports worker MiB peak": peak.reports / 1024,
        }
        load.report(f"{REVIEWERS} reviewers force a fresh report, dealer at 5 rounds/s", figures)


def phase_figures(acknowledged: int, latencies: list[float]) -> dict[str, float]:
    return {
        "acknowledged": acknowledged,
        "posted": len(latencies),
        "p50 ms": load.percentile(latencies, 0.5),
        "p99 ms": load.percentile(latencies, 0.99),
    }


class PeakRSS:
    """The largest resident memory seen of any web worker, and of the reports worker's
    processes, sampled every 0.2 s until stopped."""

    def __init__(self, stack: load.Stack) -> None:
        self.stack, self.web, self.reports = stack, 0, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        reports = self.stack.processes.get("reports")
        while not self._stop.wait(0.2):
            for pid in self.stack.http_pids():
                self.web = max(self.web, self._rss(pid))
            if reports is not None:
                for pid in [reports.pid, *load.children(reports.pid)]:
                    self.reports = max(self.reports, self._rss(pid))

    @staticmethod
    def _rss(pid: int) -> int:
        try:
            return load.rss_kib(pid)
        except OSError:
            return 0  # a child that ended meanwhile

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


if __name__ == "__main__":
    main()
