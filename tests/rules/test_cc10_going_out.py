"""CC-10: going out, "partner, may I go out?", going out concealed."""

from __future__ import annotations

import pytest

from cc_position import assert_illegal, build, legal_texts, play, result
from meldhall.errors import IllegalActionError

CANASTA = "9 9 9 9 9 9 9"


def _bonus(state, side):
    return [ln.points for ln in result(state, side).lines if ln.rule_id == "CC-12.5"]


# --------------------------------------------------------------------------- CC-10.1 – 10.4


def test_cc10_1_one_canasta_needed_four_players():
    """CC-10.1: in the four-player game the side needs one canasta to go out."""
    s = build(hands={0: "K"}, melds={0: ["Q Q Q Q Q Q"]}, phase="meld")
    assert_illegal(s, "discard K", "CC-5.7")
    s = build(hands={0: "K"}, melds={0: ["Q Q Q Q Q Q Q"]}, phase="meld")
    s = play(s, "discard K")
    assert s.outcome.how == "went_out" and _bonus(s, 0) == [100]


def test_cc10_1_canasta_completed_in_the_going_out_turn():
    """CC-10.1: the canasta may be completed during the going-out turn itself."""
    s = build(hands={0: "Q K"}, melds={0: ["Q Q Q Q Q Q"]}, phase="meld")
    s = play(s, "add Q -> Q", "discard K")
    assert s.outcome.how == "went_out"


@pytest.mark.parametrize("players", [2, 6])
def test_cc10_1_two_canastas_for_two_and_six_players(players):
    """CC-10.1, CC-14.1: two canastas are needed with two or six players."""
    s = build(players=players, hands={0: "K"}, melds={0: [CANASTA]}, phase="meld")
    assert_illegal(s, "discard K", "CC-5.7")
    s = build(players=players, hands={0: "K"}, melds={0: [CANASTA, "Q Q Q Q Q Q Q"]},
              phase="meld")
    assert play(s, "discard K").outcome.how == "went_out"


def test_option_canastas_to_go_out():
    """CC-10.1 option canastas_to_go_out: e.g. 2 in the four-player game."""
    opts = {"canastas_to_go_out": 2}
    s = build(hands={0: "K"}, melds={0: [CANASTA]}, phase="meld", options=opts)
    assert_illegal(s, "discard K", "CC-5.7")
    s = build(hands={0: "K"}, melds={0: [CANASTA, "Q Q Q Q Q Q Q"]}, phase="meld",
              options=opts)
    assert play(s, "discard K").outcome.how == "went_out"
    s = build(players=2, hands={0: "K"}, melds={0: [CANASTA]}, phase="meld",
              options={"canastas_to_go_out": 1})
    assert play(s, "discard K").outcome.how == "went_out"


def test_cc10_2_going_out_by_melding_everything():
    """CC-10.2: melding every card (no discard) goes out; the hand ends immediately."""
    s = build(hands={0: "K K K"}, melds={0: [CANASTA]}, phase="meld")
    s = play(s, "meld K K K")
    assert s.outcome.how == "went_out" and s.outcome.went_out == 0
    assert s.phase in ("hand_end", "game_over")


@pytest.mark.parametrize("card, kind", [("2", "2"), ("JK", "JK"), ("3", "3")])
def test_cc10_3_final_discard_may_be_wild_or_black_three(card, kind):
    """CC-10.3: the final discard of a player going out may be any card, including a wild card
    or a black three."""
    s = build(hands={0: card}, melds={0: [CANASTA]}, phase="meld")
    s = play(s, f"discard {kind}")
    assert s.outcome.how == "went_out"


def test_cc10_4_going_out_is_optional():
    """CC-10.4: a player who could go out may keep playing."""
    s = build(hands={0: "K K K 5 6"}, melds={0: [CANASTA]}, phase="meld")
    s = play(s, "discard 5")
    assert s.outcome is None and s.turn == 1


# --------------------------------------------------------------------------- CC-10.5


def _asking(hand: str, melds=None, **kw):
    return build(hands={0: hand}, melds={0: melds if melds is not None else [CANASTA]},
                 phase="meld", **kw)


