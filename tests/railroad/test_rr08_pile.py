"""RR-8: the discard pile — blocked and frozen piles, taking with a natural pair or by adding
to a meld, the procedure, the RR-8.9 examples and the pile edge cases."""

from __future__ import annotations

from rr_position import offers, assert_illegal, build, legal_texts, play

from meldhall.record import dump_position


def draw_phase(hand: str, **kw):
    """Seat 0 at the start of its turn, having melded (a 5-5-5 meld unless ``melds`` given)."""
    melds = kw.pop("melds", {0: ["5 5 5"]})
    kw.setdefault("kitties", {1: 11})
    return build(hands={0: hand, 1: "4 4"}, melds=melds, phase="draw", **kw)


# --------------------------------------------------------------------------- RR-8.9 examples


def test_rr8_9_unfrozen_take_by_adding_the_top_card():
    """RR-8.9 example 1, RR-8.5: pile unfrozen, top 9, the player has 9-9-9-Jk on the table: may
    take by adding the 9."""
    s = draw_phase("K Q", melds={0: ["9 9 9 JK"]}, pile="4 6 9")
    s = play(s, "take")
    assert s.melds[0][9].size == 5
    assert s.pile == () and s.hands[0].bit_count() == 4


def test_rr8_9_frozen_single_nine_cannot_take():
    """RR-8.9 example 2, RR-8.3, RR-8.5: pile frozen, top 9, the player has 9-9-9-Jk and holds
    one 9: cannot take."""
    s = draw_phase("9 K Q", melds={0: ["9 9 9 JK"]}, pile="4 9", pile_frozen=True)
    assert_illegal(s, "take", "RR-8.5")
    assert_illegal(s, "take 9", ("RR-8.4", "RR-8.5"))
    assert legal_texts(s) == {"draw"}


def test_rr8_9_frozen_pair_onto_a_four_card_meld():
    """RR-8.9 example 3, RR-8.4, RR-6.9: pile frozen, top 9, the player holds 9-9 and has
    9-9-9-Jk (4 cards): may take; the meld grows to 7 and becomes a black canasta."""
    s = draw_phase("9 9 K Q", melds={0: ["9 9 9 JK"]}, pile="4 9", pile_frozen=True)
    s = play(s, "take 9 9")
    assert s.melds[0][9] is None
    assert [(k, m.size) for k, m in s.closed[0]] == [("black", 7)]
    assert not s.pile_frozen and s.pile == ()


def test_rr8_9_edge10_frozen_pair_onto_a_five_card_meld():
    """RR-8.9 example 4, RR-8.4, RR-6.1, edge case 10: pile frozen, top 9, the player holds 9-9
    and has a five-card 9 meld: refused, it would make eight cards."""
    s = draw_phase("9 9 K Q", melds={0: ["9 9 9 9 JK"]}, pile="4 9", pile_frozen=True)
    assert_illegal(s, "take 9 9", "RR-8.4")
    assert legal_texts(s) == {"draw"}


def test_rr8_9_edge20_black_three_on_top():
    """RR-8.9 example 5, RR-8.2, RR-9.4, edge case 20: after a 3♠ discard the next player may not
    take the pile, even with a natural pair of the card beneath; once another card covers it
    the block ends."""
    s = draw_phase("9 9 K Q", melds={0: ["9 9 9"]}, pile="4 9 3S")
    assert_illegal(s, "take", "RR-8.2")
    assert_illegal(s, "take 9 9", ("RR-8.2", "RR-8.4"))
    assert legal_texts(s) == {"draw"}
    # seat 1 draws and covers the 3♠ with a 9: now seat 0 may take
    s = build(hands={0: "9 9 K Q", 1: "9 4 4"}, melds={0: ["9 9 9"]}, pile="4 9 3S",
              phase="draw", turn=1, kitties={1: 11})
    s = play(s, "draw", "discard 9")
    assert {"take", "take 9 9"} <= legal_texts(s)


def test_rr8_9_wild_top_card_never_taken():
    """RR-8.9 example 6, RR-8.2: top card Jk or 2, discarded or the upcard: nobody may take, not
    even a player with an unfinished wild meld (and not under upcard_wild_freezes = false)."""
    for top in ("JK", "2"):
        for opts in ({}, {"upcard_wild_freezes": False}, {"take_with_natural_and_wild": True}):
            s = draw_phase("JK 2 2 K", melds={0: ["5 5 5", "2 2 JK"]}, pile=f"4 {top}",
                           pile_frozen=True, options=opts)
            assert_illegal(s, "take", "RR-8.2")
            assert_illegal(s, "take 2 2" if top == "2" else "take 2 JK", "RR-8.2")
            assert legal_texts(s) == {"draw"}


