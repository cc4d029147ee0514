"""The "Configurable house rules" table of the Railroad Canasta spec: validation, defaults, and
one test per row showing its effect.

Effects tested in a rule module are listed in ``OPTION_TESTS``; the others are here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from canasta_position import check_option_tests
from rr_position import (
    assert_illegal, build, legal_texts, offers, play, points, result, rigged_game,
)

import meldhall
from meldhall.errors import OptionsError
from meldhall.games.railroad_canasta import RailroadCanastaOptions, new_game
from meldhall.record import dump_position

ALL_FOUR = ["K K K K K K K", "Q Q Q Q Q Q 2", "2 2 2 2 JK JK JK", "7 7 7 7 7 7 7"]
RED, BLACK, WILD, SEVENS = ALL_FOUR[0], ALL_FOUR[1], ALL_FOUR[2], ALL_FOUR[3]
KITTY = "AS/0 AH/0 KS/1 KH/1 QS/1 QH/1 JS/1 JH/1 10S/1 10H/1 9S/1"

#: Every row of the spec's table (= every field of RailroadCanastaOptions) -> its tests.
OPTION_TESTS = {
    "player_count": ["test_rr04_deal.py::test_two_to_eight_players",
                     "test_rr_options.py::test_option_player_count"],
    "max_players": ["test_rr_options.py::test_option_max_players"],
    "target_score": ["test_rr14_end.py::test_option_target_score"],
    "minimum_count_table": ["test_rr_options.py::test_option_minimum_count_table"],
    "go_out_requirement": ["test_rr_options.py::test_option_go_out_requirement_red_and_black",
                           "test_rr_options.py::test_option_go_out_requirement_any_two",
                           "test_rr_options.py::test_option_go_out_requirement_any_one"],
    "canasta_bonuses": ["test_rr_options.py::test_option_canasta_bonuses"],
    "going_out_bonus": ["test_rr_options.py::test_option_going_out_bonus"],
    "red_three_bonus": ["test_rr_options.py::test_option_red_three_bonus"],
    "red_three_replacement": ["test_rr_options.py::test_option_red_three_replacement_draw",
                              "test_rr_options.py::test_option_red_three_replacement_deal"],
    "kitty_red_three_replacement": [
        "test_rr_options.py::test_option_kitty_red_three_replacement_false"],
    "kitty_red_three_penalty": ["test_rr_options.py::test_option_kitty_red_three_penalty"],
    "allow_empty_hand_into_kitty": [
        "test_rr_options.py::test_option_allow_empty_hand_into_kitty_false",
        "test_rr_options.py::test_option_allow_empty_hand_into_kitty_false_goes_out"],
    "must_take_kitty_before_going_out": [
        "test_rr_options.py::test_option_must_take_kitty_before_going_out",
        "test_rr_options.py::test_option_must_take_kitty_before_going_out_black_threes"],
    "take_with_natural_and_wild": ["test_rr_options.py::test_option_take_with_natural_and_wild"],
    "stock_end_take": ["test_rr12_end_of_hand.py::test_option_stock_end_take_compulsory"],
    "max_wild_in_natural_meld": ["test_rr_options.py::test_option_max_wild_two",
                                 "test_rr_options.py::test_option_max_wild_le_natural"],
    "sevens_lock": ["test_rr_options.py::test_option_sevens_lock_discarding_player",
                    "test_rr_options.py::test_option_sevens_lock_never"],
    "upcard_wild_freezes": ["test_rr04_deal.py::test_edge3_wild_upcard_option_off",
                            "test_rr08_pile.py::test_rr8_9_wild_top_card_never_taken",
                            "test_rr08_pile.py::test_edge32_wild_upcard_and_wild_cards"],
    "tie_rule": ["test_rr14_end.py::test_option_tie_rule_shared"],
    "copy_choice": ["../test_copy_choice.py::test_legacy_copy_choice_only_for_old_documents"],
}


def test_every_option_row_has_a_test():
    """Configurable house rules: every option (= every field of RailroadCanastaOptions) has at
    least one test showing its effect, and those tests exist."""
    check_option_tests(OPTION_TESTS, RailroadCanastaOptions, Path(__file__).parent)


def test_defaults_are_the_spec_defaults():
    """Configurable house rules: the defaults are the table's "Default" column."""
    o = RailroadCanastaOptions()
    assert o.max_players == 8 and o.target_score == 20_000
    assert [o.minimum_count(x) for x in (-1, 0, 5_000, 10_000, 15_000)] == [15, 50, 90, 120, 150]
    assert o.go_out_requirement == "all_four"
    assert [o.bonus(k) for k in ("red", "black", "wild", "sevens")] == [500, 300, 1000, 1500]
    assert o.going_out_bonus == 100 and o.red_three_bonus == 100
    assert o.red_three_replacement is True and o.kitty_red_three_replacement is True
    assert o.kitty_red_three_penalty == 0
    assert o.allow_empty_hand_into_kitty is True
    assert o.must_take_kitty_before_going_out is False
    assert o.take_with_natural_and_wild is False
    assert o.stock_end_take == "voluntary"
    assert o.max_wild_in_natural_meld == 3
    assert o.sevens_lock == "every_player"
    assert o.upcard_wild_freezes is True
    assert o.tie_rule == "play_on"


