"""RR-5: turn structure, the stock draw, the hand-size rule (RR-5.7), the keep-a-legal-discard
rule (RR-5.8), out-of-turn actions and information (RR-5.10)."""

from __future__ import annotations

import pytest
from rr_position import assert_illegal, build, legal_texts, play, result

from meldhall.errors import IllegalActionError
from meldhall.games.railroad_canasta import new_game
from meldhall.record import dump_position

#: A seat's four canasta types, one of each (RR-6.9, RR-11.1).
ALL_FOUR = ["K K K K K K K", "Q Q Q Q Q Q 2", "2 2 2 2 JK JK JK", "7 7 7 7 7 7 7"]


# --------------------------------------------------------------------------- RR-5.1, RR-5.2


def test_turn_phases_draw_meld_discard_next():
    """RR-5.1, RR-5.2: draw two, meld, discard; a player who is not kitty-eligible has no kitty
    phase and the turn passes clockwise."""
    s = build(players=3, hands={0: "K K K 2 5 6"}, kitties={0: 11, 1: 11, 2: 11},
              stock="9 8", phase="draw")
    assert legal_texts(s) == {"draw"}
    s = play(s, "draw")
    assert s.phase == "meld" and s.hands[0].bit_count() == 8
    s = play(s, "meld K K K 2")
    s = play(s, "discard 5")
    assert s.phase == "draw" and s.turn == 1


def test_kitty_phase_after_discard_for_an_eligible_player():
    """RR-5.2 phase 4, RR-10.3: an eligible player with an untaken kitty is offered 'kitty' or
    'pass' after the discard."""
    s = build(hands={0: "5 6 9"}, closed={0: ["K K K K K K K"]}, kitties={0: 11, 1: 11})
    s = play(s, "discard 5")
    assert s.phase == "kitty" and s.to_act == (0,)
    assert legal_texts(s) == {"kitty", "pass"}
    t = play(s, "pass")
    assert t.phase == "draw" and t.turn == 1 and t.kitties[0].bit_count() == 11
    t = play(s, "kitty")
    assert t.phase == "draw" and t.turn == 1 and t.hands[0].bit_count() == 13


def test_melding_nothing_is_allowed():
    """RR-5.2: the meld phase may meld nothing: a discard straight after the draw is legal."""
    s = build(hands={0: "K K K 5"}, stock="9 8", phase="draw", kitties={1: 11})
    s = play(s, "draw", "discard 5")
    assert s.turn == 1


def test_out_of_turn_actions_refused():
    """RR-5.9, RR-5.1: there are no out-of-turn actions."""
    s = build(players=3, hands={0: "K K K 5", 1: "Q Q Q 5"}, stock="9 8", phase="draw")
    before = dump_position(s)
    with pytest.raises(IllegalActionError) as ei:
        s.apply(s.parse_action("draw"), seat=1)
    assert ei.value.rule_id == "RR-5.1"
    assert s.legal_actions(1) == [] and s.legal_actions(0) != []
    assert dump_position(s) == before


# --------------------------------------------------------------------------- RR-5.3 draw


def test_draw_two_cards():
    """RR-5.3: drawing from the stock takes the top two cards into hand."""
    s = build(hands={0: "5"}, stock="KD/0 9C/0 4S/0", phase="draw")
    s = play(s, "draw")
    assert {"KD/0", "9C/0"} <= set(dump_position(s)["hands"][0])
    assert dump_position(s)["stock"][0] == "4S/0"


def test_edge4_chained_red_threes():
    """RR-5.3, RR-9.1, edge case 4: a player draws 3♦ and K; the replacement is 3♥; the next
    replacement is 5: two red threes placed, the hand gains K and 5."""
    s = build(hands={0: "9"}, stock="3D/0 KS/0 3H/0 5S/0 8S/0", phase="draw")
    s = play(s, "draw")
    d = dump_position(s)
    assert sorted(d["red_threes"][0]) == ["3D/0", "3H/0"]
    assert sorted(d["hands"][0]) == sorted(["9S/0", "KS/0", "5S/0"])
    assert d["stock"][0] == "8S/0"


