"""Seen in a real browser (issue 49): the screens this issue added or changed on the desk,
at every size the desk is used on: a webhook whose receiver keeps failing says it is
paused and when it is tried again; an alarm that gathered findings shows its count, the
time it turned critical and its findings; a report refused while others run says so,
with a way to try again. Nothing scrolls sideways; the texts are whole."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from .browsing import SIZES, LiveServer, log_in, page_width, screenshot, serving, sized_page
from .hard_shoes import CHOPPY, STREAK, TIE_HEAVY, rounds_of

OWNER, PASSWORD = "desk-owner", "pw-desk-owner-1"

SETUP = """
from datetime import timedelta
from django.contrib.auth.models import User
from django.utils import timezone
from tables import services
from tables.game.alarms import AlarmKind, Finding, Severity
from tables.models import Table, Webhook
from tables.surveillance.alarms import alarm_raise
User.objects.create_superuser("desk-owner", password="pw-desk-owner-1")
table = Table.objects.get(slug="hardening-1")
shoe = services.shoe_start(table=table).shoe
for n, severity in enumerate([Severity.WARNING, Severity.WARNING, Severity.CRITICAL], start=1):
    evidence = {"test": "streak_length", "statistic": 11 + n, "p_value": 10.0 ** -(5 + 3 * n), "rounds": [n, 20 + n]}
    alarm_raise(Finding(AlarmKind.STREAK, severity, f"hardening:{n}", 20 + n, evidence), table=table, shoe=shoe,
                dealer="Nguyễn Thị Minh Khai")
