"""RR-1 to RR-4: players, pack and card identity, card values, set-up and deal."""

from __future__ import annotations

import pytest
from canasta_position import all_cards
from rr_position import offers, assert_illegal, build, legal_texts, play, result, rigged_game

from meldhall.errors import OptionsError
from meldhall.games.railroad_canasta import new_game
from meldhall.record import dump_position


# --------------------------------------------------------------------------- RR-1 players


@pytest.mark.parametrize("players", range(2, 9))
def test_two_to_eight_players(players):
    """RR-1.1, RR-1.2: 2 to 8 players, each playing alone (one score per player)."""
    s = new_game(players=players, seed=1)
    assert s.players == players
    assert s.side_of == tuple(range(players))
    assert len(s.scores) == players


@pytest.mark.parametrize("players", [0, 1, 9, 12])
def test_player_count_out_of_range(players):
    """RR-1.2: fewer than two or more than eight players are refused (OptionsError)."""
    with pytest.raises(OptionsError):
        new_game(players=players, seed=1)


# --------------------------------------------------------------------------- RR-2 pack


@pytest.mark.parametrize("players", range(2, 9))
def test_pack_size(players):
    """RR-2.1 table: 2N decks + 2N jokers = 106 × N cards, each exactly once."""
    s = new_game(players=players, seed=7)
    cards = all_cards(s)
    assert len(cards) == 106 * players == len(set(cards))
    assert sum(1 for c in cards if c.startswith("JK")) == 2 * players
    assert s.pack.decks == 2 * players and s.pack.jokers == 2 * players


@pytest.mark.parametrize("players", [2, 5, 8])
def test_copies_of_each_rank(players):
    """RR-2.3: 8N copies of each rank (8N twos), 4N red threes, 4N black threes, 2N jokers,
    so 10N wild cards."""
    cards = all_cards(new_game(players=players, seed=3))
    n = players

    def count(pred):
        return sum(1 for c in cards if pred(c.split("/")[0]))

    for rank in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "2"):
        assert count(lambda b, r=rank: b != "JK" and b[:-1] == r) == 8 * n
    assert count(lambda b: b in ("3H", "3D")) == 4 * n
    assert count(lambda b: b in ("3S", "3C")) == 4 * n
    assert count(lambda b: b == "JK") == 2 * n
    assert count(lambda b: b == "JK" or b[:-1] == "2") == 10 * n


def test_edge25_large_pack_identity_includes_deck_index():
    """RR-2.2, RR-2.3, edge case 25: with eight players the pack has 848 cards and sixteen
    copies of each card (deck indexes 0–15); every copy is a distinct, tracked object."""
    s = new_game(players=8, seed=11)
    cards = all_cards(s)
    assert len(cards) == 848 == len(set(cards))
    queens_of_hearts = sorted(int(c.split("/")[1]) for c in cards if c.split("/")[0] == "QH")
    assert queens_of_hearts == list(range(16))
    jokers = sorted(int(c.split("/")[1]) for c in cards if c.startswith("JK"))
    assert jokers == list(range(16))
    # two physically different but identical-looking cards are told apart in a position
    t = build(players=8, hands={0: "QH/15 QH/0 QH/7 5 6"}, pile="QH/3", phase="draw",
              scores=[-10] + [0] * 7)
    t = play(t, "take Q Q")
    meld = dump_position(t)["melds"][0][0]["cards"]
    assert "QH/3" in meld and len(meld) == 3
    assert sum(c.startswith("QH/") for c in dump_position(t)["hands"][0]) == 1


# --------------------------------------------------------------------------- RR-3 values


def test_card_values_deducted_from_hand():
    """RR-3.5: Jk 50, 2 20, A 20, K–8 10 each, 7–4 5 each, black 3 5; a hand holding one of
    each is deducted 50+20+20+6×10+4×5+5 = 175 (RR-13.5)."""
    s = build(hands={0: "JK 2 A K Q J 10 9 8 7 6 5 4 3", 1: "4 4"}, stock="", fill="pile",
              pile_frozen=True, pile="JK", phase="draw", turn=1)
    # seat 1's turn starts with an empty stock and a pile it cannot take: the hand ends
    s = play(s, "pass") if s.outcome is None else s
    r = result(s, 0)
    assert r.hand_score == -175


def test_red_three_has_no_card_value_but_a_bonus():
    """RR-3.5, RR-13.3: a placed red three scores its 100 bonus and nothing else."""
    s = build(hands={0: "K", 1: "4 4"}, red_threes={0: "3H"}, stock="", fill="pile",
              pile="JK", phase="draw", turn=1)
    s = play(s, "pass") if s.outcome is None else s
    assert result(s, 0).hand_score == 100 - 10


# --------------------------------------------------------------------------- RR-4 deal


