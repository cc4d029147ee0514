"""The spec's "Edge cases an implementation must handle" (docs/rules/shanghai-rummy.md), one
test per case; each docstring names the case and the rule IDs that decide it."""

from __future__ import annotations

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

from meldhall.cards import Card
from meldhall.games.shanghai.actions import BUY
from meldhall.games.shanghai.state import choose_dealer
from meldhall.record import dump_position

FILL = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC"  # eleven unrelated cards for seats that just wait


def _upcard_state(**kw):
    kw.setdefault("phase", "upcard")
    return build(**kw)


def test_01_joker_as_first_upcard():
    """Edge case 1 (SH-4.4, SH-10.2): a joker turned as the first upcard may be taken by the
    first player; if they decline, another player may buy it."""
    st = _upcard_state(turn=1, dealer=0, pile="JK", upcard_from=-1,
                       hands={1: "2S 3S 4S", 2: "5S 6S", 3: "7S", 0: "8S"})
    assert legal_texts(st) == ["take", "draw"]
    took = play(st, "take")
    assert "JK" in hand_of(took, 1) and took.phase == "meld"
    declined = play(st, "draw")
    assert declined.phase == "buy" and declined.to_act == (2,)
    # on the first turn of a deal nobody discarded the upcard: every other player is offered it
    assert declined.queue == (2, 3, 0)
    bought = play(declined, "buy", seat=2)
    assert "JK" in hand_of(bought, 2) and len(hand_of(bought, 2)) == 4


def test_02_several_buyers_priority_and_discarder_excluded():
    """Edge case 2 (SH-10.3): seat 3 in turn, seats 0 and 1 want the card: seat 0 gets it; seat
    2, the discarder, is never offered it."""
    st = _upcard_state(turn=3, dealer=2, pile="5D 9H", upcard_from=2)
    assert st.buy_offer_order() == (0, 1)
    st = play(st, "draw")
    assert st.to_act == (0,)
    assert_illegal(st, "buy", "SH-10.3", seat=1)       # seat 1 waits for seat 0's answer
    assert_illegal(st, "buy", "SH-10.3", seat=2)       # the discarder
    after = play(st, "buy", seat=0)
    assert "9H" in hand_of(after, 0) and after.buys[0] == 1 and after.buys[1] == 0
    assert after.turn == 3 and after.phase == "meld"


def test_03_out_of_buys_skipped_and_limit_four_in_deal_nine():
    """Edge case 3 (SH-10.6): with 3 buys used in deal 4 a player is skipped; in deal 9 the same
    player, at 3 buys, is offered the card again (limit 4)."""
    st = _upcard_state(turn=3, dealer=2, pile="5D 9H", upcard_from=2, hand_no=3,
                       buys=[3, 0, 0, 0])
    assert st.buy_offer_order() == (1,)
    assert_illegal(play(st, "draw"), "buy", "SH-10.6", seat=0)
    st9 = _upcard_state(turn=3, dealer=2, pile="5D 9H", upcard_from=2, hand_no=8,
                        buys=[3, 0, 0, 0])
    assert st9.buy_offer_order() == (0, 1)


def test_04_newly_exposed_card_cannot_be_taken_or_bought():
    """Edge case 4 (SH-10.5): after a buy the player in turn draws from the stock; the card now
    showing can neither be taken nor bought."""
    st = _upcard_state(turn=3, dealer=2, pile="4C 5D 9H", upcard_from=2, stock="KS QS",
                       hands={3: "2H 3H"})
    st = play(st, "draw", "buy")               # seat 0 buys 9H with KS as penalty
    assert hand_of(st, 0) == ["9H", "KS"]
    assert hand_of(st, 3) == ["2H", "3H", "QS"]  # seat 3 drew the next stock card
    assert str(st.upcard) == "5D" and st.phase == "meld"
    assert_illegal(st, "take", "SH-6.1")
    assert_illegal(st, "buy", "SH-10.5", seat=1)


