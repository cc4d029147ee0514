"""RR-14: the end of the game — the 20,000 target, the highest score wins, ties play on."""

from __future__ import annotations

import pytest
from rr_position import build, legal_texts, play

from meldhall.errors import IllegalActionError


def hand_end(scores, hands, players=None, options=None):
    """Seat 0 faces an empty stock and an untakeable pile: 'pass' ends the hand (RR-12.2); each
    seat's hand score is minus the value of ``hands[seat]``."""
    players = players or len(scores)
    s = build(players=players, hands=hands, scores=scores, stock="", fill="pile", pile="JK",
              pile_frozen=True, phase="draw", options=options)
    return play(s, "pass")


def test_game_ends_at_the_target_highest_score_wins():
    """RR-14.1: after a hand, if a player has 20,000 or more the game ends and the highest
    cumulative score wins."""
    s = hand_end([20_005, 19_000, 20_210], {0: "4", 1: "4", 2: "K"})
    assert s.scores == (20_000, 18_995, 20_200)
    assert s.is_terminal and s.phase == "game_over"
    assert s.outcome.game_over and s.outcome.winners == (2,)
    assert s.to_act == () and s.legal_actions() == []


def test_exactly_the_target_ends_the_game():
    """RR-14.1: "20,000 or more": exactly 20,000 ends the game."""
    s = hand_end([20_005, 100], {0: "4", 1: "4"})
    assert s.scores == (20_000, 95) and s.is_terminal and s.outcome.winners == (0,)


def test_below_the_target_play_on():
    """RR-14.1: below the target the next hand is dealt."""
    s = hand_end([19_900, 19_990], {0: "4", 1: "4"})
    assert not s.is_terminal and s.phase == "hand_end" and legal_texts(s) == {"deal"}


def test_edge24_tie_above_the_target():
    """RR-14.2, edge case 24: two players finish a hand on 20,400 each (the highest): another
    hand is played by everyone; the game ends after a hand with exactly one highest score."""
    s = hand_end([20_405, 20_410, 15_000], {0: "4", 1: "K", 2: "4"})
    assert s.scores == (20_400, 20_400, 14_995)
    assert not s.is_terminal and s.phase == "hand_end" and not s.outcome.game_over
    s = play(s, "deal")
    assert s.outcome is None and s.hand_no == 1
    assert all(h.bit_count() == 13 for h in s.hands)  # everyone plays
    # the extra hand ends with seat 1 ahead
    t = hand_end([20_400, 20_400, 14_995], {0: "K", 1: "4", 2: "4"})
    assert t.is_terminal and t.outcome.winners == (1,)


def test_no_action_after_game_over():
    """RR-14.1: nothing is accepted once the game is over."""
    s = hand_end([20_005, 100], {0: "4", 1: "4"})
    for text in ("deal", "draw", "pass", "kitty", "discard 4"):
        with pytest.raises(IllegalActionError) as ei:
            s.apply_text(text)
        assert ei.value.rule_id == "RR-14.1"


def test_option_tie_rule_shared():
    """RR-14.2 option tie_rule = "shared": a tie for the highest score at the target ends the
    game with a shared win."""
    s = hand_end([20_405, 20_410, 15_000], {0: "4", 1: "K", 2: "4"},
                 options={"tie_rule": "shared"})
    assert s.is_terminal and s.outcome.winners == (0, 1)


def test_option_target_score():
    """RR-14.1 option target_score: the game ends at the chosen target."""
    s = hand_end([5_005, 100], {0: "4", 1: "4"}, options={"target_score": 5_000})
    assert s.is_terminal and s.outcome.winners == (0,)
    s = hand_end([5_005, 100], {0: "4", 1: "4"})
    assert not s.is_terminal
