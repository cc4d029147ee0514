"""What the position builders and rules tests of both canasta games share.

``tests/rules/cc_position.py`` (Classic Canasta) and ``tests/railroad/rr_position.py`` (Railroad
Canasta) build on this module: they add each game's ``build``, ``deal_order`` and
``rigged_game`` and re-export the assertions below, so a rules test imports everything from its
own game's module.  (``tests/`` is on ``sys.path``: see ``tests/conftest.py``.)

Card tokens (see :func:`tokens` and :class:`Allocator`):

* ``7H/1``, ``JK/3`` — that exact physical card;
* ``7H`` — a free seven of hearts (lowest deck index first);
* ``7``, ``K``, ``10``, ``2`` — a free card of that rank, any suit;
* ``3`` — a free *black* three; ``3H`` / ``3D`` a red three;
* ``JK`` — a free joker.

Exactly named cards are reserved first, so ``"7H/0"`` in one place and ``"7H"`` in another never
collide.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from meldhall.cards import JOKER, Card, Pack, parse_card
from meldhall.errors import IllegalActionError, RecordError
from meldhall.games.canasta.actions import format_kind
from meldhall.record import POSITION_FORMAT, VERSION, dump_position, load_position

__all__ = [
    "Allocator",
    "all_cards",
    "assert_illegal",
    "check_breakdown",
    "check_option_tests",
    "deal_order",
    "legal_texts",
    "lines_by_rule",
    "meld_rank",
    "named_tokens",
    "offers",
    "place_rest",
    "play",
    "points",
    "position_doc",
    "red_three_into_hand",
    "refused",
    "result",
    "rigged_new_game",
    "stock_cards",
    "stock_into_hand",
    "tokens",
]


# ----------------------------------------------------------------------------------------------
# card tokens and the card allocator


def tokens(spec) -> list[str]:
    """Card tokens of a string (space or comma separated) or nested lists of strings."""
    if spec is None:
        return []
    if isinstance(spec, str):
        return spec.replace(",", " ").split()
    return [t for item in spec for t in tokens(item)]


class Allocator:
    """Hands out the physical cards of ``pack`` for card tokens, each card at most once.

    Free cards are taken lowest deck index first, then in suit order S H D C.

    Attributes:
        pack: the :class:`Pack` of the position.
        used: bitmask of the card ids already given out (or reserved).
        order: card ids in the order free cards are taken.
    """

    def __init__(self, pack: Pack):
        self.pack = pack
        self.used = 0
        # lowest deck index first, then suit order S H D C
        self.order = sorted(range(pack.size), key=lambda i: (pack.cards[i].deck,
                                                             pack.cards[i].suit or 0, i))

    def reserve_exact(self, toks: Iterable[str]) -> None:
        """Reserve the exactly named cards (``7H/1``) among ``toks``; a card named twice is
        a ``ValueError``."""
        for t in toks:
            if "/" in t:
                i = self.pack.id_of(parse_card(t))
                if (self.used >> i) & 1:
                    raise ValueError(f"card {t} named twice")
                self.used |= 1 << i

    def take(self, token: str) -> str:
        """The physical card (``"7H/0"``) for one token; an exact card must be reserved."""
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

    def _first(self, want: Callable[[Card], bool], what: str) -> str:
        for i in self.order:
            c: Card = self.pack.cards[i]
            if not (self.used >> i) & 1 and want(c):
                self.used |= 1 << i
                return c.physical
        raise ValueError(f"no free card for {what!r}")

    def take_red_three(self) -> str:
        """A free red three."""
        return self._first(lambda c: c.rank == 3 and c.is_red, "red three")

    def take_plain(self) -> str:
        """A card of rank 8..K (10 points, never wild, a three or a seven)."""
        return self._first(lambda c: 8 <= c.rank <= 13, "plain card")

    def take_all(self, spec) -> list[str]:
        """The physical cards of a token spec (see :func:`tokens`), in order."""
        return [self.take(t) for t in tokens(spec)]

    def take_rows(self, src: dict[int, Any], seats: int,
                  count: Callable[[], str] | None = None) -> list[list[str]]:
        """Per seat ``0..seats-1``: ``src[seat]`` as tokens, or, when it is an ``int``, that
        many cards taken by ``count`` (default :meth:`take_red_three`: the ``red_threes``
        argument of the builders)."""
        take_one = count or self.take_red_three
        rows = []
        for s in range(seats):
            v = src.get(s, [])
            if isinstance(v, int):
                rows.append([take_one() for _ in range(v)])
            else:
                rows.append(self.take_all(v))
        return rows

    def rest(self) -> list[str]:
        """Every card not given out yet, by card id."""
        return [c.physical for i, c in enumerate(self.pack.cards) if not (self.used >> i) & 1]


def named_tokens(*specs) -> list[str]:
    """Every token of ``specs``: token specs, meld dicts (their ``cards``), and lists or dicts
    (seat -> spec) of those; an ``int`` (a number of cards, not their names) names none."""
    out: list[str] = []
    for spec in specs:
        if isinstance(spec, int):
            continue
        if isinstance(spec, dict):
            out += tokens(spec["cards"]) if "cards" in spec else named_tokens(*spec.values())
        elif isinstance(spec, (list, tuple)):
            out += named_tokens(*spec)
        else:
            out += tokens(spec)
    return out


def meld_rank(toks: list[str], *, wild: bool = False) -> str:
    """The rank of a meld (its notation, ``"K"``) from its card tokens; with ``wild`` an
    all-wild meld is a ``"wild"`` meld (RR-6.4), otherwise a ``ValueError``."""
    kinds = []
    for t in toks:
        body = t.split("/")[0].upper()
        if body in ("JK", "JOKER"):
            continue
        c = parse_card(body, suit_required=False)
        if c.rank == 2:
            continue
        kinds.append(c.rank)
    if not kinds and wild:
        return "wild"
    if not kinds or len(set(kinds)) != 1:
        raise ValueError(f"cannot tell the rank of meld {toks}")
    return format_kind(kinds[0])


def place_rest(rest: list[str], fill: Any, *, stock: list[str], pile: list[str],
               hands: list[list[str]], kitties: list[list[str]] | None = None
               ) -> tuple[list[str], list[str]]:
    """Put ``rest`` (the cards nobody named) where ``fill`` says: ``"stock"`` (under the named
    stock cards), ``"pile"`` (under the named pile cards), ``("kitty", seat)`` (that seat's
    kitty, extended in place) or a seat number (that seat's hand, extended in place).

    Returns:
        (stock, pile): the stock (top card first) and the pile (bottom first).
    """
    if fill == "stock":
        stock = stock + rest
    elif fill == "pile":
        pile = rest + pile
    elif kitties is not None and isinstance(fill, tuple) and fill[0] == "kitty":
        kitties[fill[1]] += rest
    else:
        hands[int(fill)] += rest
    return stock, pile


def position_doc(*, game: str, opts, players: int, hands: list[list[str]],
                 melds: list[list[dict]], red_threes: list[list[str]], pile: list[str],
                 stock: list[str], scores: Iterable[int] | None, nsides: int,
                 side_of: list[int], turn: int, dealer: int | None, phase: str,
                 pile_frozen: bool, pile_cards: Any, turn_state: dict[str, Any] | None,
                 known: list[list[str]], seed: int, hand_no: int,
                 **extra: Any) -> dict[str, Any]:
    """A "meldhall-position" document of a canasta game (cards as physical cards, ``"7H/0"``).

    ``dealer`` defaults to the seat to ``turn``'s right; ``scores`` to zero for each of
    ``nsides`` columns; ``pile_cards`` (tokens) and ``turn_state`` (further fields) make the
    turn state.  ``extra`` adds the game's own fields.
    """
    if dealer is None:
        dealer = (turn - 1) % players
    ts = {"pile_cards": list(tokens(pile_cards))}
    ts.update(turn_state or {})
    return {
        "format": POSITION_FORMAT,
        "version": VERSION,
        "game": game,
        "options": opts.to_json(),
        "seed": seed,
        "hand_no": hand_no,
        "dealer": dealer,
        "scores": list(scores) if scores is not None else [0] * nsides,
        "side_of": side_of,
        "turn": turn,
        "phase": phase,
        "stock": stock,
        "hands": hands,
        "pile": pile,
        "pile_frozen": pile_frozen,
        "melds": melds,
        "red_threes": red_threes,
        "known": known,
        "turn_state": ts,
        "went_out": None,
        "outcome": None,
        "log": [],
        **extra,
    }


def all_cards(state) -> list[str]:
    """Every physical card of ``state``'s position (stock, pile, hands, kitties, melds, closed
    canastas, red threes); each card of the pack once if the cards are conserved."""
    d = dump_position(state)
    cards = list(d["stock"]) + list(d["pile"])
    for rows in ("hands", "kitties", "red_threes"):
        for row in d.get(rows, ()):
            cards += row
    for sides in ("melds", "closed"):
        for side in d.get(sides, ()):
            for m in side:
                cards += m["cards"]
    return cards


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


def assert_illegal(state, text: str, rule_id: str | tuple[str, ...], *,
                   prefix: str | None = None) -> IllegalActionError:
    """``text`` is refused with ``rule_id`` (or one of several acceptable IDs; with ``prefix``,
    an ID of that game, ``"RR-"``); the state is unchanged (its position document is identical)
    and the action is not offered by ``legal_actions`` (README: "Refused")."""
    before = dump_position(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply_text(text)
    ids = (rule_id,) if isinstance(rule_id, str) else rule_id
    assert info.value.rule_id in ids, f"expected {rule_id}, got {info.value}"
    if prefix is not None:
        assert info.value.rule_id.startswith(prefix)
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
    """The :class:`SideResult` of ``side`` (a seat in Railroad) after the hand has been scored;
    its lines are checked to add up to the hand score."""
    oc = state.outcome
    assert oc is not None, "the hand has not been scored"
    r = next(r for r in oc.results if r.side == side)
    check_breakdown(r)
    return r


def check_breakdown(r) -> None:
    """A side's breakdown lines add up to its hand score."""
    assert sum(line.points for line in r.lines) == r.hand_score


