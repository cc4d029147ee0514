"""RR-7: the initial-meld requirement — the 5,000-point bands, what counts, takes of the pile
as a first melding, and the RR-7.4 worked examples."""

from __future__ import annotations

import pytest
from rr_position import offers, assert_illegal, build, legal_texts, play


def first(hand: str, score: int, **kw):
    """Seat 0 in its meld phase, not yet melded this hand, at cumulative ``score``."""
    return build(hands={0: hand + " 9 10", 1: "4 4"}, scores=[score, 0], kitties={1: 11}, **kw)


@pytest.mark.parametrize("score, minimum", [
    (-100_000, 15), (-35, 15), (-5, 15), (0, 50), (4_995, 50), (5_000, 90), (9_995, 90),
    (10_000, 120), (12_340, 120), (14_995, 120), (15_000, 150), (19_995, 150), (40_000, 150),
])
def test_bands(score, minimum):
    """RR-7.1: the minimum count by cumulative score: below 0 → 15, 0–4,995 → 50, 5,000–9,995
    → 90, 10,000–14,995 → 120, 15,000 or more → 150."""
    s = first("", score)
    assert s.minimum_for(0) == minimum
    assert s.observation(1).to_json()["minimums"][0] == minimum


def test_edge22_band_edges():
    """RR-7.1, edge case 22: a player at exactly 15,000 needs 150; at 14,995 needs 120.
    A-A-A-A-2-2 counts 120: accepted at 14,995, refused at 15,000."""
    assert_illegal(first("A A A A 2 2", 15_000), "meld A A A A 2 2", "RR-7.1")
    s = play(first("A A A A 2 2", 14_995), "meld A A A A 2 2")
    assert s.melds[0][1].size == 6
    s = play(first("A A A A 2 2 JK", 15_000), "meld A A A A 2 2 JK")  # 170 ≥ 150
    assert s.closed[0][0][0] == "black"


def test_rr7_4_wild_meld_meets_120():
    """RR-7.4 example 1, RR-7.2: at 12,340 (minimum 120) a wild meld Jk-Jk-2 counts 50 + 50 + 20
    = 120: accepted."""
    s = play(first("JK JK 2", 12_340), "meld 2 JK JK")
    assert s.melds[0][0].size == 3


def test_rr7_4_q_q_2_with_9_9_9_refused():
    """RR-7.4 example 1, RR-7.2: at 12,340 (minimum 120) Q-Q-2 with 9-9-9 counts 40 + 30 = 70:
    refused."""
    s = first("Q Q 2 9 9 9", 12_340)
    assert_illegal(s, "meld Q Q 2, 9 9 9", "RR-7.1")


def test_rr7_4_negative_score_4_4_4():
    """RR-7.4 example 2: at −35 (minimum 15) 4-4-4 counts 15: accepted."""
    s = play(first("4 4 4", -35), "meld 4 4 4")
    assert s.melds[0][4].size == 3
    assert_illegal(first("4 4 4", 0), "meld 4 4 4", "RR-7.1")


def test_rr7_4_4995_and_5000():
    """RR-7.4 example 3: at 4,995 the minimum is 50, at 5,000 it is 90.  K-K-K-2 (50) is
    accepted at 4,995 and refused at 5,000."""
    play(first("K K K 2", 4_995), "meld K K K 2")
    assert_illegal(first("K K K 2", 5_000), "meld K K K 2", "RR-7.1")


def test_rr7_4_take_with_a_pair_of_aces_and_8_8_8():
    """RR-7.4 example 4, RR-7.3: at 7,200 (minimum 90), taking the pile with top card A and A-A
    from hand counts 60 — refused; adding 8-8-8 from hand (30) brings it to 90 — accepted.  The
    two aces deeper in the pile cannot help."""
    s = build(hands={0: "A A 8 8 8 5 6", 1: "4 4"}, scores=[7_200, 0], kitties={1: 11},
              pile="A A 9 A", phase="draw")
    assert_illegal(s, "take A A", "RR-7.3")
    assert_illegal(s, "take A A A A", ("RR-7.3", "RR-8.4"))  # the pile's aces are not in hand
    assert offers(s, "take A A, 8 8 8")
    s = play(s, "take A A, 8 8 8")
    assert s.melds[0][1].size == 3 and s.melds[0][8].size == 3
    assert s.hand_counts(0)[1] == 2  # the deeper aces went into the hand


