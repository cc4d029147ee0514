"""RR-6: melds and canastas — natural-rank, sevens, wild and black-three melds, the seven-card
cap, one unfinished meld per category, canasta types; every row of the RR-6.10 table."""

from __future__ import annotations

import pytest
from rr_position import offers, assert_illegal, build, legal_texts, play, points, result

from meldhall.errors import IllegalActionError
from meldhall.games.canasta.actions import Meld, MeldSpec
from meldhall.record import dump_position

ALL_FOUR = ["K K K K K K K", "Q Q Q Q Q Q 2", "2 2 2 2 JK JK JK", "7 7 7 7 7 7 7"]


def melded(hand: str, **kw):
    """Seat 0 in its meld phase, having melded already (a 5-5-5 meld on the table), holding
    ``hand`` plus two spare cards (so the hand-size rules never interfere)."""
    melds = kw.pop("melds", {0: ["5 5 5"]})
    return build(hands={0: hand + " 9 10", 1: "4 4"}, melds=melds, kitties={1: 11}, **kw)


def canastas(state, seat=0):
    return [(kind, str(m.spec)) for kind, m in state.closed[seat]]


# --------------------------------------------------------------------------- RR-6.10 table


def test_rr6_10_row1_q_q_2():
    """RR-6.10 row 1, RR-6.2: Q-Q-2 is legal (two naturals, one wild)."""
    s = play(melded("Q Q 2"), "meld Q Q 2")
    assert s.melds[0][12].size == 3


def test_rr6_10_row2_q_q_2_2_jk():
    """RR-6.10 row 2, RR-6.2: Q-Q-2-2-Jk is legal (two naturals, three wild)."""
    s = play(melded("Q Q 2 2 JK"), "meld Q Q 2 2 JK")
    assert s.melds[0][12].wilds == 3


def test_rr6_10_row3_seven_cards_black_canasta():
    """RR-6.10 row 3, RR-6.8, RR-6.9: Q-Q-Q-Q-2-2-Jk is legal: a black canasta at once."""
    s = play(melded("Q Q Q Q 2 2 JK"), "meld Q Q Q Q 2 2 JK")
    assert canastas(s) == [("black", "Q Q Q Q 2 2 JK")]
    assert s.melds[0][12] is None


def test_rr6_10_row4_q_2_2():
    """RR-6.10 row 4, RR-6.2: Q-2-2 is refused (one natural)."""
    assert_illegal(melded("Q 2 2"), "meld Q 2 2", "RR-6.2")


def test_rr6_10_row5_four_wild_cards():
    """RR-6.10 row 5, RR-6.2: Q-Q-Q-2-2-2-Jk is refused (four wild cards)."""
    assert_illegal(melded("Q Q Q 2 2 2 JK"), "meld Q Q Q 2 2 2 JK", "RR-6.2")


def test_rr6_10_row6_sevens_meld():
    """RR-6.10 row 6, RR-6.3: 7-7-7 is a legal sevens meld."""
    s = play(melded("7 7 7"), "meld 7 7 7")
    assert s.melds[0][7].size == 3


def test_rr6_10_row7_wild_card_with_sevens():
    """RR-6.10 row 7, RR-6.3: 7-7-2 is refused (a wild card with sevens)."""
    assert_illegal(melded("7 7 2"), "meld 7 7 2", "RR-6.3")


def test_rr6_10_row8_wild_meld():
    """RR-6.10 row 8, RR-6.4: Jk-2-2 is a legal wild meld."""
    s = play(melded("JK 2 2"), "meld JK 2 2")
    m = s.melds[0][0]
    assert m.size == 3 and m.twos == 2 and m.jokers == 1


def test_rr6_10_row9_wild_canasta():
    """RR-6.10 row 9, RR-6.4, RR-6.9: 2-2-2-2-Jk-Jk-2 is a wild canasta."""
    s = play(melded("2 2 2 2 JK JK 2"), "meld 2 2 2 2 JK JK 2")
    assert canastas(s) == [("wild", "2 2 2 2 2 JK JK")]


def test_rr6_10_row10_eighth_king_refused():
    """RR-6.10 row 10, RR-6.8: adding an 8th king to a completed K canasta is refused."""
    s = melded("K", closed={0: ["K K K K K K K"]})
    assert_illegal(s, "add K -> K", "RR-6.8")