def test_05_buy_with_one_card_in_the_stock():
    """Edge case 5 (SH-10.8, SH-12.1–SH-12.3): the buyer takes the last stock card as penalty;
    the stock is then rebuilt for the player in turn's draw, or, at the rebuild limit or with
    nothing under the top card, the deal ends at that draw."""
    st = _upcard_state(turn=3, dealer=2, pile="4C 5D 9H", upcard_from=2, stock="KS", rest="pile",
                       hands={3: "2H", 0: "3S"})
    pile_before = len(st.pile)
    after = play(st, "draw", "buy")
    assert "KS" in hand_of(after, 0) and "9H" in hand_of(after, 0)
    assert after.rebuilds == 1 and after.phase == "meld"
    assert len(after.pile) == 1                 # the new top card (5D) stays face up
    assert str(after.upcard) == "5D"
    assert len(after.stock) == pile_before - 1 - 1 - 1  # minus bought, top card, drawn card
    # at the rebuild limit the draw ends the deal
    lim = _upcard_state(turn=3, dealer=2, pile="4C 5D 9H", upcard_from=2, stock="KS",
                        rest="pile", rebuilds=10, hands={3: "2H", 0: "3S"})
    ended = play(lim, "draw", "buy")
    assert ended.phase == "deal_end" and ended.outcome.how == "stock_exhausted"
    assert ended.outcome.went_out is None
    # nothing left under the new top card: the deal ends too
    bare = build(phase="upcard", turn=3, dealer=2, pile="5D 9H", upcard_from=2, stock="KS",
                 hands={3: "2H", 0: "3S"}, rest=1)
    ended2 = play(bare, "draw", "buy")
    assert ended2.outcome.how == "stock_exhausted"


def test_06_buy_with_empty_unrebuildable_stock():
    """Edge case 6 (SH-10.8, SH-12.2): the pile holds only the upcard and the stock is empty:
    no buy is offered, a request to buy is refused, and the player in turn's draw ends the
    deal."""
    st = build(phase="upcard", turn=3, dealer=2, pile="9H", upcard_from=2, stock="",
               hands={0: "2S", 3: "3S"}, rest=1)
    assert st.stock == () and len(st.pile) == 1
    assert st.buy_offer_order() == ()
    assert_illegal(st, "buy", "SH-10.8", seat=0)
    ended = play(st, "draw")
    assert ended.phase == "deal_end" and ended.outcome.how == "stock_exhausted"


def test_07_oversized_contract_meld_refused_then_laid_off():
    """Edge case 7 (SH-8.2): in deal 1, 7♣ 7♦ 7♥ 7♠ as one set is refused; the fourth seven can
    be laid off on the next turn."""
    st = build(hands={0: "7C 7D 7H 7S KC KD KH 2S 3D 4H 5C 9S"})
    assert_illegal(st, "contract 7S 7H 7D 7C, KH KD KC", "SH-8.2")
    st = play(st, "contract 7S 7H 7D, KH KD KC", "discard 9S")
    assert st.turn == 1
    nxt = build(hands={0: "7C 2S 3D 4H 5C 6H"}, melds=[(0, "7S 7H 7D"), (0, "KH KD KC")],
                made=[0])
    assert "layoff 7C -> 1" in legal_texts(nxt)
    assert meld_text(play(nxt, "layoff 7C -> 1"), 1) == "7S 7H 7D 7C"


def test_08_touching_same_suit_runs_refused():
    """Edge case 8 (SH-8.3): deal 3 with ♥3-4-5-6 and ♥7-8-9-10 is refused."""
    st = build(hand_no=2, hands={0: "3H 4H 5H 6H 7H 8H 9H 10H 2C 2D KS QS"})
    assert_illegal(st, "contract 3H 4H 5H 6H, 7H 8H 9H 10H", "SH-8.3")


