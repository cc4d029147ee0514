"""Every row of the spec's "Configurable house rules" table has a test showing its effect
(docs/options-shanghai.md)."""

from __future__ import annotations

import dataclasses

import pytest
from sh_position import (
    assert_illegal,
    build,
    contract_listed,
    hand_of,
    legal_texts,
    meld_text,
    play,
    result,
)

import meldhall
from meldhall.errors import OptionsError
from meldhall.games.shanghai.options import ShanghaiOptions


def test_every_table_row_is_an_option():
    """The options dataclass has a field for every row of the table."""
    rows = ["deals", "contract_min_sizes", "buy_priority", "buy_limits", "discarder_may_buy",
            "joker_penalty", "deuce_penalty", "ace_penalty", "blind_bonus",
            "go_out_without_discard", "discard_taken_upcard", "layoff_on_contract_turn",
            "exchange_on_contract_turn", "distinct_set_ranks", "ace_both_ends", "jokers_in_pack",
            "decks", "max_stock_rebuilds", "tie_rule"]
    names = {f.name for f in dataclasses.fields(ShanghaiOptions)}
    assert set(rows) <= names
    o = ShanghaiOptions()
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.deals = 7  # type: ignore[misc]
    assert ShanghaiOptions.from_json(o.to_json()) == o


@pytest.mark.parametrize("bad", [
    {"player_count": 2}, {"player_count": 9}, {"deals": 8}, {"buy_priority": "random"},
    {"buy_limits": [3, 3]}, {"buy_limits": -1}, {"joker_penalty": -5}, {"blind_bonus": 25},
    {"decks": 1}, {"jokers_in_pack": -1}, {"max_stock_rebuilds": -1}, {"tie_rule": "coin"},
    {"ace_both_ends": "yes"}, {"no_such_option": 1},
])
def test_bad_options_raise_options_error(bad):
    """Options are validated on construction, with a sentence naming the option."""
    with pytest.raises(OptionsError):
        ShanghaiOptions.from_json(bad)
    with pytest.raises(OptionsError):
        meldhall.new_game("shanghai-rummy", players=bad.get("player_count", 4), options=bad)


def _out(st, text="discard KS"):
    return play(st, text)


def test_option_deals_seven():
    """deals = 7 (SH-5.1, SH-14.1): the game ends after the seventh deal."""
    st = build(hand_no=6, hands={0: "KS", 1: "5H", 2: "5D", 3: "KC"}, made=[0],
               melds=[(0, "3S 4S 5S 6S")], options={"deals": 7})
    end = _out(st)
    assert end.is_terminal and end.outcome.winners == (0,)
    ten = build(hand_no=6, hands={0: "KS", 1: "5H"}, made=[0], melds=[(0, "3S 4S 5S 6S")])
    assert not _out(ten).is_terminal


def test_option_contract_min_sizes():
    """contract_min_sizes (SH-8.2): contract melds may be longer than stated."""
    hand = "7C 7D 7H 7S KC KD KH 2S 3D 4H 5C 6H"
    assert_illegal(build(hands={0: hand}), "contract 7S 7H 7D 7C, KH KD KC", "SH-8.2")
    st = build(hands={0: hand}, options={"contract_min_sizes": True})
    assert contract_listed(st, "contract 7S 7H 7D 7C, KH KD KC")
    run = build(hand_no=2, options={"contract_min_sizes": True, "jokers_in_pack": 2},
                hands={0: "5D JK JK 8D 9D 2S 3S 4S 5S 9C 10C KH"})
    # 5D JK JK 8D 9D holds two jokers: legal only as a run of five (joker limit by length)
    assert contract_listed(run, "contract 2S 3S 4S 5S, 5D JK=6D JK=7D 8D 9D")


def test_option_buy_priority():
    """buy_priority (SH-10.3): next_in_turn or dealer_left."""
    a = build(phase="upcard", turn=3, dealer=0, pile="4C 9H", upcard_from=2)
    b = build(phase="upcard", turn=3, dealer=0, pile="4C 9H", upcard_from=2,
              options={"buy_priority": "dealer_left"})
    assert a.buy_offer_order() == (0, 1) and b.buy_offer_order() == (1, 0)


