"""CC-6: melds, the wild-card limit, one meld per rank, canastas and hidden canastas."""

from __future__ import annotations

import pytest

from cc_position import assert_illegal, build, lines_by_rule, play, result
from meldhall.record import dump_position

# A side that has already melded (a meld of aces), so no minimum count applies (CC-7.5), and a
# hand with two spare cards (5, 6), so that the hand-size rule CC-5.7 never interferes.
BASE_MELD = ["A A A"]


def _meld_phase(cards: str, *, melds=None, options=None):
    return build(hands={0: cards + " 5 6"}, melds={0: melds or BASE_MELD}, phase="meld",
                 options=options)


# --------------------------------------------------------------------------- CC-6.7 table

LEGAL_ROWS = [
    ("7 7 7", "meld 7 7 7", "three naturals"),
    ("5 5 2", "meld 5 5 2", "two naturals, one wild (seed example)"),
    ("9 9 9 2 2 JK", "meld 9 9 9 2 2 JK", "three naturals, three wild (seed example)"),
    ("K K K K K K K K 2 JK", "meld K K K K K K K K 2 JK", "mixed canasta, 2 wild"),
]


@pytest.mark.parametrize("hand, text, why", LEGAL_ROWS, ids=[r[0] for r in LEGAL_ROWS])
def test_cc6_7_legal_rows(hand, text, why):
    """CC-6.7 table (legal rows), CC-6.1, CC-6.2: 7-7-7, 5-5-2, 9-9-9-2-2-Jk and K×8 + 2 + Jk
    are legal melds."""
    s = _meld_phase(hand)
    s = play(s, text)
    d = dump_position(s)
    assert len(d["melds"][0]) == 2


def test_cc6_7_mixed_canasta_row_is_a_canasta():
    """CC-6.7 table, CC-6.6: K×8 + 2 + Jk (10 cards) is a mixed canasta."""
    s = _meld_phase("K K K K K K K K 2 JK")
    s = play(s, "meld K K K K K K K K 2 JK")
    assert s.canastas(0) == 1


ILLEGAL_ROWS = [
    ("5 2 2", "meld 5 2 2", ("CC-6.2",), "only one natural (seed example)"),
    ("9 9 2 2 2 JK", "meld 9 9 2 2 2 JK", ("CC-6.2",),
     "four wild, more wild than natural (seed example)"),
    ("6 6 2 2 2", "meld 6 6 2 2 2", ("CC-6.2",), "three wild > two natural (default)"),
    ("Q Q", "meld Q Q", ("CC-6.1",), "fewer than three cards"),
    ("3S 3S/1 2", "meld 3 3 2", ("CC-6.3", "CC-9.5"),
     "threes cannot be melded with wild cards, and not in ordinary play"),
]


@pytest.mark.parametrize("hand, text, rule, why", ILLEGAL_ROWS, ids=[r[0] for r in ILLEGAL_ROWS])
def test_cc6_7_illegal_rows(hand, text, rule, why):
    """CC-6.7 table (illegal rows), CC-6.1–CC-6.3: 5-2-2, 9-9-2-2-2-Jk, 6-6-2-2-2 (default
    wild_ratio), Q-Q and 3♠-3♠-2 are refused."""
    s = _meld_phase(hand)
    assert_illegal(s, text, rule)


def test_cc6_7_fourth_wild_on_a_canasta():
    """CC-6.7 table, CC-6.2(c), CC-6.5: adding a 4th wild card to J×6 + 2-2-Jk is refused."""
    s = _meld_phase("2", melds=["J J J J J J 2 2 JK"])
    assert_illegal(s, "add 2 -> J", "CC-6.2")
    # …even together with more naturals: at most three wild cards, whatever the size
    s = _meld_phase("J J 2", melds=["J J J J J J 2 2 JK"])
    assert_illegal(s, "add J J 2 -> J", "CC-6.2")


