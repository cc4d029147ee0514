"""The ten contracts (SH-5.2, SH-7, SH-8): legal and illegal lay-downs for each, ace-low and
ace-high runs, the corner, joker limits at every run length and same-suit runs that touch."""

from __future__ import annotations

import pytest
from sh_position import assert_illegal, build, contract_listed, legal_texts, meld_text, play

from meldhall.games.shanghai.rules import CONTRACTS, joker_limit

# contract -> (hand, a legal contract, [(illegal contract, rule)])
CASES = {
    1: ("7S 7H 7C KS KH KD 2C 3D 4H 5S 9C 10D",
        "contract 7S 7H 7C, KS KH KD",
        [("contract 7S 7H 7C", "SH-8.1"),
         ("contract 7S 7H 7C, 2C 3D 4H", "SH-7.2"),
         ("contract 7S 7H, KS KH KD", "SH-7.1"),
         ("contract 7S 7H 7C, KS KH KD JK=KC", "SH-8.2")]),
    2: ("9S 9H 9D 5C 6C 7C 8C 2S 3D 4H QS KD",
        "contract 9S 9H 9D, 5C 6C 7C 8C",
        [("contract 9S 9H 9D, QS KD 2S", "SH-7.2"),
         ("contract 5C 6C 7C 8C, 2S 3D 4H 5H", "SH-7.2"),
         ("contract 9S 9H 9D, 4C 5C 6C 7C 8C", "SH-8.2"),
         ("contract 9S 9H 9D, 5C 6C 7C 8C, 2S 3D 4H", "SH-7.2")]),
    3: ("AS 2S 3S 4S JH QH KH AH 5D 9C 10C 2D",
        "contract AS 2S 3S 4S, JH QH KH AH",
        [("contract AS 2S 3S 4S", "SH-8.1"),
         ("contract AS 2S 3S 4S, QH KH AH 2H", "SH-7.3"),
         ("contract AS 2S 3S 4S 5S, JH QH KH AH", "SH-8.2")]),
    4: ("3S 3H 3D 8C 8D 8H JS JC JD 2S 5H 9C",
        "contract 3S 3H 3D, 8H 8D 8C, JS JD JC",
        [("contract 3S 3H 3D, 8H 8D 8C", "SH-8.1"),
         ("contract 3S 3H 3D, 8H 8D 8C, JS JD JC 2S", "SH-7.2")]),
    5: ("4D 4C 4S 8H 9H 10H JH QH KH AH 2S 6C",
        "contract 4S 4D 4C, 8H 9H 10H JH QH KH AH",
        [("contract 4S 4D 4C, 9H 10H JH QH KH AH", "SH-8.2"),
         ("contract 4S 4D, 8H 9H 10H JH QH KH AH", "SH-7.1")]),
    6: ("AC 2C 3C 4C 5C 6S 6H 6D QS QH QD 9D",
        "contract 6S 6H 6D, QS QH QD, AC 2C 3C 4C 5C",
        [("contract 6S 6H 6D, QS QH QD, AC 2C 3C 4C", "SH-8.2"),
         ("contract 6S 6H 6D, AC 2C 3C 4C 5C", "SH-8.1")]),
    7: ("AD 2D 3D 4D 6D 7D 8D 9D JS QS KS AS 5D 8H",
        "contract JS QS KS AS, AD 2D 3D 4D, 6D 7D 8D 9D",
        [("contract AD 2D 3D 4D, 6D 7D 8D 9D", "SH-8.1"),
         ("contract AD 2D 3D 4D, 5D 6D 7D 8D, JS QS KS AS", "SH-8.3")]),
    8: ("5S 5H 5D 3C 4C 5C 6C 7C 8C 9C 10C JC QC 2H",
        "contract 5S 5H 5D, 3C 4C 5C 6C 7C 8C 9C 10C JC QC",
        [("contract 5S 5H 5D, 4C 5C 6C 7C 8C 9C 10C JC QC", "SH-8.2"),
         ("contract 5S 5H 5D 5C, 3C 4C 5C 6C 7C 8C 9C 10C JC QC", "SH-8.2")]),
    9: ("2S 2H 2D 7S 7H 7C KS KH KD 9D 10D JD QD KD 4C 5C",
        "contract 2S 2H 2D, 7S 7H 7C, KS KH KD, 9D 10D JD QD KD",
        [("contract 2S 2H 2D, 7S 7H 7C, 9D 10D JD QD KD", "SH-8.1"),
         ("contract 2S 2H 2D, 7S 7H 7C, KS KH KD, 10D JD QD KD", "SH-8.2")]),
    10: ("3S 4S 5S 6S 7S 10H JH QH KH AH AD 2D 3D 4D 5D 9C",
         "contract 3S 4S 5S 6S 7S, 10H JH QH KH AH, AD 2D 3D 4D 5D",
         [("contract 3S 4S 5S 6S 7S, 10H JH QH KH AH", "SH-8.1"),
          ("contract 3S 4S 5S 6S, 10H JH QH KH AH, AD 2D 3D 4D 5D", "SH-8.2")]),
}


