"""CC-9: red threes and black threes."""

from __future__ import annotations

from cc_position import assert_illegal, build, legal_texts, play, result
from meldhall.record import dump_position

CANASTA = "K K K K K K K"


def test_red_threes_are_never_held_or_melded():
    """CC-9.1, CC-6.3: a red three cannot be discarded or melded (it is never in a hand)."""
    s = build(hands={0: "5 6 7"}, melds={0: ["A A A"]}, phase="meld")
    assert_illegal(s, "discard 3H", "CC-9.1")
    assert_illegal(s, "meld 3D 3D 3D", "CC-9.1")


def test_red_threes_do_not_make_a_side_melded():
    """CC-9.2, CC-8.4: a side with red threes but no meld has not melded: the pile is frozen
    against it (a natural pair is needed)."""
    s = build(hands={0: "Q JK A A A 5"}, red_threes={0: 2}, pile="4 Q", phase="draw",
              seats_melded=[])
    assert not s.side_has_melded(0)
    assert_illegal(s, "take Q JK, A A A", "CC-8.5")


def test_black_three_may_be_discarded_any_time():
    """CC-9.4: a black three may be discarded at any time."""
    s = build(hands={0: "3 5 6"}, phase="meld")
    s = play(s, "discard 3")
    assert s.upcard.rank == 3


def test_edge10_two_black_threes():
    """CC-9.5, CC-5.7, edge case 10: a player whose side has a canasta holds only 3♠ 3♣ after
    drawing: they cannot go out; they discard one black three and keep the other."""
    s = build(hands={0: "3S 3C"}, melds={0: [CANASTA]}, phase="meld")
    assert legal_texts(s) == {"discard 3"}
    assert_illegal(s, "meld 3 3", ("CC-9.5", "CC-6.1"))
    s = play(s, "discard 3")
    assert s.outcome is None and s.hands[0].bit_count() == 1


def test_black_three_meld_when_going_out():
    """CC-9.5: three or four black threes may be melded as the last meld when going out; with
    one card left the player must then discard it."""
    s = build(hands={0: "3 3 3 5"}, melds={0: [CANASTA]}, phase="meld")
    s = play(s, "meld 3 3 3")
    assert legal_texts(s) == {"discard 5"}
    s = play(s, "discard 5")
    assert s.outcome.how == "went_out"
    r = result(s, 0)
    assert any(ln.rule_id == "CC-12.1" and ln.points == 15 and "3" in ln.label
               for ln in r.lines)


def test_black_three_meld_not_going_out_refused():
    """CC-9.5: black threes can be melded only when going out: a meld that leaves two or more
    cards is refused, as are wild cards in it and more than four (2–4 players)."""
    s = build(hands={0: "3 3 3 5 6"}, melds={0: [CANASTA]}, phase="meld")
    assert_illegal(s, "meld 3 3 3", "CC-9.5")
    s = build(hands={0: "3 3 3 2"}, melds={0: [CANASTA]}, phase="meld")
    assert_illegal(s, "meld 3 3 3 2", "CC-9.5")
    s = build(hands={0: "3S 3S/1 3C 3C/1 3S/2"}, players=6, melds={0: [CANASTA,
                                                                        "Q Q Q Q Q Q Q"]},
              phase="meld")
    play(s, "meld 3 3 3 3 3")  # up to six in the six-player game …
    s = build(hands={0: "3 3 3 3"}, melds={0: [CANASTA]}, phase="meld")
    play(s, "meld 3 3 3 3")  # … four with two decks


def test_black_three_meld_needs_the_right_to_go_out():
    """CC-9.5, CC-10.1: when the black-three meld is made the side must already meet CC-10.1."""
    s = build(hands={0: "3 3 3"}, melds={0: ["K K K"]}, phase="meld")
    assert_illegal(s, "meld 3 3 3", ("CC-10.1", "CC-9.5", "CC-5.7"))


def test_black_three_meld_is_the_last_meld():
    """CC-9.5: after the black-three meld nothing more may be melded; the last card must be
    discarded."""
    s = build(hands={0: "3 3 3 K"}, melds={0: [CANASTA]}, phase="meld")
    s = play(s, "meld 3 3 3")
    assert_illegal(s, "add K -> K", "CC-9.5")


def test_edge11_black_three_meld_on_going_out_six_players():
    """CC-9.5, CC-12.1, edge case 11: in the six-player game a player goes out melding five
    black threes: legal; the meld scores 25 and is not a canasta."""
    s = build(players=6, hands={0: "3S 3S/1 3C 3C/1 3S/2 9"},
              melds={0: [CANASTA, "Q Q Q Q Q Q Q"]}, phase="meld")
    s = play(s, "meld 3 3 3 3 3", "discard 9")
    assert s.outcome.how == "went_out"
    assert s.canastas(0) == 2
    r = result(s, 0)
    b3 = [ln for ln in r.lines if ln.rule_id == "CC-12.1" and ln.points == 25]
    assert len(b3) == 1
    # 70 + 500 (kings) + 70 + 500 (queens) + 25 + 100 (going out), no canasta bonus for 3s
    assert r.hand_score == 570 + 570 + 25 + 100
    assert [m["rank"] for m in dump_position(s)["melds"][0]].count("3") == 1


def test_black_threes_left_in_hand_count_five():
    """CC-9.6, CC-12.6: black threes left in hand count 5 points each against the side."""
    s = build(hands={0: "K", 1: "3 3 4"}, melds={0: [CANASTA], 1: ["Q Q Q"]}, phase="meld")
    s = play(s, "discard K")
    r = result(s, 1)
    assert [ln.points for ln in r.lines if ln.rule_id == "CC-12.6"] == [-15]