def test_cc6_7_second_meld_of_a_rank():
    """CC-6.7 table, CC-6.4: a new 8-8-8 may not be started while the side has an 8 meld; the
    cards are added to the existing meld instead."""
    s = _meld_phase("8 8 8", melds=["8 8 8"])
    assert_illegal(s, "meld 8 8 8", "CC-6.4")
    play(s, "add 8 8 8 -> 8")


def test_one_meld_per_rank_even_after_a_canasta():
    """CC-6.4: a second meld of a rank may not be started even after the first has become a
    canasta; the partner's meld is the side's meld too."""
    s = _meld_phase("8 8 8", melds=[{"cards": "8 8 8 8 8 2 2", "creator": 2}])
    assert_illegal(s, "meld 8 8 8", "CC-6.4")
    s = play(s, "add 8 -> 8")  # no upper limit on meld size (CC-6.5)
    assert len(dump_position(s)["melds"][0][0]["cards"]) == 8


def test_runs_are_not_melds():
    """CC-6.1: a meld is of one rank only; runs are not melds."""
    s = _meld_phase("7 8 9")
    assert_illegal(s, "meld 7 8 9", "CC-6.1")


def test_wild_ratio_pagat():
    """CC-6.2 option wild_ratio="pagat": two naturals and three wild cards are legal (at most
    three wild cards still holds)."""
    s = _meld_phase("6 6 2 2 2", options={"wild_ratio": "pagat"})
    play(s, "meld 6 6 2 2 2")
    s = _meld_phase("9 9 2 2 2 JK", options={"wild_ratio": "pagat"})
    assert_illegal(s, "meld 9 9 2 2 2 JK", "CC-6.2")
    s = _meld_phase("5 2 2", options={"wild_ratio": "pagat"})
    assert_illegal(s, "meld 5 2 2", "CC-6.2")


def test_wild_ratio_applies_to_additions():
    """CC-6.2 ("at every moment"), CC-6.5: an addition may not break the ratio: 7-7-2 + 2 has
    two wild cards to two naturals (legal), + another 2 would be three to two (refused by
    default, legal under "pagat")."""
    s = _meld_phase("2 2", melds=["7 7 2"])
    s = play(s, "add 2 -> 7")
    assert_illegal(s, "add 2 -> 7", "CC-6.2")
    s = _meld_phase("2 2", melds=["7 7 2"], options={"wild_ratio": "pagat"})
    play(s, "add 2 2 -> 7")


# --------------------------------------------------------------------------- CC-6.8 hidden


def test_hidden_canasta_laid_whole_from_hand():
    """CC-6.8, CC-12.3: seven cards put down in one new-meld action from the hand form a
    hidden canasta; reaching seven by additions does not."""
    s = _meld_phase("9 9 9 9 9 9 9")
    s = play(s, "meld 9 9 9 9 9 9 9")
    nines = [m for m in dump_position(s)["melds"][0] if m["rank"] == "9"][0]
    assert nines["hidden"] is True
    s = _meld_phase("9 9 9 9 9 9 9")
    s = play(s, "meld 9 9 9", "add 9 9 9 9 -> 9")
    nines = [m for m in dump_position(s)["melds"][0] if m["rank"] == "9"][0]
    assert nines["hidden"] is False


def test_hidden_canasta_with_the_top_card():
    """CC-6.8: the top card of the pile may be part of a hidden canasta when taking the
    pile."""
    s = build(hands={0: "8 8 8 8 8 8 5 6"}, melds={0: BASE_MELD}, pile="4 8", phase="draw")
    s = play(s, "take 8 8 8 8 8 8")
    eights = [m for m in dump_position(s)["melds"][0] if m["rank"] == "8"][0]
    assert len(eights["cards"]) == 7 and eights["hidden"] is True


