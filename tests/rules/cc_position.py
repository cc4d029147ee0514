"""Build Classic Canasta test positions from a compact description.

A position document (meldhall.record, "meldhall-position") must list every physical card of the
pack exactly once.  :func:`build` lets a test name only the cards that matter; every other card
is put into the stock (under the named stock cards), into the bottom of the discard pile, or
into one seat's hand (``fill``).

Card tokens:

* ``7H/1``, ``JK/3`` — that exact physical card;
* ``7H`` — a free seven of hearts (lowest deck index first);
* ``7``, ``K``, ``10``, ``2`` — a free card of that rank, any suit;
* ``3`` — a free *black* three; ``3H`` / ``3D`` a red three;
* ``JK`` — a free joker.

Exactly named cards are reserved first, so ``"7H/0"`` in one place and ``"7H"`` in another never
collide.
"""

from __future__ import annotations

from typing import Any, Iterable

import pytest

from meldhall.cards import JOKER, Card, Pack, parse_card
from meldhall.errors import IllegalActionError
from meldhall.games.classic_canasta.options import ClassicCanastaOptions
from meldhall.record import POSITION_FORMAT, VERSION, dump_position, load_position

__all__ = ["build", "assert_illegal", "play", "legal_texts", "result", "lines_by_rule",
           "check_breakdown"]


def _tokens(spec) -> list[str]:
    if spec is None:
        return []
    if isinstance(spec, str):
        return spec.replace(",", " ").split()
    return [t for item in spec for t in _tokens(item)]


class _Allocator:
    def __init__(self, pack: Pack):
        self.pack = pack
        self.used = 0

    def reserve_exact(self, tokens: Iterable[str]) -> None:
        for t in tokens:
            if "/" in t:
                i = self.pack.id_of(parse_card(t))
                if (self.used >> i) & 1:
                    raise ValueError(f"card {t} named twice")
                self.used |= 1 << i

    def take(self, token: str) -> str:
        pack = self.pack
        if "/" in token:
            return parse_card(token).physical  # already reserved
        t = token.upper()
        if t in ("JK", "JOKER"):
            want = lambda c: c.rank == JOKER  # noqa: E731
        else:
            card = parse_card(t, suit_required=False)
            if card.suit is None:
                if card.rank == 3:
                    want = lambda c, r=card.rank: c.rank == r and not c.is_red  # noqa: E731
                else:
                    want = lambda c, r=card.rank: c.rank == r and c.suit is not None  # noqa: E731
            else:
                want = lambda c, r=card.rank, s=card.suit: c.rank == r and c.suit == s  # noqa: E731
        # lowest deck index first, then suit order S H D C
        order = sorted(range(pack.size), key=lambda i: (pack.cards[i].deck,
                                                        pack.cards[i].suit or 0, i))
        for i in order:
            c: Card = pack.cards[i]
            if not (self.used >> i) & 1 and want(c):
                self.used |= 1 << i
                return c.physical
        raise ValueError(f"no free card for {token!r}")

    def take_red_three(self) -> str:
        for i, c in enumerate(self.pack.cards):
            if c.rank == 3 and c.is_red and not (self.used >> i) & 1:
                self.used |= 1 << i
                return c.physical
        raise ValueError("no free red three")

    def rest(self) -> list[str]:
        return [c.physical for i, c in enumerate(self.pack.cards) if not (self.used >> i) & 1]