def test_cc10_5_ask_and_answer_phases():
    """CC-10.5: the question is a legal action after the draw; the named partner is then the
    only seat to act, with exactly "yes" and "no"."""
    s = _asking("K K K 5")
    assert "ask 2" in legal_texts(s)
    assert_illegal(s, "ask 1", "CC-10.5")  # not a partner
    s = play(s, "ask 2")
    assert s.phase == "consent" and s.to_act == (2,)
    assert legal_texts(s) == {"yes", "no"}
    assert_illegal(s, "discard K", "CC-10.5")
    with pytest.raises(IllegalActionError) as info:
        s.apply(s.parse_action("yes"), 0)
    assert info.value.rule_id == "CC-10.5"
    s2 = s.apply(s.parse_action("yes"), 2)
    assert s2.phase == "meld" and s2.to_act == (0,)
    assert not any(t.startswith("ask") for t in legal_texts(s2))  # once per turn


def test_cc10_5_ask_only_before_further_melds():
    """CC-10.5: the question comes after the draw phase, before any further meld action."""
    s = _asking("K K K Q Q Q 5")
    s = play(s, "meld K K K")
    assert_illegal(s, "ask 2", "CC-10.5")
    s = build(hands={0: "K K K 5"}, melds={0: [CANASTA]}, phase="draw")
    assert_illegal(s, "ask 2", "CC-5.2")


def test_edge12_no_question_when_going_out_is_impossible():
    """CC-10.5, edge case 12: "may I go out?" must not be offered when going out is
    impossible this turn."""
    s = _asking("K K K 5 6", melds=["Q Q Q"])
    assert not any(t.startswith("ask") for t in legal_texts(s))
    assert_illegal(s, "ask 2", "CC-10.5")
    s = _asking("K 5", melds=[CANASTA])  # two unmatched cards: cannot get rid of both
    assert_illegal(s, "ask 2", "CC-10.5")


def test_edge12_after_yes_only_going_out_ends_the_turn():
    """CC-10.5, edge case 12: after "yes" any end of turn that is not going out is refused."""
    s = _asking("K K K 5")
    s = play(s, "ask 2", "yes")
    assert_illegal(s, "discard 5", "CC-10.5")
    assert_illegal(s, "discard K", "CC-10.5")
    s = play(s, "meld K K K", "discard 5")
    assert s.outcome.how == "went_out"


def test_cc10_5_after_no_the_player_may_not_go_out():
    """CC-10.5, CC-5.7: after "no" the player may not go out this turn: a meld leaving one
    card or none, and a final discard, are refused."""
    s = _asking("K K K 5")
    s = play(s, "ask 2", "no")
    assert_illegal(s, "meld K K K", ("CC-5.7", "CC-10.5"))
    s2 = _asking("K K K Q Q Q 5")
    s2 = play(s2, "ask 2", "no", "meld K K K")
    assert_illegal(s2, "meld Q Q Q", ("CC-5.7", "CC-10.5"))
    assert legal_texts(s2) == {"discard Q", "discard 5"}
    s3 = _asking("K 5", melds=[CANASTA, "K K K"])
    s3 = play(s3, "ask 2", "no")
    assert_illegal(s3, "add K -> K", ("CC-5.7", "CC-10.5"))


def test_edge30_yes_binds_the_rest_of_the_turn():
    """CC-10.5, edge case 30: North–South have a canasta of 9s and no Q or K meld.  After
    "yes" the player holds Q, Q, 2, K.  Adding the 2 to the 9 canasta is refused (Q, Q, K could
    not all be got rid of); melding Q-Q-2 and discarding K goes out."""
    s = _asking("Q Q 2 K")
    s = play(s, "ask 2", "yes")
    assert_illegal(s, "add 2 -> 9", "CC-10.5")
    s = play(s, "meld Q Q 2", "discard K")
    assert s.outcome.how == "went_out"


def test_cc10_5_one_card_after_a_take_cannot_ask():
    """CC-10.5: a player left with one card after a take is already committed and may not
    ask."""
    s = build(hands={0: "Q Q"}, melds={0: [CANASTA]}, pile="4 Q", phase="draw")
    s = play(s, "take Q Q")
    assert s.hands[0].bit_count() == 1
    assert_illegal(s, "ask 2", "CC-10.5")


