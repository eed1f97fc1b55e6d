"""Seen in a real browser: the reviewer's desk in admin. A reviewer opens a round from
the Transaction ID box, sees its cards, bets and roads, voids it with a reason and sees
the audit event on the round and its shoe; the round leaves the open table page's roads live; staff without the
void permission are refused and nothing changes."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.road_marks import marks
from tests.rounds import SEED

from .browsing import SIZES, LiveServer, screenshot, sized_page
from .measuring import contrast

BANKER_NATURAL = {"player": ["2H", "3D"], "banker": ["9S", "KH"]}
USERS = (
    "from django.contrib.auth.models import Group, Permission, User; "
    "rita = User.objects.create_user('rita', password='pw-rita-1', is_staff=True); "
    "rita.groups.add(Group.objects.get(name='reviewer')); "
    "victor = User.objects.create_user('victor', password='pw-victor-1', is_staff=True); "
    "victor.user_permissions.add(*Permission.objects.filter(codename__in=['view_round', 'view_shoe']))"
)


@pytest.fixture(scope="module")
def desk(server: LiveServer) -> LiveServer:
    """The server with a reviewer (rita) and a staff member who may only look (victor)."""
    server.manage("shell", "-c", USERS)
    return server


def log_in(page: Any, server: LiveServer, username: str, password: str) -> None:
    page.goto(server.url + "/admin/login/?next=/admin/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("input[type=submit]")
    page.wait_for_selector("#site-name")


def bead_marks(page: Any, kind: str) -> list[tuple[int, int]]:
    return marks(page.locator("#road-bead_plate").inner_html(), kind)


def test_a_reviewer_finds_a_round_by_its_id_and_voids_it_live(desk: LiveServer, browser: Any, page: Any) -> None:
    desk.table("desk-1", "Desk 1")
    desk.post("desk-1", "shoes")
    desk.post("desk-1", "rounds", SEED)
    disputed = desk.post("desk-1", "rounds", BANKER_NATURAL)["round"]
    desk.post("desk-1", "rounds", SEED)

    table = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    table.goto(desk.url + "/tables/desk-1/")
    table.wait_for_selector("#connection.connection-live")
    assert bead_marks(table, "bead-B") == [(0, 1)]

    log_in(page, desk, "rita", "pw-rita-1")
    page.fill("#round-lookup", disputed["id"])
    page.click(".desk-lookup button")
    page.wait_for_selector("#round-desk")
    assert disputed["id"] in page.locator(".desk-facts").inner_text()
    assert page.locator(".desk-hands .card").count() == 4  # 2H 3D, 9S KH
    assert page.locator(".desk-bets tbody tr").count() == 14
    assert page.locator("svg.road-bead_plate rect.marked").count() == 1
    page.click(".desk-void-button")
    page.fill("textarea[name=reason]", "card misread by the shoe reader")
    page.click(".desk-void-form input[type=submit]")
    page.wait_for_selector(".desk-audit-event")
    assert "card misread by the shoe reader" in page.locator("#round-audit").inner_text()
    assert "rita" in page.locator("#round-audit").inner_text()
    page.click(".desk-facts a:text('Shoe 1')")  # the void is on its shoe's page too
    page.wait_for_selector(".shoe-desk .desk-audit-event")
    shoe_events = page.locator(".shoe-desk .desk-audit").inner_text()
    assert disputed["id"] in shoe_events and "card misread by the shoe reader" in shoe_events
    screenshot(page, "desk-shoe-with-void")

    table.wait_for_selector("#history tr.voided", timeout=3000)  # the same push swaps the roads
    assert bead_marks(table, "bead-P") == [(0, 0), (0, 1)]  # the voided Banker win left the roads
    table.context.close()

    page.goto(desk.url + "/admin/")
    assert disputed["id"] in page.locator("#recent-voids").inner_text()


def test_staff_without_the_void_permission_get_403_and_nothing_changes(desk: LiveServer, page: Any) -> None:
    desk.table("desk-2", "Desk 2")
    desk.post("desk-2", "shoes")
    round_ = desk.post("desk-2", "rounds", SEED)["round"]
    log_in(page, desk, "victor", "pw-victor-1")
    page.goto(desk.url + "/admin/tables/round/lookup/?round_id=" + round_["id"])
    page.wait_for_selector("#round-desk")
    assert page.locator(".desk-void-button").count() == 0
    void_url = page.url.replace("/change/", "/void/")
    assert page.goto(void_url).status == 403
    refused = page.request.post(void_url, form={"reason": "misread"}, fail_on_status_code=False)
    assert refused.status == 403
    page.goto(desk.url + "/admin/tables/round/lookup/?round_id=" + round_["id"])
    assert page.locator(".desk-void-note").count() == 0  # not voided


def test_screenshots_of_the_desk(desk: LiveServer, browser: Any) -> None:
    desk.table("desk-3", "Desk 3")
    desk.post("desk-3", "shoes")
    hands = [SEED, BANKER_NATURAL] * 4  # 2H eight times: all the shoe has
    ids = [desk.post("desk-3", "rounds", hand)["round"]["id"] for hand in hands]
    widths = {}
    for size in ("desktop", "phone-390"):
        with sized_page(browser, size) as page:
            log_in(page, desk, "rita", "pw-rita-1")
            screenshot(page, f"desk-admin-index-{size}")
            page.goto(desk.url + "/admin/tables/round/lookup/?round_id=" + ids[5])
            page.wait_for_selector("#round-desk")
            screenshot(page, f"desk-round-{size}")
            widths[f"round@{size}"] = page.evaluate("document.documentElement.scrollWidth")
            page.goto(page.url + "?lang=zh-hans")  # a reviewer who reads Chinese (issue 21)
            page.wait_for_selector("#round-desk")
            screenshot(page, f"desk-round-zh-hans-{size}")
            widths[f"round@{size} in zh-hans"] = page.evaluate("document.documentElement.scrollWidth")
            page.goto(desk.url + "/admin/tables/round/")  # the newest round first: this test's
            screenshot(page, f"desk-rounds-{size}")
            widths[f"rounds@{size}"] = page.evaluate("document.querySelector('#result_list').scrollWidth")
            widths[f"rounds-box@{size}"] = page.evaluate("document.querySelector('.results').clientWidth")
            # What a reviewer looks for first, in view without scrolling sideways: the
            # round, its result (a chip) and its time.
            first_columns = page.evaluate(
                """() => ['field-round_id', 'field-result', 'field-when'].map(c =>
                    document.querySelector('#result_list tbody tr td.' + c + ', #result_list tbody tr th.' + c)
                        .getBoundingClientRect().right)"""
            )
            assert max(first_columns) <= SIZES[size][0], f"{size}: round, result, time end at {first_columns}"
    for name, width in widths.items():
        size = name.split("@")[1].split()[0]
        if name.startswith("round@"):  # the list may scroll in its own box on a phone
            assert width <= SIZES[size][0], f"{name} is {width} px wide"
    assert widths["rounds@desktop"] <= widths["rounds-box@desktop"]  # every column of the list in view at 1440 px


FELT, GOLD = "rgb(13, 21, 18)", "rgb(216, 179, 90)"  # the product's darkest green and its gold


def colours(page: Any, selector: str) -> tuple[str, str]:
    """(text colour, the background it sits on) of the first element ``selector`` finds."""
    return page.evaluate(
        """s => { const e = document.querySelector(s), colour = getComputedStyle(e).color;
            for (let at = e; at; at = at.parentElement) {
                const bg = getComputedStyle(at).backgroundColor;
                if (bg !== 'rgba(0, 0, 0, 0)') return [colour, bg];
            }
            return [colour, 'rgb(255, 255, 255)']; }""",
        selector,
    )


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_admin_wears_the_products_colours_legibly_in_both_of_its_themes(
    desk: LiveServer, browser: Any, theme: str
) -> None:
    slug = f"desk-{theme}"
    desk.table(slug, f"Desk {theme}")
    desk.post(slug, "shoes")
    desk.post(slug, "rounds", SEED)  # Player wins: a bet row marked won
    context = browser.new_context(viewport={"width": 1440, "height": 900}, color_scheme=theme)
    page = context.new_page()
    try:
        log_in(page, desk, "rita", "pw-rita-1")
        assert page.evaluate("getComputedStyle(document.getElementById('header')).backgroundColor") == FELT
        assert colours(page, "#site-name a")[0] == GOLD and page.inner_text("#site-name").endswith("Baccarat Roads")
        page.goto(desk.url + "/admin/tables/round/")  # the newest round first: this test's
        screenshot(page, f"admin-rounds-{theme}", full_page=False)
        chip = colours(page, "#result_list .result-chip")
        assert chip[1] == "rgb(31, 111, 209)" and contrast(*chip) >= 4.5, "the result a chip in the Player's blue"
        for selector in (
            "#result_list tbody th a",
            "#result_list .suit-black",
            "#result_list .suit-red",
            "#changelist-filter a",
        ):
            assert contrast(*colours(page, selector)) >= 4.5, (selector, colours(page, selector))
        page.click("#result_list tbody th a")
        page.wait_for_selector(".desk-bets")
        screenshot(page, f"admin-round-{theme}")
        won = colours(page, ".desk-bets tr.bet-win th")
        assert contrast(*won) >= 4.5, "a won bet reads on its gold"
        red, green, blue = map(int, re.findall(r"\d+", won[1])[:3])
        assert red >= green > blue, f"a won bet in gold, not the Tie's green: {won[1]}"
        assert contrast(*colours(page, ".desk-copy")) >= 4.5 and contrast(*colours(page, ".desk-void-button")) >= 4.5
        if theme == "dark":
            assert page.evaluate("getComputedStyle(document.body).backgroundColor") == FELT
    finally:
        context.close()