def _meld_rank(tokens: list[str]) -> str:
    kinds = []
    for t in tokens:
        body = t.split("/")[0].upper()
        if body in ("JK", "JOKER"):
            continue
        c = parse_card(body, suit_required=False)
        if c.rank == 2:
            continue
        kinds.append(c.rank)
    if not kinds or len(set(kinds)) != 1:
        raise ValueError(f"cannot tell the rank of meld {tokens}")
    from meldhall.games.canasta.actions import format_kind

    return format_kind(kinds[0])


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
    pack = Pack.get(opts.decks, opts.jokers)
    alloc = _Allocator(pack)
    hands = hands or {}
    melds = melds or {}
    red_threes = red_threes or {}
    nsides = players if players in (2, 3) else 2
    if side_of is None:
        side_of = [s if players in (2, 3) else s % 2 for s in range(players)]

    all_tokens: list[str] = []
    for v in hands.values():
        all_tokens += _tokens(v)
    for lst in melds.values():
        for m in lst:
            all_tokens += _tokens(m["cards"] if isinstance(m, dict) else m)
    all_tokens += _tokens(pile) + _tokens(stock)
    for v in red_threes.values():
        if not isinstance(v, int):
            all_tokens += _tokens(v)
    alloc.reserve_exact(all_tokens)

    hand_cards = [[alloc.take(t) for t in _tokens(hands.get(s))] for s in range(players)]
    meld_docs = []
    creators = set()
    for side in range(nsides):
        lst = []
        for m in melds.get(side, []):
            if isinstance(m, dict):
                toks = _tokens(m["cards"])
                hidden = m.get("hidden", False)
                creator = m.get("creator", side_of.index(side))
            else:
                toks, hidden, creator = _tokens(m), False, side_of.index(side)
            creators.add(creator)
            lst.append({"rank": _meld_rank(toks), "cards": [alloc.take(t) for t in toks],
                        "hidden": hidden, "creator": creator})
        meld_docs.append(lst)
    red_docs = []
    for s in range(players):
        v = red_threes.get(s, [])
        if isinstance(v, int):
            red_docs.append([alloc.take_red_three() for _ in range(v)])
        else:
            red_docs.append([alloc.take(t) for t in _tokens(v)])
    pile_list = [alloc.take(t) for t in _tokens(pile)]
    stock_list = [alloc.take(t) for t in _tokens(stock)]
    rest = alloc.rest()
    if fill == "stock":
        stock_list += rest
    elif fill == "pile":
        pile_list = rest + pile_list
    else:
        hand_cards[int(fill)] += rest
    if dealer is None:
        dealer = (turn - 1) % players
    ts = {"pile_cards": [c for c in _tokens(pile_cards)]}
    ts.update(turn_state or {})
    doc = {
        "format": POSITION_FORMAT,
        "version": VERSION,
        "game": "classic-canasta",
        "options": opts.to_json(),
        "seed": seed,
        "hand_no": hand_no,
        "dealer": dealer,
        "scores": list(scores) if scores is not None else [0] * nsides,
        "side_of": side_of,
        "turn": turn,
        "phase": phase,
        "stock": stock_list,
        "hands": hand_cards,
        "pile": pile_list,
        "pile_frozen": pile_frozen,
        "melds": meld_docs,
        "red_threes": red_docs,
        "known": [[] for _ in range(players)],
        "turn_state": ts,
        "seats_melded": sorted(creators if seats_melded is None else set(seats_melded)),
        "first_taker": first_taker,
        "went_out": None,
        "outcome": None,
        "log": [],
    }
    # a scenario names only the cards that matter: not a position the rules reach
    return load_position(doc, check_rules=False)


# ----------------------------------------------------------------------------------------------
# assertions


def legal_texts(state) -> set[str]:
    """The legal actions of the seat to act, as notation."""
    return {str(a) for a in state.legal_actions()}


def offers(state, text: str) -> bool:
    """Whether ``legal_actions`` offers ``text`` — or, for a one-action melding (shorthand for
    staged melds and their commit, CC-6.9 / RR-6.11), each step of it in turn."""
    action = state.parse_action(text)
    if str(action) in legal_texts(state):
        return True
    steps = state._expand(action)
    if not steps:
        return False
    for step in steps:
        if str(step) not in legal_texts(state):
            return False
        state = state.apply(step)
    return True


