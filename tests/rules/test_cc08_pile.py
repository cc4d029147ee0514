"""CC-8: freezing and taking the discard pile, and the pile options."""

from __future__ import annotations

from cc_position import assert_illegal, build, legal_texts, play
from meldhall.record import dump_position


def _meld_of(state, side: int, rank: str) -> list[str]:
    return next(m["cards"] for m in dump_position(state)["melds"][side] if m["rank"] == rank)


# --------------------------------------------------------------------------- CC-8.11 examples


def test_cc8_11_unfrozen_take_by_adding_the_upcard():
    """CC-8.11 example 1, CC-8.6(c): pile not frozen, side has a meld of 9s, top card 9: the
    player may take the pile with no 9 in hand."""
    s = build(hands={0: "K 5 6"}, melds={0: ["9 9 9"]}, pile="4 7 9", phase="draw")
    s = play(s, "take")
    assert len(_meld_of(s, 0, "9")) == 4
    assert s.hands[0].bit_count() == 5 and s.pile == ()


def test_cc8_11_frozen_pile_needs_a_natural_pair():
    """CC-8.11 example 2, CC-8.3, CC-8.5: pile frozen by a discarded Jk lower down, top card 9,
    side has a meld of 9s, player holds one 9 and a 2: cannot take."""
    s = build(hands={0: "9 2 K 5"}, melds={0: ["9 9 9"]}, pile="4 JK 7 9", pile_frozen=True,
              phase="draw")
    assert_illegal(s, "take 9 2", "CC-8.5")
    assert_illegal(s, "take", "CC-8.5")
    assert legal_texts(s) == {"draw"}


def test_cc8_11_frozen_against_a_side_that_has_not_melded():
    """CC-8.11 example 3, CC-8.4, CC-8.5: side has not melded, top card Q, player holds Q and
    Jk: cannot take (natural pair needed)."""
    s = build(hands={0: "Q JK A A A 5"}, pile="4 Q", phase="draw", seats_melded=[])
    assert not s.pile_frozen
    assert_illegal(s, "take Q JK, A A A", "CC-8.5")


def test_cc8_11_wild_card_on_top_blocks_everyone():
    """CC-8.11 example 4, CC-8.2: top card 2♣: nobody can take the pile this turn."""
    s = build(hands={0: "2 2 K"}, melds={0: ["9 9 9"]}, pile="4 2C", pile_frozen=True,
              phase="draw")
    assert_illegal(s, "take 2 2", ("CC-8.2", "CC-6.2"))
    assert legal_texts(s) == {"draw"}


# --------------------------------------------------------------------------- edge cases


def test_edge6_one_card_in_hand_one_card_pile():
    """CC-8.8, edge case 6: a player holding one card may not take a one-card pile even if the
    top card fits the side's meld."""
    s = build(hands={0: "Q"}, melds={0: ["9 9 9 9 9 9 9"]}, pile="9", phase="draw")
    assert_illegal(s, "take", "CC-8.8")
    assert legal_texts(s) == {"draw"}


def test_edge6_stock_exhausted_take_not_forced_hand_ends():
    """CC-8.8, CC-11.3(c), edge case 6: with the stock exhausted the one-card take is not
    forced; the player has no legal take, so the hand ends before their turn, without a
    going-out bonus."""
    s = build(hands={0: "Q", 3: "K 9"}, melds={0: ["9 9 9 9 9 9 9"]}, stock="", fill=1,
              phase="meld", turn=3)
    s = play(s, "discard 9")
    assert s.outcome is not None and s.outcome.how == "stock_exhausted"
    assert s.outcome.went_out is None
    for r in s.outcome.results:
        assert not any(ln.rule_id == "CC-12.5" for ln in r.lines)


def test_edge7_frozen_pile_side_already_has_the_rank():
    """CC-8.5, CC-6.4, edge case 7: top card 7, pile frozen by an earlier wild card, side has
    7-7-7-2, player holds 7-7: legal take, and the three sevens join the existing meld."""
    s = build(hands={0: "7 7 K 5"}, melds={0: ["7 7 7 2"]}, pile="4 2 8 7", pile_frozen=True,
              phase="draw")
    s = play(s, "take 7 7")
    sevens = _meld_of(s, 0, "7")
    assert len(sevens) == 7 and sum(c.startswith("7") for c in sevens) == 6
    assert len(dump_position(s)["melds"][0]) == 1


def test_edge8_wild_limit_on_an_unfrozen_take():
    """CC-8.6, CC-6.2, edge case 8: side's meld J-J-J-J-2-2-Jk (three wild); player holds J and
    2, top card J: option (b) is refused (a fourth wild card), option (c) — the top J alone —
    is legal."""
    s = build(hands={0: "J 2 K 5"}, melds={0: ["J J J J 2 2 JK"]}, pile="4 J", phase="draw")
    assert_illegal(s, "take J 2", "CC-6.2")
    s = play(s, "take")
    assert len(_meld_of(s, 0, "J")) == 8


