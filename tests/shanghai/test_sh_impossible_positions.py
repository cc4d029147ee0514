"""Shanghai positions the rules cannot reach are refused with the field and the rule: a seat
has made the contract exactly when it owns melds (SH-8.1, SH-8.6)."""

from __future__ import annotations

import pytest

import meldhall
from meldhall.errors import RecordError
from meldhall.record import dump_position, load_position


def _fresh():
    return dump_position(meldhall.new_game("shanghai-rummy", players=4, seed=2))


def _refused(doc, *words):
    with pytest.raises(RecordError) as exc:
        load_position(doc)
    for w in words:
        assert w in str(exc.value), str(exc.value)


def _two_sets(doc, owner):
    """Contract 1 (two sets of three) for ``owner`` from stock cards."""
    melds = []
    ranks = [r for r in ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
             if sum(1 for c in doc["stock"] if c.split("/")[0][:-1] == r) >= 3][:2]
    for rank in ranks:
        got = [c for c in doc["stock"] if c.split("/")[0][:-1] == rank][:3]
        for c in got:
            doc["stock"].remove(c)
        melds.append({"owner": owner, "kind": "set", "cards": got})
    doc["melds"] = melds


def test_sh8_1_made_without_melds():
    """SH-8.1: a position with made without melds is refused (or loads, when allowed)."""
    doc = _fresh()
    doc["made"] = [1]
    _refused(doc, "made", "seat 1", "SH-8.1")


def test_sh8_6_melds_without_made():
    """SH-8.6: a position with melds without made is refused (or loads, when allowed)."""
    doc = _fresh()
    _two_sets(doc, 2)
    doc["made"] = []
    _refused(doc, "made", "seat 2", "SH-8.6")
    del doc["made"]  # omitted: derived from the melds' owners
    assert load_position(doc).made == 1 << 2


def test_sh8_1_melds_that_are_not_the_contract():
    """SH-8.1: a position with melds that are not the contract is refused (or loads, when allowed)."""
    doc = _fresh()
    _two_sets(doc, 2)
    doc["stock"] += doc["melds"].pop()["cards"]
    doc["made"] = [2]
    _refused(doc, "melds", "seat 2", "SH-8.1")