def test_edge16_near_hidden_canasta():
    """CC-6.8, edge case 16: the player takes the pile with 8-8 + top 8, puts the five other
    8s from the pile into hand and lays them on the new meld in the same turn: a canasta, but
    not hidden."""
    s = build(hands={0: "8 8 5 6"}, melds={0: BASE_MELD}, pile="8 8 8 8 8 K 8", phase="draw")
    s = play(s, "take 8 8", "add 8 8 8 8 8 -> 8")
    eights = [m for m in dump_position(s)["melds"][0] if m["rank"] == "8"][0]
    assert len(eights["cards"]) == 8 and eights["hidden"] is False


def test_same_turn_pile_cards_in_a_new_meld_are_not_hidden():
    """CC-6.8: a canasta that uses a card that entered the hand from the pile this turn (other
    than the top card) is not hidden, even if laid down whole in one meld action."""
    s = build(hands={0: "Q 9 9 5 6"}, melds={0: ["Q Q Q"]}, pile="9 9 9 9 9 Q",
              phase="draw")
    s = play(s, "take", "meld 9 9 9 9 9 9 9")
    nines = [m for m in dump_position(s)["melds"][0] if m["rank"] == "9"][0]
    assert nines["hidden"] is False


def test_pile_cards_from_an_earlier_turn_may_be_used():
    """CC-6.8: cards taken from the pile on earlier turns are ordinary hand cards."""
    s = build(hands={0: "9 9 9 9 9 9 9 5 6"}, melds={0: BASE_MELD}, phase="meld",
              turn_state={"pile_cards": []})
    s = play(s, "meld 9 9 9 9 9 9 9")
    nines = [m for m in dump_position(s)["melds"][0] if m["rank"] == "9"][0]
    assert nines["hidden"] is True


def test_edge15_hidden_canasta_later_turns_mixed():
    """CC-12.3, CC-6.6, edge case 15: a hidden natural canasta later receives a 2: at scoring
    it is a hidden mixed canasta worth 400 (300 + 100)."""
    s = build(hands={0: "2 5"}, phase="meld",
              melds={0: ["K K K", {"cards": "7 7 7 7 7 7 7", "hidden": True}]})
    s = play(s, "add 2 -> 7", "discard 5")
    r = result(s, 0)
    sevens = [ln for ln in r.lines if "(7)" in ln.label or "7×" in ln.label]
    bonus = sum(ln.points for ln in r.lines if ln.rule_id in ("CC-12.2", "CC-12.3"))
    assert bonus == 400
    assert lines_by_rule(r)["CC-12.2"] == [300]
    assert lines_by_rule(r)["CC-12.3"] == [100]
    # 7×7 + 2 = 55, bonus 400, K K K 30, going out 100
    assert r.hand_score == 55 + 400 + 30 + 100
    assert sevens


def test_edge32_hidden_canasta_inside_the_initial_melding():
    """CC-6.8, CC-6.9, CC-12.3, edge case 32: a side that has not melded makes its initial
    melding A-A-A-A-A-A-2 and K-K-K in one compound action (count 170): the ace meld is a
    hidden mixed canasta, 400 at scoring."""
    s = build(hands={0: "A A A A A A 2 K K K 5"}, phase="meld", seats_melded=[])
    s = play(s, "meld A A A A A A 2, K K K")
    aces = [m for m in dump_position(s)["melds"][0] if m["rank"] == "A"][0]
    assert aces["hidden"] is True
    s = play(s, "discard 5")
    r = result(s, 0)
    by = lines_by_rule(r)
    assert by["CC-12.2"] == [300] and by["CC-12.3"] == [100]


def test_a_meld_needing_cards_not_held_says_so():
    """CC-6.5: a meld of cards the hand does not hold is refused, and the sentence says what
    the hand holds and what the meld needs (it read "you hold no 2s, not 1")."""
    s = _meld_phase("9 9 5")
    err = assert_illegal(s, "meld 9 9 2", "CC-6.5")
    assert err.reason == "you hold no 2s; this needs 1"