def test_rr6_10_row11_second_unfinished_meld_of_a_rank():
    """RR-6.10 row 11, RR-6.7: starting K-K-K while K-K-K-2 (4 cards) is on the table is
    refused."""
    s = melded("K K K", melds={0: ["K K K 2"]})
    assert_illegal(s, "meld K K K", "RR-6.7")


def test_rr6_10_row12_new_meld_beside_a_completed_canasta():
    """RR-6.10 row 12, RR-6.7: starting K-K-K while the only other K meld is a completed canasta
    is legal."""
    s = melded("K K K", closed={0: ["K K K K K K K"]})
    s = play(s, "meld K K K")
    assert s.melds[0][13].size == 3 and len(s.closed[0]) == 1


def test_rr6_10_row13_black_threes_when_not_going_out():
    """RR-6.10 row 13, RR-6.5: 3♠-3♣-3♠ when not going out is refused."""
    assert_illegal(melded("3S 3C 3S"), "meld 3 3 3", "RR-6.5")


def test_rr6_10_row14_eight_black_threes_going_out():
    """RR-6.10 row 14, RR-6.5, RR-6.1: eight black threes melded while going out, as the last
    meld, keeping one non-seven card to discard: legal, the meld exceeds seven cards."""
    s = build(hands={0: "3S 3C 3S 3C 3S 3C 3S 3C 9", 1: "4 4"}, closed={0: ALL_FOUR})
    s = play(s, "meld 3 3 3 3 3 3 3 3")
    assert s.melds[0][3].size == 8
    assert legal_texts(s) == {"discard 9"}
    s = play(s, "discard 9")
    assert s.outcome is not None and s.outcome.went_out == 0


def test_rr6_10_row15_black_threes_followed_by_another_meld():
    """RR-6.10 row 15, RR-6.5: black threes followed by another meld are refused: the
    black-three meld must be the last meld of the turn (it must leave exactly one card, and
    once it is made no further meld is allowed)."""
    s = build(hands={0: "3 3 3 Q Q Q 9", 1: "4 4"}, closed={0: ALL_FOUR})
    assert_illegal(s, "meld 3 3 3", "RR-6.5")
    t = build(hands={0: "3 3 3 9", 1: "4 4"}, closed={0: ALL_FOUR}, melds={0: ["9 9 9"]})
    t = play(t, "meld 3 3 3")
    assert_illegal(t, "add 9 -> 9", "RR-6.5")
    assert legal_texts(t) == {"discard 9"}


def test_rr6_10_row16_black_threes_leaving_a_seven():
    """RR-6.10 row 16, RR-6.5, RR-9.7: black threes leaving only a 7 in hand are refused (the
    card left must be a legal going-out discard)."""
    s = build(hands={0: "3 3 3 7", 1: "4 4"}, closed={0: ALL_FOUR, 1: ["7 7 7 7 7 7 7"]})
    assert_illegal(s, "meld 3 3 3", "RR-6.5")


def test_rr6_10_row17_black_threes_leaving_no_card_or_two():
    """RR-6.10 row 17, RR-6.5, RR-11.2: black threes leaving no card, or two or more cards, are
    refused: exactly one card must remain for the going-out discard."""
    s = build(hands={0: "3 3 3", 1: "4 4"}, closed={0: ALL_FOUR})
    assert_illegal(s, "meld 3 3 3", "RR-6.5")
    s = build(hands={0: "3 3 3 9 10", 1: "4 4"}, closed={0: ALL_FOUR})
    assert_illegal(s, "meld 3 3 3", "RR-6.5")


def test_rr6_10_row18_black_threes_without_the_four_types():
    """RR-6.10 row 18, RR-6.5, RR-11.1: black threes by a player who lacks one of the four canasta
    types are refused."""
    s = build(hands={0: "3 3 3 9", 1: "4 4"}, closed={0: ALL_FOUR[:3]})
    assert_illegal(s, "meld 3 3 3", "RR-6.5")