def test_unknown_option_raises():
    """Configurable house rules: an unknown option is refused with OptionsError."""
    with pytest.raises(OptionsError):
        new_game(players=4, seed=1, options={"kitty_size": 5})
    with pytest.raises(OptionsError):
        meldhall.new_game("railroad-canasta", players=4, options={"no_such_rule": True})


@pytest.mark.parametrize("name, value", [
    ("player_count", 1), ("player_count", 9), ("player_count", "4"), ("player_count", True),
    ("max_players", 1), ("max_players", "8"),
    ("target_score", 0), ("target_score", -5), ("target_score", "20000"), ("target_score", True),
    ("target_score", 1.5),
    ("minimum_count_table", "50"), ("minimum_count_table", [[0]]), ("minimum_count_table", []),
    ("minimum_count_table", [[0, -5]]),
    ("go_out_requirement", "all_three"), ("go_out_requirement", 4),
    ("canasta_bonuses", {"purple": 100}), ("canasta_bonuses", {"red": "500"}),
    ("canasta_bonuses", {"red": True}), ("canasta_bonuses", [500, 300]),
    ("going_out_bonus", "100"), ("going_out_bonus", 1.5), ("going_out_bonus", False),
    ("red_three_bonus", None), ("red_three_bonus", 2.5),
    ("red_three_replacement", 1), ("red_three_replacement", "true"),
    ("kitty_red_three_replacement", None),
    ("kitty_red_three_penalty", 100), ("kitty_red_three_penalty", "-100"),
    ("kitty_red_three_penalty", False),
    ("allow_empty_hand_into_kitty", 0), ("must_take_kitty_before_going_out", "no"),
    ("take_with_natural_and_wild", 1),
    ("stock_end_take", "always"), ("stock_end_take", True),
    ("max_wild_in_natural_meld", 4), ("max_wild_in_natural_meld", 1),
    ("max_wild_in_natural_meld", "wild<=natural"), ("max_wild_in_natural_meld", True),
    ("sevens_lock", "until every player has one"), ("sevens_lock", False),
    ("upcard_wild_freezes", "false"),
    ("tie_rule", "split"),
])
def test_bad_option_values_raise(name, value):
    """Configurable house rules: a value outside the table's alternatives is refused with
    OptionsError (through both entry points)."""
    opts = {name: value}
    if name == "max_players":
        opts["player_count"] = 2
    with pytest.raises(OptionsError):
        new_game(players=None, seed=1, options=opts)
    with pytest.raises(OptionsError):
        meldhall.new_game("railroad-canasta", seed=1, options=opts)


