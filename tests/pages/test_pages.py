"""The lobby and table pages of the foundation."""

from __future__ import annotations

from unittest import mock

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from roads.patterns import PATTERNS
from tables import selectors, services
from tables.background import tasks
from tables.live import consumers, lobby_group
from tables.models import Table
from tables.pages import fragments
from tests.html import Element, Prefix, find, find_all
from tests.pushes import page_opens
from tests.road_marks import asks, marks
from tests.rounds import SEED

PLAYER_WIN = SEED
BANKER_NATURAL = {"player": ["2H", "3D"], "banker": ["9S", "KH"]}


def test_the_lobby_lists_tables_with_their_latest_rounds(client: Client, baccarat_1) -> None:
    table, _ = baccarat_1
    services.table_create(slug="baccarat-2", name="Baccarat 2")
    services.shoe_start(table=table)
    services.round_record(table=table, **SEED)
    services.round_record(table=table, player=["9H", "KS"], banker=["2C", "4C"])
    page = client.get("/").content.decode()
    assert "Baccarat 1" in page and "Baccarat 2" in page
    cards = find(page, "div", id="lobby-grid").html  # not the good road settings' pictures
    assert len(marks(cards, "bead-P")) == 2  # the compact Bead Plate
    assert len(marks(cards, "ring-P")) == 2  # and Big Road
    counts = find(find(page, "a", id="table-baccarat-1").html, "div", cls="counts")
    shown = [(count.attrs.get("class"), count.text) for count in find_all(counts.html, "span")]
    assert shown == [("c-B", "0"), ("c-P", "2"), ("c-T", "0")]
    assert find(counts.html, "dd").text == "0 · 2 · 0"
    assert "Anna" in page


def test_the_table_page_shows_game_info_last_round_and_history(client: Client, baccarat_1, staff_reviewer) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    first = services.round_record(table=table, **SEED).round
    last = services.round_record(table=table, player=["9H", "KS"], banker=["2C", "4C"]).round
    services.round_void(round_=first, reason="scanner fault", user=staff_reviewer)
    page = client.get("/tables/baccarat-1/").content.decode()
    assert last.round_id in page and first.round_id in page
    assert "Player wins" in page
    assert "voided: scanner fault" in page
    assert client.get("/tables/nowhere/").status_code == 404