def test_09_joker_over_the_limit():
    """Edge case 9 (SH-7.5): a set 8♠ Jk Jk in a six-player game is refused; laying a second
    joker onto a set that already has one is refused."""
    st = build(players=6, hands={0: "8S JK JK 5H 5D 5C 2S 3D 4H 9C KS QS"})
    assert_illegal(st, "contract 8S JK=8H JK=8D, 5H 5D 5C", "SH-7.5")
    later = build(players=6, hands={0: "JK 2S 3D"}, melds=[(1, "8S 8C JK=8H")], made=[0])
    assert_illegal(later, "layoff JK=8D -> 1", "SH-7.5")
    assert not [t for t in legal_texts(later) if t.startswith("layoff JK")]


def test_10_layoff_on_the_contract_turn_refused():
    """Edge case 10 (SH-8.5): a player makes the contract and tries to add a card to another
    player's run in the same turn: refused."""
    st = build(hands={0: "7C 7D 7H KC KD KH 9S 2C 3D 4H 5C 6H"}, melds=[(1, "5S 6S 7S 8S")],
               made=[1])
    st = play(st, "contract 7H 7D 7C, KH KD KC")
    assert_illegal(st, "layoff 9S -> 1", "SH-8.5")
    assert all(t.startswith("discard") for t in legal_texts(st))


def test_11_layoff_before_the_contract_refused():
    """Edge case 11 (SH-9.2): a player who has not made the contract may not lay off."""
    st = build(hands={0: "9S 2C 3D 4H 5C 6H 8D 10C JD QH KS AC"}, melds=[(1, "5S 6S 7S 8S")],
               made=[1])
    assert_illegal(st, "layoff 9S -> 1", "SH-9.2")


def test_12_joker_exchange_before_or_on_the_contract_turn_refused():
    """Edge case 12 (SH-9.4, SH-8.5): exchanging a joker before the contract, or on the turn
    the contract is made, is refused."""
    before = build(hands={0: "7D 2C 3D 4H 5C 6H 8D 10C JD QH KS AC"},
                   melds=[(1, "7H 7C JK=7D")], made=[1])
    assert_illegal(before, "swap 7D -> 1", "SH-9.4")
    st = build(hands={0: "5C 5D 5H KC KD KH 7D 2C 3D 4H 9S 6H"}, melds=[(1, "7H 7C JK=7D")],
               made=[1])
    st = play(st, "contract 5H 5D 5C, KH KD KC")
    assert_illegal(st, "swap 7D -> 1", "SH-8.5")


def test_13_wrong_suit_for_an_exchange():
    """Edge case 13 (SH-9.5, SH-7.4): a joker declared as 7♦ in a set of sevens cannot be taken
    with 7♣; any copy of 7♦ works; a joker declared as 7♥ in 7♥ 7♣ Jk(7♥) is released only by
    a 7♥."""
    st = build(hands={0: "7C 7D/1 2S"}, melds=[(1, "7H 7S JK=7D")], made=[0, 1])
    assert_illegal(st, "swap 7C -> 1", "SH-9.5")
    done = play(st, "swap 7D -> 1")
    assert "JK" in hand_of(done, 0) and meld_text(done, 1) == "7H 7S 7D"
    assert done.melds[0].cards[2] == done.pack.id_of(Card.parse("7D/1"))
    dup = build(hands={0: "7H/1 7D 2S"}, melds=[(1, "7H/0 7C JK=7H")], made=[0, 1])
    assert_illegal(dup, "swap 7D -> 1", "SH-9.5")
    assert "JK" in hand_of(play(dup, "swap 7H -> 1"), 0)


def test_14_last_card_laid_off():
    """Edge case 14 (SH-9.6): holding one card that fits and drawing a second that also fits,
    the player may lay off either and discard the other to go out; laying off both is
    refused."""
    st = build(hands={0: "9S 4S"}, melds=[(0, "5S 6S 7S 8S")], made=[0])
    assert {"layoff 9S -> 1", "layoff 4S -> 1"} <= set(legal_texts(st))
    one = play(st, "layoff 9S -> 1")
    assert_illegal(one, "layoff 4S -> 1", "SH-9.6")
    out = play(one, "discard 4S")
    assert out.outcome.how == "went_out" and out.outcome.went_out == 0
    assert result(out, 0).hand_score == 0
    other = play(st, "layoff 4S -> 1", "discard 9S")
    assert other.outcome.went_out == 0


