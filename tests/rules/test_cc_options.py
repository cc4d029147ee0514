"""The "Configurable house rules" table: validation, defaults, and that every row is tested.

Each option's effect is tested in the module of the rule it changes, in a test named
``test_option_<name>…`` (see ``OPTION_TESTS`` below, which this module checks).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from canasta_position import check_option_tests

import meldhall
from meldhall.errors import OptionsError
from meldhall.games.classic_canasta import ClassicCanastaOptions, new_game

#: Every row of the spec's table -> the tests showing its effect.
OPTION_TESTS = {
    "player_count": ["test_cc14_variants.py::test_option_player_count_six_alternate_partnerships",
                     "test_cc_options.py::test_option_player_count"],
    "wild_ratio": ["test_cc06_melds.py::test_wild_ratio_pagat",
                   "test_cc06_melds.py::test_wild_ratio_applies_to_additions"],
    "hidden_canasta_bonus": ["test_cc12_scoring.py::test_option_hidden_canasta_bonus_zero"],
    "black_three_upcard": ["test_cc04_deal.py::test_option_black_three_upcard_leave",
                           "test_cc04_deal.py::test_option_black_three_upcard_leave_stops_a_cover"],
    "red_three_upcard_freezes": ["test_cc04_deal.py::test_option_red_three_upcard_freezes_false"],
    "unfrozen_take_with_wild": ["test_cc08_pile.py::test_option_unfrozen_take_with_wild_false"],
    "frozen_until_side_melds": ["test_cc08_pile.py::test_option_frozen_until_side_melds_false"],
    "single_card_pile_restriction": [
        "test_cc08_pile.py::test_option_single_card_pile_restriction_false"],
    "last_red_three": ["test_cc11_end_of_hand.py::test_option_last_red_three_may_meld_first"],
    "stock_end_forced_take": ["test_cc11_end_of_hand.py::test_option_stock_end_forced_take_false"],
    "concealed_bonus": ["test_cc12_scoring.py::test_option_concealed_bonus"],
    "concealed_exempt_from_minimum": [
        "test_cc07_minimum.py::test_option_concealed_exempt_from_minimum_false"],
    "partner_permission": ["test_cc10_going_out.py::test_option_partner_permission_disabled",
                           "test_cc10_going_out.py::test_option_partner_permission_compulsory"],
    "canastas_to_go_out": ["test_cc10_going_out.py::test_option_canastas_to_go_out"],
    "minimum_count_table": ["test_cc07_minimum.py::test_option_minimum_count_table"],
    "six_player_150_threshold": ["test_cc07_minimum.py::test_option_six_player_150_threshold"],
    "target_score": ["test_cc13_end_of_game.py::test_option_target_score"],
    "tie_rule": ["test_cc13_end_of_game.py::test_option_tie_rule_shared"],
    "copy_choice": ["../test_copy_choice.py::test_legacy_copy_choice_only_for_old_documents"],
    "three_player_mode": [
        "test_cc14_variants.py::test_option_three_player_mode_cutthroat_parameters",
        "test_cc14_variants.py::test_cutthroat_first_taker_plays_alone"],
    "two_player_stock_draw": ["test_cc14_variants.py::test_option_two_player_stock_draw_one"],
}


def test_every_option_row_has_a_test():
    """Configurable house rules: every option of the table (= every field of
    ClassicCanastaOptions) has at least one test showing its effect, and those tests exist."""
    check_option_tests(OPTION_TESTS, ClassicCanastaOptions, Path(__file__).parent)


def test_defaults_are_the_spec_defaults():
    """Configurable house rules: the defaults are the table's "Default" column."""
    o = ClassicCanastaOptions()
    assert o.player_count == 4
    assert o.wild_ratio == "seed"
    assert o.hidden_canasta_bonus == 100
    assert o.black_three_upcard == "cover"
    assert o.red_three_upcard_freezes is True
    assert o.unfrozen_take_with_wild is True
    assert o.frozen_until_side_melds is True
    assert o.single_card_pile_restriction is True
    assert o.last_red_three == "end_immediately"
    assert o.stock_end_forced_take is True
    assert o.concealed_bonus == 200
    assert o.concealed_exempt_from_minimum is True
    assert o.partner_permission == "optional"
    assert o.required_canastas == 1
    assert [o.minimum_count(x) for x in (-5, 0, 1500, 3000)] == [15, 50, 90, 120]
    assert o.six_player_150_threshold == 7500
    assert o.target == 5000
    assert o.tie_rule == "play_on"
    assert o.three_player_mode == "individual"
    assert o.two_player_stock_draw == 2
    six = ClassicCanastaOptions(player_count=6)
    assert six.target == 10000 and six.required_canastas == 2
    assert six.minimum_count(7500) == 150
    assert ClassicCanastaOptions(player_count=2).required_canastas == 2
    assert ClassicCanastaOptions(player_count=3).required_canastas == 1


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_option_player_count(players):
    """CC-1.1, CC-14.1 option player_count: 2, 3, 4 or 6, through the package entry point."""
    s = meldhall.new_game("classic-canasta", players=players, seed=1)
    assert s.players == players
    s = meldhall.new_game("classic-canasta", seed=1, options={"player_count": players})
    assert s.players == players


