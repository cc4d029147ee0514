"""RR-11: going out — the four canasta types, the final discard, going out with the kitty
untaken, and the going-out-or-kitty choice of RR-11.7."""

from __future__ import annotations

from rr_position import assert_illegal, build, legal_texts, play, points, result

ALL_FOUR = ["K K K K K K K", "Q Q Q Q Q Q 2", "2 2 2 2 JK JK JK", "7 7 7 7 7 7 7"]
KITTY = "AS/0 AH/0 KS/1 KH/1 QS/1 QH/1 JS/1 JH/1 10S/1 10H/1 9S/1"  # 2×20 + 9×10 = 130


def test_going_out_with_all_four_types():
    """RR-11.1, RR-11.2, RR-11.6: with one canasta of each type and the kitty taken, the player
    melds all but one card and discards it: the hand ends at once."""
    s = build(hands={0: "9 9 9 5", 1: "4 4"}, closed={0: ALL_FOUR}, kitties={1: 11})
    s = play(s, "meld 9 9 9", "discard 5")
    assert s.outcome.how == "went_out" and s.outcome.went_out == 0
    assert s.phase == "hand_end" and s.hands[0] == 0
    assert points(result(s, 0), "RR-13.4") == 100
    assert points(result(s, 1), "RR-13.4") == 0


def test_edge16_going_out_with_the_kitty_untaken():
    """RR-11.4, RR-11.7, RR-13.5, edge case 16: the player discards their last card (not a seven)
    and chooses 'go out' rather than 'take the kitty'; the 11 kitty cards are deducted."""
    s = build(hands={0: "5", 1: "4 4"}, closed={0: ALL_FOUR}, kitties={0: KITTY, 1: 11})
    s = play(s, "discard 5")
    assert s.phase == "choice"
    s = play(s, "go out")
    assert s.outcome.how == "went_out" and s.outcome.went_out == 0
    r = result(s, 0)
    assert [ln.points for ln in r.lines if "kitty" in ln.label] == [-130]
    assert points(r, "RR-13.4") == 100


def test_edge17_going_out_requires_all_four_types():
    """RR-11.1, RR-5.7, edge case 17: with red, black and wild canastas but no sevens canasta,
    melding down to one card is refused (kitty taken) …"""
    s = build(hands={0: "9 9 9 5", 1: "4 4"}, closed={0: ALL_FOUR[:3]}, kitties={1: 11})
    assert_illegal(s, "meld 9 9 9", "RR-5.7")


def test_edge17_unless_kitty_eligible_with_the_kitty_untaken():
    """RR-11.1, RR-5.7(b), edge case 17: … unless the player is kitty-eligible with an untaken
    kitty: then the last card is discarded into the kitty, which is taken (no going out)."""
    s = build(hands={0: "9 9 9 5", 1: "4 4"}, closed={0: ALL_FOUR[:3]},
              kitties={0: KITTY, 1: 11})
    s = play(s, "meld 9 9 9", "discard 5")
    assert s.outcome is None and s.turn == 1
    assert s.hands[0].bit_count() == 11


def test_edge18_completing_the_fourth_type_while_going_out():
    """RR-11.1, edge case 18: a player adds two sevens to a five-card sevens meld, completing it,
    then melds the rest and discards a non-seven: goes out (canastas completed during the
    going-out turn count)."""
    s = build(players=3, hands={0: "7 7 9 9 9 5", 1: "4 4", 2: "4 4"},
              closed={0: ALL_FOUR[:3]}, melds={0: ["7 7 7 7 7"]}, kitties={1: 11, 2: 11})
    s = play(s, "add 7 7 -> 7", "meld 9 9 9", "discard 5")
    assert s.outcome.how == "went_out" and s.outcome.went_out == 0
    assert s.canasta_types(0) == {"red", "black", "wild", "sevens"}


