"""The spec's worked examples and the rules around them (SH-4, SH-5, SH-7.7, SH-8.3, SH-10.10,
SH-11.4, SH-13.4–SH-13.6, SH-14)."""

from __future__ import annotations

import re

import pytest
from sh_position import assert_illegal, build, contract_listed, hand_of, legal_texts, play, result

import meldhall
from meldhall.cards import Card
from meldhall.games.shanghai.rules import CONTRACTS
from meldhall.games.shanghai.state import choose_dealer


# --------------------------------------------------------------------------- SH-4, SH-5
@pytest.mark.parametrize("players,pack,stock", [(3, 105, 71), (4, 105, 60), (5, 158, 102),
                                                (8, 158, 69)])
def test_deal_eleven_cards_upcard_and_stock(players, pack, stock):
    """SH-2.1, SH-2.2, SH-4.3, SH-4.4, SH-4.5: 105 or 158 cards; 11 cards each; one upcard;
    the rest is the stock; the dealer's left plays first."""
    st = meldhall.new_game("shanghai-rummy", players=players, seed=3)
    assert st.pack.size == pack
    assert all(h.bit_count() == 11 for h in st.hands)
    assert len(st.pile) == 1 and len(st.stock) == stock
    assert st.turn == (st.dealer + 1) % players and st.phase == "upcard"


def test_dealer_passes_left_and_contract_follows_the_deal():
    """SH-4.2, SH-5.1: deal k plays contract k; the deal passes to the left."""
    st = build(hand_no=0, dealer=2, turn=3, hands={3: "KS"}, made=[3], melds=[(3, "5S 5H 5D")])
    st = play(st, "discard KS")
    nxt = play(st, "deal")
    assert nxt.dealer == 3 and nxt.turn == 0 and nxt.contract_number == 2
    assert str(nxt.contract) == "one set of 3 + one run of 4"


def test_first_dealer_drawn_from_the_seed_as_logged():
    """SH-4.1: without a supplied dealer the draw is made from the seed and written to the log;
    replaying the logged cards through the draw procedure gives the same dealer."""
    for seed in range(20):
        st = meldhall.new_game("shanghai-rummy", players=4, seed=seed)
        note = st.public_log()[0][2]
        assert note.startswith("draw for the first deal (SH-4.1)")
        draws = note.split(": ", 1)[1].split(";")[0].split(", ")
        cards = iter(Card.parse(d.split()[2]) for d in draws)
        dealer, _ = choose_dealer(cards.__next__, 4)
        assert dealer == st.dealer == st.first_dealer
    supplied = meldhall.new_game("shanghai-rummy", players=4, seed=1, dealer=2)
    assert supplied.dealer == 2
    same = meldhall.new_game("shanghai-rummy", players=4, seed=1)
    assert meldhall.new_game("shanghai-rummy", players=4, seed=1, dealer=same.dealer) == same


def test_contract_table():
    """SH-5.2: the ten contracts with their card counts."""
    assert [str(CONTRACTS[k]) for k in range(1, 11)] == [
        "two sets of 3", "one set of 3 + one run of 4", "two runs of 4", "three sets of 3",
        "one set of 3 + one run of 7", "two sets of 3 + one run of 5", "three runs of 4",
        "one set of 3 + one run of 10", "three sets of 3 + one run of 5", "three runs of 5"]
    assert [CONTRACTS[k].cards for k in range(1, 11)] == [6, 7, 8, 9, 10, 11, 12, 13, 14, 15]


# --------------------------------------------------------------------------- SH-7.7
OTHER = {1: "KS KH KD", 3: "9C 10C JC QC", 10: "2C 3C 4C 5C 6C, 8C 9C 10C JC QC"}
SH77 = [
    ("7H 7C 7S", 1, True, None),
    ("7H/0 7H/1 7C", 1, True, None),
    ("7H 7C JK=7D", 1, True, None),
    ("7H 7C JK=7H", 1, True, None),
    ("7H JK=7S JK=7D", 1, False, "SH-7.5"),
    ("5D JK=6D 7D 8D", 3, True, None),
    ("5D JK=6D 7D JK=8D 9D", 10, True, None),
    ("5D 6D 7S 8D", 3, False, "SH-7.2"),
    ("AS 2S 3S 4S", 3, True, None),
    ("JS QS KS AS", 3, True, None),
    ("KS AS 2S 3S", 3, False, "SH-7.3"),
    ("6C 7C 8C", 3, False, "SH-7.2"),
]


@pytest.mark.parametrize("meld,contract,legal,rule", SH77)
def test_sh77_meld_examples(meld, contract, legal, rule):
    """SH-7.7: the table of example melds, laid down as part of a contract."""
    other = OTHER[contract]
    cards = [t.split("=")[0] for t in (meld + " " + other).replace(",", " ").split()]
    hand = " ".join(cards) + " 2H"
    st = build(hand_no=contract - 1, buys=[2, 0, 0, 0], options={"jokers_in_pack": 2},
               hands={0: hand})
    text = re.sub(r"/\d", "", f"contract {meld}, {other}")  # actions name no copies
    if legal:
        after = play(st, text)
        assert after.has_made_contract(0)
        assert contract_listed(st, text)
    else:
        assert_illegal(st, text, rule)


