"""Build Shanghai Rummy test positions from a compact description.

A position document must list every physical card of the pack exactly once.  :func:`build`
lets a test name only the cards that matter: hands, melds, the pile (bottom first) and the top
of the stock; every other card goes to the bottom of the stock (``rest="stock"``, the default)
or to the bottom of the discard pile (``rest="pile"``).

Card tokens: ``7H/1`` (that copy), ``7H`` (a free copy, lowest deck first), ``JK`` / ``JK/1``
(a joker); in melds a joker is written with its declared card, ``JK=7D`` or ``JK/1=7D``.
Exactly named copies are reserved first, so ``7H/0`` in one place and ``7H`` in another never
collide.
"""

from __future__ import annotations

from typing import Any

import pytest

from meldhall.cards import Pack, parse_card
from meldhall.errors import IllegalActionError, MeldhallError
from meldhall.games.shanghai.options import ShanghaiOptions
from meldhall.record import POSITION_FORMAT, VERSION, dump_position, load_position

__all__ = ["assert_illegal", "build", "contract_listed", "hand_of", "legal_texts", "meld_text",
           "play", "result", "stage_steps"]


def _toks(spec) -> list[str]:
    if spec is None:
        return []
    if isinstance(spec, str):
        return spec.replace(",", " ").split()
    return [t for item in spec for t in _toks(item)]


class _Alloc:
    def __init__(self, pack: Pack):
        self.pack = pack
        self.used = 0

    def reserve(self, tokens) -> None:
        for t in tokens:
            phys = t.partition("=")[0]
            if "/" in phys:
                i = self.pack.id_of(parse_card(phys))
                if (self.used >> i) & 1:
                    raise ValueError(f"card {phys} named twice")
                self.used |= 1 << i

    def take(self, token: str) -> str:
        phys, eq, decl = token.partition("=")
        suffix = eq + decl
        if "/" in phys:
            return parse_card(phys).physical + suffix
        want = parse_card(phys)
        for i, c in enumerate(self.pack.cards):
            if c.rank == want.rank and c.suit == want.suit and not (self.used >> i) & 1:
                self.used |= 1 << i
                return c.physical + suffix
        raise ValueError(f"no free copy of {token} left in the pack")

    def rest(self) -> list[str]:
        return [c.physical for i, c in enumerate(self.pack.cards) if not (self.used >> i) & 1]


