"""CC-7: the initial meld requirement (minimum count) and its options."""

from __future__ import annotations

import pytest

from cc_position import offers, assert_illegal, build, play
from meldhall.games.classic_canasta import ClassicCanastaOptions


def _unmelded(hand: str, score: int, *, players: int = 4, options=None, phase="meld", **kw):
    scores = [score, 0] if players != 3 else [score, 0, 0]
    return build(players=players, hands={0: hand}, scores=scores, phase=phase,
                 seats_melded=[], options=options, **kw)


@pytest.mark.parametrize("score, minimum", [(-40, 15), (-5, 15), (0, 50), (1495, 50),
                                            (1500, 90), (2995, 90), (3000, 120),
                                            (7500, 120)])
def test_cc7_1_bands(score, minimum):
    """CC-7.1: below 0 → 15; 0–1,495 → 50; 1,500–2,995 → 90; 3,000 or more → 120."""
    s = _unmelded("5 6", score)
    assert s.minimum_for(0) == minimum
    assert ClassicCanastaOptions().minimum_count(score) == minimum


@pytest.mark.parametrize("score, good, good_count, bad, bad_count", [
    (-5, "meld 4 4 4", 15, "meld 4 4 4", 15),
    (0, "meld A A 2", 60, "meld K K 2", 40),
    (1500, "meld A A A 2, K K K", 110, "meld A A A 2", 80),
    (3000, "meld A A A A 2 2", 120, "meld A A A 2, K K K", 110),
])
def test_cc7_1_minimum_enforced_at_each_band(score, good, good_count, bad, bad_count):
    """CC-7.1, CC-3.4: at each band a first melding reaching the minimum is accepted and one
    below it is refused."""
    minimum = ClassicCanastaOptions().minimum_count(score)
    s = _unmelded("A A A A 2 2 K K K 4 4 4 5 6", score)
    assert good_count >= minimum
    play(s, good)
    if bad_count < minimum:
        assert_illegal(s, bad, "CC-7.1")


def test_cc7_7_example_side_at_2000():
    """CC-7.7 worked example 1: side at 2,000 (minimum 90): Q-Q-Jk + 5-5-5 = 85 is refused;
    Q-Q-Jk + A-A-A = 130 is accepted."""
    s = _unmelded("Q Q JK 5 5 5 A A A 7 8", 2000)
    assert s.minimum_for(0) == 90
    assert_illegal(s, "meld Q Q JK, 5 5 5", "CC-7.1")
    s = play(s, "meld Q Q JK, A A A")
    assert s.side_has_melded(0)


def test_cc7_7_example_side_at_minus_40():
    """CC-7.7 worked example 2: side at −40 (minimum 15): 4-4-4 = 15 is accepted (exactly the
    minimum)."""
    s = _unmelded("4 4 4 7 8", -40)
    assert s.minimum_for(0) == 15
    play(s, "meld 4 4 4")


def test_edge23_negative_score_needs_15():
    """CC-7.1, edge case 23: a side at −15 needs a minimum of only 15."""
    s = _unmelded("4 4 4 7 8", -15)
    assert s.minimum_for(0) == 15
    play(s, "meld 4 4 4")


def test_cc7_7_example_take_with_extra_meld():
    """CC-7.7 worked example 3, CC-7.4, CC-8.7: side at 0 (minimum 50), top of the pile is an 8
    and the pile holds 14 other cards (three of them 8s); the player holds 8-8 and K-K-2.
    8-8-8 (30) + K-K-2 (40) = 70 is accepted and the 14 other cards go to the hand; 8-8-8 alone
    (30) is refused even though the pile holds three more 8s."""
    pile = "8 8 8 9 9 10 J Q 4 5 6 7 7 A 8"
    s = _unmelded("8 8 K K 2 4 5", 0, pile=pile, phase="draw")
    assert len(s.pile) == 15
    assert_illegal(s, "take 8 8", "CC-7.4")
    s = play(s, "take 8 8, K K 2")
    # 7 - 5 melded + 14 from the pile
    assert s.hands[0].bit_count() == 16
    assert s.pile == ()


def test_cc7_7_example_side_at_3000():
    """CC-7.7 worked example 4: side at 3,000 (minimum 120): A-A-A-2 (80) + Jk-K-K (70) = 150
    is accepted."""
    s = _unmelded("A A A 2 JK K K 5 6", 3000)
    assert s.minimum_for(0) == 120
    play(s, "meld A A A 2, K K JK")


def test_edge21_initial_meld_via_pile_counts_only_the_top_card():
    """CC-7.4, edge case 21: the pile holds three aces under the top ace; they do not count
    toward the minimum (side at 1,500: A-A + top A = 60 < 90, refused)."""
    s = _unmelded("A A 5 6 7", 1500, pile="A A A 9 A", phase="draw")
    assert_illegal(s, "take A A", "CC-7.4")
    # with more hand cards it reaches 90 from the top card and the hand alone
    s = _unmelded("A A K K K 6 7", 1500, pile="A A A 9 A", phase="draw")
    play(s, "take A A, K K K")


