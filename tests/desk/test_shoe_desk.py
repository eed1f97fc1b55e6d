"""The shoe's admin page, the reviewer's desk: read-only, with the shoe's statistics,
the cards dealt against the shoe, its rounds, and a replay of the table page."""

from __future__ import annotations

from django.contrib.auth.models import Permission, User
from django.test import Client

from tables import services
from tables.desk.shoe import cards_dealt, replay_context, shoe_review, shoe_rounds
from tables.models import Shoe, Table
from tests.html import Prefix, find, find_all
from tests.rounds import SEED

BANKER_WIN = {"player": ["2H", "3D"], "banker": ["9S", "KH"]}  # B natural 9
TIE = {"player": ["4C", "4D"], "banker": ["3H", "5S"]}  # 8 against 8
OTHER_TIE = {"player": ["5C", "4H"], "banker": ["6D", "3S"]}  # 9 against 9


def dealt_shoe(table: Table, *hands: dict[str, list[str]]) -> Shoe:
    shoe = services.shoe_start(table=table).shoe
    for cards in hands:
        services.round_record(table=table, **cards)
    shoe.refresh_from_db()
    return shoe


def desk(client: Client, shoe: Shoe, query: str = "") -> str:
    response = client.get(f"/admin/tables/shoe/{shoe.pk}/change/{query}")
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def marks(html: str, road: str, kind: str) -> int:
    """How many marks of ``kind`` the road ``road`` draws (a path's vertices)."""
    svg = find(html, "svg", class_=f"road road-{road}")
    paths = find_all(svg.html, "path", class_=f"mk-{kind}")  # not an ask's: "ask-B mk-..."
    return 0 if not paths else len(paths[0].attrs["d"].removeprefix("M").removesuffix("h0").split(" ")) // 2


def test_the_replay_shows_the_roads_stats_and_round_as_they_stood_after_round_k(
    client: Client, baccarat_1, staff_reviewer
) -> None:
    shoe = dealt_shoe(baccarat_1[0], SEED, BANKER_WIN, BANKER_WIN)
    client.force_login(staff_reviewer)

    last = desk(client, shoe)
    assert marks(last, "bead_plate", "bead-B") == 2 and marks(last, "bead_plate", "bead-P") == 1
    assert "After round <strong>3</strong> of 3" in last

    first = desk(client, shoe, "?round=1")
    assert marks(first, "bead_plate", "bead-B") == 0 and marks(first, "bead_plate", "bead-P") == 1
    assert find_all(first, "rect", cls="marked", x="0", y="0")  # round 1 outlined where it was drawn
    assert "Player wins" in first  # the round itself
    assert find_all(first, "a", data_step="next", data_round="2")
    assert find_all(first, "span", data_step="previous", aria_disabled="true")


def test_the_replay_fragment_is_the_same_part_for_htmx_to_swap_in(client: Client, baccarat_1, staff_reviewer) -> None:
    shoe = dealt_shoe(baccarat_1[0], SEED, BANKER_WIN)
    client.force_login(staff_reviewer)
    part = client.get(f"/admin/tables/shoe/{shoe.pk}/replay/", {"round": "1"})
    assert part.status_code == 200
    html = part.content.decode()
    replay = find_all(html, "*")[0]  # the answer starts with the part
    assert (replay.tag, replay.attrs.get("id"), replay.attrs.get("data-round")) == ("div", "replay", "1")
    assert "<html" not in html  # the part alone


def test_a_replay_position_that_names_no_round_is_refused_clearly(client: Client, baccarat_1, staff_reviewer) -> None:
    shoe = dealt_shoe(baccarat_1[0], SEED, BANKER_WIN)
    client.force_login(staff_reviewer)
    for bad in ("7", "0", "two", "-1"):
        part = client.get(f"/admin/tables/shoe/{shoe.pk}/replay/", {"round": bad})
        assert part.status_code == 400 and "round" in part.content.decode()
        page = client.get(f"/admin/tables/shoe/{shoe.pk}/change/", {"round": bad})
        assert page.status_code == 400 and find_all(page.content.decode(), "li", id="replay-error")


def test_a_voided_round_is_marked_in_the_list_and_left_out_of_roads_and_stats(
    client: Client, baccarat_1, staff_reviewer
) -> None:
    shoe = dealt_shoe(baccarat_1[0], SEED, BANKER_WIN, TIE)
    second = shoe.rounds.get(number=2)
    services.round_void(round_=second, reason="card misread", user=staff_reviewer)
    client.force_login(staff_reviewer)

    html = desk(client, shoe)
    assert marks(html, "bead_plate", "bead-B") == 0 and marks(html, "bead_plate", "bead-T") == 1
    assert "voided: card misread" in html and find_all(html, "tr", cls="voided")
    assert find_all(html, "a", href=f"/admin/tables/round/{second.pk}/change/")  # each round links to its page

    at_void = desk(client, shoe, "?round=2")
    assert find_all(at_void, "p", id="replay-voided") and not find_all(at_void, "rect", cls="marked")  # on no road
    review = shoe_review(shoe, shoe_rounds(shoe))
    assert review.frequencies.rounds == 2  # the voided round is not counted