now = timezone.now()
Webhook.objects.create(
    name="Casino surveillance system (primary receiver)", url="https://surveillance.casino.example/hooks/alarms",
    failures_in_row=7, failing_since=now - timedelta(minutes=42), paused_until=now + timedelta(minutes=8),
)
"""


@dataclass
class BusyServer(LiveServer):
    """The embedded server with no report allowed at once (every report is refused, as
    when others take every slot: the refusal's page is what is looked at)."""

    def env(self) -> dict[str, str]:
        return {**super().env(), "REPORTS_AT_ONCE": "0"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from serving(BusyServer(tmp_path_factory.mktemp("busy")))


@pytest.fixture(scope="module")
def desk(server: LiveServer) -> LiveServer:
    server.table("hardening-1", "Hardening 1")
    server.manage("shell", "-c", SETUP)
    return server


@pytest.mark.parametrize("size", ["phone-360", "desktop", "tv", "tv-portrait"])
def test_a_paused_webhook_and_an_alarm_of_three_findings_read_whole(desk: LiveServer, browser: Any, size: str) -> None:
    with sized_page(browser, size) as page:
        log_in(desk, page, "/admin/tables/webhook/", OWNER, PASSWORD)
        assert "paused until" in page.locator("#result_list").inner_text()
        screenshot(page, f"webhooks-paused-{size}")
        assert page_width(page) <= SIZES[size][0]
        page.locator("#result_list tbody a").first.click()
        state = page.locator(".field-receiver_state").inner_text()
        assert "paused: 7 attempts in a row failed since" in state and "tried again at" in state
        screenshot(page, f"webhook-paused-page-{size}")
        assert page_width(page) <= SIZES[size][0]

        page.goto(f"{desk.url}/admin/tables/alarm/")
        page.locator("#result_list tbody a").first.click()
        page.wait_for_selector("#alarm-findings")
        assert page.locator("#alarm-count").inner_text() == "3"
        assert page.locator("#alarm-findings li").count() == 3
        facts = page.locator(".desk-facts").text_content() or ""  # its labels are shown in capitals
        assert "Critical since" in facts and "Last found at" in facts
        screenshot(page, f"alarm-findings-{size}")
        assert page_width(page) <= SIZES[size][0]

        page.goto(f"{desk.url}/admin/")
        item = page.locator("#desk-alarms .desk-alarm").first
        assert "3 findings" in item.inner_text() and "desk-alarm-critical" in (item.get_attribute("class") or "")
        screenshot(page, f"desk-alarm-episode-{size}", full_page=False)
        assert page_width(page) <= SIZES[size][0]


@pytest.mark.parametrize("size", ["phone-360", "desktop", "tv", "tv-portrait"])
def test_a_report_refused_while_others_run_says_so_and_offers_to_try_again(
    desk: LiveServer, browser: Any, size: str
) -> None:
    with sized_page(browser, size) as page:
        log_in(desk, page, "/admin/", OWNER, PASSWORD)
        answer = page.goto(f"{desk.url}/review/")
        assert answer is not None and answer.status == 429 and answer.headers["retry-after"] == "2"
        text = page.locator("main, body").first.inner_text()
        assert "Reports busy" in text and "Too many reports are being made" in text
        again = page.get_by_role("link", name="Try again")
        assert again.get_attribute("href") == "/review/"
        screenshot(page, f"reports-busy-{size}")
        assert page_width(page) <= SIZES[size][0]


HARD = {"choppy": CHOPPY, "dragon": STREAK, "ties": TIE_HEAVY}


@pytest.fixture(scope="module")
def hard_shoes(desk: LiveServer) -> dict[str, int]:
    """An alternating 80-round shoe, a 40-Banker dragon and a tie-heavy shoe, each posted
    round by round to a table of its own, as a dealer system does; the shoes' ids."""
    for seed, (slug, pattern) in enumerate(HARD.items()):
        desk.table(slug, slug.title())
        desk.post(slug, "shoes")
        for body in rounds_of(pattern, seed):
            desk.post(slug, "rounds", body)
    read = (
        "import json; from tables.models import Shoe; "
        "print(json.dumps(dict(Shoe.objects.values_list('table__slug', 'pk'))))"
    )
    shoes: dict[str, int] = json.loads(desk.manage("shell", "-c", read).strip().splitlines()[-1])
    return {slug: shoes[slug] for slug in HARD}


@pytest.mark.parametrize("size", ["phone-360", "desktop", "tv", "tv-portrait"])
def test_the_desk_on_hard_shoes_keeps_one_alarm_an_episode_and_reads_whole(
    desk: LiveServer, hard_shoes: dict[str, int], browser: Any, size: str
) -> None:
    """The shoes that cried wolf (issue 51: 17 alarms on one alternating shoe) now give one
    alarm a kind, its findings counted; every desk page of them fits the screen."""
    with sized_page(browser, size) as page:
        log_in(desk, page, "/admin/", OWNER, PASSWORD)
        for slug, shoe_id in hard_shoes.items():
            page.goto(f"{desk.url}/admin/tables/shoe/{shoe_id}/change/")
            alarms = page.locator("#shoe-alarms .desk-alarm")
            # One alarm an episode: a kind (and, for an advantage window, its bet).
            kinds = [
                (alarms.nth(n).get_attribute("data-kind"), alarms.nth(n).get_attribute("data-subject"))
                for n in range(alarms.count())
            ]
            assert len(kinds) == len(set(kinds)), f"{slug}: two open alarms of one episode: {kinds}"
            screenshot(page, f"desk-shoe-{slug}-{size}")
            assert page_width(page) <= SIZES[size][0]
            if kinds:
                alarms.first.locator("a.desk-alarm-kind").click()
                page.wait_for_selector("#alarm-count")
                listed, count = (
                    page.locator("#alarm-findings li").count(),
                    int(page.locator("#alarm-count").inner_text()),
                )
                assert listed == (0 if count == 1 else min(count, 20))  # the newest 20 of several
                if count > listed > 0:  # what the page leaves out, it says
                    note = page.locator("#findings-left-out").inner_text()
                    assert f"and {count - listed} earlier finding" in note
                screenshot(page, f"desk-alarm-{slug}-{size}")
                assert page_width(page) <= SIZES[size][0]
        page.goto(f"{desk.url}/admin/")
        screenshot(page, f"desk-index-hard-shoes-{size}")
        assert page_width(page) <= SIZES[size][0]