def test_cc7_3_only_card_values_count():
    """CC-7.3: only the card values of the new melds count, not canasta (or hidden canasta)
    bonuses: a hidden natural canasta of 7s counts 35 < 50."""
    s = _unmelded("7 7 7 7 7 7 7 5 6", 0)
    assert_illegal(s, "meld 7 7 7 7 7 7 7", "CC-7.1")


def test_cc7_3_red_threes_do_not_count():
    """CC-7.3, CC-9.2: red threes placed by the side do not count toward the minimum."""
    s = _unmelded("K K K 5 6", 0, red_threes={0: 2, 2: 2})
    assert_illegal(s, "meld K K K", "CC-7.1")


def test_cc7_5_no_minimum_once_the_side_has_melded():
    """CC-7.5: once the partner has melded, no minimum applies to the player (side at
    3,000)."""
    s = build(hands={0: "4 4 4 7 8"}, scores=[3000, 0], melds={0: [{"cards": "K K K",
                                                                      "creator": 2}]},
              phase="meld", seats_melded=[2])
    play(s, "meld 4 4 4")


def test_cc6_9_initial_melding_is_one_compound_action():
    """CC-6.9, CC-7.3: the minimum may be reached with several melds in one action; once the
    side has melded, further melds are made one at a time."""
    s = _unmelded("Q Q JK A A A 7 7 7 5 6", 2000)
    s = play(s, "meld Q Q JK, A A A", "meld 7 7 7")
    s2 = build(hands={0: "Q Q Q A A A 5 6"}, melds={0: ["K K K"]}, phase="meld")
    assert_illegal(s2, "meld Q Q Q, A A A", "CC-6.9")


def test_edge31_concealed_going_out_below_the_minimum():
    """CC-6.9, CC-7.6, CC-10.6, edge case 31: a side at 3,200 (minimum 120) has not melded; the
    player drew from the stock and holds eight 5s, 4-4-4 and K.  Going out concealed in one
    action (count 55) is legal; the same melds offered as an ordinary initial melding are
    refused (55 < 120)."""
    s = _unmelded("5 5 5 5 5 5 5 5 4 4 4 K", 3200)
    assert s.minimum_for(0) == 120
    assert_illegal(s, "meld 5 5 5 5 5 5 5 5, 4 4 4", "CC-7.1")
    s = play(s, "out 5 5 5 5 5 5 5 5, 4 4 4; discard K")
    assert s.outcome.how == "went_out_concealed"


def test_option_concealed_exempt_from_minimum_false():
    """CC-7.6 option concealed_exempt_from_minimum=false: the concealed going out of edge case
    31 (count 55 < 120) is refused."""
    s = _unmelded("5 5 5 5 5 5 5 5 4 4 4 K", 3200,
                  options={"concealed_exempt_from_minimum": False})
    assert_illegal(s, "out 5 5 5 5 5 5 5 5, 4 4 4; discard K", "CC-7.6")
    s = _unmelded("A A A A A A A K K K Q", 3200,
                  options={"concealed_exempt_from_minimum": False})
    play(s, "out A A A A A A A, K K K; discard Q")


def test_cc7_2_six_player_150_band():
    """CC-7.2: in the six-player game a side at 7,500 or more needs 150; at 7,495, 120."""
    s = _unmelded("A A A A A A 2 5 6", 7500, players=6)
    assert s.minimum_for(0) == 150
    assert_illegal(s, "meld A A A A A A 2", "CC-7.1")  # 140 < 150
    s = _unmelded("A A A A A A 2 5 6", 7495, players=6)
    assert s.minimum_for(0) == 120
    play(s, "meld A A A A A A 2")


def test_option_six_player_150_threshold():
    """CC-7.2 option six_player_150_threshold=7000: a six-player side at 7,000 needs 150."""
    s = _unmelded("A A 5", 7000, players=6, options={"six_player_150_threshold": 7000})
    assert s.minimum_for(0) == 150
    s = _unmelded("A A 5", 7000, players=6)
    assert s.minimum_for(0) == 120


def test_option_minimum_count_table():
    """CC-7 option minimum_count_table: a custom table replaces CC-7.1 (and CC-7.2)."""
    opts = {"minimum_count_table": [[0, 30], [2000, 100]]}
    s = _unmelded("K K K 5 6", 0, options=opts)
    assert s.minimum_for(0) == 30
    play(s, "meld K K K")
    s = _unmelded("K K K 5 6", 2500, options=opts)
    assert s.minimum_for(0) == 100
    assert_illegal(s, "meld K K K", "CC-7.1")
    s = _unmelded("K K K 5 6", -10, options=opts)
    assert s.minimum_for(0) == 15
    assert offers(s, "meld K K K")
