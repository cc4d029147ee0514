"""Railroad Canasta positions the rules cannot reach are refused with the field and the rule
(docs/positions.md, "What a position must satisfy")."""

from __future__ import annotations

import pytest

import meldhall
from meldhall.errors import RecordError
from meldhall.record import dump_position, load_position


def _fresh(players=2, seed=5):
    return dump_position(meldhall.new_game("railroad-canasta", players=players, seed=seed))


def _rank(c):
    body = c.split("/")[0]
    return "JK" if body == "JK" else body[:-1]


def _cards(doc, want, n):
    got = [c for c in doc["stock"]
           if _rank(c) == want or want == "W" and _rank(c) in ("JK", "2")][:n]
    assert len(got) == n
    for c in got:
        doc["stock"].remove(c)
    return got


def _refused(doc, *words):
    with pytest.raises(RecordError) as exc:
        load_position(doc)
    for w in words:
        assert w in str(exc.value), str(exc.value)


def test_rr8_3_discarded_wild_card_freezes_the_pile():
    """RR-8.3: a position with discarded wild card freezes the pile is refused (or loads, when allowed)."""
    doc = _fresh()
    doc["pile"] += _cards(doc, "W", 1) + _cards(doc, "9", 1)
    doc["pile_frozen"] = False
    _refused(doc, "pile_frozen", "RR-8.3")
    del doc["pile_frozen"]
    assert load_position(doc).pile_frozen is True


def test_rr9_1_red_three_in_a_hand():
    """RR-9.1: a position with red three in a hand is refused (or loads, when allowed)."""
    doc = _fresh()
    r3 = next(c for c in doc["stock"] if c[:2] in ("3H", "3D"))
    doc["stock"].remove(r3)
    doc["hands"][0].append(r3)
    doc["stock"].append(doc["hands"][0].pop(0))
    _refused(doc, "hands", "red three", "RR-9.1")


def _meld(doc, cards, seat=0, rank="9"):
    doc["melds"][seat].append({"rank": rank, "cards": cards, "hidden": False, "creator": seat})


def test_rr6_2_meld_with_one_natural():
    """RR-6.2: a position with meld with one natural is refused (or loads, when allowed)."""
    doc = _fresh()
    _meld(doc, _cards(doc, "9", 1) + _cards(doc, "W", 2))
    _refused(doc, "melds", "seat 0", "RR-6.2")


def test_rr6_1_meld_of_mixed_ranks():
    """RR-6.1: a position with meld of mixed ranks is refused (or loads, when allowed)."""
    doc = _fresh()
    _meld(doc, _cards(doc, "9", 2) + _cards(doc, "8", 1))
    _refused(doc, "melds", "another rank", "RR-6.1")


def test_rr6_1_meld_over_seven_cards():
    """RR-6.1: a position with meld over seven cards is refused (or loads, when allowed)."""
    doc = _fresh()
    _meld(doc, _cards(doc, "9", 8))
    _refused(doc, "melds", "seven", "RR-6.1")
    doc = _fresh()
    doc["closed"][0].append({"type": "red", "rank": "9", "cards": _cards(doc, "9", 8)})
    _refused(doc, "closed", "RR-6.8")


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
    _refused(doc, "phase", "kitty is already taken", "RR-10.3")
    doc["phase"] = "draw"
    load_position(doc)


def test_rr10_2_kitty_taken_without_a_canasta():
    """RR-10.2: a position with kitty taken without a canasta is refused (or loads, when allowed)."""
    doc = _fresh()
    for c in doc["kitties"][0]:  # taken: its red threes are placed (RR-10.4)
        (doc["red_threes"][0] if c[:2] in ("3H", "3D") else doc["hands"][0]).append(c)
    doc["kitties"][0] = []
    doc["kitty_taken"] = [0]
    _refused(doc, "kitty_taken", "RR-10.2")


def test_rr4_4_hand_of_51_cards():
    """RR-4.4: a position with hand of 51 cards is refused (or loads, when allowed)."""
    doc = _fresh()
    for c in [c for c in doc["stock"] if c[:2] not in ("3H", "3D")][:38]:
        doc["stock"].remove(c)
        doc["hands"][0].append(c)
    _refused(doc, "hands", "seat 0", "51", "RR-4.4")