# --------------------------------------------------------------------------- SH-10.10
@pytest.mark.parametrize("priority,buyer", [("next_in_turn", 0), ("dealer_left", 1)])
def test_sh1010_buy_worked_example(priority, buyer):
    """SH-10.10: dealer seat 0, deal 2; seat 2 discards 9♥, seat 3 declines; seats 0 and 1 want
    it: seat 0 buys (buy 1 of 3) and seat 3 draws the top stock card; under dealer_left seat 1
    is asked first and gets it."""
    st = build(hand_no=1, dealer=0, turn=2, hands={2: "9H 4C", 3: "2S"},
               stock="KD QC", options={"buy_priority": priority})
    st = play(st, "discard 9H")
    assert st.turn == 3 and str(st.upcard) == "9H"
    st = play(st, "draw")
    assert st.to_act == (buyer,) and 2 not in st.queue
    st = play(st, "buy")
    assert {"9H", "KD"} <= set(hand_of(st, buyer)) and st.buys[buyer] == 1
    assert st.buy_limit() == 3
    assert "QC" in hand_of(st, 3) and st.phase == "meld"
    assert str(st.upcard) != "9H"
    assert_illegal(st, "take", "SH-6.1")


# --------------------------------------------------------------------------- SH-11.4
def test_sh114_deal_six_without_buys_goes_out_blind_whenever_made():
    """SH-11.4: with 12 cards in deal 6 every contract leaves one card, so making the contract
    is going out blind."""
    st = build(hand_no=5, hands={0: "8C 8D 8S QH QH QS 5D 6D JK 8D 9D 7D"})
    contracts = st.contract_actions()
    assert contracts
    for a in contracts:
        after = st.apply(a)
        left = legal_texts(after)
        assert len(left) == 1 and left[0].startswith("discard")
        out = play(after, left[0])
        assert out.outcome.how == "went_out_blind"


# --------------------------------------------------------------------------- SH-13
def test_sh134_worked_example_1():
    """SH-13.4: deal 3; Ann goes out (0); Bob 50, Cal 75, Dee 40."""
    st = build(hand_no=2, turn=0, made=[0], melds=[(0, "3S 4S 5S 6S"), (0, "8H 9H 10H JH")],
               hands={0: "2C", 1: "KS QH 9D 9C AS", 2: "JK 2H 3C",
                      3: "10H 10S 4D 4C 4H 4S"})
    st = play(st, "discard 2C")
    assert st.outcome.how == "went_out" and st.outcome.went_out == 0
    assert [result(st, s).hand_score for s in range(4)] == [0, 50, 75, 40]
    bob = result(st, 1)
    assert sorted(ln.points for ln in bob.lines) == [5, 5, 10, 10, 20]
    assert all(ln.rule_id == "SH-13.2" for ln in bob.lines)
    assert result(st, 0).lines[0].rule_id == "SH-13.1"
    for r in st.outcome.results:
        assert sum(ln.points for ln in r.lines) == r.hand_score


@pytest.mark.parametrize("joker,score", [(False, -50), (True, -25)])
def test_sh135_worked_example_2_blind(joker, score):
    """SH-13.5: Eve holds 11 cards, draws a 12th, lays down 8♣ 8♦/0 8♠, Q♥/0 Q♥/1 Q♠ and
    5♦ 6♦ 7♦ 8♦/1 9♦ and discards K♣: blind, -50 (with a joker in the contract, -25); Fay 75,
    Gus 65, Hal 85."""
    eight = "JK" if joker else "8D/1"
    st = build(phase="upcard", hand_no=5, turn=0, dealer=3, upcard_from=3, pile="3D",
               stock="KC", options={"jokers_in_pack": 2},
               hands={0: f"8C 8D/0 8S QH/0 QH/1 QS 5D 6D 7D {eight} 9D",
                      1: "JK AD 7C", 2: "2S 2D JC 10D 6H",
                      3: "KH KD QC 9S 9H 8C 4D 3S AC 5H 6C"})
    st = play(st, "draw", "pass", "pass")
    assert "KC" in hand_of(st, 0) and len(hand_of(st, 0)) == 12
    run = "5D 6D 7D JK=8D 9D" if joker else "5D 6D 7D 8D 9D"
    st = play(st, f"contract 8S 8D 8C, QS QH QH, {run}", "discard KC")
    assert st.outcome.how == "went_out_blind"
    assert [result(st, s).hand_score for s in range(4)] == [score, 75, 65, 85]


def test_sh136_worked_example_3_shared_win():
    """SH-13.6, SH-14.1, SH-14.2: totals Ann 310, Bob 295, Cal 295, Dee 402 after deal 10: Bob
    and Cal share the win."""
    st = build(hand_no=9, turn=0, made=[0], melds=[(0, "3S 4S 5S 6S 7S")],
               hands={0: "KS", 1: "5H", 2: "5D", 3: "KC"}, scores=[310, 290, 290, 392])
    st = play(st, "discard KS")
    assert st.is_terminal and st.phase == "game_over"
    assert st.scores == (310, 295, 295, 402)
    assert st.outcome.winners == (1, 2) and st.outcome.game_over
    assert st.legal_actions() == [] and st.to_act == ()


def test_scores_accumulate_and_can_fall_below_zero():
    """SH-13.3, SH-11.3: scores add up over deals; a blind bonus can take a total below zero."""
    st = build(hand_no=5, hands={0: "8C 8D 8S QH QH QS 5D 6D 7D 8D 9D KC", 1: "2S"},
               scores=[10, 0, 0, 0])
    st = play(st, "contract 8S 8D 8C, QS QH QH, 5D 6D 7D 8D 9D", "discard KC")
    assert st.scores[0] == -40 and st.scores[1] == 20
