"""CC-1 to CC-4 (players, pack, card values, deal) and the deal-time options."""

from __future__ import annotations

import pytest

from canasta_position import all_cards
from cc_position import assert_illegal, build, play, rigged_game
from meldhall.cards import Card
from meldhall.games.canasta.values import CLASSIC_VALUES
from meldhall.games.classic_canasta import new_game
from meldhall.record import dump_position


def _physical(cards) -> list[str]:
    return [c.physical for c in cards]


# --------------------------------------------------------------------------- CC-1, CC-2, CC-3


@pytest.mark.parametrize("players, sides", [(2, (0, 1)), (3, (0, 1, 2)), (4, (0, 1, 0, 1)),
                                            (6, (0, 1, 0, 1, 0, 1))])
def test_sides_and_seating(players, sides):
    """CC-1.2, CC-1.3, CC-1.4, CC-1.6: partners sit opposite / alternate; 2 and 3 play alone."""
    s = new_game(players=players, seed=3)
    assert s.side_of == sides
    assert len(s.scores) == len(set(sides))


def test_five_players_not_supported():
    """CC-1.5: five players are refused."""
    from meldhall.errors import OptionsError

    with pytest.raises(OptionsError):
        new_game(players=5, seed=1)


@pytest.mark.parametrize("players, size, jokers", [(2, 108, 4), (3, 108, 4), (4, 108, 4),
                                                   (6, 162, 6)])
def test_pack_size(players, size, jokers):
    """CC-2.1, CC-2.2: 2 decks + 4 jokers (108) for 2–4 players; 3 decks + 6 jokers for 6."""
    s = new_game(players=players, seed=5)
    cards = all_cards(s)
    assert len(cards) == size == len(set(cards))
    assert sum(1 for c in cards if c.startswith("JK")) == jokers


def test_card_values():
    """CC-3.4: Jk 50, 2 20, A 20, K–8 10, 7–4 5, black 3 5."""
    v = CLASSIC_VALUES
    assert v[0] == 50 and v[2] == 20 and v[1] == 20
    assert [v[r] for r in (13, 12, 11, 10, 9, 8)] == [10] * 6
    assert [v[r] for r in (7, 6, 5, 4)] == [5] * 4
    assert v[3] == 5


def test_edge25_duplicate_cards_tracked_by_deck_index():
    """CC-2.3, edge case 25: two physically different Q♥ are both in play, one in a meld and
    one in the discard pile, and each is tracked by its deck index."""
    s = build(hands={0: "Q 5 6", 1: "8 8 9"}, melds={0: ["QH/0 QS QD"]}, pile="7 QH/1",
              stock="4", phase="draw")
    d = dump_position(s)
    assert "QH/0" in d["melds"][0][0]["cards"]
    assert d["pile"][-1] == "QH/1"
    s = play(s, "take")  # the upcard joins the side's meld of queens (CC-8.6(c))
    d = dump_position(s)
    assert {"QH/0", "QH/1"} <= set(d["melds"][0][0]["cards"])


# --------------------------------------------------------------------------- CC-4 deal


@pytest.mark.parametrize("players, size", [(2, 15), (3, 13), (4, 11), (6, 13)])
def test_hand_sizes(players, size):
    """CC-4.4: 15 cards (2p), 13 (3p), 11 (4p), 13 (6p); red threes are replaced (CC-4.10)."""
    for seed in range(5):
        s = new_game(players=players, seed=seed)
        assert [h.bit_count() for h in s.hands] == [size] * players
        assert not any(c.rank == 3 and c.is_red for seat in range(players)
                       for c in s.hand_cards(seat))


def test_dealer_supplied_and_first_turn():
    """CC-4.1, CC-5.1: a supplied dealer is used; the player to the dealer's left starts."""
    for dealer in range(4):
        s = new_game(players=4, seed=2, dealer=dealer)
        assert s.dealer == dealer
        assert s.turn == (dealer + 1) % 4 and s.phase == "draw"
    s = new_game(players=4, seed=11)
    assert 0 <= s.dealer < 4


def test_deal_passes_to_the_left():
    """CC-4.2: after a hand the next dealer is the current dealer's left (seat + 1)."""
    s = build(hands={3: "K"}, melds={1: ["A A A A A A A"]}, phase="meld", turn=3)
    s = play(s, "discard K")  # seat 3 goes out
    assert s.phase == "hand_end"
    s = s.apply_text("deal")
    assert s.dealer == 3 and s.turn == 0 and s.hand_no == 1


def test_dealing_order_one_at_a_time_from_the_left(monkeypatch):
    """CC-4.5: cards are dealt one at a time clockwise from the dealer's left."""
    s = rigged_game(monkeypatch, players=4, dealer=2,
                    hands={3: "AS/0", 0: "KS/0", 1: "QS/0", 2: "JS/0"}, upcards="9C/0")
    # the first card of the pack goes to seat 3 (dealer 2's left), the second to seat 0, …
    assert "AS/0" in _physical(s.hand_cards(3))
    assert "KS/0" in _physical(s.hand_cards(0))
    assert "QS/0" in _physical(s.hand_cards(1))
    assert "JS/0" in _physical(s.hand_cards(2))
    assert s.turn == 3