@pytest.mark.parametrize("players", [2, 3, 4, 6, 8])
def test_hands_kitties_stock(players):
    """RR-4.3, RR-4.4, RR-4.6, RR-4.7, RR-4.9: 13 cards in hand (red threes placed and
    replaced), 11 in each kitty, one upcard, and the rest (82N − 1 minus the replacements) in
    the stock."""
    for seed in range(3):
        s = new_game(players=players, seed=seed)
        assert [h.bit_count() for h in s.hands] == [13] * players
        assert [k.bit_count() for k in s.kitties] == [11] * players
        assert len(s.pile) == 1
        replaced = sum(r.bit_count() for r in s.red3)
        assert len(s.stock) == 82 * players - 1 - replaced
        assert not any(h & s.pack.red_threes for h in s.hands)
        assert s.kitty_taken == 0


def test_dealer_supplied_random_and_first_turn():
    """RR-4.1, RR-5.1: a supplied dealer is used; the first dealer is otherwise drawn from the
    seed; the player to the dealer's left plays first."""
    for dealer in range(4):
        s = new_game(players=4, seed=2, dealer=dealer)
        assert s.dealer == dealer
        assert s.turn == (dealer + 1) % 4 and s.phase == "draw"
    dealers = {new_game(players=4, seed=k).dealer for k in range(30)}
    assert len(dealers) > 1 and dealers <= {0, 1, 2, 3}
    with pytest.raises(OptionsError):
        new_game(players=4, seed=2, dealer=4)


def test_deal_passes_to_the_left():
    """RR-4.1: after a hand the deal passes to the left (seat + 1); the new hand is dealt."""
    s = build(players=3, hands={2: "4", 0: "K"}, stock="", fill="pile", pile="JK",
              phase="draw", turn=0, dealer=2)
    if s.outcome is None:
        s = play(s, "pass")
    assert s.phase == "hand_end" and s.to_act == (0,)
    assert legal_texts(s) == {"deal"}
    s = play(s, "deal")
    assert s.dealer == 0 and s.turn == 1 and s.hand_no == 1
    assert [h.bit_count() for h in s.hands] == [13] * 3


def test_dealing_order_hands_then_kitties(monkeypatch):
    """RR-4.5: the hands are dealt one card at a time clockwise from the dealer's left until
    each has 13, then the kitties in the same way until each has 11."""
    s = rigged_game(monkeypatch, players=3, dealer=1,
                    hands={2: "AS/0", 0: "KS/0", 1: "QS/0"},
                    kitties={2: "AH/0", 0: "KH/0", 1: "QH/0"}, upcards="9C/0")
    d = dump_position(s)
    assert "AS/0" in d["hands"][2] and "KS/0" in d["hands"][0] and "QS/0" in d["hands"][1]
    assert "AH/0" in d["kitties"][2] and "KH/0" in d["kitties"][0]
    assert "QH/0" in d["kitties"][1]
    assert d["pile"] == ["9C/0"]
    assert s.turn == 2


def test_upcard_is_the_top_of_the_stock_and_never_covered(monkeypatch):
    """RR-4.7, RR-4.8: one card is turned up to start the pile; nothing covers it."""
    s = rigged_game(monkeypatch, upcards="9C/0", stock="KD/0")
    d = dump_position(s)
    assert d["pile"] == ["9C/0"] and d["stock"][0] == "KD/0"
    assert s.pile_frozen is False


def test_edge1_red_three_upcard(monkeypatch):
    """RR-4.8, RR-8.2, RR-8.4, RR-7.3, RR-8.6, edge case 1: a 3♥ upcard freezes the pile and
    cannot be taken while on top; after the first player discards, the next player may take
    the pile with a natural pair matching the discard, but only as an initial melding reaching
    the minimum; the 3♥ is then placed by the taker without replacement."""
    s = rigged_game(monkeypatch, players=2, dealer=1,
                    hands={0: "8S/0 8H/0 8D/0 QS/0", 1: "QH/0 QD/0 AS/0 AH/0 AD/0 KS/0"},
                    upcards="3H/0", stock="5S/0 6S/0")
    assert s.pile_frozen is True
    assert dump_position(s)["pile"] == ["3H/0"]
    assert legal_texts(s) == {"draw"}
    assert_illegal(s, "take", "RR-8.2")
    assert_illegal(s, "take 8 8", ("RR-8.2", "RR-8.4"))
    s = play(s, "draw", "discard Q")
    assert s.pile_frozen  # covering does not unfreeze (RR-8.3)
    # seat 1, minimum 50: Q-Q-Q counts 30 (refused); with A-A-A it counts 90 (accepted)
    assert_illegal(s, "take Q Q", "RR-7.3")
    stock = s.stock_size
    s = play(s, "take Q Q, A A A")
    d = dump_position(s)
    assert d["red_threes"][1] == ["3H/0"]
    assert s.stock_size == stock  # no replacement (RR-8.6)
    assert s.pile == () and s.pile_frozen is False


