"""Classic Canasta positions the rules cannot reach are refused with the field and the rule
(meldhall.record.load_position; docs/positions.md, "What a position must satisfy")."""

from __future__ import annotations

import copy

import pytest
from canasta_position import red_three_into_hand, refused, stock_cards, stock_into_hand
import meldhall
from meldhall.record import dump_position, load_position


def _fresh(players=4, seed=3, **opts):
    return dump_position(meldhall.new_game("classic-canasta", players=players, seed=seed,
                                           options=opts or None))


def _find(doc, pred):
    """A stock card matching ``pred`` (its text, e.g. 'JK/0')."""
    return next(c for c in doc["stock"] if pred(c))


def test_cc8_3_joker_in_the_pile_freezes_it():
    """CC-8.3: a position with joker in the pile freezes it is refused (or loads, when allowed)."""
    doc = _fresh()
    jk = _find(doc, lambda c: c.startswith("JK"))
    doc["stock"].remove(jk)
    doc["pile"].insert(0, jk)
    doc["pile_frozen"] = False
    refused(doc, "pile_frozen", "joker", "CC-8.3")
    del doc["pile_frozen"]  # omitted: derived from the cards
    assert load_position(doc).pile_frozen is True


def test_cc8_3_two_in_the_pile_freezes_it():
    """CC-8.3: a position with two in the pile freezes it is refused (or loads, when allowed)."""
    doc = _fresh()
    two = _find(doc, lambda c: c.startswith("2"))
    doc["stock"].remove(two)
    doc["pile"].insert(0, two)
    doc["pile_frozen"] = False
    refused(doc, "pile_frozen", "two", "CC-8.3")


def test_cc8_3_pile_without_wild_card_is_not_frozen():
    """CC-8.3: a position with pile without wild card is not frozen is refused (or loads, when allowed)."""
    doc = _fresh()
    assert not any(c[:2] in ("JK", "2S", "2H", "2D", "2C", "3H", "3D") for c in doc["pile"])
    doc["pile_frozen"] = True
    refused(doc, "pile_frozen", "not frozen", "CC-8.3")


def test_cc9_1_red_three_in_a_hand():
    """CC-9.1: a position with red three in a hand is refused (or loads, when allowed)."""
    doc = _fresh()
    red_three_into_hand(doc)
    refused(doc, "hands", "red three", "CC-9.1")


def _with_meld(doc, cards, side=0, creator=0):
    for c in cards:
        doc["stock"].remove(c)
    doc["melds"][side].append({"rank": "5", "cards": cards, "hidden": False, "creator": creator})
    doc["seats_melded"] = [creator]
    return doc


@pytest.mark.parametrize("cards, words", [
    ([("5", 1), ("W", 2)], ("melds", "side 0", "CC-6.2")),
    ([("5", 2), ("6", 1)], ("melds", "another rank", "CC-6.1")),
], ids=["cc6_2_meld_5_2_2", "cc6_1_meld_of_mixed_ranks"])
def test_cc6_1_cc6_2_invalid_melds(cards, words):
    """CC-6.2, CC-6.1: a position with meld 5 2 2, or with a meld of mixed ranks, is refused."""
    doc = _fresh()
    _with_meld(doc, [c for rank, n in cards for c in stock_cards(doc, rank, n)])
    refused(doc, *words)


def test_cc6_2_seed_ratio_three_wild_on_two_naturals():
    """CC-6.2: a position with seed ratio three wild on two naturals is refused (or loads, when allowed)."""
    doc = _fresh()
    _with_meld(doc, stock_cards(doc, "5", 2) + stock_cards(doc, "W", 3))
    refused(doc, "melds", "CC-6.2")
    doc2 = _fresh(wild_ratio="pagat")
    _with_meld(doc2, stock_cards(doc2, "5", 2) + stock_cards(doc2, "W", 3))
    load_position(doc2)  # 2 naturals + 3 wild cards is a Pagat meld


def test_cc8_4_melds_with_seats_melded_empty():
    """CC-8.4: a position with melds with seats melded empty is refused (or loads, when allowed)."""
    doc = _fresh()
    _with_meld(doc, stock_cards(doc, "5", 3))
    doc["seats_melded"] = []
    refused(doc, "seats_melded", "side 0", "CC-8.4")
    del doc["seats_melded"]  # omitted: derived from the melds' creators
    assert load_position(doc).seat_melded == 1


def test_cc8_4_seat_melded_without_melds():
    """CC-8.4: a position with seat melded without melds is refused (or loads, when allowed)."""
    doc = _fresh()
    doc["seats_melded"] = [1]
    refused(doc, "seats_melded", "seat 1", "CC-8.4")


def test_cc4_4_hand_of_51_cards():
    """CC-4.4: a position with hand of 51 cards is refused (or loads, when allowed)."""
    doc = _fresh()
    stock_into_hand(doc, 40)
    refused(doc, "hands", "seat 0", "51", "CC-4.4")


def test_cc4_6_stock_larger_than_the_deal_leaves():
    """CC-4.6: a position with stock larger than the deal leaves is refused (or loads, when allowed)."""
    doc = _fresh()
    for h in doc["hands"]:
        doc["stock"] += h[:5]
        del h[:5]
    refused(doc, "stock", "CC-4.6")


def test_cc14_1_cutthroat_merged_meld_past_the_wild_limit_loads():
    """The partners' melds of a rank merge when the sides form (CC-14.1) and may exceed three
    wild cards; the same meld on a lone side is refused."""
    doc = _fresh(players=3, three_player_mode="cutthroat")
    cards = stock_cards(doc, "5", 4) + stock_cards(doc, "W", 4)
    for c in cards:
        doc["stock"].remove(c)
    doc["melds"][1] = [{"rank": "5", "cards": cards, "hidden": False, "creator": 1}]
    doc["side_of"] = [0, 1, 1]
    doc["first_taker"] = 0
    doc["seats_melded"] = [1, 2]
    load_position(doc)
    doc["side_of"], doc["first_taker"], doc["seats_melded"] = [0, 1, 2], None, [1]
    refused(doc, "melds", "CC-6.2")


def test_random_play_positions_load():
    """Every position of a random game loads back equal (CC-4.4, CC-6.2, CC-8.3 hold in
    play; the property tests do more)."""
    import random

    for players in (2, 3, 4, 6):
        s = meldhall.new_game("classic-canasta", players=players, seed=players)
        rng = random.Random(players)
        for _ in range(300):
            if s.is_terminal:
                break
            assert load_position(copy.deepcopy(dump_position(s))) == s
            s = s.apply(rng.choice(s.legal_actions()))