def test_edge29_going_out_or_the_kitty():
    """RR-11.7, edge case 29: with all four types and an untaken kitty, the player melds down to
    K and discards it: the engine offers exactly 'go out' and 'take the kitty'.  Going out ends
    the hand with the kitty deducted; taking it passes the turn with 11 new cards in hand."""
    s = build(hands={0: "9 9 9 K", 1: "4 4"}, closed={0: ALL_FOUR}, kitties={0: KITTY, 1: 11})
    s = play(s, "meld 9 9 9", "discard K")
    assert s.phase == "choice" and s.to_act == (0,)
    assert legal_texts(s) == {"go out", "kitty"}
    assert_illegal(s, "pass", "RR-11.7")
    assert_illegal(s, "draw", "RR-11.7")
    out = play(s, "go out")
    assert out.outcome.how == "went_out" and out.outcome.went_out == 0
    assert [ln.points for ln in result(out, 0).lines if "kitty" in ln.label] == [-130]
    kit = play(s, "kitty")
    assert kit.outcome is None and kit.turn == 1 and kit.phase == "draw"
    assert kit.hands[0].bit_count() == 11 and (kit.kitty_taken >> 0) & 1


def test_edge31_black_three_meld_then_no_kitty():
    """RR-6.5, RR-11.7, edge case 31: a player who has just made a black-three meld and discarded
    their last card may not take the kitty instead of going out: the discard goes out."""
    s = build(hands={0: "3 3 3 K", 1: "4 4"}, closed={0: ALL_FOUR}, kitties={0: KITTY, 1: 11})
    s = play(s, "meld 3 3 3")
    assert legal_texts(s) == {"discard K"}
    s = play(s, "discard K")
    assert s.outcome is not None and s.outcome.how == "went_out" and s.outcome.went_out == 0
    assert [ln.points for ln in result(s, 0).lines if "kitty" in ln.label] == [-130]


def test_going_out_by_melding_everything_refused():
    """RR-11.2: going out by melding every card with no discard is not allowed."""
    s = build(hands={0: "9 9 9", 1: "4 4"}, closed={0: ALL_FOUR})
    assert_illegal(s, "meld 9 9 9", "RR-5.7")


def test_going_out_is_never_compulsory():
    """RR-11.5: a player who could go out may keep playing: a discard that keeps cards is legal,
    and melding down is never forced."""
    s = build(hands={0: "9 9 9 5 6", 1: "4 4"}, closed={0: ALL_FOUR}, kitties={1: 11})
    assert {"discard 5", "discard 6", "discard 9", "meld 9 9 9"} <= legal_texts(s)
    s = play(s, "discard 5")
    assert s.outcome is None and s.turn == 1


def test_last_card_without_the_types_or_a_kitty_is_kept():
    """RR-11.1, RR-5.7: a player who cannot go out and has no kitty waiting may not discard
    their last card; with no other card the hand ends for want of a legal discard (RR-12.6)."""
    s = build(hands={0: "5 9", 1: "4 4"}, closed={0: ALL_FOUR[:3]}, kitties={1: 11})
    assert legal_texts(s) == {"discard 5", "discard 9"}
    s = play(s, "discard 5")
    assert s.outcome is None


def test_heuristic_sheds_its_hand_once_a_looser_house_rule_lets_it_go_out():
    """Under go_out_requirement=any_two a tester watched the heuristic keep 19 cards to the end
    of the stock with 11 canastas: once the requirement is met (RR-11.1) it melds with its
    wild cards too (9 9 2), where under the rule as written it keeps them for the wild
    canasta."""
    import random

    from meldhall.bots import make_bot

    bot = make_bot("heuristic", "railroad-canasta")
    closed = {0: ["K K K K K K 2", "Q Q Q Q Q Q 2"]}
    loose = build(hands={0: "9 9 2 5 6", 1: "4 4 8"}, closed=closed,
                  options={"go_out_requirement": "any_two"})
    move = bot.choose(loose.observation(0), loose.legal_actions(0), random.Random(0))
    assert "9 9 2" in str(move), move
    strict = build(hands={0: "9 9 2 5 6", 1: "4 4 8"}, closed=closed)
    move = bot.choose(strict.observation(0), strict.legal_actions(0), random.Random(0))
    assert "9 9 2" not in str(move), move