def test_rr8_9_seven_upcard_needs_the_minimum():
    """RR-8.9 example 7, RR-7.3, RR-4.8: top card 7 (the upcard; sevens not yet discardable): a
    player holding 7-7 may take, but a player who has not melded only as the initial melding:
    7-7-7 counts 15, refused at 0–4,995 unless further melds bring the count to 50."""
    s = build(hands={0: "7 7 K K K 2 5 6", 1: "4 4"}, pile="7C", phase="draw",
              kitties={0: 11, 1: 11})
    assert_illegal(s, "take 7 7", "RR-7.3")
    s = play(s, "take 7 7, K K K 2")  # 15 + 50
    assert s.melds[0][7].size == 3
    # a player who has melded takes with 7-7 freely
    t = draw_phase("7 7 K Q", pile="7C", kitties={0: 11, 1: 11})
    t = play(t, "take 7 7")
    assert t.melds[0][7].size == 3


# --------------------------------------------------------------------------- edge cases


def test_edge11_top_card_matches_only_a_canasta():
    """RR-8.4, RR-8.5, RR-6.7, edge case 11: pile unfrozen, top K, the player's only K meld is a
    completed canasta: the add-to-meld route is closed; with K-K in hand they may start a new K
    meld instead."""
    s = draw_phase("K K Q J", closed={0: ["K K K K K K K"]}, pile="4 K")
    assert_illegal(s, "take", "RR-8.5")
    assert offers(s, "take K K")
    s = play(s, "take K K")
    assert s.melds[0][13].size == 3 and len(s.closed[0]) == 1


def test_edge21_wild_discard_on_an_emptied_pile():
    """RR-8.8, RR-8.2, RR-8.3, edge case 21: the player who just took the pile discards a Jk: the
    new one-card pile is frozen and nobody may take it while the Jk is on top."""
    s = build(hands={0: "9 9 JK Q K", 1: "JK 2 2 4 4"}, melds={0: ["5 5 5"], 1: ["2 2 JK"]},
              pile="4 9", phase="draw", kitties={1: 11})
    s = play(s, "take 9 9")
    assert s.pile == () and not s.pile_frozen
    s = play(s, "discard JK")
    assert len(s.pile) == 1 and s.pile_frozen
    assert s.turn == 1
    assert_illegal(s, "take", "RR-8.2")
    assert legal_texts(s) == {"draw"}


def test_edge32_wild_upcard_and_wild_cards(monkeypatch):
    """RR-8.2, RR-8.5, edge case 32: under upcard_wild_freezes = false the upcard is a 2 and the
    first player holds Jk and 2: they may not take the pile by melding 2-Jk-2 as a new wild
    meld.  Later, a player with an unfinished wild meld may not take a pile topped by a
    discarded Jk by adding it to that meld."""
    from rr_position import rigged_game

    s = rigged_game(monkeypatch, players=2, dealer=1, hands={0: "JK/0 2S/1 2H/1"},
                    upcards="2C/0", options={"upcard_wild_freezes": False})
    assert not s.pile_frozen
    assert_illegal(s, "take 2 JK", "RR-8.2")
    assert legal_texts(s) == {"draw"}
    t = draw_phase("JK 2 K Q", melds={0: ["5 5 5", "2 2 JK"]}, pile="4 9 JK", pile_frozen=True,
                   options={"upcard_wild_freezes": False})
    assert_illegal(t, "take", "RR-8.2")
    assert legal_texts(t) == {"draw"}


# --------------------------------------------------------------------------- RR-8.1 – RR-8.8


def test_take_means_the_whole_pile_and_red_threes_placed_without_replacement():
    """RR-8.1, RR-8.6, RR-9.1: the whole pile is taken: the top card is melded, every other card
    joins the hand, red threes among them are placed and not replaced; the meld phase
    follows."""
    s = build(hands={0: "9 9 K", 1: "4 4"}, melds={0: ["5 5 5"]},
              pile="3H/0 4S/0 JK/0 6S/0 9S/0", pile_frozen=True, phase="draw",
              stock="AS/0", kitties={1: 11})
    stock = s.stock_size
    s = play(s, "take 9 9")
    d = dump_position(s)
    assert d["red_threes"][0] == ["3H/0"]
    assert {"4S/0", "JK/0", "6S/0"} <= set(d["hands"][0])
    assert s.stock_size == stock and d["stock"][0] == "AS/0"
    assert s.phase == "meld" and s.turn == 0
    assert "9S/0" in d["melds"][0][-1]["cards"] or any(
        "9S/0" in m["cards"] for m in d["melds"][0])