def test_option_buy_limits():
    """buy_limits (SH-10.6): a per-contract table, one number for every deal, or unlimited."""
    def order(buys, **opts):
        return build(phase="upcard", turn=3, dealer=0, pile="4C 9H", upcard_from=2,
                     buys=buys, hand_no=0, options=opts).buy_offer_order()

    assert order([3, 0, 0, 0]) == (1,)
    assert order([3, 0, 0, 0], buy_limits=[5] * 10) == (0, 1)
    assert order([1, 0, 0, 0], buy_limits=1) == (1,)
    assert order([99, 0, 0, 0], buy_limits="unlimited") == (0, 1)
    assert order([0, 0, 0, 0], buy_limits=0) == ()


def test_option_discarder_may_buy():
    """discarder_may_buy (SH-10.3): the discarder is offered the card last."""
    a = build(phase="upcard", turn=3, dealer=0, pile="4C 9H", upcard_from=2)
    b = build(phase="upcard", turn=3, dealer=0, pile="4C 9H", upcard_from=2,
              options={"discarder_may_buy": True})
    assert a.buy_offer_order() == (0, 1) and b.buy_offer_order() == (0, 1, 2)


@pytest.mark.parametrize("opts,points", [
    ({}, [50, 20, 20]), ({"joker_penalty": 15}, [15, 20, 20]),
    ({"joker_penalty": 25, "deuce_penalty": 5, "ace_penalty": 15}, [25, 5, 15]),
])
def test_option_card_penalties(opts, points):
    """joker_penalty, deuce_penalty, ace_penalty (SH-13.2)."""
    st = build(hands={0: "KS", 1: "JK", 2: "2H", 3: "AD"}, made=[0],
               melds=[(0, "3S 4S 5S 6S")], options=opts)
    end = _out(st)
    assert [result(end, s).hand_score for s in (1, 2, 3)] == points


def test_option_blind_bonus_off():
    """blind_bonus = false (SH-11.3): going out blind scores 0."""
    hand = "8C 8D 8S QH QH QS 5D 6D 7D 8D 9D KC"
    for opts, score in (({}, -50), ({"blind_bonus": False}, 0), ({"blind_bonus": 0}, 0)):
        st = build(hand_no=5, hands={0: hand}, options=opts)
        st = play(st, "contract 8S 8D 8C, QS QH QH, 5D 6D 7D 8D 9D", "discard KC")
        assert st.outcome.how == "went_out_blind" and result(st, 0).hand_score == score


def test_option_go_out_without_discard():
    """go_out_without_discard (SH-6.2, SH-8.7, SH-9.6, SH-11.1): the whole hand may go down."""
    hand = "8C 8D 8S QH QH QS 5D 6D 7D 8D 9D"
    assert_illegal(build(hand_no=5, hands={0: hand}),
                   "contract 8S 8D 8C, QS QH QH, 5D 6D 7D 8D 9D", "SH-8.7")
    st = build(hand_no=5, hands={0: hand}, options={"go_out_without_discard": True})
    out = play(st, "contract 8S 8D 8C, QS QH QH, 5D 6D 7D 8D 9D")
    assert out.outcome.how == "went_out_blind" and result(out, 0).hand_score == -50
    lay = build(hands={0: "9S"}, made=[0], melds=[(0, "5S 6S 7S 8S")],
                options={"go_out_without_discard": True})
    done = play(lay, "layoff 9S -> 1")
    assert done.outcome.how == "went_out" and done.outcome.went_out == 0
    assert_illegal(build(hands={0: "9S"}, made=[0], melds=[(0, "5S 6S 7S 8S")]),
                   "layoff 9S -> 1", "SH-9.6")