def test_edge1_chain_of_bad_upcards(monkeypatch):
    """CC-4.7, CC-4.8, CC-4.9, edge case 1: upcards 3♠, Jk, 3♥, 9♣ are all turned, the pile is
    frozen and 9♣ is on top; the player who takes the pile places the 3♥ without a
    replacement."""
    s = rigged_game(monkeypatch, players=4, dealer=0,
                    hands={1: "9S/0 9H/0 AS/0 AH/0 AD/0"},
                    upcards="3S/0 JK/0 3H/0 9C/0")
    d = dump_position(s)
    assert d["pile"] == ["3S/0", "JK/0", "3H/0", "9C/0"]
    assert s.pile_frozen is True
    assert s.upcard == Card.parse("9C/0")
    stock_before = s.stock_size
    s = play(s, "take 9 9, A A A")
    d = dump_position(s)
    assert "3H/0" in d["red_threes"][1]
    assert {"3S/0", "JK/0"} <= set(d["hands"][1])
    assert s.stock_size == stock_before  # no replacement for the pile's red three
    # 11 cards - 5 melded + 2 from the pile (the red three is placed)
    assert s.hands[1].bit_count() == 8


def test_black_three_upcard_does_not_freeze(monkeypatch):
    """CC-4.7, CC-4.8: a black three turned up is covered but does not freeze the pile."""
    s = rigged_game(monkeypatch, hands={}, upcards="3C/0 9C/0")
    assert dump_position(s)["pile"] == ["3C/0", "9C/0"]
    assert s.pile_frozen is False


def test_option_black_three_upcard_leave(monkeypatch):
    """CC-4.7 option black_three_upcard="leave": a black three upcard stays on top and blocks
    the first player (CC-8.2, CC-8.10)."""
    s = rigged_game(monkeypatch, hands={1: "3S/1 3C/1"}, upcards="3C/0 9C/0",
                    options={"black_three_upcard": "leave"})
    assert dump_position(s)["pile"] == ["3C/0"]
    assert s.pile_frozen is False
    assert_illegal(s, "take", "CC-8.2")
    assert [str(a) for a in s.legal_actions()] == ["draw"]


def test_option_black_three_upcard_leave_stops_a_cover(monkeypatch):
    """CC-4.7 option black_three_upcard="leave": covering a wild card stops at a black three,
    which stays on top; the wild card still freezes the pile (CC-4.8)."""
    s = rigged_game(monkeypatch, hands={}, upcards="JK/0 3S/0 9C/0",
                    options={"black_three_upcard": "leave"})
    assert dump_position(s)["pile"] == ["JK/0", "3S/0"]
    assert s.pile_frozen is True


def test_red_three_upcard_freezes(monkeypatch):
    """CC-4.8: a red three turned up freezes the pile (default)."""
    s = rigged_game(monkeypatch, hands={}, upcards="3D/0 9C/0")
    assert dump_position(s)["pile"] == ["3D/0", "9C/0"]
    assert s.pile_frozen is True


def test_option_red_three_upcard_freezes_false(monkeypatch):
    """CC-4.8 option red_three_upcard_freezes=false: a covered red three does not freeze; a
    wild card still does."""
    s = rigged_game(monkeypatch, hands={}, upcards="3D/0 9C/0",
                    options={"red_three_upcard_freezes": False})
    assert dump_position(s)["pile"] == ["3D/0", "9C/0"]
    assert s.pile_frozen is False
    monkeypatch.undo()
    s = rigged_game(monkeypatch, hands={}, upcards="2D/0 9C/0",
                    options={"red_three_upcard_freezes": False})
    assert s.pile_frozen is True


def test_edge2_replacement_red_three_in_the_deal(monkeypatch):
    """CC-4.10, edge case 2: a dealt red three's replacement is another red three: it is placed
    and the player draws again."""
    s = rigged_game(monkeypatch, players=4, dealer=0, hands={1: "3H/0"}, upcards="9C/0",
                    stock="3D/0 KS/1")
    d = dump_position(s)
    assert sorted(d["red_threes"][1]) == ["3D/0", "3H/0"]
    assert "KS/1" in d["hands"][1]
    assert s.hands[1].bit_count() == 11


def test_edge2_replacement_red_three_on_a_stock_draw():
    """CC-5.3, edge case 2: a red three drawn from the stock is placed and replaced, and a
    replacement red three is placed and replaced in turn."""
    s = build(hands={0: "5 6 7"}, stock="3H 3D KS/1 4", phase="draw")
    s = play(s, "draw")
    d = dump_position(s)
    assert len(d["red_threes"][0]) == 2
    assert "KS/1" in d["hands"][0] and s.hands[0].bit_count() == 4
    assert s.phase == "meld"


def test_edge29_setup_order(monkeypatch):
    """CC-4.7, CC-4.8, CC-4.10, edge case 29: dealer 0; the stock's top cards after the deal
    are 2♣, 8♥, 5♠, K♦, 6♣; seat 1 was dealt one red three and seat 3 two.  The 2♣ and 8♥ are
    turned (pile frozen, top 8♥); then seat 1 places its red three and receives 5♠; then seat
    3 places its two and receives K♦ and 6♣."""
    s = rigged_game(monkeypatch, players=4, dealer=0,
                    hands={1: "3H/0", 3: "3D/0 3H/1"},
                    upcards="2C/0 8H/0", stock="5S/0 KD/0 6C/0")
    d = dump_position(s)
    assert d["pile"] == ["2C/0", "8H/0"]
    assert s.pile_frozen is True
    assert d["red_threes"][1] == ["3H/0"]
    assert sorted(d["red_threes"][3]) == ["3D/0", "3H/1"]
    assert "5S/0" in d["hands"][1]
    assert {"KD/0", "6C/0"} <= set(d["hands"][3])
    assert [len(h) for h in d["hands"]] == [11, 11, 11, 11]