def build(*, players: int = 4, options: dict[str, Any] | None = None, hands=None, melds=(),
          pile="", stock="", rest: str | int = "stock", phase: str = "meld", turn: int = 0,
          dealer: int | None = None, hand_no: int = 0, made=(), buys=None, rebuilds: int = 0,
          taken: str | None = None, contract_now: bool = False, queue=(),
          upcard_from: int | None = None, scores=None, deal_scores=(), jokers_now: int = 0,
          seed: int = 0):
    """A :class:`~meldhall.games.shanghai.state.ShanghaiState` from a compact description.

    Args:
        hands: a list (one entry per seat) or dict ``{seat: "7H 7C JK"}``; missing seats get
            no cards.
        melds: ``[(owner, "5D 6D JK=7D 8D"), …]`` in table order (meld 1 first).
        pile: discard pile cards, bottom first (the last one is the upcard).
        stock: the top cards of the stock, top first.
        rest: where the unnamed cards go: ``"stock"`` (under ``stock``), ``"pile"`` (under
            ``pile``) or a seat number (into that hand, for a tiny stock and pile).
        taken: the card the player in turn took as their draw this turn (e.g. ``"9C/0"``).
    """
    opts = ShanghaiOptions.from_json({**(options or {}), "player_count": players})
    pack = Pack.get(opts.num_decks, opts.num_jokers)
    if isinstance(hands, dict):
        hands = [hands.get(s, "") for s in range(players)]
    hands = list(hands or [""] * players)
    alloc = _Alloc(pack)
    groups = [_toks(h) for h in hands] + [_toks(m) for _, m in melds] + [_toks(pile),
                                                                          _toks(stock)]
    for g in groups:
        alloc.reserve(g)
    hand_cards = [[alloc.take(t) for t in _toks(h)] for h in hands]
    meld_docs = [{"owner": owner, "cards": [alloc.take(t) for t in _toks(m)]}
                 for owner, m in melds]
    pile_cards = [alloc.take(t) for t in _toks(pile)]
    stock_cards = [alloc.take(t) for t in _toks(stock)]
    leftover = alloc.rest()
    if rest == "stock":
        stock_cards += leftover
    elif rest == "pile":
        pile_cards = leftover + pile_cards
    elif isinstance(rest, int) and 0 <= rest < players:
        hand_cards[rest] = hand_cards[rest] + leftover
    else:
        raise ValueError("rest must be 'stock', 'pile' or a seat number")
    if dealer is None:
        dealer = (turn - 1) % players
    taken_phys = None
    if taken:
        t = parse_card(taken.partition("=")[0])
        if "/" in taken:
            taken_phys = t.physical
        else:
            taken_phys = next(c for c in hand_cards[turn]
                              if parse_card(c).rank == t.rank and parse_card(c).suit == t.suit)
    doc = {
        "format": POSITION_FORMAT,
        "version": VERSION,
        "game": "shanghai-rummy",
        "options": opts.to_json(),
        "seed": seed,
        "hand_no": hand_no,
        "dealer": dealer,
        "scores": list(scores or [0] * players),
        "deal_scores": [list(r) for r in deal_scores],
        "turn": turn,
        "phase": phase,
        "stock": stock_cards,
        "pile": pile_cards,
        "hands": hand_cards,
        "melds": meld_docs,
        "made": list(made),
        "buys": list(buys or [0] * players),
        "rebuilds": rebuilds,
        "turn_state": {
            "contract_this_turn": contract_now,
            "jokers_laid_this_turn": jokers_now,
            "taken_upcard": taken_phys,
            "buy_queue": list(queue),
            "upcard_from": (turn - 1) % players if upcard_from is None else upcard_from,
        },
    }
    # a scenario names only the cards that matter: not a position the rules reach
    return load_position(doc, check_rules=False)


def assert_illegal(state, text: str, rule: str, seat: int | None = None) -> IllegalActionError:
    """``text`` is refused with ``rule`` and the state is left exactly as it was."""
    before = dump_position(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(state.parse_action(text), seat)
    assert info.value.rule_id == rule, f"{text!r}: expected {rule}, got {info.value}"
    assert dump_position(state) == before
    assert not state.is_legal(state.parse_action(text), seat) if _parses(state, text) else True
    return info.value


def _parses(state, text: str) -> bool:
    try:
        state.parse_action(text)
    except MeldhallError:
        return False
    return True


def legal_texts(state, seat: int | None = None) -> list[str]:
    """``str`` of every legal action."""
    return [str(a) for a in state.legal_actions(seat)]


def stage_steps(state, text: str) -> list[str]:
    """The staged sequence (SH-8.1) that the shorthand ``contract A, B`` stands for: ``stage``
    each meld in the canonical order, then ``contract done``."""
    return [f"stage {m}" for m in state.parse_action(text).melds] + ["contract done"]


def contract_listed(state, text: str) -> bool:
    """True if the contract ``text`` can be made through listed actions alone (SH-8.1): each
    ``stage`` listed in turn, then ``contract done`` listed.  (The compound shorthand itself
    is accepted but never listed.)"""
    try:
        steps = stage_steps(state, text)
    except MeldhallError:
        return False
    for t in steps:
        if t not in legal_texts(state):
            return False
        state = state.apply_text(t)
    return state.has_made_contract(state.turn)


def play(state, *texts: str, seat: int | None = None):
    """Apply actions given in notation, one after the other."""
    for t in texts:
        state = state.apply(state.parse_action(t), seat)
    return state


def result(state, seat: int):
    """The outcome's :class:`~meldhall.game.SideResult` of ``seat``."""
    assert state.outcome is not None, "the deal has not ended"
    return state.outcome.results[seat]


def hand_of(state, seat: int) -> list[str]:
    """The seat's cards as kinds, sorted (``["7H", "JK", …]``)."""
    return sorted(str(c) for c in state.hand_cards(seat))


def meld_text(state, number: int) -> str:
    """Notation of table meld ``number`` (1-based)."""
    return state.melds[number - 1].text(state.n52)