def test_earlier_shoes_are_browsable(client: Client, baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    old = services.round_record(table=table, **SEED).round
    services.shoe_start(table=table)
    assert old.round_id not in client.get("/tables/baccarat-1/").content.decode()
    assert old.round_id in client.get("/tables/baccarat-1/?shoe=1").content.decode()


def test_the_table_page_shows_game_stats_with_plotly_charts_from_our_static_files(client: Client, baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    services.round_record(table=table, **SEED)  # Player 9 - 3: Player Bonus 4:1
    services.round_record(table=table, player=["2H", "3D"], banker=["9S", "9H"])  # Banker natural 8
    page = client.get("/tables/baccarat-1/").content.decode()
    assert find_all(page, "section", id="stats") and "50.0%" in page
    assert find_all(page, "script", id="chart-shares", type="application/json")
    assert "/static/plotly/plotly-basic.min.js" in page and "cdn" not in page.lower()
    assert (
        "Banker 0.95:1" in page and "Banker Natural 7:2" in page
    )  # paid bets of the last round, as the paytable writes them
    assert "Player Bonus 4:1" in page  # side bets won, in the history
    script = b"".join(client.get("/static/plotly/plotly-basic.min.js").streaming_content)
    assert script.startswith(b"/**\n* plotly.js (basic - minified)")


def test_the_table_page_shows_the_table_limits(client: Client, baccarat_1) -> None:
    table, _ = baccarat_1
    table.limits = {"player": [10, 5000], "tie": [5, 500]}
    table.save()
    page = client.get("/tables/baccarat-1/").content.decode()
    assert "Player</dt><dd>10–5000" in page and "Tie</dt><dd>5–500" in page


def test_lobby_cards_show_good_roads_and_are_highlighted(client: Client, baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    for _ in range(4):
        services.round_record(table=table, player=["2H", "3D"], banker=["9S", "KH"])  # Banker natural
    page = client.get("/").content.decode()
    assert find_all(page, "a", class_="table-card has-good-road")
    assert find_all(page, "a", data_good_roads="long_banker")
    assert "Long Banker" in [badge.text for badge in find_all(page, "span", cls="badge", data_pattern="long_banker")]


def test_lobby_cards_show_the_asian_lobbies_good_roads_too(client: Client, baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    for banker in (True, False, True, False, True):  # B P B P B: Big Road Single, Banker Always Jumps
        services.round_record(table=table, **(BANKER_NATURAL if banker else PLAYER_WIN))
    page = client.get("/").content.decode()
    assert find_all(page, "a", data_good_roads="big_road_single banker_always_jumps")
    badges = find_all(page, "span", class_="badge", data_pattern="banker_always_jumps")
    assert "Banker Always Jumps" in [badge.text for badge in badges]
    options = find_all(page, "option", value="slope_road")  # the filter offers all twelve
    assert "Slope Road" in [option.text for option in options]
    table_page = client.get("/tables/baccarat-1/").content.decode()
    badges = find_all(table_page, "span", data_pattern="banker_always_jumps")
    assert "Banker Always Jumps" in [badge.text for badge in badges]


def test_the_lobby_s_good_road_settings_switch_each_of_the_twelve_patterns_with_a_picture_of_it(
    client: Client, db: None
) -> None:
    page = client.get("/").content.decode()
    settings = find(page, "details", cls="road-settings").html
    switches = [switch.attrs["data-pattern"] for switch in find_all(settings, "input", type="checkbox", checked="")]
    assert switches == [p.key for p in PATTERNS]
    assert "name=" not in settings  # a switch is no part of the filter's query
    # Each picture is its example drawn as a Big Road: Slope Road's 1, 2, 3, 4.
    [slope] = [
        find(setting.html, "svg")
        for setting in find_all(settings, "label", cls="road-setting")
        if find_all(setting.html, "input", data_pattern="slope_road")
    ]
    assert slope.attrs.get("viewbox") == "0 0 80 80"  # 4 columns, 4 rows: no empty rows below
    assert "Big Road: 4 columns, 0 ties; newest column Player, 4 in a row." in slope.text


def test_the_lobby_screen_lists_every_table_without_controls(client: Client, baccarat_1) -> None:
    for n in range(2, 15):
        services.table_create(slug=f"baccarat-{n}", name=f"Baccarat {n}")
    page = client.get("/lobby/screen/").content.decode()
    assert len(find_all(page, "a", id=Prefix("table-baccarat-"))) == 14
    assert find_all(page, "div", id="lobby-grid", data_per_page="12") and find_all(page, "body", class_="screen")
    assert "lobby-filter" not in page


def test_the_live_history_shows_the_latest_20_rounds_and_links_to_the_whole_shoe(client: Client, baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    ids = []
    for i in range(22):
        suit, zero = "SHDC"[i % 4], "TJQK"[i // 4 % 4]
        cards = {"player": [f"2{suit}", f"3{suit}"], "banker": [f"9{suit}", f"{zero}{suit}"]}
        ids.append(services.round_record(table=table, **cards).round.round_id)
    page = client.get("/tables/baccarat-1/").content.decode()
    history = find(page, "section", id="history").html
    assert ids[-1] in history and ids[2] in history and ids[1] not in page
    assert "The latest 20 of 22 rounds" in history and "?shoe=1&amp;all=1" in history
    whole = client.get("/tables/baccarat-1/?shoe=1&all=1").content.decode()
    assert all(i in whole for i in ids) and "ws-connect" not in whole


def test_a_table_page_and_its_push_read_the_database_the_same_number_of_times_for_any_shoe_length(
    client: Client, baccarat_1
) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)

    def queries() -> tuple[int, int]:
        with CaptureQueriesContext(connection) as page:
            client.get("/tables/baccarat-1/")
        with CaptureQueriesContext(connection) as push:
            shoe = selectors.shoe_find(table=table, which="current")
            fragments.table_live_html(table, shoe, selectors.table_version(shoe))
        return len(page), len(push)

    services.round_record(table=table, **SEED)
    short = queries()
    for i in range(12):
        suit = "SHDC"[i % 4]
        services.round_record(table=table, player=[f"2{suit}", f"3{suit}"], banker=[f"9{suit}", f"K{suit}"])
    assert queries() == short


def test_pages_that_resync_together_cost_one_render_and_a_rename_or_a_round_shows_at_once(baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    services.round_record(table=table, **SEED)
    with mock.patch("tables.pages.fragments.render_to_string", wraps=fragments.render_to_string) as render:
        pages = [consumers.table_missed("baccarat-1", None) for _ in range(3)]
        assert render.call_count == 1 and pages[0] is pages[1] is pages[2], "one string, not a copy a page"
        fragments.recent_live.clear()  # as in another process: the render is in the shared cache only
        fetched = [consumers.table_missed("baccarat-1", None) for _ in range(2)]
        assert render.call_count == 1 and fetched[0] == pages[0] and fetched[0] is fetched[1]
        Table.objects.filter(pk=table.pk).update(name="Salon Privé")
        assert "Salon Privé" in consumers.table_missed("baccarat-1", None)
        round_id = services.round_record(table=table, player=["2S", "3S"], banker=["9S", "KS"]).round.round_id
        assert round_id in consumers.table_missed("baccarat-1", None)
        assert render.call_count == 3


def test_the_lobby_serves_kept_cards_and_renders_only_the_tables_that_changed(client: Client, baccarat_1) -> None:
    table, _ = baccarat_1
    other, _ = services.table_create(slug="baccarat-2", name="Baccarat 2")
    for t in (table, other):
        services.shoe_start(table=t)
    tasks.lobby_cards_render()  # beat's periodic task
    services.round_record(table=table, **SEED)
    with mock.patch("tables.pages.fragments._card_render", wraps=fragments._card_render) as render:
        page = client.get("/").content.decode()
        assert [call.args[0].slug for call in render.call_args_list] == ["baccarat-1"]
        assert "<dt>Round</dt><dd>1</dd>" in page and "Baccarat 2" in page
        client.get("/")
        assert render.call_count == 1, "the card rendered for the first view was kept"
    other.name = "Baccarat Two"  # renamed in admin: no round, a new card all the same
    other.save()
    assert "Baccarat Two" in client.get("/").content.decode()


def test_beat_keeps_the_lobby_cards_in_each_language_a_lobby_page_shows(client: Client, baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    services.round_record(table=table, **SEED)
    page_opens(lobby_group("zh-hant"))  # a lobby wall in Traditional Chinese is open
    with mock.patch("tables.selectors.lobby_sources", wraps=selectors.lobby_sources) as reads:
        tasks.lobby_cards_render()
    assert reads.call_count == 1, "the tables are read once for every language"
    with mock.patch("tables.pages.fragments._card_render", wraps=fragments._card_render) as render:
        assert "大路" in client.get("/?lang=zh-hant").content.decode()
        assert "Big Road" in client.get("/").content.decode()
        assert render.call_count == 0, "kept in English and in the language a page shows"
        assert "본매" in client.get("/?lang=ko").content.decode()
        assert render.call_count == 1, "a language no lobby page showed is rendered on its first view"


def test_a_road_mark_tells_its_round_on_demand_and_the_browser_may_keep_the_answer(client: Client, baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    services.round_record(table=table, **SEED)  # Player 9-3
    services.round_record(table=table, player=["2C", "5C"], banker=["3D", "4D"])  # a tie, 7-7
    services.round_record(table=table, player=["2H", "3D"], banker=["9S", "KH"])  # Banker 9-5
    services.round_record(table=table, player=["9H", "KC"], banker=["2S", "5S"])  # Player 9-7: Big Eye's first mark

    def tip(road: str, col: int, row: int) -> str:
        answer = client.get("/tables/baccarat-1/tip/", {"shoe": 1, "road": road, "col": col, "row": row, "v": "1:4:0"})
        assert answer.status_code == 200 and "max-age=3600" in answer["Cache-Control"]
        return answer.content.decode()

    bead = tip("bead_plate", 0, 1)
    assert "Round 2</b>" in bead and "Tie" in bead and "Round 1</b>" not in bead
    big = tip("big_road", 0, 0)  # the Player's ring and the tie drawn on it
    assert "Round 1</b>" in big and "Round 2</b>" in big and "Player wins 9–3" in big and "Round 3</b>" not in big
    assert "Round" not in tip("big_road", 4, 4)  # an empty cell
    assert "Round 4</b>" in tip("big_eye_road", 0, 0)


def player_then_banker(table: Table) -> None:
    """A new shoe's first two rounds: a Player win (9-3), then a Banker natural (9-5)."""
    services.shoe_start(table=table)
    services.round_record(table=table, **SEED)
    services.round_record(table=table, player=["2H", "3D"], banker=["9S", "KH"])


def test_a_derived_mark_says_why_it_is_red_or_blue_and_names_the_big_road_cells_it_compared(
    client: Client, baccarat_1
) -> None:
    table, _ = baccarat_1
    player_then_banker(table)
    services.round_record(table=table, player=["2S", "3C"], banker=["9D", "KD"])  # Banker again: Big Eye's first mark

    def why(road: str, col: int, row: int, lang: str = "en") -> Element:
        query = {"shoe": 1, "road": road, "col": col, "row": row, "v": "1:3:0", "lang": lang}
        return find(client.get("/tables/baccarat-1/tip/", query).content.decode(), "p", cls="tip-why")

    # "compare the cell to the left of the newly created entry with the cell directly above
    # that one": left of round 3 (column 2, row 2) is column 1's blank row 2, above it round 1.
    said = why("big_eye_road", 0, 0)
    assert said.text == (
        "Blue: the same result again, so in column 1 the cell in row 2 and the one above it are compared. "
        "One is filled, the other blank."
    )
    assert said.attrs["data-compared"] == "0,1 0,0"  # drawn (col,row): the blank below round 1, and round 1
    assert why("big_eye_road", 0, 0, "zh-hant").text.startswith("藍：")
    big_road = client.get("/tables/baccarat-1/tip/", {"shoe": 1, "road": "big_road", "col": 0, "row": 0})
    assert not find_all(big_road.content.decode(), "p", cls="tip-why"), "a Big Road mark compares nothing"


def test_a_tip_for_something_that_is_not_a_cell_of_a_road_is_not_found(client: Client, baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    for query in (
        {"shoe": 1, "road": "big_road", "col": "x", "row": 0},
        {"shoe": 1, "road": "no_road", "col": 0, "row": 0},
        {"shoe": 2, "road": "big_road", "col": 0, "row": 0},
        {"road": "big_road", "col": 0, "row": 0},
    ):
        assert client.get("/tables/baccarat-1/tip/", query).status_code == 404
    assert client.get("/tables/nowhere/tip/", {"shoe": 1, "road": "big_road", "col": 0, "row": 0}).status_code == 404


def test_the_ask_marks_a_page_fetches_are_those_its_roads_draw_for_the_state_it_names(
    client: Client, baccarat_1
) -> None:
    table, _ = baccarat_1
    player_then_banker(table)
    services.round_record(table=table, player=["9H", "KC"], banker=["2S", "5S"])  # Player
    answer = client.get("/tables/baccarat-1/asks/", {"shoe": 1, "v": "1:3:0"})
    assert answer.status_code == 200 and "max-age=3600" in answer["Cache-Control"]
    fetched = find(answer.content.decode(), "div", id="road-asks")
    assert fetched.attrs["data-version"].startswith("1:3:0:")  # the state they were drawn at
    page = client.get("/tables/baccarat-1/").content.decode()
    for road in fragments.TABLE_ROADS:
        ours = find(answer.content.decode(), "svg", data_road=road).html
        drawn = find(page, "g", id=f"now-{road}").html
        assert [asks(ours, w) for w in "BP"] == [asks(drawn, w) for w in "BP"], road
    assert asks(answer.content.decode(), "B")[:2] == [("bead-B", (0, 3)), ("ring-B", (3, 0))]


def test_asks_for_no_shoe_of_the_table_are_not_found(client: Client, baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    for query in ({"shoe": 2}, {"shoe": "x"}, {}):
        assert client.get("/tables/baccarat-1/asks/", query).status_code == 404
    assert client.get("/tables/nowhere/asks/", {"shoe": 1}).status_code == 404


def test_every_page_has_the_sites_icon_and_favicon_ico_leads_to_it(client: Client, baccarat_1) -> None:
    lobby = client.get("/").content.decode()
    assert find_all(lobby, "link", rel="icon", href="/static/favicon.svg", type="image/svg+xml")
    answer = client.get("/favicon.ico")
    assert answer.status_code == 301 and answer["Location"] == "/static/favicon.svg"
    icon = b"".join(client.get("/static/favicon.svg").streaming_content)
    assert icon.startswith(b"<svg") and b"#d9342b" in icon