DEAL6_WITH_JOKER = "8C 8D 8S QH QH QS 5D 6D JK 8D 9D KC"


def test_15_going_out_blind_with_a_joker():
    """Edge case 15 (SH-11.3): deal 6, the contract includes a joker, 12 cards exactly: -25."""
    st = build(hand_no=5, hands={0: DEAL6_WITH_JOKER})
    st = play(st, "contract 8S 8D 8C, QS QH QH, 5D 6D JK=7D 8D 9D", "discard KC")
    assert st.outcome.how == "went_out_blind"
    r = result(st, 0)
    assert r.hand_score == -25 and r.lines[0].rule_id == "SH-11.3"


def test_16_blind_after_one_buy_in_deal_eight():
    """Edge case 16 (SH-11.4): deal 8, one buy gives 13 cards, the draw 14; laying down 13 and
    discarding 1 is going out blind."""
    st = build(hand_no=7, buys=[1, 0, 0, 0],
               hands={0: "9C 9D 9S 3H 4H 5H 6H 7H 8H 9H 10H JH QH 2S"})
    assert len(hand_of(st, 0)) == 14
    st = play(st, "contract 9S 9D 9C, 3H 4H 5H 6H 7H 8H 9H 10H JH QH", "discard 2S")
    assert st.outcome.how == "went_out_blind" and result(st, 0).hand_score == -50


def test_17_impossible_contract_keeps_drawing_and_discarding():
    """Edge case 17 (SH-5.3): in deal 10 a player with 12 cards can never make the contract:
    the engine offers no contract and nothing but discards."""
    st = build(hand_no=9, hands={0: "3H 4H 5H 6H 7H 3S 4S 5S 6S 7S 3D 4D"})
    assert st.contract_actions() == []
    assert all(t.startswith("discard") for t in legal_texts(st))
    # with two buys the same melds would be enough
    rich = build(hand_no=9, buys=[2, 0, 0, 0],
                 hands={0: "3H 4H 5H 6H 7H 3S 4S 5S 6S 7S 3D 4D 5D 6D 7D KC"})
    assert contract_listed(rich, "contract 3S 4S 5S 6S 7S, 3H 4H 5H 6H 7H, 3D 4D 5D 6D 7D")


def test_18_stock_rebuild_limit_ends_the_deal():
    """Edge case 18 (SH-12.3): after ten rebuilds the stock runs out and the player in turn must
    draw: the deal ends with nobody out and everyone scores their hand; a rebuild made for a
    penalty card counts; under max_stock_rebuilds = 3 the same happens after the third."""
    st = build(phase="upcard", turn=1, dealer=0, pile="4C 5D 9H", upcard_from=0, stock="",
               rest="pile", rebuilds=10, hands={0: "KS", 1: "2S 3S", 2: "AH", 3: "JK"})
    ended = play(st, "draw")
    oc = ended.outcome
    assert oc.how == "stock_exhausted" and oc.went_out is None
    assert [r.hand_score for r in oc.results] == [10, 25, 20, 50]
    # a rebuild for a penalty card is the tenth: the next draw that needs one ends the deal
    st9 = build(phase="upcard", turn=1, dealer=0, pile="4C 5D 9H", upcard_from=0, stock="",
                rebuilds=9, hands={0: "KS", 1: "2S 3S", 2: "AH", 3: "JK"}, rest=3)
    assert st9.buy_offer_order() == (2, 3)
    bought = play(st9, "draw", "buy")
    assert bought.rebuilds == 10
    assert bought.outcome.how == "stock_exhausted"
    three = build(phase="upcard", turn=1, dealer=0, pile="4C 5D 9H", upcard_from=0, stock="",
                  rest="pile", rebuilds=3, options={"max_stock_rebuilds": 3},
                  hands={0: "KS", 1: "2S 3S", 2: "AH", 3: "JK"})
    assert play(three, "draw").outcome.how == "stock_exhausted"
    four = build(phase="upcard", turn=1, dealer=0, pile="4C 5D 9H", upcard_from=0, stock="",
                 rest="pile", rebuilds=3, hands={0: "KS", 1: "2S 3S", 2: "AH", 3: "JK"})
    assert play(four, "draw", "pass", "pass").rebuilds == 4  # default limit ten: rebuilt


