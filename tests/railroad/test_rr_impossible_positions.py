"""Railroad Canasta positions the rules cannot reach are refused with the field and the rule
(docs/positions.md, "What a position must satisfy")."""

from __future__ import annotations

import pytest
from canasta_position import red_three_into_hand, refused, stock_cards, stock_into_hand
import meldhall
from meldhall.record import dump_position, load_position


def _fresh(players=2, seed=5):
    return dump_position(meldhall.new_game("railroad-canasta", players=players, seed=seed))


def _cards(doc, want, n):
    """``n`` stock cards of rank ``want`` ("W": wild), out of the stock."""
    return stock_cards(doc, want, n, remove=True)


def test_rr8_3_discarded_wild_card_freezes_the_pile():
    """RR-8.3: a position with discarded wild card freezes the pile is refused (or loads, when allowed)."""
    doc = _fresh()
    doc["pile"] += _cards(doc, "W", 1) + _cards(doc, "9", 1)
    doc["pile_frozen"] = False
    refused(doc, "pile_frozen", "RR-8.3")
    del doc["pile_frozen"]
    assert load_position(doc).pile_frozen is True


def test_rr9_1_red_three_in_a_hand():
    """RR-9.1: a position with red three in a hand is refused (or loads, when allowed)."""
    doc = _fresh()
    red_three_into_hand(doc)
    refused(doc, "hands", "red three", "RR-9.1")


def _meld(doc, cards, seat=0, rank="9"):
    doc["melds"][seat].append({"rank": rank, "cards": cards, "hidden": False, "creator": seat})


@pytest.mark.parametrize("cards, words", [
    ([("9", 1), ("W", 2)], ("melds", "seat 0", "RR-6.2")),
    ([("9", 2), ("8", 1)], ("melds", "another rank", "RR-6.1")),
], ids=["rr6_2_meld_with_one_natural", "rr6_1_meld_of_mixed_ranks"])
def test_rr6_1_rr6_2_invalid_melds(cards, words):
    """RR-6.2, RR-6.1: a position with a meld of one natural, or of mixed ranks, is refused."""
    doc = _fresh()
    _meld(doc, [c for rank, n in cards for c in _cards(doc, rank, n)])
    refused(doc, *words)


def test_rr6_1_meld_over_seven_cards():
    """RR-6.1: a position with meld over seven cards is refused (or loads, when allowed)."""
    doc = _fresh()
    _meld(doc, _cards(doc, "9", 8))
    refused(doc, "melds", "seven", "RR-6.1")
    doc = _fresh()
    doc["closed"][0].append({"type": "red", "rank": "9", "cards": _cards(doc, "9", 8)})
    refused(doc, "closed", "RR-6.8")


def test_rr6_4_wild_meld_of_twos_and_jokers_loads():
    """RR-6.4: a position with wild meld of twos and jokers loads is refused (or loads, when allowed)."""
    doc = _fresh()
    _meld(doc, _cards(doc, "W", 5), rank="wild")
    load_position(doc)


def test_rr10_3_kitty_phase_with_the_kitty_taken():
    """RR-10.3: a position with kitty phase with the kitty taken is refused (or loads, when allowed)."""
    doc = _fresh()
    doc["closed"][0].append({"type": "red", "rank": "9", "cards": _cards(doc, "9", 7)})
    for c in doc["kitties"][0]:  # taken: its red threes are placed (RR-10.4)
        (doc["red_threes"][0] if c[:2] in ("3H", "3D") else doc["hands"][0]).append(c)
    doc["kitties"][0] = []
    doc["kitty_taken"] = [0]
    doc["turn"], doc["phase"] = 0, "kitty"
    refused(doc, "phase", "kitty is already taken", "RR-10.3")
    doc["phase"] = "draw"
    load_position(doc)


def test_rr10_2_kitty_taken_without_a_canasta():
    """RR-10.2: a position with kitty taken without a canasta is refused (or loads, when allowed)."""
    doc = _fresh()
    for c in doc["kitties"][0]:  # taken: its red threes are placed (RR-10.4)
        (doc["red_threes"][0] if c[:2] in ("3H", "3D") else doc["hands"][0]).append(c)
    doc["kitties"][0] = []
    doc["kitty_taken"] = [0]
    refused(doc, "kitty_taken", "RR-10.2")


def test_rr4_4_hand_of_51_cards():
    """RR-4.4: a position with hand of 51 cards is refused (or loads, when allowed)."""
    doc = _fresh()
    stock_into_hand(doc, 38)
    refused(doc, "hands", "seat 0", "51", "RR-4.4")
