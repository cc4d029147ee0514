"""RR-13: scoring a hand — melded cards, canasta bonuses, red threes, the going-out bonus,
deductions for the hand and an untaken kitty; worked examples RR-13.7 and RR-13.8."""

from __future__ import annotations

from rr_position import build, play, points, result

ALL_FOUR = ["K K K K K K K", "Q Q Q Q Q Q 2", "2 2 2 2 JK JK JK", "7 7 7 7 7 7 7"]


def stock_end(players=2, **kw):
    """A position where the player in turn (seat 0) faces an empty stock and a pile topped by a
    joker (never takeable, RR-8.2), so 'pass' ends the hand (RR-12.2).  The unnamed cards go
    to the last seat's kitty unless ``fill`` says otherwise."""
    kw.setdefault("fill", ("kitty", players - 1))
    return build(players=players, stock="", pile="JK", pile_frozen=True, phase="draw", **kw)


# --------------------------------------------------------------------------- RR-13.7


def test_rr13_7_worked_example_a_player_goes_out():
    """RR-13.7 worked example 1 (four players), RR-13.1–RR-13.5: Ana (seat 0) goes out with four
    canastas of the four types, an unfinished 9-9-9, a black-three meld made last and two red
    threes: 4,080.  Ben (kitty taken): 1,170.  Cleo (kitty never taken): −155.  Dov (never
    melded, kitty never taken): −270.  (The turn history of the example only explains the card
    counts; the position is the one at Ana's going-out discard.)"""
    s = build(
        players=4, dealer=3, turn=0,
        hands={
            0: "3S 3C 3S 5",
            1: "JK K 9 7 7",
            2: "A A K Q Q 9 9 7 6 5 5 3C",
            3: "A K K Q Q J J 10 9 9 8 7 6 6 5 4 4 3C 3S",
        },
        closed={
            0: ["K K K K K K K", "Q Q Q Q 2 2 JK", "JK JK 2 2 2 2 2", "7 7 7 7 7 7 7"],
            1: ["A A A A A A A", "J J J J J 2 JK"],
        },
        melds={0: ["9 9 9"], 1: ["10 10 10 10", "7 7 7 7", "5 5 2"],
               2: ["8 8 8 JK", "4 4 4"]},
        kitties={2: "JK 2 K Q J 10 9 6 5 3H 3S", 3: "2 2 A Q 10 8 7 6 4 4 3H"},
        red_threes={0: 2, 1: 1},
    )
    s = play(s, "meld 3 3 3")
    s = play(s, "discard 5")
    oc = s.outcome
    assert oc.how == "went_out" and oc.went_out == 0
    ana, ben, cleo, dov = (result(s, seat) for seat in range(4))
    assert ana.hand_score == 4_080
    assert points(ana, "RR-13.1") == 70 + 130 + 200 + 35 + 30 + 15
    assert points(ana, "RR-13.2") == 500 + 300 + 1_000 + 1_500
    assert points(ana, "RR-13.3") == 200 and points(ana, "RR-13.4") == 100
    assert ben.hand_score == 1_170
    assert points(ben, "RR-13.1") == 140 + 120 + 40 + 20 + 30
    assert points(ben, "RR-13.2") == 500 + 300
    assert points(ben, "RR-13.5") == -80
    assert cleo.hand_score == -155
    assert points(cleo, "RR-13.5") == -115 - 135
    assert dov.hand_score == -270
    assert points(dov, "RR-13.5") == -160 - 110
    assert s.scores == (4_080, 1_170, -155, -270)
    assert [r.total for r in oc.results] == [4_080, 1_170, -155, -270]


# --------------------------------------------------------------------------- RR-13.8


