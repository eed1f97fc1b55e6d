"""A page's version, as pages, pushes and resyncs write it: "shoe:round:voided:cards" on a
lobby card, "shoe:round:voided:odds:cards" on a table page."""

from __future__ import annotations

import pytest

from tables.page_version import NO_SHOE, NO_SHOE_TABLE, PageVersion

pytestmark = pytest.mark.backend_free  # a value class: no database, no server


def test_a_version_reads_and_writes_the_wire_format() -> None:
    version = PageVersion.parse("3:41:1:40:6")
    assert version == PageVersion(shoe=3, round=41, voided=1, odds=40, cards=6)
    assert str(version) == "3:41:1:40:6"
    assert str(PageVersion.parse("3:41:1")) == "3:41:1"  # a lobby card's, with no shoe
    assert PageVersion.parse("3:41:1:6") == PageVersion(shoe=3, round=41, voided=1, cards=6)  # a lobby card's
    assert str(PageVersion(3, 41, 1, cards=6)) == "3:41:1:6"
    assert (str(NO_SHOE), str(NO_SHOE_TABLE)) == ("0:0:0", "0:0:0:0:0")


@pytest.mark.parametrize("text", ["", "not a version", "1:2", "1:2:3:4:5:6", "1:-2:0", "1:2:x", " 1:2:3", 5, None])
def test_anything_else_is_refused(text: object) -> None:
    with pytest.raises(ValueError, match="not a page version"):
        PageVersion.parse(text)  # type: ignore[arg-type]


def test_the_odds_are_pending_while_the_last_round_has_none() -> None:
    assert PageVersion(1, 12, 0, 11, 0).odds_pending
    assert not PageVersion(1, 12, 0, 12, 0).odds_pending
    assert not PageVersion(1, 12, 0).odds_pending  # a lobby card shows no odds


def test_a_delta_starts_after_the_round_the_page_shows_of_the_same_shoe() -> None:
    now = PageVersion(2, 10, 1, 9, 0)
    assert now.delta_base(PageVersion(2, 7, 1, 7, 0), most=20) == 7
    assert now.delta_base(PageVersion(2, 9, 1), most=20) == 9  # odds and cards don't matter
    assert now.delta_base(PageVersion(2, 9, 0, 9, 0), most=20) is None  # a void since: whole
    assert now.delta_base(PageVersion(1, 9, 1, 9, 0), most=20) is None  # another shoe: whole
    assert PageVersion(3, 2, 0).delta_base(PageVersion(3, 0, 0, 0, 0), most=20) == 0  # an empty shoe's too
    assert now.delta_base(PageVersion(2, 10, 1, 10, 0), most=20) is None  # nothing new
    assert now.delta_base(PageVersion(2, 2, 1, 2, 0), most=5) is None  # more rows than the history shows
    assert now.delta_base(None, most=20) is None
