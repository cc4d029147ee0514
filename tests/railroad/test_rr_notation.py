"""Action notation for Railroad Canasta (docs/notation.md): every form the game uses parses,
prints back canonically, and applies in the phase it belongs to."""

from __future__ import annotations

import pytest

from meldhall.errors import IllegalActionError, NotationError
from rr_position import assert_illegal, build, legal_texts, play

ALL_FOUR = ["K K K K K K K", "Q Q Q Q Q Q 2", "2 2 2 2 JK JK JK", "7 7 7 7 7 7 7"]


def roundtrip(state, text: str) -> None:
    a = state.parse_action(text)
    assert str(a) == text
    assert state.parse_action(str(a)) == a


def test_draw_and_discard():
    """RR-5.2: 'draw' then 'discard K' (phases draw → meld → next player's draw)."""
    s = build(hands={0: "K 5", 1: "4 4"}, stock="9 8", phase="draw", kitties={1: 11})
    assert s.phase == "draw"
    roundtrip(s, "draw")
    s = play(s, "draw")
    assert s.phase == "meld"
    roundtrip(s, "discard K")
    s = play(s, "discard K")
    assert s.phase == "draw" and s.turn == 1


def test_take_forms():
    """RR-8.4, RR-8.5, RR-7.3: 'take' (add the top card to a meld), 'take 8 8' (natural pair),
    'take 8 8, K K 2' (a first melding with a further meld)."""
    s = build(hands={0: "K Q", 1: "4 4"}, melds={0: ["8 8 8"]}, pile="4 8", phase="draw",
              kitties={1: 11})
    roundtrip(s, "take")
    assert play(s, "take").melds[0][8].size == 4
    s = build(hands={0: "8 8 K Q", 1: "4 4"}, melds={0: ["5 5 5"]}, pile="4 8", phase="draw",
              kitties={1: 11})
    roundtrip(s, "take 8 8")
    assert play(s, "take 8 8").melds[0][8].size == 3
    s = build(hands={0: "8 8 K K 2 Q J", 1: "4 4"}, pile="4 8", phase="draw", kitties={1: 11})
    roundtrip(s, "take 8 8, K K 2")
    t = play(s, "take 8 8, K K 2")  # 30 + 40 = 70 ≥ 50
    assert t.melds[0][8].size == 3 and t.melds[0][13].size == 3
    # suits and lower case are accepted
    assert s.parse_action("TAKE 8h 8s, kd K 2c") == s.parse_action("take 8 8, K K 2")


def test_meld_forms():
    """RR-6.2, RR-6.4, RR-6.11: 'meld K K 2', 'meld A A A, 2 2 JK' (a first melding including a
    wild meld), 'meld 2 2 JK' (a wild meld)."""
    s = build(hands={0: "A A A 2 2 JK K Q", 1: "4 4"}, kitties={1: 11})
    roundtrip(s, "meld A A A, 2 2 JK")
    t = play(s, "meld A A A, 2 2 JK")
    assert t.melds[0][1].size == 3 and t.melds[0][0].size == 3
    s = build(hands={0: "K K 2 2 2 JK Q J", 1: "4 4"}, melds={0: ["5 5 5"]}, kitties={1: 11})
    roundtrip(s, "meld K K 2")
    roundtrip(s, "meld 2 2 JK")
    t = play(s, "meld K K 2", "meld 2 2 JK")
    assert t.melds[0][13].size == 3 and t.melds[0][0].size == 3


def test_add_forms():
    """RR-6.1, RR-6.4: 'add 9 9 -> 9' and 'add 2 -> wild'."""
    s = build(hands={0: "9 9 2 K Q", 1: "4 4"}, melds={0: ["9 9 9", "2 2 JK"]},
              kitties={1: 11})
    roundtrip(s, "add 9 9 -> 9")
    roundtrip(s, "add 2 -> wild")
    t = play(s, "add 9 9 -> 9", "add 2 -> wild")
    assert t.melds[0][9].size == 5 and t.melds[0][0].size == 4
    assert s.parse_action("add 2 -> W") == s.parse_action("add 2 -> wild")