def test_option_discard_taken_upcard():
    """discard_taken_upcard (SH-6.5): the card taken may be discarded again at once."""
    st = build(phase="upcard", turn=0, pile="4D 9C/0", hands={0: "2S 3H"}, upcard_from=3,
               options={"discard_taken_upcard": True})
    st = play(st, "take")
    assert "discard 9C" in legal_texts(st)
    assert str(st.upcard) == "4D"
    assert str(play(st, "discard 9C").upcard) == "9C"


def test_option_layoff_on_contract_turn():
    """layoff_on_contract_turn (SH-8.5, SH-11.2, SH-11.3): lay-offs on the contract turn; a
    joker laid off then counts as used for the blind bonus."""
    hand = "7C 7D 7H KC KD KH 9S JK 2C"
    table = [(1, "5S 6S 7S 8S")]
    st = build(hands={0: hand}, melds=table, made=[1])
    st = play(st, "contract 7H 7D 7C, KH KD KC")
    assert_illegal(st, "layoff 9S -> 1", "SH-8.5")
    opt = build(hands={0: hand}, melds=table, made=[1],
                options={"layoff_on_contract_turn": True})
    opt = play(opt, "contract 7H 7D 7C, KH KD KC", "layoff 9S -> 1", "layoff JK=10S -> 1")
    assert meld_text(opt, 1) == "5S 6S 7S 8S 9S JK=10S"
    out = play(opt, "discard 2C")
    assert out.outcome.how == "went_out_blind" and result(out, 0).hand_score == -25


def test_option_exchange_on_contract_turn():
    """exchange_on_contract_turn (SH-8.5, SH-9.4)."""
    hand = "5C 5D 5H KC KD KH 7D 2C 3D"
    table = [(1, "7H 7C JK=7D")]
    st = play(build(hands={0: hand}, melds=table, made=[1]), "contract 5H 5D 5C, KH KD KC")
    assert_illegal(st, "swap 7D -> 1", "SH-8.5")
    opt = build(hands={0: hand}, melds=table, made=[1],
                options={"exchange_on_contract_turn": True})
    opt = play(opt, "contract 5H 5D 5C, KH KD KC", "swap 7D -> 1")
    assert "JK" in hand_of(opt, 0)


def test_option_distinct_set_ranks():
    """distinct_set_ranks (SH-8.4): sets of one contract must differ in rank."""
    hand = "9C 9D 9H 9S 9D 9C 2S 3H 4H 5S KD QD"
    assert contract_listed(build(hands={0: hand}), "contract 9S 9D 9C, 9H 9D 9C")
    st = build(hands={0: hand}, options={"distinct_set_ranks": True})
    assert not contract_listed(st, "contract 9S 9D 9C, 9H 9D 9C")
    assert_illegal(st, "contract 9S 9D 9C, 9H 9D 9C", "SH-8.4")
    # staged, the two sets are refused at the commit, and stay staged (SH-8.1)
    staged = play(st, "stage 9S 9D 9C", "stage 9H 9D 9C")
    assert "contract done" not in legal_texts(staged)
    assert_illegal(staged, "contract done", "SH-8.4")


def test_option_ace_both_ends():
    """ace_both_ends (SH-7.3, SH-9.3): a run of 14, A-2-…-K-A."""
    table = [(1, "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")]
    st = build(hands={0: "AS/1 2C"}, melds=table, made=[0, 1])
    assert_illegal(st, "layoff AS -> 1", "SH-7.3")
    opt = build(hands={0: "AS/1 2C"}, melds=table, made=[0, 1], options={"ace_both_ends": True})
    done = play(opt, "layoff AS -> 1")
    assert done.melds[0].size == 14 and meld_text(done, 1).endswith("KS AS")
    # 2…K can take an ace at either end: the end is named
    mid = build(hands={0: "AS 2C"}, made=[0, 1],
                melds=[(1, "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")])
    assert {"layoff AS -> 1 low", "layoff AS -> 1 high"} <= set(legal_texts(mid))
    assert meld_text(play(mid, "layoff AS -> 1 low"), 1).startswith("AS 2S")