def test_options_round_trip():
    """Configurable house rules: options given as a dict are kept (positions carry them)."""
    opts = {"sevens_lock": "never", "minimum_count_table": [[0, 30], [2000, 100]],
            "canasta_bonuses": {"wild": 2000}, "target_score": 3000}
    s = new_game(players=3, seed=1, options=opts)
    j = s.options.to_json()
    assert j["sevens_lock"] == "never" and j["target_score"] == 3000
    assert RailroadCanastaOptions.from_json(j) == s.options
    assert dump_position(s)["options"] == j


# --------------------------------------------------------------------------- effects


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
def test_option_player_count(players):
    """RR-1.2 option player_count, through the package entry point."""
    s = meldhall.new_game("railroad-canasta", seed=1, options={"player_count": players})
    assert s.players == players and s.pack.size == 106 * players


def test_option_max_players():
    """RR-1.2 option max_players: the largest table is configurable: with max_players = 10 a
    ten-player game (20 decks, 20 jokers) is dealt; with max_players = 3 four players are
    refused."""
    s = new_game(players=10, seed=1, options={"max_players": 10})
    assert s.players == 10 and s.pack.size == 1060
    assert [h.bit_count() for h in s.hands] == [13] * 10
    with pytest.raises(OptionsError):
        new_game(players=4, seed=1, options={"max_players": 3})


def test_option_minimum_count_table():
    """RR-7.1 option minimum_count_table: custom bands replace the default ones."""
    table = [[0, 30], [1000, 200], [-1_000_000, 0]]
    s = build(hands={0: "K K K 9 10", 1: "4 4"}, options={"minimum_count_table": table},
              kitties={1: 11})
    assert s.minimum_for(0) == 30
    play(s, "meld K K K")
    s = build(hands={0: "K K K 9 10", 1: "4 4"}, options={"minimum_count_table": table},
              kitties={1: 11}, scores=[1_500, 0])
    assert_illegal(s, "meld K K K", "RR-7.1")
    s = build(hands={0: "4 4 4 9 10", 1: "4 4"}, options={"minimum_count_table": [[0, 30]]},
              kitties={1: 11}, scores=[-50, 0])
    assert s.minimum_for(0) == 15  # below every band: the RR-7.1 negative minimum


def _go_out(closed, option, players=2):
    return build(players=players, hands={0: "9 9 9 5", 1: "4 4", 2: "4 4"}, closed={0: closed},
                 options={"go_out_requirement": option}, kitties={1: 11, 2: 11})


def test_option_go_out_requirement_red_and_black():
    """RR-11.1 option go_out_requirement = "red_and_black": one natural (red or sevens) and one
    mixed (black) canasta suffice; a wild canasta is not a mixed one (decision: it holds no
    natural card), and two red canastas are not enough."""
    s = play(_go_out([RED, BLACK], "red_and_black"), "meld 9 9 9", "discard 5")
    assert s.outcome.how == "went_out"
    s = play(_go_out(["7 7 7 7 7 7 7", BLACK], "red_and_black"), "meld 9 9 9", "discard 5")
    assert s.outcome.how == "went_out"
    assert_illegal(_go_out([RED, "A A A A A A A"], "red_and_black"), "meld 9 9 9", "RR-5.7")
    assert_illegal(_go_out([RED, WILD], "red_and_black"), "meld 9 9 9", "RR-5.7")
    assert_illegal(_go_out([RED, BLACK], "all_four"), "meld 9 9 9", "RR-5.7")


def test_option_go_out_requirement_any_two():
    """RR-11.1 option go_out_requirement = "any_two": any two canastas."""
    s = play(_go_out([BLACK, "J J J J J 2 2"], "any_two"), "meld 9 9 9", "discard 5")
    assert s.outcome.how == "went_out"
    assert_illegal(_go_out([BLACK], "any_two"), "meld 9 9 9", "RR-5.7")