def test_unknown_option_raises():
    """Configurable house rules: an unknown option is refused with OptionsError."""
    with pytest.raises(OptionsError):
        new_game(players=4, seed=1, options={"wild_ration": "pagat"})
    with pytest.raises(OptionsError):
        meldhall.new_game("classic-canasta", players=4, options={"no_such_rule": True})


@pytest.mark.parametrize("name, value", [
    ("player_count", 5),
    ("player_count", 1),
    ("wild_ratio", "hoyle"),
    ("hidden_canasta_bonus", -100),
    ("hidden_canasta_bonus", "100"),
    ("black_three_upcard", "bury"),
    ("red_three_upcard_freezes", "yes"),
    ("unfrozen_take_with_wild", 1),
    ("frozen_until_side_melds", None),
    ("single_card_pile_restriction", "false"),
    ("last_red_three", "meld"),
    ("stock_end_forced_take", 0),
    ("concealed_bonus", -1),
    ("concealed_exempt_from_minimum", "true"),
    ("partner_permission", "always"),
    ("canastas_to_go_out", 0),
    ("canastas_to_go_out", -1),
    ("canastas_to_go_out", 1.5),
    ("minimum_count_table", [[0]]),
    ("minimum_count_table", "50"),
    ("minimum_count_table", []),
    ("minimum_count_table", [[0, -5]]),
    ("six_player_150_threshold", -7500),
    ("target_score", 0),
    ("target_score", "5000"),
    ("tie_rule", "coin"),
    ("three_player_mode", "solo"),
    ("two_player_stock_draw", 3),
    ("two_player_stock_draw", 0),
])
def test_bad_option_values_raise(name, value):
    """Configurable house rules: a value outside the table's alternatives is refused with
    OptionsError."""
    with pytest.raises(OptionsError):
        new_game(players=None, seed=1, options={name: value})


def test_cutthroat_needs_three_players():
    """CC-14.1: three_player_mode="cutthroat" is a three-player mode."""
    with pytest.raises(OptionsError):
        new_game(players=4, seed=1, options={"three_player_mode": "cutthroat"})
    new_game(players=3, seed=1, options={"three_player_mode": "cutthroat"})


def test_options_round_trip():
    """Configurable house rules: options given as a dict are kept (positions and records carry
    them)."""
    opts = {"wild_ratio": "pagat", "minimum_count_table": [[0, 30], [2000, 100]],
            "target_score": 3000}
    s = new_game(players=4, seed=1, options=opts)
    j = s.options.to_json()
    assert j["wild_ratio"] == "pagat" and j["target_score"] == 3000
    assert ClassicCanastaOptions.from_json(j) == s.options
