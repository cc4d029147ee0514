"""Shanghai Rummy positions and records (meldhall.record): round trips and corruption."""

from __future__ import annotations

import copy
import json

import pytest
from sh_position import build, play

import meldhall
from meldhall.errors import RecordError
from meldhall.record import Record, dump_position, dump_record, load_position, load_record


def _doc():
    st = build(hands={0: "9S 4S 2C", 1: "KD"}, melds=[(1, "5S 6S JK=7S 8S"), (1, "QH QD QC")],
               made=[0, 1], buys=[1, 0, 0, 0])
    return st, dump_position(st)


def test_position_round_trip():
    """dump → load → dump is the identity, and the loaded state equals the original."""
    st, doc = _doc()
    # a scenario (build) is not a position the rules reach: load it as one
    again = load_position(json.loads(json.dumps(doc)), check_rules=False)
    assert dump_position(again) == doc and again == st
    assert doc["melds"][0]["cards"][2].startswith("JK/0=7S")


@pytest.mark.parametrize("corrupt", [
    lambda d: d["hands"][0].append(d["stock"][0]),              # a card twice
    lambda d: d["stock"].pop(),                                  # a card missing
    lambda d: d["hands"][0].append("ZZ/0"),                      # not a card
    lambda d: d["hands"][0].append("7H"),                        # no copy index
    lambda d: d["melds"][0]["cards"].__setitem__(2, "JK/0"),     # joker without declaration
    lambda d: d["melds"][1]["cards"].__setitem__(0, d["melds"][0]["cards"][0]),  # bad set
    lambda d: d.__setitem__("phase", "sleeping"),
    lambda d: d.__setitem__("turn", 9),
    lambda d: d.__setitem__("hands", d["hands"][:3]),
    lambda d: d["turn_state"].__setitem__("buy_queue", []) or d.__setitem__("phase", "buy"),
    lambda d: d.__setitem__("phase", "deal_end"),
])
def test_corrupt_positions_raise_record_error(corrupt):
    """Every card exactly once, legal melds, consistent fields — else RecordError."""
    _, doc = _doc()
    bad = copy.deepcopy(doc)
    corrupt(bad)
    with pytest.raises(RecordError):
        load_position(bad)


def test_record_round_trip_and_replay():
    """A record replays to the identical state (seed, options, dealer, actions)."""
    import random

    rng = random.Random(2)
    st = meldhall.new_game("shanghai-rummy", players=5, seed=12, options={"deals": 7})
    for _ in range(600):
        legal = st.legal_actions()
        st = st.apply(rng.choice(legal))
        if st.is_terminal:
            break
    rec = Record.from_state(st, st.first_dealer, seats=["a", "b", "c", "d", "e"])
    assert rec.game == "shanghai-rummy" and rec.options["deals"] == 7
    loaded = load_record(dump_record(rec))
    assert loaded.final_state() == st
    assert [a for _, a in st.history()] == loaded.actions


def test_replay_of_a_refused_action_is_a_record_error():
    st = meldhall.new_game("shanghai-rummy", players=4, seed=1)
    rec = Record.from_state(st, st.first_dealer)
    rec.actions = ["buy"]
    with pytest.raises(RecordError):
        rec.final_state()


def test_positions_of_a_buy_window_and_deal_end():
    st = build(phase="upcard", turn=3, dealer=2, pile="5D 9H", upcard_from=2)
    window = play(st, "draw")
    assert load_position(dump_position(window)) == window
    end = play(build(hands={0: "KS", 1: "2S"}, made=[0], melds=[(0, "3S 4S 5S 6S")]),
               "discard KS")
    again = load_position(dump_position(end), check_rules=False)  # a scenario (one run)
    assert again == end and again.outcome.to_json() == end.outcome.to_json()
    assert play(again, "deal").contract_number == 2