def lines_by_rule(r) -> dict[str, list[int]]:
    """Points of a side's breakdown lines grouped by rule ID."""
    out: dict[str, list[int]] = {}
    for line in r.lines:
        out.setdefault(line.rule_id, []).append(line.points)
    return out


def points(r, rule: str) -> int:
    """Sum of a side's breakdown lines of one rule."""
    return sum(line.points for line in r.lines if line.rule_id == rule)


# ----------------------------------------------------------------------------------------------
# positions the rules cannot reach (test_*_impossible_positions.py)


def refused(doc: dict, *words: str) -> None:
    """``load_position(doc)`` raises :class:`RecordError` naming each of ``words``."""
    with pytest.raises(RecordError) as exc:
        load_position(doc)
    for w in words:
        assert w in str(exc.value), str(exc.value)


def stock_cards(doc: dict, prefix: str, n: int, *, remove: bool = False) -> list[str]:
    """``n`` stock cards of ``doc`` whose rank is ``prefix`` ("5", "JK"; "W" for any wild
    card), taken out of the stock with ``remove``."""
    def rank(c):
        body = c.split("/")[0]
        return "JK" if body == "JK" else body[:-1]
    got = [c for c in doc["stock"]
           if rank(c) == prefix or prefix == "W" and rank(c) in ("JK", "2")][:n]
    assert len(got) == n
    if remove:
        for c in got:
            doc["stock"].remove(c)
    return got


