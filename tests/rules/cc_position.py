"""Build Classic Canasta test positions from a compact description.

A position document (meldhall.record, "meldhall-position") must list every physical card of the
pack exactly once.  :func:`build` lets a test name only the cards that matter; every other card
is put into the stock (under the named stock cards), into the bottom of the discard pile, or
into one seat's hand (``fill``).

Classic Canasta's :func:`build`, :func:`deal_order` and :func:`rigged_game` are here; the card
tokens (``7H/1`` an exact card, ``7H`` a free seven of hearts, ``7`` a free seven, ``3`` a free
black three, ``JK`` a free joker), the card allocator and the assertions are shared with
Railroad Canasta's ``rr_position`` in ``tests/canasta_position.py`` and re-exported here.
"""

from __future__ import annotations

from typing import Any, Iterable

from canasta_position import (
    Allocator, assert_illegal, check_breakdown, legal_texts, lines_by_rule, meld_rank, named_tokens,
    offers, place_rest, play, position_doc, result, rigged_new_game, tokens,
)
from canasta_position import deal_order as _deal_order
from meldhall.cards import Pack
from meldhall.games.classic_canasta.options import ClassicCanastaOptions
from meldhall.record import load_position

__all__ = ["build", "assert_illegal", "play", "legal_texts", "offers", "result", "lines_by_rule",
           "check_breakdown", "deal_order", "rigged_game"]


def build(
    *,
    players: int = 4,
    options: dict[str, Any] | None = None,
    hands: dict[int, Any] | None = None,
    melds: dict[int, list] | None = None,
    pile: Any = (),
    stock: Any = None,
    fill: str | int = "stock",
    red_threes: dict[int, Any] | None = None,
    scores: Iterable[int] | None = None,
    turn: int = 0,
    dealer: int | None = None,
    phase: str = "draw",
    pile_frozen: bool = False,
    turn_state: dict[str, Any] | None = None,
    seats_melded: Iterable[int] | None = None,
    pile_cards: Any = None,
    side_of: list[int] | None = None,
    first_taker: int | None = None,
    hand_no: int = 0,
    seed: int = 0,
):
    """A :class:`ClassicCanastaState` loaded from a position built from the arguments.

    Args:
        players: 2, 3, 4 or 6 (sets ``player_count``).
        options: further option values.
        hands: seat -> card tokens; seats not named hold no card.
        melds: side -> list of melds, each a token string or a dict with ``cards`` and
            optionally ``hidden`` and ``creator`` (default creator: the side's lowest seat).
        pile: discard pile, bottom first (the last token is the upcard).
        stock: the named top of the stock, top card first; ``[]`` with ``fill != "stock"``
            for an empty stock.
        fill: where the unnamed cards go: ``"stock"`` (under the named stock cards),
            ``"pile"`` (under the named pile cards), or a seat number (that seat's hand).
        red_threes: seat -> tokens or a count of red threes placed by that seat.
        scores: cumulative scores per side.
        turn, dealer, phase: whose turn, the dealer (default: the seat to ``turn``'s right),
            the phase.
        pile_frozen: the pile is frozen for everyone (CC-8.3).
        turn_state: extra turn-state fields of the position format.
        seats_melded: seats that have melded this hand (default: the meld creators).
        pile_cards: cards of the hand that came from the pile this turn (CC-6.8).
        side_of, first_taker: seat -> side and the first taker, for cutthroat (CC-14.1).
    """
    opts = ClassicCanastaOptions.from_json({**(options or {}), "player_count": players})
    alloc = Allocator(Pack.get(opts.decks, opts.jokers))
    hands = hands or {}
    melds = melds or {}
    red_threes = red_threes or {}
    nsides = players if players in (2, 3) else 2
    if side_of is None:
        side_of = [s if players in (2, 3) else s % 2 for s in range(players)]
    alloc.reserve_exact(named_tokens(hands, melds, pile, stock, red_threes))

    hand_cards = [alloc.take_all(hands.get(s)) for s in range(players)]
    meld_docs = []
    creators = set()
    for side in range(nsides):
        lst = []
        for m in melds.get(side, []):
            if isinstance(m, dict):
                toks = tokens(m["cards"])
                hidden = m.get("hidden", False)
                creator = m.get("creator", side_of.index(side))
            else:
                toks, hidden, creator = tokens(m), False, side_of.index(side)
            creators.add(creator)
            lst.append({"rank": meld_rank(toks), "cards": [alloc.take(t) for t in toks],
                        "hidden": hidden, "creator": creator})
        meld_docs.append(lst)
    red_docs = alloc.take_rows(red_threes, players)
    pile_list = alloc.take_all(pile)
    stock_list = alloc.take_all(stock)
    stock_list, pile_list = place_rest(alloc.rest(), fill, stock=stock_list, pile=pile_list,
                                       hands=hand_cards)
    doc = position_doc(
        game="classic-canasta", opts=opts, players=players, hands=hand_cards, melds=meld_docs,
        red_threes=red_docs, pile=pile_list, stock=stock_list, scores=scores, nsides=nsides,
        side_of=side_of, turn=turn, dealer=dealer, phase=phase, pile_frozen=pile_frozen,
        pile_cards=pile_cards, turn_state=turn_state, known=[[] for _ in range(players)],
        seed=seed, hand_no=hand_no,
        seats_melded=sorted(creators if seats_melded is None else set(seats_melded)),
        first_taker=first_taker)
    # a scenario names only the cards that matter: not a position the rules reach
    return load_position(doc, check_rules=False)


# ----------------------------------------------------------------------------------------------
# rigged deals (CC-4): the engine's one uniform shuffle replaced by a chosen card order


def deal_order(*, players: int, dealer: int, hands: dict[int, Any], upcards: Any,
               stock: Any = (), options: dict[str, Any] | None = None) -> list[str]:
    """The order in which a deal takes cards from the top of the shuffled pack.

    ``hands`` names some of each seat's dealt cards (the rest are padded with plain cards
    4–K that are not wild and not threes); the cards are dealt one at a time clockwise from the
    dealer's left (CC-4.5); then come ``upcards`` (CC-4.7), then ``stock`` (the next cards, e.g.
    red-three replacements, CC-4.10), then every other card.
    """
    opts = ClassicCanastaOptions.from_json({**(options or {}), "player_count": players})
    return _deal_order(Pack.get(opts.decks, opts.jokers), players=players, dealer=dealer,
                       packets=[(hands, opts.hand_size)], upcards=upcards, stock=stock,
                       plain=lambda c: c.rank >= 4)


def rigged_game(monkeypatch, *, players: int = 4, dealer: int = 0, hands=None, upcards=(),
                stock=(), options: dict[str, Any] | None = None):
    """``new_game`` whose shuffle yields :func:`deal_order`'s order (top of the pack first)."""
    from meldhall.games.classic_canasta import new_game

    order = deal_order(players=players, dealer=dealer, hands=hands or {}, upcards=upcards,
                       stock=stock, options=options)
    opts = ClassicCanastaOptions.from_json({**(options or {}), "player_count": players})
    return rigged_new_game(monkeypatch, new_game, Pack.get(opts.decks, opts.jokers), order,
                           players=players, dealer=dealer, options=options)
