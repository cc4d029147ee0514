"""Build Railroad Canasta test positions from a compact description.

A position document (meldhall.record, "meldhall-position") must list every physical card of the
pack exactly once.  With N players the pack is 2N decks plus 2N jokers (RR-2.1), 106 × N cards,
and every card carries its deck index (``7H/3``, RR-2.2).  :func:`build` lets a test name only the
cards that matter; every other card is put into the stock (under the named stock cards), into
the bottom of the discard pile, into one seat's hand or into one seat's kitty (``fill``).

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

from collections.abc import Iterable
from typing import Any

import pytest

from meldhall.cards import JOKER, Card, Pack, parse_card
from meldhall.errors import IllegalActionError
from meldhall.games.canasta.actions import format_kind
from meldhall.games.railroad_canasta.options import RailroadCanastaOptions
from meldhall.record import POSITION_FORMAT, VERSION, dump_position, load_position

__all__ = [
    "assert_illegal",
    "build",
    "deal_order",
    "legal_texts",
    "lines_by_rule",
    "play",
    "points",
    "result",
    "rigged_game",
    "tokens",
]


def tokens(spec) -> list[str]:
    """Card tokens of a string (space or comma separated) or nested lists of strings."""
    if spec is None:
        return []
    if isinstance(spec, str):
        return spec.replace(",", " ").split()
    return [t for item in spec for t in tokens(item)]


class _Allocator:
    def __init__(self, pack: Pack):
        self.pack = pack
        self.used = 0
        # lowest deck index first, then suit order S H D C
        self.order = sorted(range(pack.size), key=lambda i: (pack.cards[i].deck,
                                                             pack.cards[i].suit or 0, i))

    def reserve_exact(self, toks: Iterable[str]) -> None:
        for t in toks:
            if "/" in t:
                i = self.pack.id_of(parse_card(t))
                if (self.used >> i) & 1:
                    raise ValueError(f"card {t} named twice")
                self.used |= 1 << i

    def take(self, token: str) -> str:
        if "/" in token:
            return parse_card(token).physical  # already reserved
        t = token.upper()
        joker = t in ("JK", "JOKER")
        card = None if joker else parse_card(t, suit_required=False)

        def want(c: Card) -> bool:
            if card is None:
                return c.rank == JOKER
            if c.rank != card.rank or c.suit is None:
                return False
            if card.suit is None:
                return card.rank != 3 or not c.is_red  # a bare 3 is a black three
            return c.suit == card.suit

        return self._first(want, token)

    def _first(self, want, what) -> str:
        for i in self.order:
            c: Card = self.pack.cards[i]
            if not (self.used >> i) & 1 and want(c):
                self.used |= 1 << i
                return c.physical
        raise ValueError(f"no free card for {what!r}")

    def take_red_three(self) -> str:
        return self._first(lambda c: c.rank == 3 and c.is_red, "red three")

    def take_plain(self) -> str:
        """A card of rank 8..K (10 points, never wild, a three or a seven)."""
        return self._first(lambda c: 8 <= c.rank <= 13, "plain card")

    def rest(self) -> list[str]:
        return [c.physical for i, c in enumerate(self.pack.cards) if not (self.used >> i) & 1]


def _meld_rank(toks: list[str]) -> str:
    kinds = []
    for t in toks:
        body = t.split("/")[0].upper()
        if body in ("JK", "JOKER"):
            continue
        c = parse_card(body, suit_required=False)
        if c.rank == 2:
            continue
        kinds.append(c.rank)
    if not kinds:
        return "wild"
    if len(set(kinds)) != 1:
        raise ValueError(f"cannot tell the rank of meld {toks}")
    return format_kind(kinds[0])


def build(
    *,
    players: int = 2,
    options: dict[str, Any] | None = None,
    hands: dict[int, Any] | None = None,
    kitties: dict[int, Any] | None = None,
    kitty_taken: Iterable[int] | None = None,
    melds: dict[int, list] | None = None,
    closed: dict[int, list] | None = None,
    pile: Any = (),
    stock: Any = None,
    fill: Any = "stock",
    red_threes: dict[int, Any] | None = None,
    scores: Iterable[int] | None = None,
    turn: int = 0,
    dealer: int | None = None,
    phase: str = "meld",
    pile_frozen: bool = False,
    turn_state: dict[str, Any] | None = None,
    pile_cards: Any = None,
    known: dict[int, Any] | None = None,
    hand_no: int = 0,
    seed: int = 0,
):
    """A :class:`RailroadCanastaState` loaded from a position built from the arguments.

    Args:
        players: 2 to 8 (sets ``player_count``).
        options: further option values.
        hands: seat -> card tokens; seats not named hold no card.
        kitties: seat -> card tokens, or a number of plain cards (8..K); those kitties are
            untaken.  Seats not named have an empty, taken kitty (unless ``kitty_taken`` says
            otherwise).
        kitty_taken: seats whose kitty has been taken (default: the seats not in ``kitties``).
        melds: seat -> list of unfinished melds (token strings; all-wild = a wild meld; black
            threes = a black-three meld).
        closed: seat -> list of seven-card canastas (token strings); the type is derived.
        pile: discard pile, bottom first (the last token is the top card).
        stock: the named top of the stock, top card first; ``""`` with ``fill`` elsewhere for
            an empty stock.
        fill: where the unnamed cards go: ``"stock"`` (under the named stock cards), ``"pile"``
            (under the named pile cards), a seat number (that seat's hand) or
            ``("kitty", seat)`` (that seat's kitty).
        red_threes: seat -> tokens or a count of red threes placed by that seat.
        scores: cumulative scores per seat.
        turn, dealer, phase: whose turn, the dealer (default: the seat to ``turn``'s right),
            the phase.
        pile_frozen: the pile is frozen (RR-8.3).
        turn_state: extra turn-state fields of the position format (e.g.
            ``{"black_three_meld_made": True}``).
        pile_cards: cards of the hand that came from the pile this turn.
        known: seat -> exact cards (``9C/1``) of its hand that it publicly took with the pile.
    """
    opts = RailroadCanastaOptions.from_json({**(options or {}), "player_count": players})
    pack = Pack.get(opts.decks, opts.jokers)
    alloc = _Allocator(pack)
    hands = hands or {}
    kitties = kitties or {}
    melds = melds or {}
    closed = closed or {}
    red_threes = red_threes or {}

    named: list[str] = []
    for v in hands.values():
        named += tokens(v)
    for v in kitties.values():
        if not isinstance(v, int):
            named += tokens(v)
    for lst in list(melds.values()) + list(closed.values()):
        for m in lst:
            named += tokens(m)
    named += tokens(pile) + tokens(stock)
    for v in red_threes.values():
        if not isinstance(v, int):
            named += tokens(v)
    alloc.reserve_exact(named)

    hand_cards = [[alloc.take(t) for t in tokens(hands.get(s))] for s in range(players)]

    def meld_docs(src, what):
        out = []
        for s in range(players):
            lst = []
            for m in src.get(s, []):
                toks = tokens(m)
                doc = {"rank": _meld_rank(toks), "cards": [alloc.take(t) for t in toks],
                       "hidden": False, "creator": s}
                lst.append(doc)
            out.append(lst)
        return out

    melds_doc = meld_docs(melds, "meld")
    closed_doc = meld_docs(closed, "canasta")
    kitty_cards = []
    for s in range(players):
        v = kitties.get(s, [])
        if isinstance(v, int):
            kitty_cards.append([alloc.take_plain() for _ in range(v)])
        else:
            kitty_cards.append([alloc.take(t) for t in tokens(v)])
    red_docs = []
    for s in range(players):
        v = red_threes.get(s, [])
        if isinstance(v, int):
            red_docs.append([alloc.take_red_three() for _ in range(v)])
        else:
            red_docs.append([alloc.take(t) for t in tokens(v)])
    pile_list = [alloc.take(t) for t in tokens(pile)]
    stock_list = [alloc.take(t) for t in tokens(stock)]
    rest = alloc.rest()
    if fill == "stock":
        stock_list += rest
    elif fill == "pile":
        pile_list = rest + pile_list
    elif isinstance(fill, tuple) and fill[0] == "kitty":
        kitty_cards[fill[1]] += rest
    else:
        hand_cards[int(fill)] += rest
    if kitty_taken is None:
        kitty_taken = [s for s in range(players) if s not in kitties
                       and not (isinstance(fill, tuple) and fill == ("kitty", s))]
    if dealer is None:
        dealer = (turn - 1) % players
    ts = {"pile_cards": list(tokens(pile_cards))}
    ts.update(turn_state or {})
    doc = {
        "format": POSITION_FORMAT,
        "version": VERSION,
        "game": "railroad-canasta",
        "options": opts.to_json(),
        "seed": seed,
        "hand_no": hand_no,
        "dealer": dealer,
        "scores": list(scores) if scores is not None else [0] * players,
        "side_of": list(range(players)),
        "turn": turn,
        "phase": phase,
        "stock": stock_list,
        "hands": hand_cards,
        "pile": pile_list,
        "pile_frozen": pile_frozen,
        "melds": melds_doc,
        "red_threes": red_docs,
        "known": [tokens((known or {}).get(s)) for s in range(players)],
        "turn_state": ts,
        "went_out": None,
        "outcome": None,
        "log": [],
        "kitties": kitty_cards,
        "kitty_taken": sorted(kitty_taken),
        "closed": closed_doc,
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
    unchanged (its position document is identical) and the action is not offered."""
    before = dump_position(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply_text(text)
    ids = (rule_id,) if isinstance(rule_id, str) else rule_id
    assert info.value.rule_id in ids, f"expected {rule_id}, got {info.value}"
    assert info.value.rule_id.startswith("RR-")
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


def result(state, seat: int):
    """The :class:`SideResult` of ``seat`` once the hand is scored; its lines add up."""
    oc = state.outcome
    assert oc is not None, "the hand has not been scored"
    r = next(r for r in oc.results if r.side == seat)
    assert sum(line.points for line in r.lines) == r.hand_score
    return r


def lines_by_rule(r) -> dict[str, list[int]]:
    """Points of a seat's breakdown lines grouped by rule ID."""
    out: dict[str, list[int]] = {}
    for line in r.lines:
        out.setdefault(line.rule_id, []).append(line.points)
    return out


def points(r, rule: str) -> int:
    """Sum of a seat's breakdown lines of one rule."""
    return sum(line.points for line in r.lines if line.rule_id == rule)


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
    pack = Pack.get(opts.decks, opts.jokers)
    alloc = _Allocator(pack)
    toks = [t for v in list(hands.values()) + list(kitties.values()) for t in tokens(v)]
    toks += tokens(upcards) + tokens(stock)
    alloc.reserve_exact(toks)
    dealt = {s: [alloc.take(t) for t in tokens(hands.get(s))] for s in range(players)}
    kit = {s: [alloc.take(t) for t in tokens(kitties.get(s))] for s in range(players)}
    up = [alloc.take(t) for t in tokens(upcards)]
    st = [alloc.take(t) for t in tokens(stock)]
    plain = iter([c for c in alloc.rest() if parse_card(c).rank >= 4 and parse_card(c).rank != 7])
    for packets, size in ((dealt, opts.hand_size), (kit, opts.kitty_size)):
        for s in range(players):
            while len(packets[s]) < size:
                c = next(plain)
                alloc.used |= 1 << pack.id_of(parse_card(c))
                packets[s].append(c)
    order = []
    for packets, size in ((dealt, opts.hand_size), (kit, opts.kitty_size)):
        for k in range(size):
            for j in range(1, players + 1):
                order.append(packets[(dealer + j) % players][k])
    order += up + st
    order += alloc.rest()
    return order


def rigged_game(monkeypatch, *, players: int = 2, dealer: int = 0, hands=None, kitties=None,
                upcards=(), stock=(), options: dict[str, Any] | None = None):
    """``new_game`` whose shuffle yields :func:`deal_order`'s order (top of the pack first)."""
    import random

    from meldhall.games.railroad_canasta import new_game

    order = deal_order(players=players, dealer=dealer, hands=hands or {}, kitties=kitties or {},
                       upcards=upcards, stock=stock, options=options)
    opts = RailroadCanastaOptions.from_json({**(options or {}), "player_count": players})
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
