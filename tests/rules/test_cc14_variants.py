"""CC-14: player-count variants, two_player_stock_draw and the cutthroat three-player game."""

from __future__ import annotations

import pytest

from cc_position import assert_illegal, build, lines_by_rule, play, result
from meldhall.games.classic_canasta import new_game
from meldhall.record import dump_position

CUT = {"three_player_mode": "cutthroat"}


@pytest.mark.parametrize("players, sides, pack, dealt, draw, canastas, target", [
    (2, 2, 108, 15, 2, 2, 5000),
    (3, 3, 108, 13, 1, 1, 5000),
    (4, 2, 108, 11, 1, 1, 5000),
    (6, 2, 162, 13, 1, 2, 10000),
])
def test_cc14_1_parameters(players, sides, pack, dealt, draw, canastas, target):
    """CC-14.1 table: sides, pack, cards dealt, stock draw, canastas to go out and target for
    2, 3, 4 and 6 players."""
    s = new_game(players=players, seed=7)
    o = s.options
    assert len(set(s.side_of)) == sides
    assert s.pack.size == pack
    assert o.hand_size == dealt and o.stock_draw == draw
    assert o.required_canastas == canastas and o.target == target


def test_option_two_player_stock_draw_one():
    """CC-5.4 option two_player_stock_draw=1: the two-player stock draw takes one card."""
    s = build(players=2, hands={0: "5 6 7"}, stock="K 9 4", phase="draw",
              options={"two_player_stock_draw": 1})
    s = play(s, "draw")
    assert s.hands[0].bit_count() == 4


def test_option_player_count_six_alternate_partnerships():
    """CC-1.4, CC-14.1 option player_count=6: two partnerships of three, seated alternately,
    13 cards each from a 162-card pack."""
    s = new_game(players=6, seed=2)
    assert s.side_of == (0, 1, 0, 1, 0, 1)
    assert [h.bit_count() for h in s.hands] == [13] * 6


# --------------------------------------------------------------------------- cutthroat


def test_option_three_player_mode_cutthroat_parameters():
    """CC-14.1 option three_player_mode="cutthroat": draw 2 discard 1, two canastas to go out,
    target 7,500, scores kept per player."""
    s = new_game(players=3, seed=4, options=CUT)
    o = s.options
    assert o.stock_draw == 2 and o.required_canastas == 2 and o.target == 7500
    assert len(s.scores) == 3
    s = build(players=3, hands={0: "5 6 7"}, stock="K 9 4", phase="draw", options=CUT)
    assert play(s, "draw").hands[0].bit_count() == 5


def test_cutthroat_first_taker_plays_alone():
    """CC-14.1 cutthroat: the first player to take the pile plays alone; the other two become
    partners for the hand, sharing melds."""
    s = build(players=3, options=CUT, turn=1, phase="draw",
              hands={1: "9 9 5 6", 0: "Q 4", 2: "7 4"},
              melds={0: ["Q Q Q"], 1: ["K K K"], 2: ["7 7 7"]}, pile="4 9")
    s = play(s, "take 9 9")
    assert s.side_of[0] == s.side_of[2] != s.side_of[1]
    assert s.partners(0) == (2,) and s.partners(1) == ()
    side = s.side_of[0]
    ranks = sorted(m["rank"] for m in dump_position(s)["melds"][side])
    assert ranks == ["7", "Q"]
    # later takes do not change the partnership
    s = play(s, "discard 5")
    assert s.side_of[0] == s.side_of[2]


def test_cutthroat_partners_share_melds_and_score_the_partnership_total():
    """CC-14.1 cutthroat: the partners share melds and each scores the partnership total; red
    threes are personal."""
    # seat 1 took the pile earlier: seats 0 and 2 are partners (side 0)
    s = build(players=3, options=CUT, turn=0, phase="meld", side_of=[0, 1, 0], first_taker=1,
              hands={0: "4", 1: "A", 2: "5"},
              melds={0: ["K K K K K K K", {"cards": "Q Q Q Q Q Q Q", "creator": 2}],
                     1: ["9 9 9"]},
              red_threes={0: 1, 2: 2, 1: 1})
    s = play(s, "discard 4")
    assert s.outcome.how == "went_out"
    r0, r1, r2 = result(s, 0), result(s, 1), result(s, 2)
    # partnership: 570 + 570 + 100 going out − 5 (seat 2's hand) = 1,235
    assert lines_by_rule(r0)["CC-12.4"] == [100]
    assert lines_by_rule(r2)["CC-12.4"] == [200]
    assert r0.hand_score == 1235 + 100
    assert r2.hand_score == 1235 + 200
    assert r1.hand_score == 30 + 100 - 20


