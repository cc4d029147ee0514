"""CC-5: turn structure, stock draws (four and two players), no undo, hand-size rule."""

from __future__ import annotations

from cc_position import assert_illegal, build, legal_texts, play, result
from meldhall.record import dump_position


def test_turn_begins_with_a_draw_or_take():
    """CC-5.2: a turn begins by drawing or taking the pile; a discard is refused first."""
    s = build(hands={0: "K 5 6"}, pile="9", phase="draw")
    assert_illegal(s, "discard K", "CC-5.2")
    assert_illegal(s, "meld K K K", "CC-5.2")


def test_turn_ends_with_a_discard():
    """CC-5.2: after drawing, the turn ends with exactly one discard ('pass' is refused); the
    turn then passes clockwise (CC-5.1)."""
    s = build(hands={0: "K 5 6"}, stock="8", phase="draw")
    s = play(s, "draw")
    assert_illegal(s, "pass", "CC-5.2")
    s = play(s, "discard 5")
    assert s.turn == 1 and s.phase == "draw"
    assert s.upcard.rank == 5


def test_go_out_typed_says_how_to_go_out():
    """CC-5.2, CC-10.2: ``go out`` (Railroad Canasta's word, RR-11.7) is refused with how a
    Classic Canasta player goes out (a tester met "go out is not a Classic Canasta action"
    alone)."""
    s = play(build(hands={0: "K 5 6"}, stock="8", phase="draw"), "draw")
    e = assert_illegal(s, "go out", "CC-5.2")
    assert "CC-10.2" in str(e) and "discarding it" in str(e)


def test_one_card_draw_four_players():
    """CC-5.3: with four players a stock draw takes one card."""
    s = build(hands={0: "K 5 6"}, stock="8 9", phase="draw")
    before = s.stock_size
    s = play(s, "draw")
    assert s.hands[0].bit_count() == 4 and s.stock_size == before - 1


def test_no_undo_after_drawing():
    """CC-5.5: a player who drew from the stock may not then take the pile."""
    s = build(hands={0: "9 9 5"}, melds={0: ["9 9 9"]}, pile="9", stock="K", phase="draw")
    s = play(s, "draw")
    assert_illegal(s, "take", "CC-5.5")
    assert_illegal(s, "take 9 9", "CC-5.5")
    assert_illegal(s, "draw", "CC-5.5")
    # a take naming another rank is refused for the draw already made, not for the rank
    # (it said "CC-8.5: the natural cards melded with the upcard must be of its rank")
    assert_illegal(s, "take 5 5", "CC-5.5")


def test_meld_only_on_own_side():
    """CC-5.6: a player may not add to an opponent's meld."""
    s = build(hands={0: "9 5 6 7"}, melds={0: ["K K K"], 1: ["9 9 9"]}, phase="meld")
    assert_illegal(s, "add 9 -> 9", "CC-5.6")


def test_no_out_of_turn_actions():
    """CC-5.8: nobody but the player in turn may act (except the asked partner, CC-10.5)."""
    s = build(hands={0: "K 5 6", 2: "Q Q Q"}, stock="8", phase="draw")
    before = dump_position(s)
    for seat in (1, 2, 3):
        try:
            s.apply(s.parse_action("draw"), seat)
        except Exception as exc:  # noqa: BLE001
            assert getattr(exc, "rule_id", None) == "CC-5.8", exc
        else:
            raise AssertionError("out-of-turn draw accepted")
        assert s.legal_actions(seat) == []
    assert dump_position(s) == before


# --------------------------------------------------------------------------- two players


def test_two_player_draw_takes_two_cards():
    """CC-5.4: with two players a stock draw takes two cards."""
    s = build(players=2, hands={0: "5 6 7"}, stock="K 9 4", phase="draw")
    s = play(s, "draw")
    names = {str(c) for c in s.hand_cards(0)}
    assert s.hands[0].bit_count() == 5 and {"KS", "9S"} <= names


def test_edge3_two_player_draw_with_a_red_three():
    """CC-5.4, edge case 3: the first card drawn is 3♦: it is placed and replaced before the
    second card is drawn; the replacement is K and the second card is 9, so the player ends the
    draw with K and 9."""
    s = build(players=2, hands={0: "5 6 7"}, stock="3D KS/1 9S/1 4", phase="draw")
    s = play(s, "draw")
    d = dump_position(s)
    assert len(d["red_threes"][0]) == 1 and d["red_threes"][0][0].startswith("3D")
    assert {"KS/1", "9S/1"} <= set(d["hands"][0])
    assert len(d["hands"][0]) == 5
    assert d["stock"][0].startswith("4")


def test_edge5_one_card_left_two_player_draw():
    """CC-5.4, edge case 5: with one card left in the stock that card alone is the whole draw;
    the player finishes the turn normally."""
    s = build(players=2, hands={0: "5 6 7"}, stock="QS/1", fill="pile", phase="draw")
    s = play(s, "draw")
    assert s.stock_size == 0 and s.hands[0].bit_count() == 4 and s.phase == "meld"
    assert "discard Q" in legal_texts(s)


