"""CC-6.9 (amended, staged melding): a side that has not melded stages its new melds one at a
time, privately, and one action commits them with the whole check: the minimum count (CC-7),
the pile take (CC-7.4, CC-8.5–CC-8.7) or the concealed going out (CC-10.6)."""

from __future__ import annotations

from cc_position import assert_illegal, build, legal_texts, play

from meldhall.errors import IllegalActionError
from meldhall.record import dump_position


def _unbounded(s) -> dict:
    d = dump_position(s)
    d["turn_state"].pop("stages_this_turn")
    return d


def test_cc7_1_minimum_reached_only_by_two_staged_melds_together():
    """CC-7.1, CC-7.3, CC-7.7 (side at 2,000, minimum 90): Q-Q-Jk (70) alone is refused at the
    commit with the count reached and needed, and stays staged; with A-A-A (60) it commits."""
    s = build(hands={0: "Q Q JK A A A 5 5 5 9 8"}, scores=[2000, 0], phase="meld",
              seats_melded=[])
    s = play(s, "stage Q Q JK")
    assert s.observation(0).to_json()["staged_count"] == 70
    err = assert_illegal(s, "meld done", "CC-7.1")
    assert "90" in err.reason and "70" in err.reason
    assert s.staged_melds(0), "a refused commit leaves the melds staged"
    s = play(s, "stage 5 5 5")
    assert_illegal(s, "meld done", "CC-7.1")  # 85 < 90 (CC-7.7)
    s = play(s, "withdraw", "stage A A A")
    assert s.observation(0).to_json()["staged_count"] == 130
    s = play(s, "meld done")
    assert s.side_has_melded(0) and not s.staged_melds(0)
    assert s.public_log()[-1][1] == "meld A A A, Q Q JK"


def test_cc6_9_staging_changes_nothing_another_seat_sees_and_withdraw_restores():
    """CC-6.9 (a), (b): staged melds stay in the hand, are seen by nobody else and leave no
    log entry; withdrawing returns to the state before the staging."""
    s = build(hands={0: "K K K 7 7 7 2 9 8"}, phase="meld", seats_melded=[])
    others = [s.observation(x).to_json() for x in (1, 2, 3)]
    t = play(s, "stage K K K", "stage 7 7 7 2")
    assert [t.observation(x).to_json() for x in (1, 2, 3)] == others
    assert t.hands == s.hands and t.public_log() == s.public_log()
    assert t.observation(0).to_json()["staged"] == ["K K K", "7 7 7 2"]
    assert _unbounded(play(t, "withdraw all")) == _unbounded(s)
    assert _unbounded(play(t, "withdraw")) == _unbounded(play(s, "stage K K K"))


def test_cc6_4_one_staged_meld_per_rank_and_no_addition_to_a_staged_meld():
    """CC-6.4 counting the staged melds; CC-6.9 (a): cards are never added to a staged meld."""
    s = build(hands={0: "K K K K K 2 9 8"}, phase="meld", seats_melded=[])
    s = play(s, "stage K K K")
    assert_illegal(s, "stage K K 2", "CC-6.4")
    assert_illegal(s, "add K -> K", ("CC-6.5", "CC-5.6"))
    assert "withdraw" in legal_texts(s)


def test_cc6_8_a_seven_card_staged_meld_is_one_hidden_canasta():
    """CC-6.8, CC-6.9: a seven-card meld staged as one meld is created by one action: a hidden
    (natural) canasta once committed."""
    s = build(hands={0: "9 9 9 9 9 9 9 A A A 4 5"}, phase="meld", seats_melded=[])
    s = play(s, "stage 9 9 9 9 9 9 9", "stage A A A", "meld done")
    nines = s.melds[0][9]
    assert nines.size == 7 and nines.hidden