def test_edge18_wild_card_on_an_empty_pile():
    """CC-8.9, CC-8.2, CC-8.3, edge case 18: right after taking the pile the taker discards a
    2: the new one-card pile is frozen and the next player cannot take it."""
    s = build(hands={0: "2 K 5 6", 1: "2 2 8 5"}, melds={0: ["9 9 9"], 1: ["K K K"]},
              pile="4 9", phase="draw")
    s = play(s, "take")
    assert s.pile == () and s.pile_frozen is False  # CC-8.9
    s = play(s, "discard 2")
    assert len(s.pile) == 1 and s.pile_frozen is True
    assert s.turn == 1
    assert_illegal(s, "take 2 2", "CC-8.2")
    assert legal_texts(s) == {"draw"}


def test_edge19_black_three_then_cover():
    """CC-8.10, CC-8.2, CC-9.4, edge case 19: 3♣ discarded; the next player cannot take; after
    they discard a Q, the following player may take the pile normally (it is not frozen)."""
    s = build(hands={0: "3C K 5", 1: "3 3 8 Q", 2: "Q Q 5 6"},
              melds={0: ["A A A"], 1: ["K K K"]}, pile="4 7", stock="9", phase="meld")
    s = play(s, "discard 3")
    assert s.pile_frozen is False
    assert_illegal(s, "take 3 3", "CC-8.2")
    assert legal_texts(s) == {"draw"}
    s = play(s, "draw", "discard Q")
    assert s.turn == 2 and s.pile_frozen is False
    s = play(s, "take Q Q")
    # 5 6 kept, 4 7 3♣ from under the upcard
    assert s.hands[2].bit_count() == 5


def test_edge26_pile_take_with_one_card_in_hand():
    """CC-5.7, CC-8.7, CC-8.8, edge case 26: a player whose side has melded 9s holds only Q;
    the pile is a 4 with a 9 on top, unfrozen.  Taking it by adding the 9 to the meld is
    legal; the hand then holds Q and 4, and the player discards one and keeps one."""
    s = build(hands={0: "Q"}, melds={0: ["9 9 9"]}, pile="4 9", phase="draw")
    s = play(s, "take")
    assert sorted(c.rank for c in s.hand_cards(0)) == [4, 12]
    assert legal_texts(s) == {"discard Q", "discard 4"}
    s = play(s, "discard Q")
    assert s.outcome is None and s.hands[0].bit_count() == 1


def test_edge27_pile_take_that_empties_the_hand():
    """CC-5.7, CC-10.1, edge case 27: side with no canasta, player holds Q-Q, the pile is a
    single Q: taking it with the pair would leave no card even after the pile has joined the
    hand, and going out needs a canasta: refused."""
    s = build(hands={0: "Q Q"}, melds={0: ["K K K"]}, pile="Q", phase="draw")
    assert_illegal(s, "take Q Q", "CC-5.7")
    assert legal_texts(s) == {"draw"}


# --------------------------------------------------------------------------- other rules


def test_cc8_1_take_means_the_whole_pile():
    """CC-8.1, CC-8.7: a take moves the whole pile: the upcard to the meld, the rest to the
    hand."""
    s = build(hands={0: "K 5"}, melds={0: ["9 9 9"]}, pile="4 5 6 7 8 10 9", phase="draw")
    s = play(s, "take")
    assert s.pile == () and s.hands[0].bit_count() == 2 + 6


def test_cc8_3_discarded_wild_freezes_and_covering_does_not_unfreeze():
    """CC-8.3: a discarded wild card freezes the pile for everyone; covering it does not
    unfreeze it, so a side with a meld of 7s cannot take a 7 with one 7 and a 2, nor by adding
    the upcard."""
    s = build(hands={0: "2 K 5", 1: "8 7 5", 2: "7 2 5 6"}, melds={0: ["7 7 7"], 1: ["A A A"]},
              pile="4", stock="J", phase="meld")
    s = play(s, "discard 2")
    assert s.pile_frozen is True
    s = play(s, "draw", "discard 7")
    assert s.turn == 2 and s.pile_frozen is True
    assert_illegal(s, "take 7 2", "CC-8.5")
    assert_illegal(s, "take", "CC-8.5")


def test_cc8_4_frozen_against_unmelded_side_only():
    """CC-8.4: an unfrozen pile is frozen against a side that has not melded (Q + 2 refused),
    while a side that has melded may take it with one natural and a wild card (CC-8.6(b))."""
    s = build(hands={0: "Q 2 A A A 5"}, pile="4 Q", phase="draw", seats_melded=[])
    assert_illegal(s, "take Q 2, A A A", "CC-8.5")
    s = build(hands={0: "Q 2 5 6"}, melds={0: ["A A A"]}, pile="4 Q", phase="draw")
    play(s, "take Q 2")