@pytest.mark.parametrize("players,opts,size", [
    (4, {}, 105), (4, {"jokers_in_pack": 4}, 108), (5, {}, 158),
    (8, {"decks": 4}, 210), (8, {"decks": 4, "jokers_in_pack": 6}, 214),
])
def test_option_decks_and_jokers(players, opts, size):
    """decks and jokers_in_pack (SH-2.1–SH-2.3): the pack's size and card identities."""
    st = meldhall.new_game("shanghai-rummy", players=players, seed=1, options=opts)
    assert st.pack.size == size
    n = len(st.stock) + len(st.pile) + sum(h.bit_count() for h in st.hands)
    assert n == size


@pytest.mark.parametrize("limit,rebuilds,ends", [
    (3, 3, True), (3, 2, False), (1, 1, True), (0, 0, True), ("unlimited", 50, False),
])
def test_option_max_stock_rebuilds(limit, rebuilds, ends):
    """max_stock_rebuilds (SH-12.3, SH-10.8): the deal ends at a draw needing one more."""
    st = build(phase="upcard", turn=1, dealer=0, pile="4C 5D 9H", upcard_from=0, stock="",
               rest="pile", rebuilds=rebuilds, hands={0: "KS", 1: "2S"},
               options={"max_stock_rebuilds": limit})
    assert (st.buy_offer_order() == ()) == ends
    st = play(st, "draw")
    while st.phase == "buy":
        st = play(st, "pass")
    assert (st.phase == "deal_end") == ends


def test_option_tie_rule_fewest_deals_scored():
    """tie_rule = fewest_deals_scored (SH-14.2): among the tied, fewest deals scored above 0."""
    rows = [[0, 10, 20, 30]] * 5 + [[10, 0, 20, 30]] * 4
    st = build(hand_no=9, hands={0: "KS", 1: "5H", 2: "5D", 3: "KC"}, made=[0],
               melds=[(0, "3S 4S 5S 6S 7S")], scores=[300, 295, 400, 400],
               deal_scores=rows, options={"tie_rule": "fewest_deals_scored"})
    end = _out(st)
    assert end.scores[0] == end.scores[1] == 300
    assert end.outcome.winners == (0,)   # seat 0 scored in 4 deals, seat 1 in 6
    shared = build(hand_no=9, hands={0: "KS", 1: "5H", 2: "5D", 3: "KC"}, made=[0],
                   melds=[(0, "3S 4S 5S 6S 7S")], scores=[300, 295, 400, 400], deal_scores=rows)
    assert _out(shared).outcome.winners == (0, 1)


def test_option_tie_rule_extra_deal():
    """tie_rule = extra_deal (SH-14.2): everyone plays one more deal with contract 10; the tied
    player with the lowest score in it wins."""
    st = build(hand_no=9, dealer=3, turn=0, hands={0: "KS", 1: "5H", 2: "5D", 3: "KC"},
               made=[0], melds=[(0, "3S 4S 5S 6S 7S")], scores=[300, 295, 400, 400],
               options={"tie_rule": "extra_deal"})
    end = _out(st)
    assert end.phase == "deal_end" and not end.outcome.game_over
    assert end.extra_seats == (0, 1)
    extra = play(end, "deal")
    assert extra.contract_number == 10 and extra.hand_no == 10 and extra.dealer == 0
    assert extra.buy_limit() == 4
    # finish the extra deal: seat 1 goes out, seat 0 is caught with cards
    fin = build(hand_no=10, dealer=0, turn=1, hands={1: "KS", 0: "2S", 2: "3S", 3: "3D"},
                made=[1], melds=[(1, "3H 4H 5H 6H 7H")], scores=[300, 300, 410, 410],
                options={"tie_rule": "extra_deal"}, deal_scores=[[0, 0, 0, 0]] * 10)
    fin = _extra(fin, (0, 1))
    done = _out(fin)
    assert done.is_terminal and done.outcome.winners == (1,)


def _extra(state, seats):
    from meldhall.record import dump_position, load_position

    doc = dump_position(state)
    doc["extra_seats"] = list(seats)
    return load_position(doc, check_rules=False)  # a scenario (build), not a reachable position