def test_black_three_meld_form():
    """RR-6.5: 'meld 3 3 3' when going out."""
    s = build(hands={0: "3S 3C 3S K", 1: "4 4"}, closed={0: ALL_FOUR})
    roundtrip(s, "meld 3 3 3")
    assert s.parse_action("meld 3S 3C 3S") == s.parse_action("meld 3 3 3")
    s = play(s, "meld 3 3 3", "discard K")
    assert s.outcome.how == "went_out"


def test_kitty_and_pass_in_the_kitty_phase():
    """RR-10.3: in the "kitty" phase, 'kitty' takes the kitty and 'pass' declines it."""
    s = build(hands={0: "5 6", 1: "4 4"}, closed={0: ["K K K K K K K"]},
              kitties={0: 11, 1: 11})
    s = play(s, "discard 5")
    assert s.phase == "kitty"
    roundtrip(s, "kitty")
    roundtrip(s, "pass")
    assert play(s, "kitty").kitty_taken & 1
    assert not play(s, "pass").kitty_taken & 1


def test_go_out_and_kitty_in_the_choice_phase():
    """RR-11.7: in the "choice" phase, 'go out' or 'kitty'."""
    s = build(hands={0: "5", 1: "4 4"}, closed={0: ALL_FOUR}, kitties={0: 11, 1: 11})
    s = play(s, "discard 5")
    assert s.phase == "choice"
    roundtrip(s, "go out")
    assert s.parse_action("GO OUT") == s.parse_action("go out")
    assert play(s, "go out").outcome.how == "went_out"


def test_pass_declines_the_pile_on_an_empty_stock_and_deal():
    """RR-12.2, RR-4.1: 'pass' declines the pile on an empty stock (the hand ends, phase
    "hand_end"); 'deal' deals the next hand."""
    s = build(hands={0: "9 9 K", 1: "4 4"}, melds={0: ["5 5 5"]}, pile="4 9", stock="",
              fill=("kitty", 1), phase="draw")
    s = play(s, "pass")
    assert s.phase == "hand_end"
    roundtrip(s, "deal")
    s = play(s, "deal")
    assert s.phase == "draw" and s.hand_no == 1


@pytest.mark.parametrize("text", ["", "drw", "discard", "discard K Q", "draw 2", "kitty 3",
                                  "go", "go home", "add K K", "add -> K", "meld", "X"])
def test_not_notation(text):
    """Text that is not an action raises NotationError with a sentence."""
    s = build(hands={0: "K K 5", 1: "4 4"}, melds={0: ["5 5 5"]}, kitties={1: 11})
    with pytest.raises(NotationError) as ei:
        s.parse_action(text)
    assert str(ei.value)


def test_notation_refused_by_rules_cites_rr_rules():
    """RR-9.1, RR-6.2, RR-8.4, RR-5.2: notation naming something no rule allows is refused with
    the Railroad rule ID (a red three, mixed ranks, a take with the wrong rank, actions of other
    games)."""
    s = build(hands={0: "K K 5 9", 1: "4 4"}, melds={0: ["5 5 5"]}, pile="4 9", phase="draw",
              kitties={1: 11})
    for text, rule in (("meld 3H 3D 3H", "RR-9.1"), ("meld K K Q", "RR-6.2"),
                       ("add Q -> K", "RR-6.2"), ("take K K", "RR-8.4")):
        with pytest.raises(IllegalActionError) as ei:
            s.parse_action(text)
        assert ei.value.rule_id == rule, text
    for text in ("ask 1", "yes", "out K K K; discard 5"):
        assert_illegal(s, text, "RR-5.2")


def test_legal_actions_print_and_parse_back():
    """Every legal action's text parses back to the same action."""
    s = build(hands={0: "9 9 2 2 JK K K 3 7 7 7", 1: "4 4"},
              melds={0: ["9 9 9", "2 2 JK"]}, kitties={1: 11})
    offered = legal_texts(s)
    assert offered
    for text in offered:
        roundtrip(s, text)