def test_option_go_out_requirement_any_one():
    """RR-11.1 option go_out_requirement = "any_one": a single canasta of any type."""
    s = play(_go_out([BLACK], "any_one"), "meld 9 9 9", "discard 5")
    assert s.outcome.how == "went_out"
    no_canasta = build(hands={0: "9 9 9 5", 1: "4 4"}, melds={0: ["5 5 5"]},
                       options={"go_out_requirement": "any_one"}, kitties={1: 11})
    assert_illegal(no_canasta, "meld 9 9 9", "RR-5.7")


def _stock_end(**kw):
    return build(stock="", pile="JK", pile_frozen=True, phase="draw", fill="pile", **kw)


def test_option_canasta_bonuses():
    """RR-13.2 option canasta_bonuses: custom bonuses per type (unnamed types keep theirs)."""
    s = _stock_end(hands={0: "4", 1: "4"}, closed={0: ALL_FOUR},
                   options={"canasta_bonuses": {"wild": 2000, "red": 100}})
    s = play(s, "pass")
    assert points(result(s, 0), "RR-13.2") == 100 + 300 + 2000 + 1500


def test_option_going_out_bonus():
    """RR-13.4 option going_out_bonus: custom points for going out."""
    s = build(hands={0: "9 9 9 5", 1: "4 4"}, closed={0: ALL_FOUR}, kitties={1: 11},
              options={"going_out_bonus": 250})
    s = play(s, "meld 9 9 9", "discard 5")
    assert points(result(s, 0), "RR-13.4") == 250


def test_option_red_three_bonus():
    """RR-13.3 option red_three_bonus: custom points per placed red three."""
    s = _stock_end(hands={0: "4", 1: "4"}, red_threes={0: 3}, options={"red_three_bonus": 50})
    s = play(s, "pass")
    assert points(result(s, 0), "RR-13.3") == 150


def test_option_red_three_replacement_draw():
    """RR-5.3 option red_three_replacement = false: a drawn red three is placed and not
    replaced (3♥ and K drawn: the hand gains only the K)."""
    s = build(hands={0: "9"}, stock="3H/0 KS/0 QS/0", phase="draw",
              options={"red_three_replacement": False})
    s = play(s, "draw")
    d = dump_position(s)
    assert d["red_threes"][0] == ["3H/0"]
    assert sorted(d["hands"][0]) == ["9S/0", "KS/0"]
    assert d["stock"][0] == "QS/0"


def test_option_red_three_replacement_deal(monkeypatch):
    """RR-4.9 option red_three_replacement = false: dealt red threes are placed and not
    replaced."""
    s = rigged_game(monkeypatch, players=2, dealer=1, hands={0: "3H/0 3D/0"}, upcards="9C/0",
                    stock="KD/0", options={"red_three_replacement": False})
    d = dump_position(s)
    assert sorted(d["red_threes"][0]) == ["3D/0", "3H/0"]
    assert len(d["hands"][0]) == 11 and d["stock"][0] == "KD/0"


def test_option_kitty_red_three_replacement_false():
    """RR-10.4 option kitty_red_three_replacement = false: red threes in a taken kitty are placed
    and not replaced."""
    kitty = "3H/0 3D/0 KS/1 KH/1 QS/1 QH/1 JS/1 JH/1 10S/1 10H/1 9S/1"
    s = build(hands={0: "5 6", 1: "4 4"}, closed={0: [RED]}, kitties={0: kitty, 1: 11},
              stock="AS/0 AH/0", options={"kitty_red_three_replacement": False})
    s = play(s, "discard 5", "kitty")
    d = dump_position(s)
    assert sorted(d["red_threes"][0]) == ["3D/0", "3H/0"]
    assert len(d["hands"][0]) == 1 + 9 and d["stock"][0] == "AS/0"