def test_rr6_10_row19_black_threes_with_a_wild_card():
    """RR-6.10 row 19, RR-6.5: 3♠-3♣-2 is refused (wild cards never go with threes)."""
    s = build(hands={0: "3 3 2 9", 1: "4 4"}, closed={0: ALL_FOUR})
    assert_illegal(s, "meld 3 3 2", "RR-6.5")


def test_rr6_10_row20_eight_cards_in_one_action():
    """RR-6.10 row 20, RR-6.1: 8-8-8-8-8 plus Jk-2 plus another 8 in one action is refused
    (eight cards exceed the cap)."""
    s = melded("8 8 8 8 8 8 JK 2")
    assert_illegal(s, "meld 8 8 8 8 8 8 2 JK", "RR-6.1")
    s = melded("8 8 8 8 8 JK 2", melds={0: ["5 5 5"]})
    s = play(s, "meld 8 8 8 8 8 2 JK")
    assert canastas(s) == [("black", "8 8 8 8 8 2 JK")]


# --------------------------------------------------------------------------- further RR-6


def test_natural_meld_wild_limit_at_every_moment():
    """RR-6.2: at most three wild cards at every moment; additions obey it too."""
    s = melded("2 JK", melds={0: ["5 5 5", "Q Q 2 2 JK"]})
    assert_illegal(s, "add 2 -> Q", "RR-6.2")
    assert_illegal(s, "add JK -> Q", "RR-6.2")


def test_sevens_meld_takes_no_wild_card_addition():
    """RR-6.3: a wild card may never be added to a sevens meld."""
    s = melded("2 JK", melds={0: ["5 5 5", "7 7 7"]})
    assert_illegal(s, "add 2 -> 7", "RR-6.3")


def test_wild_meld_grows_to_a_wild_canasta():
    """RR-6.4, RR-6.8, RR-6.9: wild cards added to a wild meld; at seven it is a wild canasta."""
    s = melded("2 2 JK JK", melds={0: ["5 5 5", "2 2 JK"]})
    s = play(s, "add 2 -> wild")
    assert s.melds[0][0].size == 4
    s = play(s, "add 2 JK JK -> wild")
    assert canastas(s) == [("wild", "2 2 2 2 JK JK JK")]
    assert s.melds[0][0] is None


def test_wild_meld_with_natural_cards_refused():
    """RR-6.4: a wild meld holds only wild cards; a Python action naming 'natural' cards in a
    wild meld (which no notation produces) is refused, never melded as phantom cards."""
    s = melded("2 2 JK JK")
    before = dump_position(s)
    for a in (Meld((MeldSpec(0, 3, 0, 0),)), Meld((MeldSpec(0, 1, 1, 1),))):
        with pytest.raises(IllegalActionError) as ei:
            s.apply(a)
        assert ei.value.rule_id == "RR-6.4"
        assert not s.is_legal(a)
    assert_illegal(s, "add K -> wild", ("RR-6.4", "RR-6.2"))
    assert dump_position(s) == before


def test_red_threes_are_never_melded():
    """RR-6.6, RR-9.1: red threes are never held or melded."""
    s = melded("Q Q")
    assert_illegal(s, "meld 3H 3D 3H", ("RR-9.1", "RR-6.6"))


def test_edge23_two_unfinished_melds_of_the_same_category():
    """RR-6.7, edge case 23: a second unfinished meld of a rank is refused even if the player
    has a legal three-card group; the same for sevens and for wild melds."""
    s = melded("9 9 9 7 7 7 2 2 JK", melds={0: ["9 9 2", "7 7 7", "JK 2 2"]})
    assert_illegal(s, "meld 9 9 9", "RR-6.7")
    assert_illegal(s, "meld 7 7 7", "RR-6.7")
    assert_illegal(s, "meld 2 2 JK", "RR-6.7")
    assert "add 9 9 9 -> 9" in legal_texts(s)


def test_one_meld_at_a_time_after_the_first_melding():
    """RR-6.11: after the first melding, new melds are laid one per action."""
    s = melded("A A A K K K")
    assert_illegal(s, "meld A A A, K K K", "RR-6.11")


