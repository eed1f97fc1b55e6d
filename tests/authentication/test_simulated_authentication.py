"""The simulator deals authenticated shoes (seed 001) as a dealer system would: commit,
burn, reveal each round's cards, and reveal the rest when the shoe ends; and
``python -m tables.verify`` checks what a player downloads, offline."""

from __future__ import annotations

import hashlib
import io
import json
import random
import subprocess
import sys

from django.test import Client

from tables import services, verify
from tables.authentication import selectors as authentication
from tables.demo.simulator import TableDealer
from tables.game.authentication import card_hash, shoe_commitment
from tables.models import Shoe, ShoeCard
from tests.html import find_all

SAMPLE = (
    "H-3-uee9JLvMAncG4J2FN8dG-13D0FF3A6155E3BAFE96C79DE5CAA6696FA577A668DA233CA062F1A6F215F56FB2AD5F82AB8193D45F"
    "56042DAA635D39078F04E8F6E92296D55B93590A23E4E2"
)


def deal_one_shoe(dealer: TableDealer) -> Shoe:
    """Deal rounds until the dealer's first shoe has ended."""
    dealer.step()
    first = Shoe.objects.get(table_id=dealer.table_id, number=1)
    while first.state == Shoe.State.OPEN:
        dealer.step()
        first.refresh_from_db()
    return first


def test_an_authenticated_shoe_dealt_to_its_end_by_the_simulator_is_fully_verified(db) -> None:
    table, _ = services.table_create(slug="sim-1", name="Sim 1", decks=1, simulated=True)
    dealer = TableDealer(table.pk, random.Random(20))
    shoe = deal_one_shoe(dealer)
    cards = authentication.shoe_cards(shoe=shoe)
    assert shoe.authenticated and shoe.fully_verified and shoe.revealed == shoe.card_count == len(cards) == 52
    assert all(card_hash(c["plaintext"]) == c["hash"] for c in cards)
    assert shoe.commitment == shoe_commitment([c["hash"] for c in cards])
    states = [c["state"] for c in cards]
    assert states[0] == "burn_card" and states[1 : shoe.burned + 1] == ["burned"] * shoe.burned
    dealt = [c for c in cards if c["state"] == "dealt"]
    assert len(dealt) == len(shoe.dealt) // 2, "every card the rounds show was revealed with its round"
    assert {c["state"] for c in cards[dealt[-1]["number"] :]} <= {"unused"}
    assert not ShoeCard.objects.filter(shoe=shoe, plaintext="").exists()
    # The table carries on with the next shoe, authenticated and burned, its cards unrevealed.
    dealer.step()
    following = Shoe.objects.get(table=table, number=2)
    assert following.authenticated and following.burn_card and following.revealed < following.card_count


def test_a_simulated_shoe_s_cards_downloaded_from_the_page_verify_offline(db, client: Client, tmp_path) -> None:
    table, _ = services.table_create(slug="sim-2", name="Sim 2", decks=1, simulated=True)
    shoe = deal_one_shoe(TableDealer(table.pk, random.Random(21)))
    page = client.get("/tables/sim-2/?shoe=1").content.decode()
    assert find_all(page, "a", href="/api/tables/sim-2/shoes/1/cards", download="sim-2-shoe-1-cards.json")
    downloaded = tmp_path / "cards.json"
    downloaded.write_bytes(client.get("/api/tables/sim-2/shoes/1/cards").content)
    out = io.StringIO()
    assert verify.main([str(downloaded)], out) == 0, out.getvalue()
    assert "fully verified" in out.getvalue() and "verified: 52" in out.getvalue()
    # One altered plaintext is caught, and so is one altered hash.
    data = json.loads(downloaded.read_text())
    data["cards"][7]["plaintext"] = data["cards"][8]["plaintext"]
    assert verify.check_shoe(data).problems == ["card 8: its plaintext does not hash to its Public Hash Value"]
    data = json.loads(downloaded.read_text())
    data["cards"][7]["hash"] = hashlib.sha512(b"another card").hexdigest()
    assert "the card hashes do not hash to the shoe's commitment" in verify.check_shoe(data).problems
    assert shoe.fully_verified


def test_the_offline_verifier_hashes_the_seed_s_sample_and_needs_only_the_standard_library() -> None:
    expected = hashlib.sha512(SAMPLE.encode()).hexdigest()
    assert verify.card_hash(SAMPLE) == card_hash(SAMPLE) == expected
    # Run as a player would, with only the standard library: importing Django would fail.
    run = (
        "import runpy, sys; sys.modules['django'] = None; sys.argv = ['verify', *sys.argv[1:]]; "
        "runpy.run_module('tables.verify', run_name='__main__')"
    )
    done = subprocess.run([sys.executable, "-c", run, SAMPLE, expected.upper()], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "match"
    wrong = subprocess.run([sys.executable, "-m", "tables.verify", SAMPLE, "0" * 128], capture_output=True, text=True)
    assert wrong.returncode == 1 and "MISMATCH" in wrong.stdout