def test_19_ace_in_runs():
    """Edge case 19 (SH-7.3, SH-9.3): A♠ onto 2♠-5♠ is legal (low end), onto 10♠-K♠ legal (high
    end); a high A♠ onto a run that already holds a low A♠ is refused."""
    st = build(hands={0: "AS AS/1 3C"}, melds=[(1, "2S 3S 4S 5S"), (1, "10S JS QS KS")],
               made=[0, 1])
    assert meld_text(play(st, "layoff AS -> 1"), 1) == "AS 2S 3S 4S 5S"
    assert meld_text(play(st, "layoff AS -> 2"), 2) == "10S JS QS KS AS"
    full = build(hands={0: "AS/1 3C 4D"},
                 melds=[(1, "AS/0 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")], made=[0, 1])
    assert_illegal(full, "layoff AS -> 1", "SH-7.3")
    low = build(hands={0: "AS/1 3C 4D"}, melds=[(1, "AS/0 2S 3S 4S")], made=[0, 1])
    assert_illegal(low, "layoff AS -> 1", "SH-7.3")


def test_20_run_past_the_ace_refused():
    """Edge case 20 (SH-7.3): extending Q♣-K♣-A♣ with 2♣ is refused (no corner)."""
    st = build(hands={0: "2C 3H 4H"}, melds=[(1, "JC QC KC AC")], made=[0, 1])
    assert_illegal(st, "layoff 2C -> 1", "SH-7.3")
    deal3 = build(hand_no=2, hands={0: "QC KC AC 2C 5H 6H 7H 8H 9S 9D 3S 4S"})
    assert_illegal(deal3, "contract QC KC AC 2C, 5H 6H 7H 8H", "SH-7.3")


def test_21_duplicate_cards_in_a_set():
    """Edge case 21 (SH-7.1): 9♦/0 and 9♦/1 in the same set are legal."""
    st = build(hands={0: "9D/0 9D/1 9S KC KD KH 2S 3D 4H 5C 6H 7D"})
    assert contract_listed(st, "contract 9S 9D 9D, KH KD KC")
    after = play(st, "contract 9S 9D 9D, KH KD KC")
    assert meld_text(after, 1) == "9S 9D 9D"


def test_22_joker_laid_off_at_a_run_end_keeps_its_card():
    """Edge case 22 (SH-7.4, SH-9.5): a joker laid off at a run end is recorded with its
    declared card, and later only that exact card releases it."""
    st = build(hands={0: "JK 2C 3H"}, melds=[(1, "5D 6D 7D 8D")], made=[0, 1])
    assert {"layoff JK=4D -> 1", "layoff JK=9D -> 1"} <= set(legal_texts(st))
    st = play(st, "layoff JK -> 1 high")                 # the end names the card
    assert meld_text(st, 1) == "5D 6D 7D 8D JK=9D"
    later = build(hands={0: "4D 9D/1 2C"}, melds=[(1, "5D 6D 7D 8D JK=9D")], made=[0, 1])
    assert_illegal(later, "swap 4D -> 1", "SH-9.5")
    assert "JK" in hand_of(play(later, "swap 9D -> 1"), 0)