def test_option_kitty_red_three_penalty():
    """RR-9.3, RR-13.5 option kitty_red_three_penalty = −100: each red three left in an untaken
    kitty costs 100."""
    s = _stock_end(hands={0: "4", 1: "4"}, kitties={0: "3H 3D K"}, kitty_taken=[1],
                   options={"kitty_red_three_penalty": -100})
    s = play(s, "pass")
    assert points(result(s, 0), "RR-13.5") == -5 - (100 + 100 + 10)
    s = _stock_end(hands={0: "4", 1: "4"}, kitties={0: "3H 3D K"}, kitty_taken=[1])
    s = play(s, "pass")
    assert points(result(s, 0), "RR-13.5") == -5 - 10


def test_option_allow_empty_hand_into_kitty_false():
    """RR-5.7, RR-11.7 option allow_empty_hand_into_kitty = false: an eligible player with the
    kitty waiting must still keep a card after discarding."""
    opts = {"allow_empty_hand_into_kitty": False}
    s = build(hands={0: "9 9 9 5", 1: "4 4"}, closed={0: [RED]}, kitties={0: KITTY, 1: 11},
              options=opts)
    assert_illegal(s, "meld 9 9 9", "RR-5.7")
    t = build(hands={0: "5", 1: "4 4"}, closed={0: [RED]}, kitties={0: KITTY, 1: 11},
              options=opts)
    assert_illegal(t, "discard 5", "RR-5.7")
    # discarding with cards left, the kitty may still be taken after the discard (RR-10.3)
    u = build(hands={0: "5 6", 1: "4 4"}, closed={0: [RED]}, kitties={0: KITTY, 1: 11},
              options=opts)
    u = play(u, "discard 5")
    assert legal_texts(u) == {"kitty", "pass"}


def test_option_allow_empty_hand_into_kitty_false_goes_out():
    """RR-11.7 option allow_empty_hand_into_kitty = false: with all four types and the kitty
    untaken, the last discard goes out ("take the kitty" is not offered)."""
    s = build(hands={0: "5", 1: "4 4"}, closed={0: ALL_FOUR}, kitties={0: KITTY, 1: 11},
              options={"allow_empty_hand_into_kitty": False})
    s = play(s, "discard 5")
    assert s.outcome.how == "went_out" and s.outcome.went_out == 0


def test_option_must_take_kitty_before_going_out():
    """RR-11.4, RR-11.7 option must_take_kitty_before_going_out = true: with the kitty untaken
    "go out" is not offered; the last discard takes the kitty."""
    s = build(hands={0: "5", 1: "4 4"}, closed={0: ALL_FOUR}, kitties={0: KITTY, 1: 11},
              options={"must_take_kitty_before_going_out": True})
    s = play(s, "discard 5")
    assert s.outcome is None and s.turn == 1 and s.hands[0].bit_count() == 11


def test_option_must_take_kitty_before_going_out_black_threes():
    """RR-6.5 option must_take_kitty_before_going_out = true: the black-three meld needs the
    kitty taken; once it is, the player goes out as usual."""
    opts = {"must_take_kitty_before_going_out": True}
    s = build(hands={0: "3 3 3 5", 1: "4 4"}, closed={0: ALL_FOUR}, kitties={0: KITTY, 1: 11},
              options=opts)
    assert_illegal(s, "meld 3 3 3", "RR-6.5")
    s = build(hands={0: "3 3 3 5", 1: "4 4"}, closed={0: ALL_FOUR}, kitties={1: 11},
              options=opts)
    s = play(s, "meld 3 3 3", "discard 5")
    assert s.outcome.how == "went_out"