def test_pile_cards_taken_are_public():
    """RR-5.10, RR-8.6: the cards a player took into hand with the pile are public."""
    s = build(hands={0: "9 9 K", 1: "4 4"}, melds={0: ["5 5 5"]}, pile="4S/0 6S/0 9S/0",
              phase="draw", kitties={1: 11})
    s = play(s, "take 9 9")
    j = s.observation(1).to_json()
    assert sorted(j["known_in_hand"][0]) == ["4S", "6S"]  # rank and suit: no deck index


def test_natural_pair_starts_a_new_meld_with_more_cards():
    """RR-8.4: with no unfinished meld of the rank, the pair and the top card start a new meld,
    and more cards from hand may be added to it in the same action."""
    s = draw_phase("9 9 9 2 K Q", pile="4 9", pile_frozen=True)
    s = play(s, "take 9 9 9 2")
    assert s.melds[0][9].size == 5 and s.melds[0][9].twos == 1


def test_natural_pair_onto_an_existing_meld_frozen_or_not():
    """RR-8.4: with an unfinished meld of the rank, the pair and the top card are added to it,
    whether or not the pile is frozen."""
    for frozen in (False, True):
        s = draw_phase("9 9 K Q", melds={0: ["9 9 2"]}, pile="4 9", pile_frozen=frozen)
        s = play(s, "take 9 9")
        assert s.melds[0][9].size == 6


def test_add_route_needs_an_unfrozen_pile():
    """RR-8.5, RR-8.3: taking by adding the top card to an unfinished meld only if the pile is
    not frozen; a frozen pile stays frozen however many cards cover it."""
    s = draw_phase("K Q", melds={0: ["9 9 2"]}, pile="4 JK 6 8 9", pile_frozen=True)
    assert_illegal(s, "take", "RR-8.5")


def test_add_route_onto_an_unfinished_sevens_meld():
    """RR-8.5: the add route includes an unfinished sevens meld (a 7 on top once sevens may be
    discarded)."""
    s = draw_phase("K Q", melds={0: ["7 7 7"]}, pile="4 7", options={"sevens_lock": "never"})
    s = play(s, "take")
    assert s.melds[0][7].size == 4


def test_natural_and_wild_not_enough():
    """RR-8.7: a natural card plus a wild card from hand is not enough, frozen or not."""
    for frozen in (False, True):
        s = draw_phase("9 2 K Q", pile="4 9", pile_frozen=frozen)
        assert_illegal(s, "take 9 2", "RR-8.7")
        assert legal_texts(s) == {"draw"}


def test_pile_not_frozen_after_take_and_natural_discard():
    """RR-8.8: after a take the pile is empty and unfrozen; a natural discard starts an
    unfrozen pile."""
    s = draw_phase("9 9 K Q", pile="4 JK 9", pile_frozen=True)
    s = play(s, "take 9 9", "discard K")
    assert len(s.pile) == 1 and not s.pile_frozen


def test_wild_discard_freezes_the_pile():
    """RR-8.3: discarding a wild card freezes the pile; it stays frozen after being covered."""
    s = build(hands={0: "2 K Q", 1: "4 4 5"}, melds={0: ["5 5 5"]}, pile="6 8",
              kitties={1: 11})
    s = play(s, "discard 2")
    assert s.pile_frozen
    s = play(s, "draw", "discard 4")
    assert s.pile_frozen


def test_black_three_discard_does_not_freeze():
    """RR-8.2, RR-9.4: a black three blocks only the next player and does not freeze."""
    s = build(hands={0: "3 K Q", 1: "4 4 5"}, melds={0: ["5 5 5"]}, pile="6 8", kitties={1: 11})
    s = play(s, "discard 3")
    assert not s.pile_frozen
    assert legal_texts(s) == {"draw"}
    # a take that names cards is refused for the block (RR-8.2), not for its cards: "take 4 4"
    # read "must be of its rank (3)", as if two threes could take it
    for text in ("take 4 4", "take", "take 3 3"):
        err = assert_illegal(s, text, "RR-8.2")
        assert "black three" in err.reason, err.reason


def test_an_add_with_no_meld_to_add_to_says_so():
    """RR-5.5: "add 5 -> 10" with no meld of 10s is refused for that, not for the 5 (a tester
    read "only 10s and wild cards can be added to a meld of 10s, not a 5" as if there were
    one); with a meld of 10s the card's rank is the reason (RR-6.2)."""
    s = build(hands={0: "5 10 K Q"}, melds={0: ["9 9 9"], 1: ["10 10 10"]}, pile="6 8",
              phase="meld")
    err = assert_illegal(s, "add 5 -> 10", "RR-5.5")
    assert "no unfinished meld of 10s" in err.reason, err.reason
    err = assert_illegal(s, "add 5 -> 9", "RR-6.2")
    assert "not a 5" in err.reason, err.reason