def test_23_exchange_then_lay_off_the_same_joker():
    """Edge case 23 (SH-9.4, SH-7.5): a player exchanges a joker and lays the same joker off
    onto another run in the same turn, within that run's joker limit."""
    st = build(hands={0: "7D 2C 3H"}, melds=[(1, "7H 7C JK=7D"), (2, "5S 6S 7S 8S 9S")],
               made=[0, 1, 2])
    st = play(st, "swap 7D -> 1", "layoff JK=10S -> 2")
    assert meld_text(st, 2) == "5S 6S 7S 8S 9S JK=10S"
    assert meld_text(st, 1) == "7H 7C 7D"
    # beyond the limit: a run of 5 with two jokers cannot take a third (6 cards allow two)
    full = build(hands={0: "7D 2C 3H"}, options={"jokers_in_pack": 3}, made=[0, 1, 2],
                 melds=[(1, "7H 7C JK=7D"), (2, "5S JK=6S 7S JK=8S 9S")])
    after = play(full, "swap 7D -> 1")
    assert_illegal(after, "layoff JK=10S -> 2", "SH-7.5")


def test_24_tied_lowest_total_both_win():
    """Edge case 24 (SH-14.2): two players finishing on the same lowest total both win."""
    st = build(hand_no=9, hands={0: "KS", 1: "5H", 2: "9C 9D", 3: "QD"}, made=[0],
               melds=[(0, "3S 4S 5S 6S 7S")], scores=[300, 295, 400, 500])
    end = play(st, "discard KS")
    assert end.is_terminal and end.scores == (300, 300, 410, 510)
    assert end.outcome.winners == (0, 1)


def test_25_buy_count_resets_each_deal():
    """Edge case 25 (SH-10.6): buy counts start again at zero when a new deal starts."""
    st = build(hand_no=2, hands={0: "KS", 1: "5H", 2: "9C", 3: "QD"}, made=[0],
               melds=[(0, "3S 4S 5S 6S")], buys=[1, 3, 2, 0])
    end = play(st, "discard KS")
    assert end.phase == "deal_end"
    nxt = play(end, "deal")
    assert nxt.buys == (0, 0, 0, 0) and nxt.contract_number == 4


def test_26_no_buy_after_the_last_allowed_rebuild():
    """Edge case 26 (SH-10.8, SH-12.3): after ten rebuilds with the stock empty again the
    upcard is not offered for buying; the player in turn may still take it and play on."""
    st = build(phase="upcard", turn=1, dealer=0, pile="4C 5D 9H", upcard_from=0, stock="",
               rest="pile", rebuilds=10, hands={1: "2S 3S", 2: "AH"})
    assert st.buy_offer_order() == ()
    assert_illegal(st, "buy", "SH-10.8", seat=2)
    took = play(st, "take")
    assert took.phase == "meld" and "9H" in hand_of(took, 1)
    nxt = play(took, "discard 2S")
    assert nxt.phase == "upcard" and nxt.turn == 2      # play goes on
    assert play(nxt, "draw").outcome.how == "stock_exhausted"


def test_27_ace_low_and_ace_high_runs_of_one_suit():
    """Edge case 27 (SH-8.3, SH-7.3): deal 7 with ♦A-2-3-4, ♦6-7-8-9 and ♦J-Q-K-A (two ♦A, one
    buy for 13 cards) is legal."""
    st = build(hand_no=6, buys=[1, 0, 0, 0],
               hands={0: "AD/0 2D 3D 4D 6D 7D 8D 9D JD QD KD AD/1 5S 2C"})
    text = "contract AD 2D 3D 4D, 6D 7D 8D 9D, JD QD KD AD"
    assert contract_listed(st, text)
    after = play(st, text)
    assert [meld_text(after, i) for i in (1, 2, 3)] == ["AD 2D 3D 4D", "6D 7D 8D 9D",
                                                        "JD QD KD AD"]