def test_edge5_one_card_left_in_the_stock():
    """RR-5.3, RR-12.2, RR-12.3, edge case 5: the draw is that one card; the player completes
    the turn normally; the next player faces an empty stock and, unable to take the pile,
    the hand ends before they act, with no going-out bonus."""
    s = build(hands={0: "9 5", 1: "4 6"}, stock="KS/0", fill=("kitty", 1), phase="draw")
    s = play(s, "draw")
    assert s.stock_size == 0 and s.hands[0].bit_count() == 3
    s = play(s, "discard K")
    assert s.outcome is not None and s.outcome.how == "stock_exhausted"
    assert s.outcome.went_out is None
    for seat in (0, 1):
        assert not any(ln.rule_id == "RR-13.4" for ln in result(s, seat).lines)


def test_empty_stock_at_turn_start_take_or_pass():
    """RR-5.4, RR-12.2: with the stock empty the player may take the pile (if RR-8 allows) or
    pass; the draw is refused."""
    s = build(hands={0: "9 9 5", 1: "4 6"}, melds={0: ["K K K"]}, pile="4 9", stock="",
              fill=("kitty", 1), phase="draw")
    assert legal_texts(s) == {"take 9 9", "pass"}
    assert_illegal(s, "draw", "RR-12.2")


# --------------------------------------------------------------------------- RR-5.5, RR-5.6


def test_meld_only_onto_own_melds():
    """RR-5.5: a player may add only to their own melds."""
    s = build(hands={0: "9 9 5 6"}, melds={0: ["K K K"], 1: ["9 9 9"]})
    assert_illegal(s, "add 9 9 -> 9", "RR-5.5")


def test_nothing_may_be_undone():
    """RR-5.6: after drawing, neither another draw nor a take of the pile is allowed."""
    s = build(hands={0: "9 9 5 6"}, melds={0: ["K K K"]}, pile="4 9", phase="draw")
    s = play(s, "draw")
    assert_illegal(s, "draw", "RR-5.6")
    assert_illegal(s, "take 9 9", "RR-5.6")
    assert_illegal(s, "take 6 6", "RR-5.6")  # the draw decides, not the rank named


# --------------------------------------------------------------------------- RR-5.7


def test_hand_size_meld_leaving_no_card_refused():
    """RR-5.7, RR-11.2: a meld that leaves no card is refused, even with all four canasta
    types (going out needs a final discard)."""
    s = build(hands={0: "9 9 9"}, closed={0: ALL_FOUR}, melds={0: ["5 5 5"]})
    assert_illegal(s, "meld 9 9 9", "RR-5.7")


def test_hand_size_meld_leaving_one_card_needs_an_exception():
    """RR-5.7: a meld leaving exactly one card is refused when the player can neither go out
    (RR-11.1) nor discard into a waiting kitty (RR-10.2)."""
    s = build(hands={0: "9 9 9 5"}, closed={0: ["Q Q Q Q Q Q 2"]}, kitties={0: 11},
              melds={0: ["5 5 5"]})
    assert_illegal(s, "meld 9 9 9", "RR-5.7")
    assert "add 5 -> 5" in legal_texts(s)  # keeps three cards: legal


def test_edge13_discarding_the_last_card_into_the_kitty():
    """RR-5.7(b), RR-10.5, edge case 13: an eligible player with an untaken kitty melds down to
    one card and discards it: legal, and the kitty is taken at once."""
    kitty = "AS/0 AH/0 KS/1 KH/1 QS/1 QH/1 JS/1 JH/1 10S/1 10H/1 9S/1"
    s = build(hands={0: "9 9 9 5", 1: "4 4"}, closed={0: ["K K K K K K K"]},
              kitties={0: kitty, 1: 11})
    s = play(s, "meld 9 9 9")
    assert s.hands[0].bit_count() == 1
    s = play(s, "discard 5")
    assert s.turn == 1 and s.phase == "draw"
    assert (s.kitty_taken >> 0) & 1 and s.kitties[0] == 0
    assert sorted(dump_position(s)["hands"][0]) == sorted(kitty.split())