def test_cutthroat_going_out_before_any_take_is_the_lone_hand():
    """CC-14.1 cutthroat: a player who goes out before anyone has taken the pile is the lone
    hand; the other two become partners and score together."""
    s = build(players=3, options=CUT, turn=0, phase="meld",
              hands={0: "4", 1: "A", 2: "5"},
              melds={0: ["K K K K K K K", "Q Q Q Q Q Q Q"], 1: ["9 9 9"], 2: ["8 8 8"]})
    s = play(s, "discard 4")
    assert s.outcome.how == "went_out"
    r0, r1, r2 = result(s, 0), result(s, 1), result(s, 2)
    assert r0.hand_score == 570 + 570 + 100
    # partners 1 and 2: 9 9 9 (30) + 8 8 8 (30) − A (20) − 5 (5) = 35 each
    assert r1.hand_score == r2.hand_score == 35


def test_cutthroat_stock_runs_out_before_any_take_each_scores_alone():
    """CC-14.1 cutthroat: if the stock runs out before anyone has taken the pile, each player
    scores alone."""
    s = build(players=3, options=CUT, turn=2, phase="meld", stock="", fill="pile",
              hands={0: "4", 1: "A", 2: "5 6"},
              melds={1: ["9 9 9"], 2: ["8 8 8"]}, seats_melded=[1, 2])
    s.check(s.parse_action("discard 6"))
    # the pile (every other card) is frozen for nobody, but its top card 6 fits no meld
    s = play(s, "discard 6")
    assert s.outcome is not None and s.outcome.how == "stock_exhausted"
    r0, r1, r2 = result(s, 0), result(s, 1), result(s, 2)
    assert (r0.hand_score, r1.hand_score, r2.hand_score) == (-5, 30 - 20, 30 - 5)


def test_cutthroat_minimum_follows_own_score():
    """CC-14.1 cutthroat: each player's minimum count follows their own score."""
    s = build(players=3, options=CUT, scores=[3000, 1500, -20], hands={0: "5"},
              phase="meld")
    assert [s.minimum_for(x) for x in range(3)] == [120, 90, 15]
    assert_illegal(s, "ask 1", "CC-10.5")


def test_cutthroat_combined_meld_over_the_wild_limit_still_takes_naturals():
    """CC-14.1, CC-6.2, CC-6.5: when the partners' melds are combined (here two 8 melds into
    one with four wild cards — the rules are silent on this case), natural cards may still be
    added to it; more wild cards may not.  (Regression: legal_actions offered no addition at
    all, and after a "yes" the player was left with no legal action.)"""
    s = build(players=3, options={**CUT, "partner_permission": "compulsory"}, turn=0,
              phase="meld", side_of=[0, 1, 0], first_taker=1,
              hands={0: "8 A 2"},
              melds={0: ["8 8 8 8 8 8 2 JK JK JK", "K K K K K K K", "Q Q Q Q Q Q Q"],
                     1: ["A A A"]})
    assert "add 8 -> 8" in {str(a) for a in s.legal_actions()}
    assert_illegal(s, "add 8 2 -> 8", "CC-6.2")
    s = build(players=3, options={**CUT, "partner_permission": "compulsory"}, turn=0,
              phase="meld", side_of=[0, 1, 0], first_taker=1,
              hands={0: "8 A"}, turn_state={"asked": True, "permission": True},
              melds={0: ["8 8 8 8 8 8 2 JK JK JK", "K K K K K K K", "Q Q Q Q Q Q Q"],
                     1: ["A A A"]})
    s = play(s, "add 8 -> 8", "discard A")
    assert s.outcome.how == "went_out"