def test_28_dealer_draw_with_a_joker_and_a_tie():
    """Edge case 28 (SH-4.1): seat 0 draws 4♥, seat 1 a joker then 9♣, seats 2 and 3 aces; only
    seats 2 and 3 draw again: K♠ and 6♥, so seat 3 deals."""
    cards = iter(Card.parse(t) for t in ["4H", "JK", "9C", "AC", "AD", "KS", "6H"])
    dealer, draws = choose_dealer(lambda: next(cards), 4)
    assert dealer == 3
    assert [(s, str(c)) for s, c in draws] == [(0, "4H"), (1, "JK"), (1, "9C"), (2, "AC"),
                                               (3, "AD"), (2, "KS"), (3, "6H")]


def test_29_discarder_allowed_to_buy_is_offered_last():
    """Edge case 29 (SH-10.3): under discarder_may_buy, dealer seat 3, seat 1 discards and seat
    2 declines: the order is 3, 0, then 1; with buy_priority = dealer_left it is 0, 3, 1."""
    st = _upcard_state(turn=2, dealer=3, pile="5D 9H", upcard_from=1,
                       options={"discarder_may_buy": True})
    assert st.buy_offer_order() == (3, 0, 1)
    dl = _upcard_state(turn=2, dealer=3, pile="5D 9H", upcard_from=1,
                       options={"discarder_may_buy": True, "buy_priority": "dealer_left"})
    assert dl.buy_offer_order() == (0, 3, 1)
    st = play(st, "draw", "pass", "pass")
    assert st.to_act == (1,)
    assert "9H" in hand_of(play(st, "buy"), 1)


def test_30_joker_at_a_run_end_stays_put():
    """Edge case 30 (SH-7.4, SH-9.3, SH-9.4): on 5♦ 6♦ 7♦ Jk(8♦), 4♦ goes at the low end and 9♦
    at the high end next to the joker; 8♦/1 cannot be laid off by moving the joker, but may be
    exchanged for it."""
    st = build(hands={0: "4D 9D 8D/1 2C"}, melds=[(1, "5D 6D 7D JK=8D")], made=[0, 1])
    texts = legal_texts(st)
    assert {"layoff 4D -> 1", "layoff 9D -> 1", "swap 8D -> 1"} <= set(texts)
    assert "layoff 8D -> 1" not in texts
    assert_illegal(st, "layoff 8D -> 1", "SH-9.3")
    st = play(st, "layoff 4D -> 1", "layoff 9D -> 1")
    assert meld_text(st, 1) == "4D 5D 6D 7D JK=8D 9D"
    st = play(st, "swap 8D -> 1")
    assert meld_text(st, 1) == "4D 5D 6D 7D 8D 9D"


def test_31_joker_as_the_high_ace():
    """Edge case 31 (SH-7.3, SH-9.3, SH-9.4): J♠ Q♠ K♠ Jk(A♠) takes nothing at its high end, 10♠
    at its low end, and a natural A♠ only by exchange; Jk(A♥) 2♥ 3♥ 4♥ takes cards only at its
    high end."""
    st = build(hands={0: "10S AS 2S KH 5H JK"}, options={"jokers_in_pack": 3},
               melds=[(1, "JS QS KS JK=AS"), (1, "JK=AH 2H 3H 4H")], made=[0, 1])
    texts = legal_texts(st)
    assert "layoff 10S -> 1" in texts and "swap AS -> 1" in texts
    assert "layoff AS -> 1" not in texts and "layoff 2S -> 1" not in texts
    assert_illegal(st, "layoff AS -> 1", "SH-9.3")
    assert_illegal(st, "layoff 2S -> 1", "SH-7.3")
    assert "layoff 5H -> 2" in texts and "layoff KH -> 2" not in texts
    assert_illegal(st, "layoff JK -> 2 low", "SH-9.3")
    assert [t for t in texts if t.startswith("layoff JK") and t.endswith("-> 1")] == [
        "layoff JK=10S -> 1"]