def test_edge13_same_play_refused_when_not_eligible():
    """RR-5.7, RR-10.2, edge case 13: the same play by a player who is not kitty-eligible (only
    a black canasta) is refused."""
    s = build(hands={0: "9 9 9 5"}, closed={0: ["K K K K K K 2"]}, kitties={0: 11, 1: 11})
    assert_illegal(s, "meld 9 9 9", "RR-5.7")


def test_edge13_eligible_and_meeting_rr11_chooses():
    """RR-5.7, RR-11.7, edge case 13: if the player also meets RR-11.1 they choose after the
    discard between going out and taking the kitty."""
    s = build(hands={0: "9 9 9 5", 1: "4 4"}, closed={0: ALL_FOUR}, kitties={0: 11, 1: 11})
    s = play(s, "meld 9 9 9", "discard 5")
    assert s.phase == "choice" and s.to_act == (0,)
    assert legal_texts(s) == {"go out", "kitty"}


def test_pile_take_hand_size_counts_the_pile():
    """RR-8.6, RR-5.7: for a take, the hand-size rules apply to the hand after the whole pile
    has joined it: taking with the last two cards is fine when the pile brings more."""
    s = build(hands={0: "9 9"}, melds={0: ["K K K"]}, pile="4 5 6 9", phase="draw")
    s = play(s, "take 9 9")
    assert s.hands[0].bit_count() == 3
    t = build(hands={0: "9 9"}, melds={0: ["K K K"]}, pile="9", phase="draw")
    assert_illegal(t, "take 9 9", "RR-5.7")


# --------------------------------------------------------------------------- RR-5.8


def test_edge8_avoidable_sevens_lock():
    """RR-5.8, RR-9.6, edge case 8: holding 7, 7 and Q with a Q-Q-2 meld on the table (an
    opponent lacks a sevens canasta), adding the Q to the meld is refused because it would
    leave only sevens."""
    s = build(hands={0: "7 7 Q", 1: "4 4"}, melds={0: ["Q Q 2"]}, kitties={1: 11})
    assert_illegal(s, "add Q -> Q", "RR-5.8")
    assert legal_texts(s) == {"discard Q"}


def test_keep_a_legal_discard_not_applied_once_the_lock_is_lifted():
    """RR-5.8, RR-9.6: with every player holding a sevens canasta, sevens are discardable, so
    keeping only sevens is allowed."""
    s = build(hands={0: "7 7 Q"}, melds={0: ["Q Q 2"]}, closed={0: ["7 7 7 7 7 7 7"],
                                                            1: ["7 7 7 7 7 7 7"]})
    s = play(s, "add Q -> Q")
    assert "discard 7" in legal_texts(s)


# --------------------------------------------------------------------------- RR-5.10


def test_information_kitty_hidden_from_its_owner_until_eligible():
    """RR-5.10, RR-4.4, RR-10.2: a kitty is hidden from everyone, its owner included, until the
    owner is eligible; then the owner (only) sees it, with no action needed."""
    kitty = "AS/0 AH/0 KS/1 KH/1 QS/1 QH/1 JS/1 JH/1 10S/1 10H/1 9S/1"
    s = build(hands={0: "9 9 5 6", 1: "4 4"}, melds={0: ["9 9 9 9 9"]},
              closed={0: ["K K K K K K 2"]}, kitties={0: kitty, 1: 11})
    for seat in (0, 1):  # only a black canasta: not eligible
        j = s.observation(seat).to_json()
        assert j["my_kitty"] is None
        assert j["kitty_sizes"] == [11, 11]
        # no ace is anywhere else: the kitty's aces are not shown
        assert "AS" not in str(j) and "AH" not in str(j)
    s = play(s, "add 9 9 -> 9")  # a red canasta: seat 0 becomes eligible
    mine = s.observation(0).to_json()
    # shown by rank and suit (no deck index reaches a seat)
    assert sorted(mine["my_kitty"]) == sorted(c.split("/")[0] for c in kitty.split())
    theirs = s.observation(1).to_json()
    assert theirs["my_kitty"] is None and theirs["kitty_sizes"] == [11, 11]
    assert "AS" not in str(theirs) and "AH" not in str(theirs)


