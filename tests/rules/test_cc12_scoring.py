"""CC-12: scoring a hand — the worked examples CC-12.7 to CC-12.10 and the scoring options."""

from __future__ import annotations

import pytest

from cc_position import build, lines_by_rule, play, result
from meldhall.games.classic_canasta.scoring import red_three_points

# Seats: North 0, East 1, South 2, West 3; North–South is side 0, East–West side 1.


def test_cc12_7_worked_example_1():
    """CC-12.7 worked example 1: four players, North goes out by discarding.  North–South score
    1,300 (from 1,450 to 2,750, minimum 90 next hand); East–West score 150 (from 3,020 to 3,170,
    minimum 120)."""
    s = build(
        hands={0: "Q", 2: "5 9 JK 4", 1: "J J 4 2", 3: "A 7 7"},
        melds={0: ["K K K K K K K", "8 8 8 8 8 2 JK", "A A A 2"],
               1: ["6 6 6 2", "Q Q Q", "10 10 10 10", "5 5 5 5"]},
        red_threes={0: 1, 2: 1, 1: 1},
        scores=[1450, 3020], phase="meld", turn=0)
    s = play(s, "discard Q")
    assert s.outcome.how == "went_out" and s.outcome.went_out == 0
    ns, ew = result(s, 0), result(s, 1)
    by = lines_by_rule(ns)
    assert sorted(by["CC-12.1"]) == sorted([70, 120, 80])
    assert sorted(by["CC-12.2"]) == [300, 500]
    assert "CC-12.3" not in by
    assert by["CC-12.4"] == [200]
    assert by["CC-12.5"] == [100]
    assert by["CC-12.6"] == [-70]
    assert ns.hand_score == 1300 and ns.total == 2750
    by = lines_by_rule(ew)
    assert sorted(by["CC-12.1"]) == sorted([35, 30, 40, 20])
    assert by["CC-12.4"] == [100]
    assert sorted(by["CC-12.6"]) == [-45, -30]
    assert "CC-12.2" not in by and "CC-12.5" not in by
    assert ew.hand_score == 150 and ew.total == 3170
    assert s.options.minimum_count(ns.total) == 90
    assert s.options.minimum_count(ew.total) == 120
    nxt = s.apply_text("deal")
    assert nxt.minimum_for(0) == 90 and nxt.minimum_for(1) == 120


def test_cc12_8_worked_example_2():
    """CC-12.8 worked example 2: West goes out concealed with a hidden natural canasta of 9s
    and J-J-J-Jk, discarding 4♣; East–West score 970; North–South never melded, with two red
    threes: −450."""
    s = build(
        hands={3: "9 9 9 9 9 9 9 J J J JK",
               1: "8 8 3S K Q 10 7 6 5 4 4",
               0: "A 2 K Q J 10 8 6 5 5 4",
               2: "JK A K Q J 10 8 7 6 4 3C"},
        stock="4C", red_threes={1: 1, 0: 1, 2: 1},
        phase="draw", turn=3, seats_melded=[])
    s = play(s, "draw", "out 9 9 9 9 9 9 9, J J J JK; discard 4")
    assert s.outcome.how == "went_out_concealed" and s.outcome.went_out == 3
    ew, ns = result(s, 1), result(s, 0)
    by = lines_by_rule(ew)
    assert sorted(by["CC-12.1"]) == [70, 80]
    assert by["CC-12.2"] == [500] and by["CC-12.3"] == [100]
    assert by["CC-12.5"] == [200]
    assert by["CC-12.4"] == [100]
    assert by["CC-12.6"] == [-80]
    assert ew.hand_score == 970
    by = lines_by_rule(ns)
    assert by["CC-12.4"] == [-200]
    assert sorted(by["CC-12.6"]) == [-140, -110]
    assert ns.hand_score == -450


def test_cc12_9_worked_example_3_two_players():
    """CC-12.9 worked example 3: two players; player 1 goes out by discarding with 5×7, J×5 +
    2 + 2, 8-8-8-8 and all four red threes: 1,865; player 2 has melded A-A-Jk and holds 14
    cards worth 160: −70."""
    s = build(
        players=2,
        hands={0: "9", 1: "K K Q Q 10 9 7 6 6 4 3C 3S 2 JK"},
        melds={0: ["5 5 5 5 5 5 5", "J J J J J 2 2", "8 8 8 8"], 1: ["A A JK"]},
        red_threes={0: "3H 3H/1 3D 3D/1"}, phase="meld", turn=0)
    s = play(s, "discard 9")
    p1, p2 = result(s, 0), result(s, 1)
    by = lines_by_rule(p1)
    assert sorted(by["CC-12.1"]) == [35, 40, 90]
    assert sorted(by["CC-12.2"]) == [300, 500]
    assert by["CC-12.4"] == [800]
    assert by["CC-12.5"] == [100]
    assert p1.hand_score == 1865
    by = lines_by_rule(p2)
    assert by["CC-12.1"] == [90] and by["CC-12.6"] == [-160]
    assert p2.hand_score == -70