def test_the_cards_dealt_are_counted_against_the_shoe_by_rank_and_suit(baccarat_1) -> None:
    shoe = dealt_shoe(baccarat_1[0], SEED, BANKER_WIN)
    cards = cards_dealt(shoe)
    assert cards.total.dealt == 10 and cards.total.held == 8 * 52 and cards.left == 416 - 10
    hearts = 1  # SUITS order: spades, hearts, diamonds, clubs
    two = cards.rows[1]
    assert (two.label, two.cells[hearts].dealt, two.cells[hearts].held) == ("2", 2, 8)  # 2H in both rounds
    assert two.total.dealt == 2 and two.total.held == 32
    assert cards.over == []


def test_a_card_dealt_more_often_than_the_shoe_holds_it_is_flagged(client: Client, staff_reviewer) -> None:
    table, _ = services.table_create(slug="one-deck", name="One deck", decks=1)
    shoe = dealt_shoe(table, SEED)
    Shoe.objects.filter(pk=shoe.pk).update(dealt=shoe.dealt + "AH")  # as a misread would leave it
    shoe.refresh_from_db()
    assert cards_dealt(shoe).over == ["A♥"]
    client.force_login(staff_reviewer)
    assert "Dealt more often than the shoe holds them: A♥" in desk(client, shoe)


def test_the_reviewer_statistics_are_the_review_pages_with_its_flag(client: Client, baccarat_1, staff_reviewer) -> None:
    shoe = dealt_shoe(baccarat_1[0], *[TIE, OTHER_TIE] * 6)  # twelve ties running: far from 9.5 %
    review = shoe_review(shoe, shoe_rounds(shoe))
    assert review.flagged and review.frequencies.lowest_p < 0.01
    client.force_login(staff_reviewer)
    html = desk(client, shoe)
    assert find_all(html, "span", id="desk-flag") and "Flagged for review" in html


def test_the_shoe_page_is_read_only(client: Client, baccarat_1, staff_reviewer) -> None:
    shoe = dealt_shoe(baccarat_1[0], SEED)
    client.force_login(staff_reviewer)
    html = desk(client, shoe)
    assert not find_all(html, "*", type="submit", value=Prefix("Save")) and not find_all(html, "*", name_="_save")
    assert client.post(f"/admin/tables/shoe/{shoe.pk}/change/", {"state": "closed"}).status_code == 405
    assert client.post(f"/admin/tables/shoe/{shoe.pk}/delete/", {"post": "yes"}).status_code == 403
    shoe.refresh_from_db()
    assert shoe.state == Shoe.State.OPEN and shoe.rounds.count() == 1


def test_only_staff_who_may_view_shoes_see_the_desk(client: Client, baccarat_1, outsider) -> None:
    shoe = dealt_shoe(baccarat_1[0], SEED)
    staff = User.objects.create_user("floor", password="pw-floor-1", is_staff=True)
    client.force_login(staff)
    assert client.get(f"/admin/tables/shoe/{shoe.pk}/change/").status_code == 403
    assert client.get(f"/admin/tables/shoe/{shoe.pk}/replay/").status_code == 403
    staff.user_permissions.add(Permission.objects.get(codename="view_shoe"))
    staff = User.objects.get(pk=staff.pk)  # permissions are cached on the user
    client.force_login(staff)
    assert client.get(f"/admin/tables/shoe/{shoe.pk}/change/").status_code == 200
    client.force_login(outsider)
    assert client.get(f"/admin/tables/shoe/{shoe.pk}/change/").status_code == 302  # to the login page
    assert Client().get(f"/admin/tables/shoe/{shoe.pk}/replay/").status_code == 302


def test_an_unknown_shoe_is_a_404(client: Client, staff_reviewer) -> None:
    client.force_login(staff_reviewer)
    assert client.get("/admin/tables/shoe/999/change/").status_code == 404
    assert client.get("/admin/tables/shoe/999/replay/").status_code == 404


def test_the_replay_of_a_shoe_with_no_rounds_says_so(client: Client, baccarat_1, staff_reviewer) -> None:
    shoe = services.shoe_start(table=baccarat_1[0]).shoe
    client.force_login(staff_reviewer)
    html = desk(client, shoe)
    assert "No rounds yet" in html and not find_all(html, "*", id="replay-round")
    assert replay_context([], 0)["round"] is None
