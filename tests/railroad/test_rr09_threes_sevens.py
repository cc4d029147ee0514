"""RR-9: red threes, black threes and sevens (the sevens lock of RR-9.6 and the going-out ban
of RR-9.7)."""

from __future__ import annotations

from rr_position import offers, assert_illegal, build, legal_texts, play, result

from meldhall.record import dump_position

ALL_FOUR = ["K K K K K K K", "Q Q Q Q Q Q 2", "2 2 2 2 JK JK JK", "7 7 7 7 7 7 7"]
SEVENS = "7 7 7 7 7 7 7"


def test_red_three_drawn_is_placed_and_replaced():
    """RR-9.1, RR-9.2, RR-5.3: a red three drawn from the stock never stays in hand: it is
    placed in front of its owner and replaced."""
    s = build(hands={0: "9"}, stock="3H/0 KS/0 QS/0", phase="draw")
    s = play(s, "draw")
    d = dump_position(s)
    assert d["red_threes"][0] == ["3H/0"]
    assert sorted(d["hands"][0]) == sorted(["9S/0", "KS/0", "QS/0"])
    assert not s.hands[0] & s.pack.red_threes


def test_placed_red_threes_are_public():
    """RR-9.2, RR-5.10: placed red threes lie face up: every seat sees them."""
    s = build(players=3, hands={0: "9"}, red_threes={0: "3H/0 3D/1"})
    for seat in range(3):
        assert sorted(s.observation(seat).to_json()["red_threes"][0]) == ["3D", "3H"]


def test_black_threes_left_in_hand_or_kitty_count_5():
    """RR-9.5, RR-13.5: black threes left in hand or in an untaken kitty cost 5 points each."""
    s = build(hands={0: "3 3", 1: "4 4"}, kitties={0: "3 3 3"}, stock="", fill=("kitty", 1),
              pile="JK", pile_frozen=True, phase="draw", turn=1)
    assert legal_texts(s) == {"pass"}  # seat 1 cannot take the pile (RR-12.2)
    s = play(s, "pass")
    assert result(s, 0).hand_score == -25


# --------------------------------------------------------------------------- sevens lock


def test_edge9_discarding_a_seven_under_the_lock():
    """RR-9.6, edge case 9: a player tries to discard 7♠ while one opponent has no sevens
    canasta: refused."""
    s = build(players=3, hands={0: "7S 9 K", 1: "4 4", 2: "4 4"},
              closed={0: [SEVENS], 1: [SEVENS]}, kitties={1: 11, 2: 11})
    assert_illegal(s, "discard 7", "RR-9.6")
    assert "discard 7" not in legal_texts(s)


def test_edge9_discarding_a_seven_once_every_player_has_one():
    """RR-9.6, RR-9.7, edge case 9: after every player has a sevens canasta, discarding a seven
    is legal — but not as the going-out discard."""
    s = build(players=3, hands={0: "7S 9 K", 1: "4 4", 2: "4 4"},
              closed={0: [SEVENS], 1: [SEVENS], 2: [SEVENS]}, kitties={1: 11, 2: 11})
    t = play(s, "discard 7")
    assert t.pack.rank_of[t.pile[-1]] == 7 and t.turn == 1
    s = build(players=3, hands={0: "7", 1: "4 4", 2: "4 4"},
              closed={0: ALL_FOUR, 1: [SEVENS], 2: [SEVENS]}, kitties={1: 11, 2: 11})
    assert_illegal(s, "discard 7", "RR-9.7")


def test_going_out_never_on_a_seven_even_with_the_kitty_waiting():
    """RR-9.7, RR-11.7: with the lock lifted and the kitty untaken, a last seven may be
    discarded only into the kitty: 'go out' is not offered, the kitty is taken at once."""
    s = build(hands={0: "7", 1: "4 4"}, closed={0: ALL_FOUR, 1: [SEVENS]},
              kitties={0: 11, 1: 11})
    s = play(s, "discard 7")
    assert s.outcome is None and s.turn == 1 and s.phase == "draw"
    assert (s.kitty_taken >> 0) & 1 and s.hands[0].bit_count() == 11


def test_seven_upcard_is_not_a_discard():
    """RR-4.8, RR-9.6: the lock concerns discards, not a seven turned up as the upcard."""
    s = build(hands={0: "7 7 A A A 5 6 9", 1: "4 4"}, pile="7C", phase="draw",
              kitties={0: 11, 1: 11})
    assert offers(s, "take 7 7, A A A")


def test_sevens_meld_is_always_allowed_under_the_lock():
    """RR-9.6, RR-6.3: the lock forbids discarding sevens, not melding them."""
    s = build(hands={0: "7 7 7 9 K", 1: "4 4"}, melds={0: ["5 5 5"]}, kitties={1: 11})
    s = play(s, "meld 7 7 7")
    assert s.melds[0][7].size == 3
