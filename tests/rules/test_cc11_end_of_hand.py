"""CC-11: the end of the hand — going out, the last red three, the exhausted stock."""

from __future__ import annotations

from cc_position import assert_illegal, build, legal_texts, play, result

CANASTA = "9 9 9 9 9 9 9"


def _no_bonus(state):
    for r in state.outcome.results:
        assert not any(ln.rule_id == "CC-12.5" for ln in r.lines), r.lines


def test_cc11_1_hand_ends_when_a_player_goes_out():
    """CC-11.1: the hand ends as soon as a player goes out."""
    s = build(hands={0: "K"}, melds={0: [CANASTA]}, phase="meld")
    s = play(s, "discard K")
    assert s.phase == "hand_end" and s.outcome.went_out == 0
    assert legal_texts(s) == {"deal"}
    assert_illegal(s, "draw", "CC-4.2")


def test_edge4_last_stock_card_is_a_red_three():
    """CC-11.2, CC-12.5, edge case 4: the last stock card is a red three: it is placed and
    scores, but the hand ends at once with no meld and no discard, and no going-out bonus."""
    s = build(hands={0: "K K K 5"}, melds={0: [CANASTA]}, stock="3H", fill=1, phase="draw")
    s = play(s, "draw")
    assert s.outcome is not None and s.outcome.how == "last_red_three"
    assert s.outcome.went_out is None
    assert s.hands[0].bit_count() == 4  # no meld was possible
    r = result(s, 0)
    assert [ln.points for ln in r.lines if ln.rule_id == "CC-12.4"] == [100]
    _no_bonus(s)


def test_option_last_red_three_may_meld_first():
    """CC-11.2 option last_red_three="may_meld_first": the player who draws the last card, a
    red three, may meld first but still may not discard; the hand then ends without a
    going-out bonus."""
    s = build(hands={0: "K K K 5 6"}, melds={0: [CANASTA]}, stock="3H", fill=1,
              phase="draw", options={"last_red_three": "may_meld_first"})
    s = play(s, "draw")
    assert s.outcome is None and s.phase == "meld"
    offered = legal_texts(s)
    assert "meld K K K" in offered and "pass" in offered
    assert not any(t.startswith("discard") for t in offered)
    assert_illegal(s, "discard 5", "CC-11.2")
    s = play(s, "meld K K K", "pass")
    assert s.outcome.how == "last_red_three"
    r = result(s, 0)
    assert any(ln.points == 30 and ln.rule_id == "CC-12.1" for ln in r.lines)
    _no_bonus(s)


def test_cc11_3_player_who_draws_the_last_card_finishes_the_turn():
    """CC-11.3: the player who draws the last (non-red-three) card finishes the turn
    normally."""
    s = build(hands={0: "K K K 5 6"}, melds={0: [CANASTA]}, stock="Q", fill=2, phase="draw")
    s = play(s, "draw")
    assert s.stock_size == 0 and s.phase == "meld"
    s = play(s, "meld K K K", "discard 5")
    # seat 1 (no cards, so no legal take) then ends the hand (CC-11.3(c))
    assert s.outcome.how == "stock_exhausted"


def test_edge20_stock_exhausted_forced_take():
    """CC-11.3(a), edge case 20: the stock is empty; the top card is a 6, the pile is unfrozen
    and the side has a 6 meld: the player must take the pile ('pass' is refused)."""
    s = build(hands={0: "K Q 5"}, melds={0: ["6 6 6"]}, pile="4 6", stock="", fill=1,
              phase="draw")
    offered = legal_texts(s)
    assert "take" in offered and "pass" not in offered and "draw" not in offered
    assert_illegal(s, "pass", "CC-11.3")
    assert_illegal(s, "draw", "CC-11.3")
    s = play(s, "take")
    assert s.phase == "meld"


def test_edge20_take_impossible_hand_ends_without_bonus():
    """CC-11.3(c), edge case 20: if the player cannot legally take the pile the hand ends
    before their turn and nobody scores the going-out bonus; an illegal take is never forced:
    one card in hand facing a pile that is that single 6 (CC-8.8) ends the hand."""
    s = build(hands={0: "K", 3: "6 5"}, melds={0: ["6 6 6"]}, stock="", fill=1,
              phase="meld", turn=3)
    s = play(s, "discard 6")
    assert s.outcome is not None and s.outcome.how == "stock_exhausted"
    assert s.outcome.went_out is None
    _no_bonus(s)
    # frozen pile, no natural pair: no legal take either
    s = build(hands={0: "K 6 5", 3: "6 5"}, melds={0: ["6 6 6"]}, stock="", fill=1,
              pile="2", pile_frozen=True, phase="meld", turn=3)
    s = play(s, "discard 6")
    assert s.outcome is not None and s.outcome.how == "stock_exhausted"


def test_cc11_3_b_other_takes_are_optional():
    """CC-11.3(b), (c): a take that is not an addition to a side meld is optional; declining
    ('pass') ends the hand."""
    s = build(hands={0: "6 6 5"}, melds={0: ["K K K"]}, pile="4 6", stock="", fill=1,
              phase="draw")
    offered = legal_texts(s)
    assert "take 6 6" in offered and "pass" in offered
    s2 = play(s, "pass")
    assert s2.outcome.how == "stock_exhausted" and s2.outcome.went_out is None
    s3 = play(s, "take 6 6")
    assert s3.phase == "meld"


def test_option_stock_end_forced_take_false():
    """CC-11.3 option stock_end_forced_take=false: taking is always optional, so the player
    of edge case 20 may pass, ending the hand."""
    s = build(hands={0: "K Q 5"}, melds={0: ["6 6 6"]}, pile="4 6", stock="", fill=1,
              phase="draw", options={"stock_end_forced_take": False})
    assert {"take", "pass"} <= legal_texts(s)
    s = play(s, "pass")
    assert s.outcome.how == "stock_exhausted"


def test_cc11_3_taker_may_go_out():
    """CC-11.3: a player who takes the pile with the stock empty completes the turn normally
    and may go out."""
    s = build(hands={0: "K K"}, melds={0: [CANASTA, "6 6 6", "K K K"]}, pile="4 6", stock="",
              fill=1, phase="draw")
    s = play(s, "take", "add K K -> K", "discard 4")
    assert s.outcome.how == "went_out"
    assert [ln.points for ln in result(s, 0).lines if ln.rule_id == "CC-12.5"] == [100]