def test_cc10_5_six_players_name_a_partner():
    """CC-10.5: in the six-player game the asker names one of two partners."""
    s = build(players=6, hands={0: "K K K 5"}, melds={0: [CANASTA, "Q Q Q Q Q Q Q"]},
              phase="meld")
    assert {"ask 2", "ask 4"} <= legal_texts(s)
    s = play(s, "ask 4")
    assert s.to_act == (4,)
    assert_illegal(s, "ask 2", "CC-10.5")


def test_cc10_5_no_partner_no_question():
    """CC-10.5, CC-14.1: there is no partner question in the two- and three-player games."""
    s = build(players=3, hands={0: "K K K 5"}, melds={0: [CANASTA]}, phase="meld")
    assert not any(t.startswith("ask") for t in legal_texts(s))
    assert_illegal(s, "ask 1", "CC-10.5")


def test_option_partner_permission_disabled():
    """CC-10.5 option partner_permission="disabled": the question is never offered."""
    s = _asking("K K K 5", options={"partner_permission": "disabled"})
    assert_illegal(s, "ask 2", "CC-10.5")
    assert play(s, "meld K K K", "discard 5").outcome.how == "went_out"


def test_option_partner_permission_compulsory():
    """CC-10.5 option partner_permission="compulsory": going out without asking is refused;
    after "yes" it is allowed."""
    s = _asking("K K K 5", options={"partner_permission": "compulsory"})
    assert_illegal(s, "meld K K K", ("CC-5.7", "CC-10.5"))
    s = play(s, "ask 2", "yes", "meld K K K", "discard 5")
    assert s.outcome.how == "went_out"
    s = _asking("K", options={"partner_permission": "compulsory"})
    assert_illegal(s, "discard K", ("CC-5.7", "CC-10.5"))


# --------------------------------------------------------------------------- CC-10.6, 10.7


def test_concealed_going_out_scores_200():
    """CC-10.6, CC-12.5: melding the whole hand in one turn with no earlier meld, including a
    canasta, is going out concealed (200)."""
    s = build(hands={0: "7 7 7 7 7 7 7 J J J JK 4"}, phase="meld", seats_melded=[])
    s = play(s, "out 7 7 7 7 7 7 7, J J J JK; discard 4")
    assert s.outcome.how == "went_out_concealed"
    assert _bonus(s, 0) == [200]


def test_concealed_go_out_action_checks():
    """CC-6.9, CC-10.6, CC-10.1: the go-out-concealed action must use the whole hand (with at
    most one discard) and include a canasta."""
    s = build(hands={0: "7 7 7 7 7 7 7 J J J JK 4 5"}, phase="meld", seats_melded=[])
    assert_illegal(s, "out 7 7 7 7 7 7 7, J J J JK; discard 4", "CC-10.6")
    s = build(hands={0: "7 7 7 7 7 7 J J J JK 4"}, phase="meld", seats_melded=[])
    assert_illegal(s, "out 7 7 7 7 7 7, J J J JK; discard 4", "CC-10.6")
    s = build(players=2, hands={0: "7 7 7 7 7 7 7 J J J JK 4"}, phase="meld",
              seats_melded=[])
    assert_illegal(s, "out 7 7 7 7 7 7 7, J J J JK; discard 4", "CC-10.1")


def test_edge14_concealed_blocked_by_partners_meld_rank():
    """CC-10.6, CC-6.4, edge case 14: the partner has a K meld; the player holds K-K-K: the
    kings can only go onto the partner's meld, which rules out going out concealed; going out
    normally is still possible (100)."""
    s = build(hands={0: "7 7 7 7 7 7 7 K K K 5"}, phase="meld",
              melds={0: [{"cards": "K K K", "creator": 2}]}, seats_melded=[2])
    assert_illegal(s, "meld K K K", "CC-6.4")
    assert_illegal(s, "out 7 7 7 7 7 7 7, K K K; discard 5", "CC-6.9")
    s = play(s, "meld 7 7 7 7 7 7 7", "add K K K -> K", "discard 5")
    assert s.outcome.how == "went_out"
    assert _bonus(s, 0) == [100]


def test_concealed_while_partner_has_melded_other_ranks():
    """CC-10.6: the partner's melds do not stop a concealed going out as long as the player
    adds nothing to them."""
    s = build(hands={0: "7 7 7 7 7 7 7 K K K 5"}, phase="meld",
              melds={0: [{"cards": "Q Q Q", "creator": 2}]}, seats_melded=[2])
    s = play(s, "meld 7 7 7 7 7 7 7", "meld K K K", "discard 5")
    assert s.outcome.how == "went_out_concealed"
    assert _bonus(s, 0) == [200]