def test_rr13_8_worked_example_the_stock_runs_out():
    """RR-13.8 worked example 2 (abbreviated position), RR-12.2, RR-13.4: the stock is empty and
    Eva cannot take the pile, so the hand ends.  Eva has a red canasta 6×7 (35 + 500), a meld
    J-J-2 (40), one red three (100) and holds 9 and 4 (−15); her kitty was taken: 660.  Nobody
    receives the going-out bonus."""
    s = build(hands={0: "9 4", 1: "K 8"}, closed={0: ["6 6 6 6 6 6 6"]},
              melds={0: ["J J 2"], 1: ["5 5 5"]}, red_threes={0: 1}, stock="",
              fill=("kitty", 1), pile="JK 8", pile_frozen=True, phase="meld", turn=1)
    s = play(s, "discard K")  # Eva (seat 0) cannot take a frozen pile topped by K: no K pair
    assert s.outcome is not None and s.outcome.how == "stock_exhausted"
    eva = result(s, 0)
    assert eva.hand_score == 660
    assert points(eva, "RR-13.1") == 35 + 40
    assert points(eva, "RR-13.2") == 500
    assert points(eva, "RR-13.3") == 100 and points(eva, "RR-13.5") == -15
    for seat in (0, 1):
        assert points(result(s, seat), "RR-13.4") == 0


# --------------------------------------------------------------------------- RR-13.1 – RR-13.6


def test_melded_cards_and_bonuses_per_type():
    """RR-13.1, RR-13.2: every melded card at its value, plus 500 / 300 / 1,000 / 1,500 per
    red / black / wild / sevens canasta (several of one type each score)."""
    s = stock_end(hands={0: "4"}, closed={0: ALL_FOUR + ["A A A A A A A"]})
    s = play(s, "pass")
    r = result(s, 0)
    assert points(r, "RR-13.2") == 500 * 2 + 300 + 1_000 + 1_500
    assert points(r, "RR-13.1") == 70 + (60 + 20) + (80 + 150) + 35 + 140
    assert r.hand_score == points(r, "RR-13.1") + points(r, "RR-13.2") - 5


def test_red_threes_score_100_each_never_negative():
    """RR-13.3: each placed red three scores 100 — no extra bonus for several, and never
    negative, even for a player who has not melded."""
    s = stock_end(hands={0: "4"}, red_threes={0: 4, 1: 1})
    s = play(s, "pass")
    assert points(result(s, 0), "RR-13.3") == 400
    assert points(result(s, 1), "RR-13.3") == 100


def test_going_out_bonus_only_for_the_player_who_went_out():
    """RR-13.4: the player who went out scores 100; the others do not."""
    s = build(players=3, hands={0: "9 9 9 5", 1: "4 4", 2: "4 4"}, closed={0: ALL_FOUR},
              kitties={1: 11, 2: 11})
    s = play(s, "meld 9 9 9", "discard 5")
    assert [points(result(s, x), "RR-13.4") for x in range(3)] == [100, 0, 0]


def test_hand_and_untaken_kitty_deducted():
    """RR-13.5, RR-10.6: cards left in hand and in an untaken kitty are deducted at RR-3.5
    values; a red three in an untaken kitty counts 0; a taken kitty is not deducted."""
    s = stock_end(hands={0: "JK 2 A", 1: "K"}, kitties={0: "K Q 7 3 3H"},
                  fill=("kitty", 1), kitty_taken=[])
    s = play(s, "pass")
    r = result(s, 0)
    assert points(r, "RR-13.5") == -(50 + 20 + 20) - (10 + 10 + 5 + 5 + 0)


def test_no_other_adjustments():
    """RR-13.6: melds count even without any canasta, and unfinished melds carry no penalty."""
    s = stock_end(hands={0: "4"}, melds={0: ["K K 2", "9 9 9 JK"]})
    s = play(s, "pass")
    r = result(s, 0)
    assert r.hand_score == 40 + 80 - 5
    assert {ln.rule_id for ln in r.lines} == {"RR-13.1", "RR-13.5"}


def test_scores_are_cumulative():
    """RR-13.1: the hand score (possibly negative) is added to the cumulative score."""
    s = stock_end(hands={0: "JK", 1: "K"}, scores=[1_000, -200], fill="pile")
    s = play(s, "pass")
    assert s.scores == (950, -210)
    assert [r.total for r in s.outcome.results] == [950, -210]