def test_cc10_6_concealed_going_out_committed_by_the_discard():
    """CC-6.9 (c), CC-10.6, CC-7.6: every card but one staged, the last discard goes out
    concealed with no minimum count; a discard that would not go out is refused."""
    opts = {"partner_permission": "disabled"}
    s = build(hands={0: "7 7 7 7 7 7 7 J J JK 4 5"}, phase="meld", seats_melded=[],
              options=opts)
    s = play(s, "stage 7 7 7 7 7 7 7", "stage J J JK")
    assert_illegal(s, "discard 4", "CC-6.9")  # 4 and 5 left: that discard would not go out
    assert "meld done" in legal_texts(s)  # 105 points, two cards left: a first melding
    s = build(hands={0: "7 7 7 7 7 7 7 4 4 4 5"}, phase="meld", seats_melded=[],
              options=opts)
    s = play(s, "stage 7 7 7 7 7 7 7", "stage 4 4 4")  # 50 points: exempt anyway (CC-7.6)
    t = play(s, "discard 5")
    assert t.outcome is not None and t.outcome.how == "went_out_concealed"
    assert t.public_log()[-1][1] == "out 7 7 7 7 7 7 7, 4 4 4; discard 5"


def test_cc7_4_staged_take_refused_at_the_commit_with_the_count():
    """CC-7.4, CC-7.7 (side at 0, minimum 50): the upcard 8 with 8-8 (30) is refused at the
    take with the count; staging K-K-2 (40) as well makes 70 and the take commits."""
    s = build(hands={0: "8 8 K K 2 5 9"}, pile="4 6 Q 8", phase="draw", seats_melded=[])
    assert "stage 8 8 + upcard" in legal_texts(s)
    s = play(s, "stage 8 8 + upcard")
    err = assert_illegal(s, "take", "CC-7.4")
    assert "50" in err.reason and "30" in err.reason
    assert_illegal(s, "draw", "CC-6.9")
    s = play(s, "stage K K 2", "take")
    assert s.side_has_melded(0) and s.phase == "meld"
    assert s.public_log()[-1][1] == "take 8 8, K K 2"


def test_cc6_2_commit_refused_for_a_wild_card_limit():
    """CC-6.2 is checked when a meld is staged: three wild cards with two naturals are refused
    (no more wild cards than naturals) and nothing is staged."""
    s = build(hands={0: "K K 2 2 JK 9 8 7"}, phase="meld", seats_melded=[])
    assert_illegal(s, "stage K K 2 2 JK", "CC-6.2")
    assert not s.staged_melds(0)


def test_cc6_9_staging_bound_and_withdraw_at_the_bound():
    """CC-6.9 (d): at most STAGE_LIMIT stage actions a turn; withdraw-all stays legal."""
    from meldhall.games.canasta.engine import STAGE_LIMIT

    s = build(hands={0: "K K K 9 8 7"}, phase="meld", seats_melded=[])
    for _ in range(STAGE_LIMIT - 1):
        s = play(s, "stage K K K", "withdraw")
    s = play(s, "stage K K K")
    assert s.stages == STAGE_LIMIT
    assert not any(t.startswith("stage") for t in legal_texts(s))
    s = play(s, "withdraw all")
    try:
        s.apply_text("stage K K K")
    except IllegalActionError as exc:
        assert exc.rule_id == "CC-6.9"
    else:
        raise AssertionError("a stage past the bound was accepted")


def test_cc6_9_shorthand_is_the_staged_sequence():
    """CC-6.9: 'meld A A A, K K 2' is shorthand for the staged melds and 'meld done'."""
    s = build(hands={0: "A A A K K 2 9 8"}, phase="meld", seats_melded=[])
    whole = s.apply_text("meld A A A, K K 2")
    steps = play(s, "stage A A A", "stage K K 2", "meld done")
    assert _unbounded(whole) == _unbounded(steps)


def test_cc5_5_take_or_draw_after_drawing_with_melds_staged_cites_the_draw_rule():
    """CC-5.5: a player who has drawn and staged a meld and then tries to take the pile or
    draw again is told they have already drawn (it said "your staged melds are committed with
    'meld done'", CC-6.9, as if the take could commit them); the melds stay staged."""
    s = build(hands={0: "Q Q JK A A A 5 5 9 8"}, scores=[0, 0], phase="meld",
              seats_melded=[], pile="7 5")
    s = play(s, "stage A A A")
    for text in ("take 5 5", "draw"):
        err = assert_illegal(s, text, "CC-5.5")
        assert "already drawn" in err.reason
    assert s.staged_melds(0)