def test_not_concealed_after_an_earlier_meld_this_hand():
    """CC-10.6: a player who melded on an earlier turn of the hand does not go out concealed."""
    s = build(hands={0: "7 7 7 7 7 7 7 5"}, phase="meld",
              melds={0: [{"cards": "Q Q Q", "creator": 0}]}, seats_melded=[0])
    s = play(s, "meld 7 7 7 7 7 7 7", "discard 5")
    assert s.outcome.how == "went_out" and _bonus(s, 0) == [100]


def test_edge13_concealed_after_taking_the_pile():
    """CC-7.6, CC-10.7, CC-10.6, edge case 13: a side with no melds takes the pile and goes
    out in the same turn: allowed as concealed; the minimum is enforced with the top card and
    hand cards only (CC-7.4); every pile card must be melded or be the final discard."""
    # side at 3,000 (minimum 120): 9×7 (70) + K-K-K (30) = 100 from top card + hand: refused,
    # even though the pile holds three aces that could be melded afterwards.
    s = build(hands={0: "9 9 9 9 9 9 K K K"}, scores=[3000, 0], pile="A A A 9",
              phase="draw", seats_melded=[])
    assert_illegal(s, "take 9 9 9 9 9 9, K K K", "CC-7.4")
    # side at 0 (minimum 50): accepted; the pile's aces and 5 are melded / discarded.
    s = build(hands={0: "9 9 9 9 9 9 K K K"}, pile="A A A 5 9", phase="draw",
              seats_melded=[])
    s = play(s, "take 9 9 9 9 9 9, K K K")
    assert_illegal(s, "out A A A; discard 5", "CC-6.9")
    s = play(s, "meld A A A", "discard 5")
    assert s.outcome.how == "went_out_concealed"
    assert _bonus(s, 0) == [200]


def test_cc10_6_six_players_partners_canastas_count():
    """CC-10.6, CC-10.1: in the six-player game the partners' canastas count toward the two
    needed for a concealed going out."""
    s = build(players=6, hands={0: "7 7 7 7 7 7 7 K K K 5"}, phase="meld",
              melds={0: [{"cards": CANASTA, "creator": 2}]}, seats_melded=[2])
    s = play(s, "meld 7 7 7 7 7 7 7", "meld K K K", "discard 5")
    assert s.outcome.how == "went_out_concealed"


def test_cc10_5_no_question_when_the_minimum_cannot_be_reached():
    """CC-10.5, CC-7.6 option concealed_exempt_from_minimum=false: "can go out this turn"
    includes the minimum count (CC-7), so a player of an unmelded side whose going out would
    count 55 < 120 may not ask.  (Regression: the question was offered and after "yes" the
    player had no legal action.)"""
    opts = {"concealed_exempt_from_minimum": False}
    s = build(hands={0: "5 5 5 5 5 5 5 5 4 4 4 K"}, scores=[3200, 0], phase="meld",
              seats_melded=[], options=opts)
    assert_illegal(s, "ask 2", "CC-10.5")
    s = build(hands={0: "A A A A A A A K K K Q"}, scores=[3200, 0], phase="meld",
              seats_melded=[], options=opts)
    s = play(s, "ask 2", "yes")
    assert s.legal_actions()
    s = play(s, "out A A A A A A A, K K K; discard Q")
    assert s.outcome.how == "went_out_concealed"


def test_concealed_go_out_with_black_threes_and_without_discard():
    """CC-6.9, CC-9.5, CC-10.2, CC-10.6: the go-out-concealed action may end with a black-three
    meld, and the final discard is optional."""
    s = build(hands={0: "7 7 7 7 7 7 7 3 3 3"}, phase="meld", seats_melded=[])
    s = play(s, "out 7 7 7 7 7 7 7, 3 3 3")
    assert s.outcome.how == "went_out_concealed"
    r = result(s, 0)
    assert any(ln.rule_id == "CC-12.1" and ln.points == 15 for ln in r.lines)
    assert [ln.points for ln in r.lines if ln.rule_id in ("CC-12.2", "CC-12.3")] == [500, 100]