def test_edge5_one_card_left_is_a_red_three():
    """CC-5.4, CC-11.2, edge case 5: if the single stock card is a red three, it is placed and
    the hand ends at once."""
    s = build(players=2, hands={0: "5 6 7"}, melds={0: ["K K K"]}, stock="3H", fill="pile",
              phase="draw")
    s = play(s, "draw")
    assert s.phase in ("hand_end", "game_over")
    assert s.outcome.how == "last_red_three"
    r = result(s, 0)
    assert ("CC-12.4", 100) in {(ln.rule_id, ln.points) for ln in r.lines}
    assert not any(ln.rule_id == "CC-12.5" for ln in r.lines)


def test_edge28_stock_runs_out_replacing_a_red_three():
    """CC-5.4, CC-11.4, edge case 28: the stock holds 3♦ (top) and K: 3♦ is placed and replaced
    by K; the stock is then empty, so no second card is drawn and the player finishes the turn
    with K."""
    s = build(players=2, hands={0: "5 6 7"}, stock="3D KS/1", fill="pile", phase="draw")
    s = play(s, "draw")
    d = dump_position(s)
    assert s.phase == "meld" and s.stock_size == 0
    assert "KS/1" in d["hands"][0] and len(d["hands"][0]) == 4
    assert len(d["red_threes"][0]) == 1
    s = play(s, "discard 5")
    # CC-11.3 applies from the next player: no legal take, so the hand ends
    assert s.outcome is not None and s.outcome.how == "stock_exhausted"


def test_edge28_last_stock_card_red_three_after_a_king():
    """CC-5.4, CC-11.2, edge case 28: the stock holds K (top) and 3♦: the K is drawn, then the
    3♦, the last stock card, is placed and the hand ends at once."""
    s = build(players=2, hands={0: "5 6 7"}, stock="KS/1 3D", fill="pile", phase="draw")
    s = play(s, "draw")
    d = dump_position(s)
    assert s.outcome is not None and s.outcome.how == "last_red_three"
    assert "KS/1" in d["hands"][0]
    assert len(d["red_threes"][0]) == 1


# --------------------------------------------------------------------------- CC-5.7


def test_edge9_melding_down_without_a_canasta():
    """CC-5.7, CC-10.1, edge case 9: a side with no canasta; the player holds 4 cards and
    tries to meld three of them: refused (one card left, discarded, would be out without a
    canasta)."""
    s = build(hands={0: "K K K 5"}, melds={0: ["9 9 9"]}, phase="meld")
    assert_illegal(s, "meld K K K", "CC-5.7")
    # leaving two cards is fine
    s2 = build(hands={0: "K K K 5 6"}, melds={0: ["9 9 9"]}, phase="meld")
    s2 = play(s2, "meld K K K")
    assert s2.hands[0].bit_count() == 2


def test_meld_leaving_no_card_without_canasta_refused():
    """CC-5.7, CC-10.1: a meld that would leave no card needs the right to go out."""
    s = build(hands={0: "K K K"}, melds={0: ["9 9 9"]}, phase="meld")
    assert_illegal(s, "meld K K K", "CC-5.7")


def test_meld_leaving_one_card_commits_to_going_out():
    """CC-5.7, CC-10.2: with a canasta, a meld that leaves one card is allowed; the turn can
    then end only by melding or discarding that card, which is going out."""
    s = build(hands={0: "K K K 5"}, melds={0: ["9 9 9 9 9 9 9"]}, phase="meld")
    s = play(s, "meld K K K")
    assert legal_texts(s) == {"discard 5"}
    s = play(s, "discard 5")
    assert s.outcome.how == "went_out" and s.outcome.went_out == 0


def test_cc5_9_information():
    """CC-5.9: another seat's observation shows the whole pile in order, the melds, the red
    threes, hand sizes and the cards taken with the pile, but never the other hands, the stock
    order or the cards drawn from the stock."""
    s = build(hands={0: "9 9 5 6", 1: "K Q J"}, melds={0: ["A A A"]},
              pile="7C/0 8D/0 9H/0", stock="4S/1 10S/1", phase="draw")
    s = play(s, "take 9 9")  # 7♣ and 8♦ join seat 0's hand, publicly
    view = s.observation(1).to_json()
    assert sorted(view["hand"]) == sorted(str(c) for c in s.hand_cards(1))
    assert view["hand_sizes"][0] == 4
    assert sorted(view["known_in_hand"][0]) == ["7C", "8D"]  # rank and suit: no deck index
    assert "stock" not in view and "seed" not in view
    s = play(s, "discard 5")
    s = play(s, "draw")  # seat 1 draws 4♠/1 privately
    view0 = s.observation(0).to_json()
    assert view0["pile"][-1].startswith("5")
    text = str(view0)
    assert "4S" not in text  # (no other 4♠ is in sight)
    assert "4S" in s.observation(1).to_json()["hand"]
