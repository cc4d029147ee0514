"""RR-10: the kitty — eligibility, looking, taking it after the discard, red threes inside it,
the compulsory take, and an untaken kitty at the end of the hand."""

from __future__ import annotations

from rr_position import assert_illegal, build, legal_texts, play, points, result

from meldhall.record import dump_position

KITTY = "AS/0 AH/0 KS/1 KH/1 QS/1 QH/1 JS/1 JH/1 10S/1 10H/1 9S/1"  # 2×20 + 9×10 = 130


def test_edge12_kitty_eligibility():
    """RR-10.2, RR-10.3, RR-5.10, edge case 12: a player with only black canastas may not look at
    or take the kitty; the moment they complete a wild canasta they may look, and after
    discarding they may take it."""
    s = build(hands={0: "2 2 JK 5 6 9", 1: "4 4 8"}, closed={0: ["K K K K K K 2"]},
              melds={0: ["2 2 JK JK"]}, kitties={0: KITTY, 1: 11})
    assert not s.kitty_eligible(0)
    assert s.observation(0).to_json()["my_kitty"] is None
    # without the wild canasta: the discard passes the turn, no kitty phase
    t = play(s, "discard 5")
    assert t.phase == "draw" and t.turn == 1
    assert_illegal(s, "kitty", "RR-10.3")
    # complete a wild canasta: the kitty may be looked at at once (no action needed)
    s = play(s, "add 2 2 JK -> wild")
    assert [k for k, _ in s.closed[0]] == ["black", "wild"]
    assert sorted(s.observation(0).to_json()["my_kitty"]) == sorted(
        c.split("/")[0] for c in KITTY.split())  # shown by rank and suit only
    assert s.observation(1).to_json()["my_kitty"] is None
    assert_illegal(s, "kitty", "RR-10.3")  # only after the discard
    s = play(s, "discard 5")
    assert s.phase == "kitty" and legal_texts(s) == {"kitty", "pass"}
    s = play(s, "kitty")
    assert s.turn == 1 and s.phase == "draw"
    assert s.hands[0].bit_count() == 2 + 11
    assert s.observation(1).to_json()["kitty_taken"] == [True, False]


def test_kitty_taken_once_and_whole():
    """RR-10.3: the kitty is taken whole and only once; a player who passed may take it after a
    later discard."""
    s = build(hands={0: "5 6 9 8", 1: "4 4 8"}, closed={0: ["K K K K K K K"]},
              kitties={0: KITTY, 1: 11}, stock="Q Q J J")
    s = play(s, "discard 5", "pass")
    assert s.kitties[0].bit_count() == 11
    s = play(s, "draw", "discard 4")
    s = play(s, "draw", "discard 6", "kitty")
    assert s.kitties[0] == 0 and (s.kitty_taken >> 0) & 1
    s = play(s, "draw", "discard 4", "draw", "discard 9")
    assert s.phase == "draw" and s.turn == 1  # no second kitty phase


def test_edge13_kitty_compulsory_when_the_hand_is_empty():
    """RR-10.5, RR-5.7(b), edge case 13: after discarding the last card (the player not meeting
    RR-11.1), taking the kitty is compulsory and immediate."""
    s = build(hands={0: "5", 1: "4 4 8"}, closed={0: ["K K K K K K K"]},
              kitties={0: KITTY, 1: 11})
    assert legal_texts(s) == {"discard 5"}
    s = play(s, "discard 5")
    assert s.phase == "draw" and s.turn == 1
    assert sorted(dump_position(s)["hands"][0]) == sorted(KITTY.split())


