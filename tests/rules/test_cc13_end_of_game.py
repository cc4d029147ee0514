"""CC-13: the target score, the winner, ties; options target_score and tie_rule."""

from __future__ import annotations

import pytest

from cc_position import assert_illegal, build, play, result
from meldhall.games.classic_canasta import new_game


def _hand(scores, *, players=4, options=None, hand_no=0):
    """A hand in which side 0 goes out: side 0 scores 670 (K×7 natural 570 + going out 100),
    side 1 scores 570 (J×7 natural); in six-player games the same with a second canasta for
    side 0 (Q×7, +570)."""
    melds = {0: ["K K K K K K K"], 1: ["J J J J J J J"]}
    if players == 6:
        melds[0].append("Q Q Q Q Q Q Q")
    s = build(players=players, hands={0: "5"}, melds=melds, scores=scores, phase="meld",
              options=options, hand_no=hand_no)
    return play(s, "discard 5")


def test_target_reached_game_over():
    """CC-13.1, CC-13.2: the target is 5,000; when a side reaches it after a hand, the game
    ends and the highest score wins."""
    s = _hand([4400, 1000])
    assert result(s, 0).total == 5070
    assert s.outcome.game_over is True and s.outcome.winners == (0,)
    assert s.phase == "game_over" and s.is_terminal
    assert_illegal(s, "deal", "CC-13.2")


def test_below_target_play_continues():
    """CC-13.2: below the target the next hand is dealt."""
    s = _hand([4000, 1000])
    assert result(s, 0).total == 4670
    assert s.outcome.game_over is False and s.phase == "hand_end"


def test_highest_score_wins_even_if_it_did_not_cause_the_end():
    """CC-13.2: the side with the highest cumulative score wins, not necessarily the side that
    went out."""
    s = _hand([4400, 4600])
    assert (result(s, 0).total, result(s, 1).total) == (5070, 5170)
    assert s.outcome.game_over and s.outcome.winners == (1,)


def test_edge22_both_sides_over_the_target_tied():
    """CC-13.2, edge case 22: both sides finish a hand on 5,120: another hand is played; the
    game ends when one side alone has the highest score."""
    s = _hand([4450, 4550])
    assert (result(s, 0).total, result(s, 1).total) == (5120, 5120)
    assert s.outcome.game_over is False and s.outcome.winners == ()
    assert s.phase == "hand_end"
    nxt = s.apply_text("deal")
    assert nxt.scores == (5120, 5120) and nxt.outcome is None
    s = _hand([5120, 5120], hand_no=1)
    assert s.outcome.game_over is True and s.outcome.winners == (0,)


def test_option_tie_rule_shared():
    """CC-13.2 option tie_rule="shared": a tie for the highest score over the target ends the
    game with a shared win."""
    s = _hand([4450, 4550], options={"tie_rule": "shared"})
    assert s.outcome.game_over is True and s.outcome.winners == (0, 1)


def test_option_target_score():
    """CC-13.1 option target_score: any target."""
    s = _hand([1000, 0], options={"target_score": 1500})
    assert s.outcome.game_over is True and s.outcome.winners == (0,)
    s = _hand([4400, 0], options={"target_score": 8000})
    assert s.outcome.game_over is False


def test_six_player_target_is_10000():
    """CC-13.1, CC-14.1: the six-player target is 10,000."""
    assert new_game(players=6, seed=1).options.target == 10000
    s = _hand([8000, 0], players=6)  # side 0: +1,240
    assert result(s, 0).total == 9240 and s.outcome.game_over is False
    s = _hand([8800, 0], players=6)
    assert result(s, 0).total == 10040 and s.outcome.game_over is True


@pytest.mark.parametrize("players", [2, 3, 4])
def test_target_5000(players):
    """CC-13.1: the target is 5,000 with 2, 3 or 4 players."""
    assert new_game(players=players, seed=1).options.target == 5000
