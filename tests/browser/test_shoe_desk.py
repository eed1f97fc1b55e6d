"""Seen in a real browser: a reviewer opens a shoe's admin page and steps its replay."""

from __future__ import annotations

from typing import Any

from tests.road_marks import marks
from tests.rounds import SEED

from .browsing import LiveServer, page_width, screenshot, sized_page

BANKER_WIN = {"player": ["2H", "3D"], "banker": ["9S", "KH"]}
TIE = {"player": ["4C", "4D"], "banker": ["3H", "5S"]}
REVIEWER = "desk-reviewer"
PASSWORD = "pw-desk-reviewer-1"


def make_reviewer(server: LiveServer) -> None:
    """Staff who may view tables, shoes and rounds, and nothing else."""
    server.manage(
        "shell",
        "-c",
        "from django.contrib.auth.models import Permission, User; "
        f"u = User.objects.create_user({REVIEWER!r}, password={PASSWORD!r}, is_staff=True); "
        "u.user_permissions.set(Permission.objects.filter(codename__in=['view_table', 'view_shoe', 'view_round']))",
    )


def log_in(server: LiveServer, page: Any, next_path: str) -> None:
    page.goto(f"{server.url}/admin/login/?next={next_path}")
    page.fill("#id_username", REVIEWER)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")


def beads(page: Any, kind: str) -> list[tuple[int, int]]:
    return marks(page.locator("#replay svg.road-bead_plate").inner_html(), kind)


def at_round(page: Any, number: int) -> None:
    page.wait_for_selector(f"#replay[data-round='{number}']", timeout=5000)


def test_a_reviewer_steps_a_shoes_replay_forward_and_back(server: LiveServer, page: Any, browser: Any) -> None:
    server.table("desk-1", "Desk 1")
    server.post("desk-1", "shoes")
    for cards in (SEED, BANKER_WIN, TIE, BANKER_WIN):
        server.post("desk-1", "rounds", cards)
    make_reviewer(server)

    log_in(server, page, "/admin/tables/shoe/")
    page.click("#result_list a:has-text('Desk 1')")
    at_round(page, 4)  # the shoe as it stands: after its last round
    page.wait_for_load_state("load")  # htmx has bound its links (a click before that navigates)
    page.evaluate("window.notReloaded = true")
    assert beads(page, "bead-B") == [(0, 1), (0, 3)]
    assert "Banker wins" in page.locator("#replay #last-round").inner_text()

    page.click("#replay [data-step=previous]")
    at_round(page, 3)
    assert beads(page, "bead-B") == [(0, 1)] and beads(page, "bead-T") == [(0, 2)]
    assert "Tie" in page.locator("#replay #last-round").inner_text()
    assert page.evaluate("window.notReloaded") is True, "the step loaded a page; htmx should swap the replay in"
    # The slider and the address follow once htmx has settled the swap (static/js/shoe_desk.js).
    page.wait_for_function("() => document.getElementById('replay-round').value === '3'", timeout=5000)
    assert page.locator("#replay-round").input_value() == "3" and "?round=3" in page.url

    page.click("#replay [data-step=first]")
    at_round(page, 1)
    assert beads(page, "bead-B") == [] and beads(page, "bead-P") == [(0, 0)]
    assert page.locator("#replay svg.road-bead_plate rect.marked").count() == 1  # round 1 outlined
    assert "Player wins" in page.locator("#replay #last-round").inner_text()

    page.click("#replay [data-step=next]")
    at_round(page, 2)
    page.locator("#replay-round").press("End")  # the slider, moved to its end
    at_round(page, 4)
    assert beads(page, "bead-B") == [(0, 1), (0, 3)]
    page.wait_for_selector("#replay #stats [data-chart] .main-svg", state="attached")  # its charts drawn again
    assert page.evaluate("window.notReloaded") is True  # htmx swapped the replay in; the page stayed

    page.goto(page.url.split("?")[0] + "?round=2")  # the address it kept shows the same round
    at_round(page, 2)

    for size in ("desktop", "phone-390"):
        with sized_page(browser, size) as sized:
            log_in(server, sized, page.url.split("?")[0].removeprefix(server.url) + "?round=3")
            at_round(sized, 3)
            sized.wait_for_selector("#replay #stats [data-chart] .main-svg", state="attached")
            screenshot(sized, f"shoe-desk-{size}")
            screenshot(sized, f"shoe-desk-{size}-screen", full_page=False)  # what a reviewer sees first
            sized.locator("#review").scroll_into_view_if_needed()
            screenshot(sized, f"shoe-desk-{size}-review", full_page=False)
            assert page_width(sized) <= sized.viewport_size["width"], f"the shoe desk scrolls sideways at {size}"