def test_32_upcard_put_straight_back_refused():
    """Edge case 32 (SH-6.5): a player takes 9♣/0 and tries to discard 9♣/0: refused, unless it
    is their last card; discarding 9♣/1 from their hand is legal."""
    st = build(phase="upcard", turn=0, pile="4D 9C/0", hands={0: "9C/1 2S 3H"},
               upcard_from=3)
    st = play(st, "take")
    assert_illegal(st, "discard 9C/0", "SH-6.5")
    after = play(st, "discard 9C")              # the engine discards the other copy
    assert after.pile[-1] == after.pack.id_of(Card.parse("9C/1"))
    lone = play(build(phase="upcard", turn=0, pile="4D 9C/0", hands={0: "2S 3H"},
                      upcard_from=3), "take")
    assert_illegal(lone, "discard 9C", "SH-6.5")
    assert "discard 9C" not in legal_texts(lone)
    # melding uses the taken copy first, so the other copy stays free for the discard
    melded = build(phase="upcard", turn=0, pile="4D 9C/0", upcard_from=3,
                   hands={0: "9C/1 9S 9H KS KH KD 2S 3H 5D 6D 7D"})
    melded = play(melded, "take", "contract 9S 9H 9C, KS KH KD")
    assert "discard 9C" in legal_texts(melded)
    assert play(melded, "discard 9C").pile[-1] == melded.pack.id_of(Card.parse("9C/1"))
    last = build(hands={0: "9C/0"}, taken="9C/0", made=[0], melds=[(0, "5S 6S 7S 8S")])
    assert play(last, "discard 9C").outcome.went_out == 0


def test_33_blind_with_the_joker_discarded():
    """Edge case 33 (SH-11.3): deal 6, no buy; two natural sets, a natural run of 5 and a
    joker: the contract plus discarding the joker is going out blind with no joker: -50."""
    st = build(hand_no=5, hands={0: "8C 8D 8S QH QH QS 5D 6D 7D 8D 9D JK"})
    st = play(st, "contract 8S 8D 8C, QS QH QH, 5D 6D 7D 8D 9D", "discard JK")
    assert st.outcome.how == "went_out_blind" and result(st, 0).hand_score == -50


def test_34_natural_card_matching_a_set_joker_two_actions():
    """Edge case 34 (SH-9.3, SH-9.4): on 7♥ 7♣ Jk(7♦), a 7♦/1 may be laid off (the joker stays)
    or exchanged for the joker; the engine offers both."""
    st = build(hands={0: "7D/1 2S"}, melds=[(1, "7H 7C JK=7D")], made=[0, 1])
    texts = legal_texts(st)
    assert "layoff 7D -> 1" in texts and "swap 7D -> 1" in texts
    assert meld_text(play(st, "layoff 7D -> 1"), 1) == "7H 7C JK=7D 7D"
    assert meld_text(play(st, "swap 7D -> 1"), 1) == "7H 7C 7D"


def test_refused_buy_leaves_state_unchanged():
    """SH-10.3: a buy out of order is refused with the state untouched."""
    st = _upcard_state(turn=3, dealer=2, pile="5D 9H", upcard_from=2)
    before = dump_position(st)
    assert not st.is_legal(BUY, 1)
    assert dump_position(st) == before


def test_the_player_in_turn_never_buys():
    """SH-10.2: the player in turn does not buy; after taking the upcard the refusal says the
    draw is made, not "take the upcard as your draw" (it is taken already)."""
    import pytest

    import meldhall
    from meldhall.errors import IllegalActionError

    s = meldhall.new_game("shanghai-rummy", players=3, seed=1)
    with pytest.raises(IllegalActionError, match="first takes the upcard") as info:
        s.apply_text("buy", 1)
    assert info.value.rule_id == "SH-10.2"
    s = s.apply_text("take", 1)
    with pytest.raises(IllegalActionError, match="you have drawn this turn") as info:
        s.apply_text("buy", 1)
    assert info.value.rule_id == "SH-10.2"
