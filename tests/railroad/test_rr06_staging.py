"""RR-6.11 (amended, staged melding): a player who has not melded stages new melds one at a
time, privately; 'meld done' commits them with RR-7's minimum, the take with RR-7.3's."""

from __future__ import annotations

from rr_position import assert_illegal, build, legal_texts, play


def test_rr7_minimum_reached_only_by_two_staged_melds_together():
    """RR-7.1, RR-7.2: at 0 points the minimum is 50; K K K (30) alone is refused at the
    commit and stays staged; with A A 2 (60) the melding commits as one log entry."""
    s = build(hands={0: "K K K A A 2 5 9 8", 1: "4 4"}, phase="meld", kitties={0: 11, 1: 11})
    s = play(s, "stage K K K")
    err = assert_illegal(s, "meld done", "RR-7.1")
    assert "50" in err.reason and "30" in err.reason
    s = play(s, "stage A A 2", "meld done")
    assert s.has_melded(0) and s.public_log()[-1][1] == "meld A A 2, K K K"


def test_rr6_7_one_unfinished_staged_meld_per_category():
    """RR-6.7 counting the staged melds: a second unfinished meld of kings is refused."""
    s = build(hands={0: "K K K K K K 2 9 8", 1: "4 4"}, phase="meld", kitties={0: 11, 1: 11})
    s = play(s, "stage K K K")
    assert_illegal(s, "stage K K K", "RR-6.7")


def test_rr6_11_a_discard_while_melds_are_staged_is_refused():
    """RR-6.11: commit or withdraw the staged melds before discarding."""
    s = build(hands={0: "K K K A A 2 5 9 8", 1: "4 4"}, phase="meld", kitties={0: 11, 1: 11})
    s = play(s, "stage K K K")
    assert_illegal(s, "discard 9", "RR-6.11")
    assert not any(t.startswith("discard") for t in legal_texts(s))
    s = play(s, "withdraw")
    assert "discard 9" in legal_texts(s)


def test_rr7_3_staged_take_refused_at_the_commit_with_the_count():
    """RR-7.3: only the upcard and cards from hand count: 9 + 9 9 (30) is refused at the take;
    with A A A staged too (90) the take commits."""
    s = build(hands={0: "9 9 A A A 5 6", 1: "4 4"}, pile="Q Q Q 9", phase="draw",
              kitties={0: 11, 1: 11})
    s = play(s, "stage 9 9 + upcard")
    err = assert_illegal(s, "take", "RR-7.3")
    assert "30" in err.reason
    s = play(s, "stage A A A", "take")
    assert s.has_melded(0) and s.public_log()[-1][1] == "take 9 9, A A A"


def test_rr6_11_a_staged_wild_meld_needs_the_jokers_in_hand():
    """RR-6.11, RR-6.1: a staged wild meld is checked against the wild cards in hand, jokers
    as well as twos (a hand of three twos and no joker cannot stage JK JK JK)."""
    s = build(hands={0: "2 2 2 K K 9 8", 1: "4 4"}, phase="meld", kitties={0: 11, 1: 11})
    assert_illegal(s, "stage JK JK JK", "RR-6.1")
    assert "stage 2 2 2" in legal_texts(s) and "stage JK JK JK" not in legal_texts(s)