def test_option_frozen_until_side_melds_false():
    """CC-8.4 option frozen_until_side_melds=false: an unmelded side may take an unfrozen pile
    with one natural and a wild card (the minimum still applies, CC-7.4)."""
    opts = {"frozen_until_side_melds": False}
    s = build(hands={0: "Q 2 A A A 5"}, pile="4 Q", phase="draw", seats_melded=[],
              options=opts)
    play(s, "take Q 2, A A A")  # 10 + 10 + 20 + 60 = 100 >= 50
    assert_illegal(s, "take Q 2", "CC-7.4")  # 40 < 50
    # a pile frozen for everyone (CC-8.3) still needs the natural pair
    s = build(hands={0: "Q 2 A A A 5"}, pile="2 Q", phase="draw", seats_melded=[],
              pile_frozen=True, options=opts)
    assert_illegal(s, "take Q 2, A A A", "CC-8.5")


def test_cc8_6_b_one_natural_and_one_wild():
    """CC-8.6(b): with an existing meld the natural and the wild card go onto it (CC-6.2 must
    hold); for a new meld more hand cards may be added in the same action."""
    s = build(hands={0: "9 2 5 6"}, melds={0: ["9 9 9"]}, pile="4 9", phase="draw")
    s = play(s, "take 9 2")
    assert len(_meld_of(s, 0, "9")) == 6
    s = build(hands={0: "9 9 9 2 5 6"}, melds={0: ["A A A"]}, pile="4 9", phase="draw")
    s = play(s, "take 9 9 9 2")
    assert len(_meld_of(s, 0, "9")) == 5
    s = build(hands={0: "9 2 2 JK 5 6"}, melds={0: ["A A A"]}, pile="4 9", phase="draw")
    play(s, "take 9 2 2")  # two naturals (with the upcard), two wild cards
    assert_illegal(s, "take 9 2 2 JK", "CC-6.2")  # two naturals, three wild: too many


def test_option_unfrozen_take_with_wild_false():
    """CC-8.6 option unfrozen_take_with_wild=false: an unfrozen pile is taken only with a
    natural pair or by adding the upcard to the side's meld."""
    opts = {"unfrozen_take_with_wild": False}
    s = build(hands={0: "9 2 5 6"}, melds={0: ["9 9 9"]}, pile="4 9", phase="draw",
              options=opts)
    assert_illegal(s, "take 9 2", "CC-8.6")
    play(s, "take")
    s = build(hands={0: "9 2 5 6"}, melds={0: ["A A A"]}, pile="4 9", phase="draw",
              options=opts)
    assert_illegal(s, "take 9 2", "CC-8.6")
    s = build(hands={0: "9 9 2 5 6"}, melds={0: ["A A A"]}, pile="4 9", phase="draw",
              options=opts)
    play(s, "take 9 9 2")  # natural pair: more cards may join the new meld


def test_upcard_alone_needs_an_existing_meld():
    """CC-8.6(c): the upcard alone can only be added to an existing meld of its rank."""
    s = build(hands={0: "9 5 6"}, melds={0: ["A A A"]}, pile="4 9", phase="draw")
    assert_illegal(s, "take", "CC-8.6")


def test_option_single_card_pile_restriction_false():
    """CC-8.8 option single_card_pile_restriction=false: one card in hand may take a one-card
    pile (here the side has a canasta, so the single card left may then go out, CC-5.7)."""
    s = build(hands={0: "Q"}, melds={0: ["9 9 9 9 9 9 9"]}, pile="9", phase="draw",
              options={"single_card_pile_restriction": False})
    s = play(s, "take")
    s = play(s, "discard Q")
    assert s.outcome.how == "went_out"


def test_cc5_7_take_leaving_one_card_commits_to_going_out():
    """CC-5.7, CC-8.7: a take after which (the pile having joined the hand) one card is left
    is allowed only if the side may go out, and the turn can then end only by going out."""
    s = build(hands={0: "Q Q K"}, melds={0: ["K K K"]}, pile="Q", phase="draw")
    assert_illegal(s, "take Q Q", "CC-5.7")
    s = build(hands={0: "Q Q K"}, melds={0: ["K K K", "9 9 9 9 9 9 9"]}, pile="Q",
              phase="draw")
    s = play(s, "take Q Q")
    assert s.hands[0].bit_count() == 1
    assert legal_texts(s) == {"discard K", "add K -> K"}
    s = play(s, "add K -> K")
    assert s.outcome.how == "went_out"


def test_cc7_2_six_player_minimum_on_a_take():
    """CC-7.2, CC-7.4: a six-player side at 7,500 needs 150 also when its first melding is made
    by taking the pile (top card and hand cards only)."""
    s = build(players=6, hands={0: "A A A A 2 K K K 5"}, scores=[7500, 0], pile="A A 9 A",
              phase="draw", seats_melded=[])
    assert_illegal(s, "take A A A A 2", "CC-7.4")  # 100 + 20 = 120 < 150
    play(s, "take A A A A 2, K K K")  # 120 + 30 = 150
