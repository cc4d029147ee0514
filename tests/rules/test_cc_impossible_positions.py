"""Classic Canasta positions the rules cannot reach are refused with the field and the rule
(meldhall.record.load_position; docs/positions.md, "What a position must satisfy")."""

from __future__ import annotations

import copy

import pytest

import meldhall
from meldhall.errors import RecordError
from meldhall.record import dump_position, load_position


def _fresh(players=4, seed=3, **opts):
    return dump_position(meldhall.new_game("classic-canasta", players=players, seed=seed,
                                           options=opts or None))


def _move(doc, card, src, dst):
    """Move ``card`` from list ``src`` to list ``dst`` of ``doc`` (lists, not names)."""
    src.remove(card)
    dst.append(card)


def _find(doc, pred):
    """A stock card matching ``pred`` (its text, e.g. 'JK/0')."""
    return next(c for c in doc["stock"] if pred(c))


def _refused(doc, *words):
    with pytest.raises(RecordError) as exc:
        load_position(doc)
    for w in words:
        assert w in str(exc.value), str(exc.value)


def test_cc8_3_joker_in_the_pile_freezes_it():
    """CC-8.3: a position with joker in the pile freezes it is refused (or loads, when allowed)."""
    doc = _fresh()
    jk = _find(doc, lambda c: c.startswith("JK"))
    doc["stock"].remove(jk)
    doc["pile"].insert(0, jk)
    doc["pile_frozen"] = False
    _refused(doc, "pile_frozen", "joker", "CC-8.3")
    del doc["pile_frozen"]  # omitted: derived from the cards
    assert load_position(doc).pile_frozen is True


def test_cc8_3_two_in_the_pile_freezes_it():
    """CC-8.3: a position with two in the pile freezes it is refused (or loads, when allowed)."""
    doc = _fresh()
    two = _find(doc, lambda c: c.startswith("2"))
    doc["stock"].remove(two)
    doc["pile"].insert(0, two)
    doc["pile_frozen"] = False
    _refused(doc, "pile_frozen", "two", "CC-8.3")


def test_cc8_3_pile_without_wild_card_is_not_frozen():
    """CC-8.3: a position with pile without wild card is not frozen is refused (or loads, when allowed)."""
    doc = _fresh()
    assert not any(c[:2] in ("JK", "2S", "2H", "2D", "2C", "3H", "3D") for c in doc["pile"])
    doc["pile_frozen"] = True
    _refused(doc, "pile_frozen", "not frozen", "CC-8.3")


def test_cc9_1_red_three_in_a_hand():
    """CC-9.1: a position with red three in a hand is refused (or loads, when allowed)."""
    doc = _fresh()
    r3 = _find(doc, lambda c: c[:2] in ("3H", "3D"))
    doc["stock"].remove(r3)
    doc["hands"][0].append(r3)
    doc["stock"].append(doc["hands"][0].pop(0))
    _refused(doc, "hands", "red three", "CC-9.1")


def _with_meld(doc, cards, side=0, creator=0):
    for c in cards:
        doc["stock"].remove(c)
    doc["melds"][side].append({"rank": "5", "cards": cards, "hidden": False, "creator": creator})
    doc["seats_melded"] = [creator]
    return doc


def _cards(doc, prefix, n):
    """``n`` stock cards whose rank is ``prefix`` ("5", "JK"; "W" for any wild card)."""
    def rank(c):
        body = c.split("/")[0]
        return "JK" if body == "JK" else body[:-1]
    got = [c for c in doc["stock"]
           if rank(c) == prefix or prefix == "W" and rank(c) in ("JK", "2")][:n]
    assert len(got) == n
    return got


def test_cc6_2_meld_5_2_2():
    """CC-6.2: a position with meld 5 2 2 is refused (or loads, when allowed)."""
    doc = _fresh()
    _with_meld(doc, _cards(doc, "5", 1) + _cards(doc, "W", 2))
    _refused(doc, "melds", "side 0", "CC-6.2")


def test_cc6_1_meld_of_mixed_ranks():
    """CC-6.1: a position with meld of mixed ranks is refused (or loads, when allowed)."""
    doc = _fresh()
    _with_meld(doc, _cards(doc, "5", 2) + _cards(doc, "6", 1))
    _refused(doc, "melds", "another rank", "CC-6.1")


def test_cc6_2_seed_ratio_three_wild_on_two_naturals():
    """CC-6.2: a position with seed ratio three wild on two naturals is refused (or loads, when allowed)."""
    doc = _fresh()
    _with_meld(doc, _cards(doc, "5", 2) + _cards(doc, "W", 3))
    _refused(doc, "melds", "CC-6.2")
    doc2 = _fresh(wild_ratio="pagat")
    _with_meld(doc2, _cards(doc2, "5", 2) + _cards(doc2, "W", 3))
    load_position(doc2)  # 2 naturals + 3 wild cards is a Pagat meld


def test_cc8_4_melds_with_seats_melded_empty():
    """CC-8.4: a position with melds with seats melded empty is refused (or loads, when allowed)."""
    doc = _fresh()
    _with_meld(doc, _cards(doc, "5", 3))
    doc["seats_melded"] = []
    _refused(doc, "seats_melded", "side 0", "CC-8.4")
    del doc["seats_melded"]  # omitted: derived from the melds' creators
    assert load_position(doc).seat_melded == 1


def test_cc8_4_seat_melded_without_melds():
    """CC-8.4: a position with seat melded without melds is refused (or loads, when allowed)."""
    doc = _fresh()
    doc["seats_melded"] = [1]
    _refused(doc, "seats_melded", "seat 1", "CC-8.4")


def test_cc4_4_hand_of_51_cards():
    """CC-4.4: a position with hand of 51 cards is refused (or loads, when allowed)."""
    doc = _fresh()
    for c in [c for c in doc["stock"] if c[:2] not in ("3H", "3D")][:40]:
        doc["stock"].remove(c)
        doc["hands"][0].append(c)
    _refused(doc, "hands", "seat 0", "51", "CC-4.4")


def test_cc4_6_stock_larger_than_the_deal_leaves():
    """CC-4.6: a position with stock larger than the deal leaves is refused (or loads, when allowed)."""
    doc = _fresh()
    for h in doc["hands"]:
        doc["stock"] += h[:5]
        del h[:5]
    _refused(doc, "stock", "CC-4.6")


def test_cc14_1_cutthroat_merged_meld_past_the_wild_limit_loads():
    """The partners' melds of a rank merge when the sides form (CC-14.1) and may exceed three
    wild cards; the same meld on a lone side is refused."""
    doc = _fresh(players=3, three_player_mode="cutthroat")
    cards = _cards(doc, "5", 4) + _cards(doc, "W", 4)
    for c in cards:
        doc["stock"].remove(c)
    doc["melds"][1] = [{"rank": "5", "cards": cards, "hidden": False, "creator": 1}]
    doc["side_of"] = [0, 1, 1]
    doc["first_taker"] = 0
    doc["seats_melded"] = [1, 2]
    load_position(doc)
    doc["side_of"], doc["first_taker"], doc["seats_melded"] = [0, 1, 2], None, [1]
    _refused(doc, "melds", "CC-6.2")


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
