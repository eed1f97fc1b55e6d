"""The checking contract: `manage.py roads` and the roads API."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from roads.engine import Roads
from tables import services
from tables.pages.road_data import roads_after
from tests.html import find_all
from tests.road_marks import asks, marks
from tests.rounds import SEED

from .pictures import shoe

ROOT = Path(__file__).resolve().parents[2]


def roads_command(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "roads", *args],
        input=stdin,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_command_reads_stdin_and_prints_the_contract_object() -> None:
    done = roads_command('["T", "B", {"winner": "P", "player_pair": true}, "P", "B"]')
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == {"bead_plate", "big_road", "big_eye_road", "small_road", "cockroach_road", "ask", "good_roads"}
    assert data["bead_plate"][2] == {"row": 2, "col": 0, "winner": "P", "banker_pair": False, "player_pair": True}
    assert data["big_road"]["columns"][0] == [{"winner": "B", "ties": 1, "banker_pair": False, "player_pair": False}]
    assert data["big_road"]["cells"][-1] == {
        "row": 0, "col": 2, "winner": "B", "ties": 0, "banker_pair": False, "player_pair": False,
    }  # fmt: skip
    # Columns B(1 tie), PP, B. Big Eye: 2nd P beside a column of 1: blue; B: columns of 2 and 1: blue.
    assert data["big_eye_road"] == {
        "marks": ["blue", "blue"],
        "cells": [{"row": 0, "col": 0, "color": "blue"}, {"row": 1, "col": 0, "color": "blue"}],
    }
    # A next B continues column 3: Big Eye beside PP (filled, filled) red; Small beside B (empty, filled) blue.
    assert data["ask"]["B"] == {"big_eye_road": "red", "small_road": "blue", "cockroach_road": None}
    # A next P starts column 4: Big Eye compares 1 and 2: blue; Small compares 1 and 1: red.
    assert data["ask"]["P"] == {"big_eye_road": "blue", "small_road": "red", "cockroach_road": None}


def test_the_command_reads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "shoe.json"
    path.write_text('["B", "B", "B", "B"]')
    done = roads_command("", str(path))
    assert json.loads(done.stdout)["good_roads"] == ["long_banker"]


@pytest.mark.parametrize(
    ("stdin", "message"),
    [('{"B": 1}', "expected a JSON list"), ('["B", "X"]', "unknown winner 'X'"), ("[B", "cannot read"),
     ('[{"winner": "B", "pair": 1}]', "unknown keys")],
)  # fmt: skip
def test_bad_input_exits_non_zero_with_a_one_line_error(stdin: str, message: str) -> None:
    done = roads_command(stdin)
    assert done.returncode != 0
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_missing_file_is_a_clear_error() -> None:
    with pytest.raises(CommandError, match="cannot read"):
        call_command("roads", "/nonexistent/shoe.json")


BANKER = {"player": ["2H", "3D"], "banker": ["9S", "KH"]}  # a Banker natural


def test_the_api_serves_the_current_and_numbered_shoes_roads_without_voided_rounds(
    client, baccarat_1, staff_reviewer
) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    services.round_record(table=table, player=["9H", "KS"], banker=["2C", "4C"])  # P
    services.shoe_start(table=table)
    rounds = [services.round_record(table=table, player=["2H", "3D"], banker=["9S", "KH"]).round for _ in range(4)]
    services.round_void(round_=rounds[1], reason="misdeal", user=staff_reviewer)

    current = client.get("/api/tables/baccarat-1/roads").json()
    assert current == Roads.of(shoe("BBB")).to_data()
    first = client.get("/api/tables/baccarat-1/shoes/1/roads").json()
    assert first == Roads.of(shoe("P")).to_data()
    assert client.get("/api/tables/baccarat-1/shoes/7/roads").status_code == 404
    assert client.get("/api/tables/nowhere/roads").status_code == 404


def test_a_shoes_roads_after_a_round_are_built_from_the_rounds_up_to_it_without_voided_ones(
    baccarat_1, staff_reviewer
) -> None:
    table, _ = baccarat_1
    shoe_ = services.shoe_start(table=table).shoe
    rounds = [services.round_record(table=table, **SEED).round for _ in range(3)]  # P P P
    services.round_record(table=table, player=["2H", "3D"], banker=["9S", "KH"])  # B
    services.round_void(round_=rounds[0], reason="misdeal", user=staff_reviewer)

    after = roads_after(shoe=shoe_, number=3)
    assert after.roads.to_data() == Roads.of(shoe("PP")).to_data()
    assert after.index_of(3) == 1 and after.index_of(1) is None  # the voided round has no place in them
    assert roads_after(shoe=shoe_, number=4).roads.to_data() == Roads.of(shoe("PPB")).to_data()


def test_the_table_page_draws_all_five_roads_as_svg_and_tells_what_a_mark_stands_for(client, baccarat_1) -> None:
    table, _ = baccarat_1
    services.shoe_start(table=table)
    for _ in range(3):
        services.round_record(table=table, **SEED)
    services.round_record(table=table, player=["2H", "3D"], banker=["9S", "KH"])
    page = client.get("/tables/baccarat-1/").content.decode()
    for name in ("Bead Plate", "Big Road", "Big Eye Road", "Small Road", "Cockroach Road"):
        assert find_all(page, "svg", aria_label=name), name
    assert len(marks(page, "ring-P")) == 3 and len(marks(page, "ring-B")) == 1
    assert "Banker ask" in page and "Player ask" in page
    # Columns PPP, B. A next Player starts column 3: Big Eye compares columns of 1 and 3, blue,
    # drawn hidden for the "Player ask" button to reveal.
    assert ("eye-blue", (0, 0)) in asks(page, "P")
    # Hovering a mark asks what it stands for: the Big Road's first ring is round 1.
    tip = client.get("/tables/baccarat-1/tip/", {"shoe": 1, "road": "big_road", "col": 0, "row": 0, "v": "1:4:0"})
    assert "Round 1</b>" in tip.content.decode() and "Player wins 9–3" in tip.content.decode()


def test_the_command_and_the_api_report_the_asian_lobbies_good_roads(client, baccarat_1) -> None:
    done = roads_command('["B", "P", "P", "B", "B", "B", "T", "P", "P", "P", "P"]')  # 1, 2, 3, 4
    assert json.loads(done.stdout)["good_roads"] == ["long_player", "slope_road"]
    table, _ = baccarat_1
    services.shoe_start(table=table)
    for cards in (SEED, BANKER, SEED, BANKER, SEED):  # P B P B P
        services.round_record(table=table, **cards)
    roads = client.get("/api/tables/baccarat-1/roads").json()
    assert roads["good_roads"] == ["big_road_single", "player_always_jumps"]