def _state(number: int, hand: str):
    buys = max(0, (len(hand.split()) - 12 + 1) // 2)
    return build(hand_no=number - 1, buys=[buys, 0, 0, 0], hands={0: hand})


@pytest.mark.parametrize("number", range(1, 11))
def test_contract_legal_lay_down(number):
    """SH-5.2, SH-8.1: a hand holding the contract's melds (plus a card for the discard) can
    lay them down; the melds go on the table as melds 1, 2, …"""
    hand, legal, _ = CASES[number]
    st = _state(number, hand)
    assert contract_listed(st, legal), legal
    after = play(st, legal)
    rule = CONTRACTS[number]
    assert len(after.melds) == rule.sets + rule.runs
    assert after.has_made_contract(0) and after.contract_now
    assert all(t.startswith("discard") for t in legal_texts(after))  # SH-8.5


@pytest.mark.parametrize("number", range(1, 11))
def test_contract_illegal_lay_downs(number):
    """SH-7.1–SH-7.3, SH-8.1–SH-8.3: wrong number of melds, wrong sizes, mixed cards, the
    corner and touching runs are refused with their rule IDs."""
    hand, _, illegal = CASES[number]
    st = _state(number, hand)
    for text, rule in illegal:
        assert_illegal(st, text, rule)


def test_contracts_need_buys_from_deal_seven():
    """SH-5.3: with 12 cards contracts 1–6 fit; contracts 7 and 8 need one buy, 9 and 10 two."""
    for number, rule in CONTRACTS.items():
        need = rule.cards + 1
        buys = max(0, -(-(need - 12) // 2))
        assert buys == {7: 1, 8: 1, 9: 2, 10: 2}.get(number, 0)


def test_ace_low_and_ace_high_runs():
    """SH-7.3: A-2-3-4 and J-Q-K-A are runs; the ace may be a joker standing for either."""
    st = build(hand_no=2, options={"jokers_in_pack": 2},
               hands={0: "AS 2S 3S 4S JH QH KH AH JK JK 2H 3H 4H 5C"})
    assert contract_listed(st, "contract AS 2S 3S 4S, JH QH KH AH")
    assert contract_listed(st, "contract 2S 3S 4S JK=5S, JK=AH 2H 3H 4H")
    assert contract_listed(st, "contract JK=AS 2S 3S 4S, JH QH KH JK=AH")
    after = play(st, "contract JK=AS 2S 3S 4S, JH QH KH JK=AH")
    assert meld_text(after, 1) == "JK=AS 2S 3S 4S" and meld_text(after, 2) == "JH QH KH JK=AH"


def test_the_corner_is_refused_with_or_without_jokers():
    """SH-7.3: K-A-2 never: naturally, or with a joker standing for the ace or the two."""
    st = build(hand_no=2, options={"jokers_in_pack": 2},
               hands={0: "KS AS 2S 3S QH KH AH 2H JK JK 5C 6C"})
    for text in ("contract KS AS 2S 3S, 5H 6H 7H 8H", "contract QH KH AH JK=2H, 5C 6C JK=7C 8C",
                 "contract KS JK=AS 2S 3S, 5H 6H 7H 8H"):
        assert_illegal(st, text, "SH-7.3")
    assert not any("KS AS 2S" in t for t in legal_texts(st))


@pytest.mark.parametrize("length,number", [(4, 3), (5, 10), (7, 5), (10, 8)])
def test_joker_limit_at_each_run_length(length, number):
    """SH-7.5: a run of 4 holds one joker, of 5 two, of 7 three and of 10 four; one more is
    refused."""
    lim = joker_limit(length, True)
    rule = CONTRACTS[number]
    low = 2
    naturals = [f"{r}S" for r in range(low, low + length)]
    # the run with `lim` jokers at its top, then with one more
    ok_cards = naturals[:length - lim] + [f"JK={n}" for n in naturals[length - lim:]]
    bad_cards = naturals[:length - lim - 1] + [f"JK={n}" for n in naturals[length - lim - 1:]]
    names = {10: "10", 11: "J", 12: "Q", 13: "K"}
    ok_cards = [_name(c, names) for c in ok_cards]
    bad_cards = [_name(c, names) for c in bad_cards]
    others = {2: [], 3: ["3H 4H 5H 6H"], 5: ["9D 9C 9H"], 8: ["9D 9C 9H"], 10: [
        "3H 4H 5H 6H 7H", "3D 4D 5D 6D 7D"]}[number]
    extra = " ".join(others)
    hand = " ".join([*(_name(c, names) for c in naturals), extra, "JK " * (lim + 1), "KC QC"])
    st = build(hand_no=number - 1, options={"jokers_in_pack": 6}, buys=[4, 0, 0, 0],
               hands={0: hand})
    melds = others + [" ".join(ok_cards)]
    ok = play(st, st.parse_action("contract " + ", ".join(melds)).__str__())
    assert ok.has_made_contract(0)
    assert rule.runs >= 1
    bad = others + [" ".join(bad_cards)]
    assert_illegal(st, "contract " + ", ".join(bad), "SH-7.5")


def _name(card: str, names) -> str:
    joker = card.startswith("JK=")
    body = card[3:] if joker else card
    rank = int(body[:-1])
    out = names.get(rank, str(rank)) + body[-1]
    return ("JK=" if joker else "") + out


def test_set_joker_limit_one():
    """SH-7.5: a set holds at most one joker."""
    st = build(options={"jokers_in_pack": 2}, hands={0: "8S JK JK 5H 5D 5C 2S 3D 4H 9C KS QS"})
    assert not contract_listed(st, "contract 5H 5D 5C, 8S JK=8H JK=8D")
    assert_illegal(st, "contract 5H 5D 5C, 8S JK=8H JK=8D", "SH-7.5")


@pytest.mark.parametrize("number,runs,ok", [
    (3, "3H 4H 5H 6H, 8H 9H 10H JH", True),       # one rank between them
    (3, "3H 4H 5H 6H, 7H 8H 9H 10H", False),      # touching
    (3, "3H 4H 5H 6H, 3H 4H 5H 6H", False),       # overlapping (two decks)
    (3, "3H 4H 5H 6H, 3S 4S 5S 6S", True),        # different suits
    (7, "AD 2D 3D 4D, 6D 7D 8D 9D, JD QD KD AD", True),
    (7, "AD 2D 3D 4D, 5D 6D 7D 8D, JD QD KD AD", False),
    (10, "2C 3C 4C 5C 6C, 8C 9C 10C JC QC, 2S 3S 4S 5S 6S", True),
    (10, "2C 3C 4C 5C 6C, 7C 8C 9C 10C JC, 2S 3S 4S 5S 6S", False),
])
def test_same_suit_runs_must_not_touch(number, runs, ok):
    """SH-8.3: required runs of one suit neither overlap nor touch; jokers count at their
    declared ranks."""
    cards = runs.replace(",", " ") + " KS"
    st = build(hand_no=number - 1, buys=[2, 0, 0, 0], hands={0: cards})
    text = "contract " + runs
    if ok:
        assert contract_listed(st, text)
        play(st, text)
    else:
        assert_illegal(st, text, "SH-8.3")


def test_touching_runs_with_a_joker_at_its_declared_rank():
    """SH-8.3: a joker counts at its declared rank, so 3H-6H and JK(7H)-10H touch."""
    st = build(hand_no=2, hands={0: "3H 4H 5H 6H JK 8H 9H 10H KS 2C 2D 3C"})
    assert_illegal(st, "contract 3H 4H 5H 6H, JK=7H 8H 9H 10H", "SH-8.3")
    assert contract_listed(st, "contract 3H 4H 5H 6H, 8H 9H 10H JK=JH")


def test_two_sets_of_the_same_rank():
    """SH-8.4: two sets of one rank may be laid down together (two decks)."""
    st = build(hands={0: "9C 9D 9H 9S 9D 9C 2S 3H 4H 5S KD QD"})
    assert contract_listed(st, "contract 9S 9D 9C, 9H 9D 9C")


def test_contract_must_leave_a_card_to_discard():
    """SH-8.7: with exactly the contract's cards in hand the contract is refused."""
    st = build(hand_no=5, hands={0: "8C 8D 8S QH QH QS 5D 6D 7D 8D 9D"})
    assert st.contract_actions() == []
    assert_illegal(st, "contract 8S 8D 8C, QS QH QH, 5D 6D 7D 8D 9D", "SH-8.7")


def test_contract_cards_must_be_held():
    """SH-8.1: a contract naming cards not in hand is refused."""
    st = build(hands={0: "7S 7H KS KH KD 2C 3D 4H 5S 9C 10D JD"})
    assert_illegal(st, "contract 7S 7H 7C, KS KH KD", "SH-8.1")
    assert_illegal(st, "contract 7S 7H JK=7C, KS KH KD", "SH-8.1")


def test_contract_only_once_per_deal():
    """SH-8.6: after making the contract a player never starts another meld."""
    st = build(hands={0: "7S 7H 7C KS KH KD 2C"}, made=[0], melds=[(0, "3S 3H 3D"),
                                                              (0, "4S 4H 4D")])
    assert_illegal(st, "contract 7S 7H 7C, KS KH KD", "SH-8.6")