def test_edge2_seven_upcard(monkeypatch):
    """RR-4.8, RR-8.4, RR-7.3, edge case 2: a 7♣ upcard may be taken with 7-7 although nobody
    may yet discard sevens, but only as an initial melding: 7-7-7 alone counts 15, refused at
    a score of 0–4,995 (minimum 50) and accepted with A-A-A (15 + 60 = 75)."""
    s = rigged_game(monkeypatch, players=2, dealer=1,
                    hands={0: "7S/0 7H/0 AS/0 AH/0 AD/0"}, upcards="7C/0")
    assert s.pile_frozen is False
    assert_illegal(s, "take 7 7", "RR-7.3")
    assert offers(s, "take 7 7, A A A")
    t = play(s, "take 7 7, A A A")
    assert t.melds[0][7].size == 3 and t.melds[0][1].size == 3


def test_edge2_seven_upcard_at_a_negative_score(monkeypatch):
    """RR-4.8, RR-7.1, edge case 2: at a negative score (minimum 15) 7-7-7 alone is enough."""
    s = rigged_game(monkeypatch, players=2, dealer=1,
                    hands={0: "7S/0 7H/0 AS/0 AH/0 AD/0"}, upcards="7C/0")
    d = dump_position(s)
    d["scores"] = [-35, 0]
    from meldhall.record import load_position

    s = load_position(d)
    s = play(s, "take 7 7")
    assert s.melds[0][7].size == 3


def test_edge3_wild_upcard(monkeypatch):
    """RR-4.8, RR-8.2, edge case 3: a 2 upcard freezes the pile from the start and the first
    player cannot take it by any route, not even with wild cards from hand."""
    s = rigged_game(monkeypatch, players=2, dealer=1, hands={0: "2S/1 2H/1 JK/0 KS/0 KH/0"},
                    upcards="2C/0")
    assert s.pile_frozen is True
    assert legal_texts(s) == {"draw"}
    assert_illegal(s, "take 2 JK", "RR-8.2")
    assert_illegal(s, "take", "RR-8.2")
    s = play(s, "draw", "discard K")
    assert s.pile_frozen  # covered by a natural card, still frozen until taken (RR-8.3)


def test_edge3_wild_upcard_option_off(monkeypatch):
    """RR-4.8, RR-8.2, RR-8.3, edge case 3 with upcard_wild_freezes = false: the 2 still cannot
    be taken while on top; once covered by a natural card the pile is not frozen."""
    s = rigged_game(monkeypatch, players=2, dealer=1,
                    hands={0: "2S/1 2H/1 JK/0 KS/0", 1: "9S/0 9H/0 AS/0 AH/0 AD/0"},
                    upcards="2C/0", options={"upcard_wild_freezes": False})
    assert s.pile_frozen is False
    assert legal_texts(s) == {"draw"}
    assert_illegal(s, "take 2 JK", "RR-8.2")
    s = play(s, "draw", "discard K")
    assert s.pile_frozen is False


def test_black_three_upcard_blocks_the_first_player(monkeypatch):
    """RR-4.8, RR-8.2: a black three upcard blocks the first player; once covered it no
    longer blocks, and it does not freeze the pile."""
    s = rigged_game(monkeypatch, players=2, dealer=1,
                    hands={0: "3S/1 3C/1 KS/0", 1: "KH/0 KD/0 AS/0 AH/0 AD/0"},
                    upcards="3C/0")
    assert s.pile_frozen is False
    assert legal_texts(s) == {"draw"}
    assert_illegal(s, "take 3 3", "RR-8.2")
    s = play(s, "draw", "discard K")
    assert offers(s, "take K K, A A A")


def test_dealt_red_threes_placed_and_replaced(monkeypatch):
    """RR-4.9: after the upcard is turned, from the dealer's left, each player places their
    dealt red threes and draws replacements; a replacement red three is placed and replaced
    in turn.  Red threes in a kitty stay there."""
    s = rigged_game(monkeypatch, players=3, dealer=0,
                    hands={1: "3H/0", 2: "3D/0 3H/1"}, kitties={0: "3D/1"},
                    upcards="8H/0", stock="3D/2 KD/0 5S/0 6C/0")
    d = dump_position(s)
    assert d["pile"] == ["8H/0"]
    assert sorted(d["red_threes"][1]) == ["3D/2", "3H/0"]
    assert "KD/0" in d["hands"][1]
    assert sorted(d["red_threes"][2]) == ["3D/0", "3H/1"]
    assert {"5S/0", "6C/0"} <= set(d["hands"][2])
    assert d["red_threes"][0] == [] and "3D/1" in d["kitties"][0]
    assert [len(h) for h in d["hands"]] == [13, 13, 13]


def test_red_three_deal_keeps_card_counts():
    """RR-4.9, RR-2.1: whatever the red threes, every card is somewhere exactly once."""
    for seed in range(20):
        s = new_game(players=2, seed=seed)
        cards = all_cards(s)
        assert len(cards) == 212 == len(set(cards))