def test_edge14_kitty_with_red_threes():
    """RR-10.4, RR-13.3, edge case 14: the kitty contains 3♥ and 3♦: both are placed and replaced
    from the stock when it is taken, and score 100 each."""
    kitty = "3H/0 3D/0 KS/1 KH/1 QS/1 QH/1 JS/1 JH/1 10S/1 10H/1 9S/1"
    s = build(hands={0: "5 6", 1: "4 4"}, closed={0: ["K K K K K K K"]},
              kitties={0: kitty, 1: 11}, stock="AS/0 AH/0 8S/0")
    s = play(s, "discard 5", "kitty")
    d = dump_position(s)
    assert sorted(d["red_threes"][0]) == ["3D/0", "3H/0"]
    assert {"AS/0", "AH/0"} <= set(d["hands"][0])
    assert len(d["hands"][0]) == 1 + 9 + 2
    assert d["stock"][0] == "8S/0"
    # the hand ends: the two red threes score 100 each
    s = build(hands={0: "5", 1: "4 4"}, red_threes={0: "3H/0 3D/0"}, stock="",
              fill=("kitty", 1), pile="JK", pile_frozen=True, phase="draw", turn=1)
    s = play(s, "pass")
    assert points(result(s, 0), "RR-13.3") == 200


def test_edge15_untaken_kitty_at_the_end():
    """RR-9.3, RR-10.6, RR-13.5, edge case 15: an untaken kitty's cards are deducted; its red
    threes count 0."""
    kitty = "3H/0 3D/0 KS/1 KH/1 QS/1 QH/1 JS/1 JH/1 10S/1 10H/1 JK/1"  # 8×10 + 50 = 130
    s = build(hands={0: "5", 1: "4 4"}, kitties={0: kitty}, stock="", fill=("kitty", 1),
              pile="JK", pile_frozen=True, phase="draw", turn=1)
    s = play(s, "pass")
    r = result(s, 0)
    kitty_lines = [ln for ln in r.lines if "kitty" in ln.label]
    assert [ln.points for ln in kitty_lines] == [-130]
    assert points(r, "RR-13.3") == 0
    assert r.hand_score == -135


def test_kitty_red_threes_replacement_chain():
    """RR-10.4: replacements for a kitty's red threes that are themselves red threes are placed
    and replaced in turn."""
    kitty = "3H/0 KS/1 KH/1 QS/1 QH/1 JS/1 JH/1 10S/1 10H/1 9S/1 9H/1"
    s = build(hands={0: "5 6", 1: "4 4"}, closed={0: ["K K K K K K K"]},
              kitties={0: kitty, 1: 11}, stock="3D/0 AS/0 8S/0")
    s = play(s, "discard 5", "kitty")
    d = dump_position(s)
    assert sorted(d["red_threes"][0]) == ["3D/0", "3H/0"]
    assert "AS/0" in d["hands"][0] and len(d["hands"][0]) == 1 + 10 + 1


def test_kitty_cards_first_played_next_turn():
    """RR-10.3: the kitty is taken after the discard, so its cards are first played on the
    player's next turn (taking it ends the turn)."""
    s = build(hands={0: "5 6", 1: "4 4"}, closed={0: ["K K K K K K K"]},
              kitties={0: KITTY, 1: 11})
    s = play(s, "discard 5", "kitty")
    assert s.turn == 1 and s.phase == "draw"


def test_position_with_a_taken_kitty_that_holds_cards_is_refused():
    """RR-10.3: a taken kitty is empty; a position saying otherwise is refused (RecordError)."""
    import pytest

    from meldhall.errors import RecordError

    with pytest.raises(RecordError):
        build(hands={0: "5 6", 1: "4 4"}, kitties={0: KITTY}, kitty_taken=[0])


def test_eligibility_gained_by_the_meld_that_leaves_one_card():
    """RR-5.7(b), RR-10.2, RR-10.5: a meld that completes the player's first red canasta may
    leave a single card: the player is eligible at once, discards it and takes the kitty."""
    s = build(hands={0: "9 9 5", 1: "4 4"}, melds={0: ["9 9 9 9 9"]},
              closed={0: ["K K K K K K 2"]}, kitties={0: KITTY, 1: 11})
    s = play(s, "add 9 9 -> 9", "discard 5")
    assert s.turn == 1 and s.hands[0].bit_count() == 11 and (s.kitty_taken >> 0) & 1