def test_canasta_types():
    """RR-6.9: red (seven naturals of a rank other than 7), black (one to three wild cards),
    wild (seven wild cards), sevens (seven natural sevens; never also red)."""
    s = melded("K K 9 9 2 JK 2 2 2 7 7",
               melds={0: ["5 5 5", "K K K K K", "9 9 9 9", "2 2 JK", "7 7 7 7 7"]})
    s = play(s, "add K K -> K", "add 9 9 2 -> 9", "add 2 2 2 JK -> wild", "add 7 7 -> 7")
    assert sorted(k for k, _ in canastas(s)) == ["black", "red", "sevens", "wild"]
    assert s.canasta_types(0) == {"red", "black", "wild", "sevens"}
    assert not any(k == "red" and "7" in spec for k, spec in canastas(s))


def test_edge19_long_black_three_meld(monkeypatch):
    """RR-6.5, RR-2.3, RR-13.1, edge case 19: with three players, while going out a player melds
    nine black threes as the last meld of the turn, keeping one non-seven card, which they
    discard: legal; the meld scores 45 and earns no canasta bonus."""
    s = build(players=3, hands={0: "3 3 3 3 3 3 3 3 3 9", 1: "4 4", 2: "4 4"},
              closed={0: ALL_FOUR}, kitties={1: 11, 2: 11})
    s = play(s, "meld 3 3 3 3 3 3 3 3 3", "discard 9")
    assert s.outcome.how == "went_out"
    r = result(s, 0)
    b3 = [ln for ln in r.lines if "black-three" in ln.label]
    assert [ln.points for ln in b3] == [45]
    assert points(r, "RR-13.2") == 500 + 300 + 1000 + 1500  # the four canastas only


def test_edge30_black_three_meld_not_last():
    """RR-6.5, RR-9.7, edge case 30: holding 3♠-3♣-3♠, Q-Q-Q and 9 while going out (all four
    types, kitty taken), melding the black threes first is refused; Q-Q-Q first, then the
    black threes, then discarding the 9 is legal.  Had the last card been a 7, the black-three
    meld would be refused."""
    s = build(hands={0: "3S 3C 3S Q Q Q 9", 1: "4 4"}, closed={0: ALL_FOUR})
    assert_illegal(s, "meld 3 3 3", "RR-6.5")
    s = play(s, "meld Q Q Q", "meld 3 3 3", "discard 9")
    assert s.outcome.how == "went_out" and s.outcome.went_out == 0
    t = build(hands={0: "3S 3C 3S Q Q Q 7", 1: "4 4"},
              closed={0: ALL_FOUR, 1: ["7 7 7 7 7 7 7"]})
    t = play(t, "meld Q Q Q")
    assert_illegal(t, "meld 3 3 3", "RR-6.5")


def test_black_three_meld_may_leave_a_black_three_to_discard():
    """RR-6.5, RR-11.2: holding only black threes (all four types, kitty taken), a player may
    meld all but one and go out by discarding the last black three — it is not a seven."""
    s = build(hands={0: "3 3 3 3", 1: "4 4"}, closed={0: ALL_FOUR})
    assert offers(s, "meld 3 3 3")
    s = play(s, "meld 3 3 3", "discard 3")
    assert s.outcome.how == "went_out" and s.outcome.went_out == 0


def test_first_melding_with_a_canasta_and_a_new_meld_of_its_rank():
    """RR-6.7, RR-6.8, RR-6.11: the first melding may lay a seven-card canasta and a new meld of
    the same rank together (the canasta is closed at once, so only one meld of the rank is
    unfinished); the action is offered, and either written order is the same action."""
    s = build(players=3, hands={0: "A A A A A A A A A A 5 6", 1: "4 4"}, kitties={1: 11})
    a = s.parse_action("meld A A A, A A A A A A A")
    assert a == s.parse_action("meld A A A A A A A, A A A")
    assert str(a) == "meld A A A A A A A, A A A"
    s = play(s, "meld A A A A A A A, A A A")
    assert canastas(s) == [("red", "A A A A A A A")] and s.melds[0][1].size == 3
    t = build(players=3, hands={0: "A A A A A A A A A A A A A A 5 6", 1: "4 4"}, kitties={1: 11})
    assert offers(t, "meld A A A A A A A, A A A A A A A")
    assert_illegal(t, "meld A A A, A A A", "RR-6.7")