def test_option_take_with_natural_and_wild():
    """RR-8.7 option take_with_natural_and_wild = true: an unfrozen pile may be taken with a
    natural and a wild card from hand; a frozen pile still needs a natural pair."""
    opts = {"take_with_natural_and_wild": True}
    s = build(hands={0: "9 2 K Q", 1: "4 4"}, melds={0: ["5 5 5"]}, pile="4 9", phase="draw",
              options=opts, kitties={1: 11})
    assert offers(s, "take 9 2")
    s = play(s, "take 9 2")
    assert s.melds[0][9].size == 3 and s.melds[0][9].twos == 1
    t = build(hands={0: "9 2 K Q", 1: "4 4"}, melds={0: ["5 5 5"]}, pile="4 9", phase="draw",
              options=opts, kitties={1: 11}, pile_frozen=True)
    assert_illegal(t, "take 9 2", "RR-8.7")
    # never a wild card with sevens (RR-6.3), whether the take starts a meld or adds to one
    for melds in (["5 5 5"], ["5 5 5", "7 7 7"]):
        u = build(hands={0: "7 2 K Q", 1: "4 4"}, melds={0: melds}, pile="4 7", phase="draw",
                  options={**opts, "sevens_lock": "never"}, kitties={1: 11})
        assert_illegal(u, "take 7 2", "RR-6.3")


def test_option_max_wild_two():
    """RR-6.2 option max_wild_in_natural_meld = 2: at most two wild cards in a natural meld."""
    opts = {"max_wild_in_natural_meld": 2}
    s = build(hands={0: "Q Q 2 2 JK 9 10", 1: "4 4"}, melds={0: ["5 5 5"]}, options=opts)
    assert_illegal(s, "meld Q Q 2 2 JK", "RR-6.2")
    s = play(s, "meld Q Q 2 2")
    assert_illegal(s, "add JK -> Q", "RR-6.2")


def test_option_max_wild_le_natural():
    """RR-6.2 option max_wild_in_natural_meld = "wild ≤ natural": wild cards may not outnumber
    natural cards (and never exceed three)."""
    opts = {"max_wild_in_natural_meld": "wild_le_natural"}
    s = build(hands={0: "Q Q Q 2 2 2 JK 9 10", 1: "4 4"}, melds={0: ["5 5 5"]}, options=opts)
    assert_illegal(s, "meld Q Q 2 2 JK", "RR-6.2")
    assert_illegal(s, "meld Q Q Q 2 2 2 JK", "RR-6.2")
    s = play(s, "meld Q Q 2 2")
    assert_illegal(s, "add 2 -> Q", "RR-6.2")
    s = play(s, "add Q 2 -> Q")
    assert s.melds[0][12].size == 6


def test_option_sevens_lock_discarding_player():
    """RR-9.6, RR-12.4 option sevens_lock = "until the discarding player has one": a player with
    their own sevens canasta may discard sevens although an opponent has none."""
    opts = {"sevens_lock": "discarding_player"}
    s = build(hands={0: "7 7 K", 1: "4 4 7"}, closed={0: [SEVENS]}, options=opts,
              kitties={1: 11})
    s = play(s, "discard 7")
    s = play(s, "draw")
    assert_illegal(s, "discard 7", "RR-9.6")  # seat 1 has no sevens canasta


def test_option_sevens_lock_never():
    """RR-9.6, RR-12.4 option sevens_lock = "never": sevens may always be discarded (never to go
    out, RR-9.7), and a hand of sevens is no lock ending."""
    opts = {"sevens_lock": "never"}
    s = build(hands={0: "7 7 K", 1: "4 4"}, options=opts, kitties={1: 11})
    play(s, "discard 7")
    t = build(hands={0: "7 7", 1: "4 4"}, melds={0: ["5 5 5"]}, stock="7 7", phase="draw",
              options=opts, kitties={1: 11})
    t = play(t, "draw")
    assert t.outcome is None and "discard 7" in legal_texts(t)
    u = build(hands={0: "7", 1: "4 4"}, closed={0: ALL_FOUR}, options=opts, kitties={1: 11})
    assert_illegal(u, "discard 7", "RR-9.7")