def test_rr7_4_seven_upcard_at_2000():
    """RR-7.4 example 5, RR-7.3, RR-4.8: at 2,000 (minimum 50), first turn, the upcard is 7♣ and
    the player holds 7-7: 7-7-7 alone counts 15 — refused; adding A-A-A from hand in the same
    take brings it to 75 — accepted.  At −35 (minimum 15) 7-7-7 alone is accepted."""
    s = build(hands={0: "7 7 A A A 5 6 9", 1: "4 4"}, scores=[2_000, 0], pile="7C",
              phase="draw", kitties={0: 11, 1: 11})
    assert_illegal(s, "take 7 7", "RR-7.3")
    t = play(s, "take 7 7, A A A")
    assert t.melds[0][7].size == 3 and t.melds[0][1].size == 3
    s = build(hands={0: "7 7 A A A 5 6 9", 1: "4 4"}, scores=[-35, 0], pile="7C",
              phase="draw", kitties={0: 11, 1: 11})
    t = play(s, "take 7 7")
    assert t.melds[0][7].size == 3


def test_count_is_card_values_only():
    """RR-7.2: the count is the card values of the new melds; canasta bonuses and red threes
    never count.  At 15,000 (minimum 150) a red canasta of fours (35) is refused although its
    bonus is 500; red threes placed do not help."""
    s = first("4 4 4 4 4 4 4", 15_000, red_threes={0: 4})
    assert_illegal(s, "meld 4 4 4 4 4 4 4", "RR-7.1")


def test_several_melds_reach_the_minimum():
    """RR-7.2, RR-6.11: several new melds laid together count together."""
    s = first("K K K Q Q Q", 0)
    assert_illegal(s, "meld K K K", "RR-7.1")
    s = play(s, "meld K K K, Q Q Q")
    assert s.has_melded(0)


def test_requirement_once_per_hand():
    """RR-7.1: after the first melding the player melds freely for the rest of the hand."""
    s = build(hands={0: "4 4 4 9 10", 1: "4 4"}, melds={0: ["K K K 2"]}, scores=[15_000, 0],
              kitties={1: 11})
    s = play(s, "meld 4 4 4")
    assert s.melds[0][4].size == 3


def test_additions_need_an_existing_meld():
    """RR-7.1, RR-5.5: a player who has not melded has no meld to add to."""
    s = first("K K", 0)
    assert_illegal(s, "add K K -> K", "RR-5.5")


def test_take_by_a_player_who_has_not_melded_is_always_an_initial_melding():
    """RR-7.3, RR-8.4: a player who has not melded may take only if the take reaches the
    minimum; the pile's other cards never count."""
    s = build(hands={0: "9 9 5", 1: "4 4"}, pile="A A A JK 9", phase="draw",
              kitties={1: 11}, pile_frozen=True)
    assert_illegal(s, "take 9 9", "RR-7.3")
    assert legal_texts(s) == {"draw"}


def test_why_the_pile_cannot_be_taken_names_the_minimum():
    """A tester held J J J with a J upcard at a 90 minimum and the table said only "the pile
    cannot be taken now": ``why_no_take`` gives the refusal of the simplest take, with the
    pair held, so the minimum count is named (RR-7.1, RR-7.3), from the observation alone;
    ``None`` where a take is legal."""
    s = build(hands={0: "J J J 5 6 9", 1: "4 4"}, scores=[7_200, 0], kitties={1: 11},
              pile="9 JH", phase="draw")
    assert [str(a) for a in s.legal_actions(0)] == ["draw"]
    e = s.observation(0).why_no_take()
    assert e is not None and e.rule_id in ("RR-7.1", "RR-7.3"), e
    assert "90" in str(e), e
    # another seat, or a seat that may take, hears nothing
    assert s.observation(1).why_no_take() is None
    s2 = build(hands={0: "A A 8 8 8 5 6", 1: "4 4"}, scores=[7_200, 0], kitties={1: 11},
               pile="A A 9 A", phase="draw")
    assert s2.observation(0).why_no_take() is None
    # a black three on top: RR-8.2
    s3 = build(hands={0: "J J J 5 6 9", 1: "4 4"}, kitties={1: 11}, pile="9 3S", phase="draw")
    assert s3.observation(0).why_no_take().rule_id == "RR-8.2"