def red_three_into_hand(doc: dict, seat: int = 0) -> None:
    """Swap the first red three of ``doc``'s stock with the first card of ``seat``'s hand."""
    r3 = next(c for c in doc["stock"] if c[:2] in ("3H", "3D"))
    doc["stock"].remove(r3)
    doc["hands"][seat].append(r3)
    doc["stock"].append(doc["hands"][seat].pop(0))


def stock_into_hand(doc: dict, n: int, seat: int = 0) -> None:
    """Move the first ``n`` stock cards of ``doc`` other than red threes into ``seat``'s
    hand."""
    for c in [c for c in doc["stock"] if c[:2] not in ("3H", "3D")][:n]:
        doc["stock"].remove(c)
        doc["hands"][seat].append(c)


# ----------------------------------------------------------------------------------------------
# the options table (test_*_options.py)


def check_option_tests(option_tests: dict[str, list[str]], options_cls: type, here: Path) -> None:
    """Every option (= every field of ``options_cls``) has at least one test in
    ``option_tests`` (option -> ``"module.py::test_name"``, relative to ``here``), and those
    tests exist."""
    import ast
    from dataclasses import fields

    assert set(option_tests) == {f.name for f in fields(options_cls)}
    for name, tests in option_tests.items():
        assert tests, name
        for ref in tests:
            module, func = ref.split("::")
            tree = ast.parse((here / module).read_text(encoding="utf-8"))
            names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
            assert func in names, f"{name}: {ref} missing"


# ----------------------------------------------------------------------------------------------
# rigged deals (CC-4, RR-4): the engine's one uniform shuffle replaced by a chosen card order


def deal_order(pack: Pack, *, players: int, dealer: int,
               packets: list[tuple[dict[int, Any], int]], upcards: Any, stock: Any,
               plain: Callable[[Card], bool]) -> list[str]:
    """The order in which a deal takes cards from the top of the shuffled pack.

    ``packets`` lists what is dealt, in turn, as (seat -> named cards, size): each packet
    (a hand, a kitty) is dealt one card at a time clockwise from the dealer's left until every
    seat's has ``size`` cards, the named cards padded with free cards for which ``plain`` holds;
    then come ``upcards``, then ``stock`` (the next cards, e.g. red-three replacements), then
    every other card.
    """
    alloc = Allocator(pack)
    toks = [t for named, _ in packets for v in named.values() for t in tokens(v)]
    toks += tokens(upcards) + tokens(stock)
    alloc.reserve_exact(toks)
    dealt = [{s: alloc.take_all(named.get(s)) for s in range(players)} for named, _ in packets]
    up = alloc.take_all(upcards)
    st = alloc.take_all(stock)
    pad = iter([c for c in alloc.rest() if plain(parse_card(c))])
    for cards, (_, size) in zip(dealt, packets):
        for s in range(players):
            while len(cards[s]) < size:
                c = next(pad)
                alloc.used |= 1 << pack.id_of(parse_card(c))
                cards[s].append(c)
    order = []
    for cards, (_, size) in zip(dealt, packets):
        for k in range(size):
            for j in range(1, players + 1):
                order.append(cards[(dealer + j) % players][k])
    order += up + st
    order += alloc.rest()
    return order


def rigged_new_game(monkeypatch, new_game: Callable[..., Any], pack: Pack, order: list[str], *,
                    players: int, dealer: int, options: dict[str, Any] | None):
    """``new_game(players=..., seed=0, options=..., dealer=...)`` whose shuffle of ``pack``
    yields ``order`` (top of the pack first, e.g. :func:`deal_order`'s)."""
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