def test_cc12_10_worked_example_4_six_players():
    """CC-12.10 worked example 4, CC-12.4: six players; side A has melded and holds five red
    threes: +1,000; side B never melded and holds one red three: −100."""
    s = build(players=6, hands={0: "Q"},
              melds={0: ["9 9 9 9 9 9 9", "K K K K K K K"]},
              red_threes={0: "3H 3D", 2: "3H 3D", 4: "3H", 1: "3D"},
              phase="meld", turn=0, seats_melded=[0])
    s = play(s, "discard Q")
    a, b = result(s, 0), result(s, 1)
    assert lines_by_rule(a)["CC-12.4"] == [1000]
    assert lines_by_rule(b)["CC-12.4"] == [-100]
    assert b.hand_score == -100


def test_edge17_red_threes_with_no_meld():
    """CC-12.4, edge case 17: a side holds all four red threes but never melded: −800."""
    s = build(hands={0: "Q"}, melds={0: ["9 9 9 9 9 9 9"]}, red_threes={1: 2, 3: 2},
              phase="meld")
    s = play(s, "discard Q")
    assert lines_by_rule(result(s, 1))["CC-12.4"] == [-800]
    assert result(s, 1).hand_score == -800


def test_edge24_six_player_red_threes():
    """CC-12.4, edge case 24: a six-player side holding six red threes scores 1,200, or −1,200
    if it never melded."""
    assert red_three_points(6, 6) == 1200
    s = build(players=6, hands={0: "Q"},
              melds={0: ["9 9 9 9 9 9 9", "K K K K K K K"]},
              red_threes={1: 2, 3: 2, 5: 2}, phase="meld")
    s = play(s, "discard Q")
    assert lines_by_rule(result(s, 1))["CC-12.4"] == [-1200]
    s = build(players=6, hands={0: "Q"},
              melds={0: ["9 9 9 9 9 9 9", "K K K K K K K"]},
              red_threes={0: 2, 2: 2, 4: 2}, phase="meld")
    s = play(s, "discard Q")
    assert lines_by_rule(result(s, 0))["CC-12.4"] == [1200]


@pytest.mark.parametrize("count, players, points", [
    (1, 4, 100), (2, 4, 200), (3, 4, 300), (4, 4, 800), (4, 2, 800), (4, 3, 800),
    (4, 6, 400), (5, 6, 1000), (6, 6, 1200)])
def test_cc12_4_red_three_values(count, players, points):
    """CC-12.4: 100 each; all four (2–4 players) 800; six players: up to four 100 each, five
    1,000, six 1,200."""
    assert red_three_points(count, players) == points


def test_cc12_1_melds_count_without_a_canasta_and_score_may_be_negative():
    """CC-12.1: melded cards count even without a canasta; the hand score may be negative and
    is added to the cumulative score."""
    s = build(hands={0: "Q", 1: "JK JK A"}, melds={0: ["9 9 9 9 9 9 9"], 1: ["4 4 4"]},
              scores=[0, 100], phase="meld")
    s = play(s, "discard Q")
    r = result(s, 1)
    assert r.hand_score == 15 - 120 and r.total == 100 - 105


def test_cc12_2_mixed_and_natural_canasta_bonuses():
    """CC-12.2, CC-6.6: a natural canasta scores 500, a mixed one 300; adding a wild card to a
    natural canasta makes it mixed."""
    s = build(hands={0: "2 Q"}, melds={0: ["9 9 9 9 9 9 9", "K K K K K K K"]},
              phase="meld")
    s = play(s, "add 2 -> 9", "discard Q")
    assert sorted(lines_by_rule(result(s, 0))["CC-12.2"]) == [300, 500]


def test_option_hidden_canasta_bonus_zero():
    """CC-12.3 option hidden_canasta_bonus=0: a hidden canasta scores the plain 500/300."""
    s = build(hands={0: "Q"}, melds={0: [{"cards": "9 9 9 9 9 9 9", "hidden": True},
                                         {"cards": "K K K K K K 2", "hidden": True}]},
              phase="meld", options={"hidden_canasta_bonus": 0})
    s = play(s, "discard Q")
    by = lines_by_rule(result(s, 0))
    assert sorted(by["CC-12.2"]) == [300, 500] and "CC-12.3" not in by
    s = build(hands={0: "Q"}, melds={0: [{"cards": "9 9 9 9 9 9 9", "hidden": True},
                                         {"cards": "K K K K K K 2", "hidden": True}]},
              phase="meld")
    s = play(s, "discard Q")
    by = lines_by_rule(result(s, 0))
    assert by["CC-12.3"] == [100, 100]  # 600 natural, 400 mixed


@pytest.mark.parametrize("bonus", [100, 300])
def test_option_concealed_bonus(bonus):
    """CC-12.5 option concealed_bonus: the total going-out bonus when concealed (100: no
    extra)."""
    s = build(hands={0: "7 7 7 7 7 7 7 J J J JK 4"}, phase="meld", seats_melded=[],
              options={"concealed_bonus": bonus})
    s = play(s, "out 7 7 7 7 7 7 7, J J J JK; discard 4")
    assert lines_by_rule(result(s, 0))["CC-12.5"] == [bonus]


def test_cc12_6_hands_of_all_partners_are_subtracted():
    """CC-12.6: cards left in the hands of all the side's players count against it."""
    s = build(hands={0: "Q", 2: "JK 2 A K 7 3"}, melds={0: ["9 9 9 9 9 9 9"]}, phase="meld")
    s = play(s, "discard Q")
    assert lines_by_rule(result(s, 0))["CC-12.6"] == [-(50 + 20 + 20 + 10 + 5 + 5)]