def assert_illegal(state, text: str, rule_id: str | tuple[str, ...]) -> IllegalActionError:
    """``text`` is refused with ``rule_id`` (or one of several acceptable IDs); the state is
    unchanged and the action is not offered by ``legal_actions`` (README: "Refused")."""
    before = dump_position(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply_text(text)
    ids = (rule_id,) if isinstance(rule_id, str) else rule_id
    assert info.value.rule_id in ids, f"expected {rule_id}, got {info.value}"
    assert dump_position(state) == before
    try:
        action = state.parse_action(text)
    except IllegalActionError:
        return info.value
    assert not state.is_legal(action)
    assert str(action) not in legal_texts(state)
    assert dump_position(state) == before
    return info.value


def play(state, *texts: str):
    """Apply actions in turn, checking that each is also offered by ``legal_actions``."""
    for text in texts:
        action = state.parse_action(text)
        # a one-action melding is shorthand for staged melds and their commit (CC-6.9,
        # RR-6.11): each step must be offered in turn
        steps = state._expand(action) or [action]
        whole = state.apply(action)
        for step in steps:
            offered = legal_texts(state)
            assert str(step) in offered, f"{text!r} ({step}) not offered; legal: {sorted(offered)}"
            assert state.is_legal(step)
            state = state.apply(step)
        assert dump_position(state) == dump_position(whole)
    return state


def result(state, side: int):
    """The :class:`SideResult` of ``side`` after the hand has been scored; its lines are
    checked to add up to the hand score."""
    oc = state.outcome
    assert oc is not None, "the hand has not been scored"
    r = next(r for r in oc.results if r.side == side)
    check_breakdown(r)
    return r


def check_breakdown(r) -> None:
    assert sum(line.points for line in r.lines) == r.hand_score


def lines_by_rule(r) -> dict[str, list[int]]:
    """Points of a side's breakdown lines grouped by rule ID."""
    out: dict[str, list[int]] = {}
    for line in r.lines:
        out.setdefault(line.rule_id, []).append(line.points)
    return out


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
    pack = Pack.get(opts.decks, opts.jokers)
    alloc = _Allocator(pack)
    toks = [t for v in hands.values() for t in _tokens(v)] + _tokens(upcards) + _tokens(stock)
    alloc.reserve_exact(toks)
    dealt = {s: [alloc.take(t) for t in _tokens(hands.get(s))] for s in range(players)}
    up = [alloc.take(t) for t in _tokens(upcards)]
    st = [alloc.take(t) for t in _tokens(stock)]
    plain = iter([c for c in alloc.rest()
                  if parse_card(c).rank >= 4])
    for s in range(players):
        while len(dealt[s]) < opts.hand_size:
            c = next(plain)
            alloc.used |= 1 << pack.id_of(parse_card(c))
            dealt[s].append(c)
    order = []
    for k in range(opts.hand_size):
        for j in range(1, players + 1):
            order.append(dealt[(dealer + j) % players][k])
    order += up + st
    order += alloc.rest()
    return order


def rigged_game(monkeypatch, *, players: int = 4, dealer: int = 0, hands=None, upcards=(),
                stock=(), options: dict[str, Any] | None = None):
    """``new_game`` whose shuffle yields :func:`deal_order`'s order (top of the pack first)."""
    import random

    from meldhall.games.classic_canasta import new_game

    order = deal_order(players=players, dealer=dealer, hands=hands or {}, upcards=upcards,
                       stock=stock, options=options)
    opts = ClassicCanastaOptions.from_json({**(options or {}), "player_count": players})
    pack = Pack.get(opts.decks, opts.jokers)
    ids = [pack.id_of(parse_card(c)) for c in order]
    real_shuffle = random.Random.shuffle

    def rigged_shuffle(self, lst):
        if len(lst) != pack.size:
            return real_shuffle(self, lst)
        # the engine deals from the end of the list after reversing it, so the shuffled list
        # is the order in which cards leave the pack
        lst[:] = ids

    monkeypatch.setattr(random.Random, "shuffle", rigged_shuffle)
    try:
        return new_game(players=players, seed=0, options=options, dealer=dealer)
    finally:
        monkeypatch.setattr(random.Random, "shuffle", real_shuffle)
