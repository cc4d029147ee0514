"""Build Railroad Canasta test positions from a compact description.

A position document (meldhall.record, "meldhall-position") must list every physical card of the
pack exactly once.  With N players the pack is 2N decks plus 2N jokers (RR-2.1), 106 × N cards,
and every card carries its deck index (``7H/3``, RR-2.2).  :func:`build` lets a test name only the
cards that matter; every other card is put into the stock (under the named stock cards), into
the bottom of the discard pile, into one seat's hand or into one seat's kitty (``fill``).

The card tokens (``7H/1`` an exact card, ``7H`` a free seven of hearts, ``7`` a free seven,
``3`` a free black three, ``JK`` a free joker), the card allocator and the assertions both
canasta games share are in ``tests/canasta_position.py``; this module adds Railroad Canasta's
:func:`build`, :func:`deal_order` and :func:`rigged_game` and re-exports the rest.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import canasta_position
from canasta_position import (
    Allocator, legal_texts, lines_by_rule, meld_rank, named_tokens, offers, place_rest, play,
    points, position_doc, result, rigged_new_game, tokens,
)
from meldhall.cards import Pack
from meldhall.errors import IllegalActionError
from meldhall.games.railroad_canasta.options import RailroadCanastaOptions
from meldhall.record import load_position

__all__ = [
    "assert_illegal",
    "build",
    "deal_order",
    "legal_texts",
    "lines_by_rule",
    "offers",
    "play",
    "points",
    "result",
    "rigged_game",
    "tokens",
]


def build(
    *,
    players: int = 2,
    options: dict[str, Any] | None = None,
    hands: dict[int, Any] | None = None,
    known: dict[int, Any] | None = None,
    kitties: dict[int, Any] | None = None,
    kitty_taken: Iterable[int] | None = None,
    melds: dict[int, list] | None = None,
    closed: dict[int, list] | None = None,
    red_threes: dict[int, Any] | None = None,
    pile: Any = (),
    pile_frozen: bool = False,
    pile_cards: Any = None,
    stock: Any = None,
    fill: Any = "stock",
    scores: Iterable[int] | None = None,
    hand_no: int = 0,
    seed: int = 0,
    dealer: int | None = None,
    turn: int = 0,
    phase: str = "meld",
    turn_state: dict[str, Any] | None = None,
):
    """A :class:`RailroadCanastaState` loaded from a position built from the arguments.

    Args:
        players: 2 to 8 (sets ``player_count``).
        options: further option values.
        hands: seat -> card tokens; seats not named hold no card.
        known: seat -> exact cards (``9C/1``) of its hand that it publicly took with the pile.
        kitties: seat -> card tokens, or a number of plain cards (8..K); those kitties are
            untaken.  Seats not named have an empty, taken kitty (unless ``kitty_taken`` says
            otherwise).
        kitty_taken: seats whose kitty has been taken (default: the seats not in ``kitties``).
        melds: seat -> list of unfinished melds (token strings; all-wild = a wild meld; black
            threes = a black-three meld).
        closed: seat -> list of seven-card canastas (token strings); the type is derived.
        red_threes: seat -> tokens or a count of red threes placed by that seat.
        pile: discard pile, bottom first (the last token is the top card).
        pile_frozen: the pile is frozen (RR-8.3).
        pile_cards: cards of the hand that came from the pile this turn.
        stock: the named top of the stock, top card first; ``""`` with ``fill`` elsewhere for
            an empty stock.
        fill: where the unnamed cards go: ``"stock"`` (under the named stock cards), ``"pile"``
            (under the named pile cards), a seat number (that seat's hand) or
            ``("kitty", seat)`` (that seat's kitty).
        scores: cumulative scores per seat.
        hand_no, seed: the hand number and the game's seed.
        dealer, turn, phase: the dealer (default: the seat to ``turn``'s right), whose turn,
            the phase.
        turn_state: extra turn-state fields of the position format (e.g.
            ``{"black_three_meld_made": True}``).
    """
    opts = RailroadCanastaOptions.from_json({**(options or {}), "player_count": players})
    alloc = Allocator(Pack.get(opts.decks, opts.jokers))
    hands = hands or {}
    kitties = kitties or {}
    melds = melds or {}
    closed = closed or {}
    red_threes = red_threes or {}
    alloc.reserve_exact(named_tokens(hands, kitties, melds, closed, pile, stock, red_threes))

    hand_cards = [alloc.take_all(hands.get(s)) for s in range(players)]

    def meld_docs(src):
        out = []
        for s in range(players):
            lst = []
            for m in src.get(s, []):
                toks = tokens(m)
                doc = {"rank": meld_rank(toks, wild=True), "cards": [alloc.take(t) for t in toks],
                       "hidden": False, "creator": s}
                lst.append(doc)
            out.append(lst)
        return out

    melds_doc = meld_docs(melds)
    closed_doc = meld_docs(closed)
    kitty_cards = alloc.take_rows(kitties, players, count=alloc.take_plain)
    red_docs = alloc.take_rows(red_threes, players)
    pile_list = alloc.take_all(pile)
    stock_list = alloc.take_all(stock)
    stock_list, pile_list = place_rest(alloc.rest(), fill, stock=stock_list, pile=pile_list,
                                       hands=hand_cards, kitties=kitty_cards)
    if kitty_taken is None:
        kitty_taken = [s for s in range(players) if s not in kitties
                       and not (isinstance(fill, tuple) and fill == ("kitty", s))]
    doc = position_doc(
        game="railroad-canasta", opts=opts, players=players, hands=hand_cards,
        melds=melds_doc, red_threes=red_docs, pile=pile_list, stock=stock_list, scores=scores,
        nsides=players, side_of=list(range(players)), turn=turn, dealer=dealer, phase=phase,
        pile_frozen=pile_frozen, pile_cards=pile_cards, turn_state=turn_state,
        known=[tokens((known or {}).get(s)) for s in range(players)], seed=seed,
        hand_no=hand_no, kitties=kitty_cards, kitty_taken=sorted(kitty_taken),
        closed=closed_doc)
    # a scenario names only the cards that matter: not a position the rules reach
    return load_position(doc, check_rules=False)


# ----------------------------------------------------------------------------------------------
# assertions


def assert_illegal(state, text: str, rule_id: str | tuple[str, ...]) -> IllegalActionError:
    """``text`` is refused with ``rule_id`` (or one of several acceptable IDs), an RR- rule; the
    state is unchanged (its position document is identical) and the action is not offered."""
    return canasta_position.assert_illegal(state, text, rule_id, prefix="RR-")


# ----------------------------------------------------------------------------------------------
# rigged deals (RR-4): the engine's one uniform shuffle replaced by a chosen card order


def deal_order(*, players: int, dealer: int, hands: dict[int, Any], kitties: dict[int, Any],
               upcards: Any, stock: Any = (), options: dict[str, Any] | None = None
               ) -> list[str]:
    """The order in which a deal takes cards from the top of the shuffled pack.

    ``hands`` and ``kitties`` name some of each seat's cards (the rest are padded with plain
    cards 4–K other than sevens); hands are dealt one card at a time clockwise from the
    dealer's left until each has 13, then the kitties the same way until each has 11 (RR-4.5);
    then come ``upcards`` (RR-4.7), then ``stock`` (the next cards, e.g. red-three
    replacements, RR-4.9), then every other card.
    """
    opts = RailroadCanastaOptions.from_json({**(options or {}), "player_count": players})
    return canasta_position.deal_order(
        Pack.get(opts.decks, opts.jokers), players=players, dealer=dealer,
        packets=[(hands, opts.hand_size), (kitties, opts.kitty_size)], upcards=upcards,
        stock=stock, plain=lambda c: c.rank >= 4 and c.rank != 7)


def rigged_game(monkeypatch, *, players: int = 2, dealer: int = 0, hands=None, kitties=None,
                upcards=(), stock=(), options: dict[str, Any] | None = None):
    """``new_game`` whose shuffle yields :func:`deal_order`'s order (top of the pack first)."""
    from meldhall.games.railroad_canasta import new_game

    order = deal_order(players=players, dealer=dealer, hands=hands or {}, kitties=kitties or {},
                       upcards=upcards, stock=stock, options=options)
    opts = RailroadCanastaOptions.from_json({**(options or {}), "player_count": players})
    return rigged_new_game(monkeypatch, new_game, Pack.get(opts.decks, opts.jokers), order,
                           players=players, dealer=dealer, options=options)
