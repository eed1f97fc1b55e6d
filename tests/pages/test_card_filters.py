"""The templates name a round's winner through the game's one Winner enum."""

from django.template import Context, Template

from tables.game.outcome import Winner


def render(text: str, **context: object) -> str:
    return Template("{% load cards %}" + text).render(Context(context))


def test_a_stored_code_or_the_enum_reads_as_its_name() -> None:
    assert render("{{ w|winner_name }}", w="B") == "Banker"
    assert render("{{ w|winner_name }}", w=Winner.PLAYER) == "Player"


def test_a_win_reads_as_a_win_and_a_tie_as_a_tie() -> None:
    assert [render("{{ w|winner_verdict }}", w=code) for code in "BPT"] == ["Banker wins", "Player wins", "Tie"]