def test_information_public_fields():
    """RR-5.10: the pile in order, the pile's frozen state, stock size, each hand's and kitty's
    size and whether each kitty is taken are public; other hands are not."""
    s = new_game(players=3, seed=9)
    for seat in range(3):
        j = s.observation(seat).to_json()
        assert j["pile"] == [str(s.pack.cards[c]) for c in s.pile]
        assert j["stock_size"] == len(s.stock)
        assert j["hand_sizes"] == [13, 13, 13]
        assert j["kitty_sizes"] == [11, 11, 11] and j["kitty_taken"] == [False] * 3
        assert sorted(j["hand"]) == sorted(str(c) for c in s.hand_cards(seat))
        assert "hands" not in j and "stock" not in j


def test_melding_copies_reveals_nothing_about_the_rest_of_the_hand():
    """RR-5.10: cards a player took with the pile are public; the engine chooses which physical
    copies are melded, and that choice must not tell the table more than the action does.  A
    player holding a publicly known 9 (from the pile) and three other 9s melds 9-9-9: if the
    engine kept the known 9 and melded three unknown ones, a later meld or discard of the
    known 9 would show that no unknown 9 was left.  Known copies are used first, so the table
    learns only that three 9s were melded."""
    for extra in ("9S/0 9H/0 9D/0", "9S/0 9H/0 9D/0 9S/1"):
        s = build(hands={0: f"9C/1 {extra} K Q", 1: "4 4"}, melds={0: ["5 5 5"]},
                  known={0: "9C/1"}, pile_cards="9C/1", kitties={1: 11})
        s = play(s, "meld 9 9 9")
        meld = dump_position(s)["melds"][0]
        assert any("9C/1" in m["cards"] for m in meld), "the known 9 stayed in hand"
        assert s.known[0] == 0


def test_discarding_a_kind_uses_a_publicly_known_copy_first():
    """RR-5.10: discarding a K while holding a K publicly taken with the pile discards that K, so
    the copy shown says nothing about other kings in the hand."""
    for seed in range(6):
        s = build(hands={0: "KC/1 KS/0 KH/0 Q J", 1: "4 4"}, melds={0: ["5 5 5"]},
                  known={0: "KC/1"}, kitties={1: 11}, seed=seed)
        s = play(s, "discard K")
        assert dump_position(s)["pile"][-1] == "KC/1"
        assert s.known[0] == 0


def test_one_card_left_refusal_says_what_stands_in_the_way():
    """RR-5.7: the refusal said "you need the canasta types of RR-11.1 … or into your kitty
    (RR-10.2)" to a player with only a black canasta on an "any two canastas" table (a tester
    read the kitty as open): it names the table's going-out need, the types held and why the
    kitty is shut."""
    s = build(hands={0: "9 9 9 5"}, closed={0: ["K K K K K K 2"]}, kitties={0: 11, 1: 11},
              options={"go_out_requirement": "any_two"})
    with pytest.raises(IllegalActionError) as e:
        s.apply_text("meld 9 9 9")
    msg = str(e.value)
    assert e.value.rule_id == "RR-5.7"
    assert "one card, 5" in msg and "going out needs any two canastas" in msg, msg
    assert "your canasta types: black" in msg, msg
    assert "needs a red, wild or sevens canasta (RR-10.2)" in msg, msg
