"""The game protocol every meldhall game implements (docs/protocol.md).

A :class:`State` is an immutable value: ``state.apply(action)`` returns the next state and
never changes ``state``.  One source of truth for legality: ``check`` raises
:class:`~meldhall.errors.IllegalActionError`, ``is_legal`` wraps it, ``apply`` calls it.
Out-of-turn decisions are explicit phases named by ``to_act``.

Bots, the simulator and the CLI only ever use this surface and :class:`Observation`.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass
from itertools import repeat
from operator import is_
from typing import TYPE_CHECKING, Any, Self

from meldhall.errors import IllegalActionError

if TYPE_CHECKING:
    import random

    from meldhall.options import Options

__all__ = ["Action", "State", "Observation", "Outcome", "ScoreLine", "SideResult"]


class Action(abc.ABC):
    """A move, with one canonical text form: ``str(action)`` (e.g. ``"discard K"``).

    Actions are hashable values; equal actions have equal text.
    """

    __slots__ = ()

    #: True for the actions that change only the acting seat's private part of the state
    #: (staging and withdrawing melds, CC-6.9, RR-6.11, SH-8.1): they make no public log
    #: entry, and no other seat's observation changes.
    PRIVATE: bool = False

    @abc.abstractmethod
    def __str__(self) -> str: ...

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One line of a hand's score breakdown.

    Attributes:
        rule_id: the rule that scores it (e.g. ``"CC-12.2"``).
        label: what it is, for people (``"natural canasta K×7 bonus"``).
        points: signed points.
    """

    rule_id: str
    label: str
    points: int


@dataclass(frozen=True, slots=True)
class SideResult:
    """A side's (or, where scores are personal, a player's) result for one hand.

    Attributes:
        side: side index.
        seats: the seats scored by this line-up.
        lines: the breakdown; ``sum(l.points for l in lines) == hand_score``.
        hand_score: points for this hand.
        total: cumulative score after the hand.
    """

    side: int
    seats: tuple[int, ...]
    lines: tuple[ScoreLine, ...]
    hand_score: int
    total: int


@dataclass(frozen=True)
class Outcome:
    """How a hand (and possibly the game) ended.

    Attributes:
        hand: hand number (0-based).
        how: ``"went_out"``, ``"went_out_concealed"``, ``"stock_exhausted"`` or
            ``"last_red_three"`` (game specific values are documented per game).
        went_out: seat that went out, or ``None``.
        results: one :class:`SideResult` per side.
        game_over: True when the game (match) has ended.
        winners: the winning sides when ``game_over`` (several on a shared win), else ``()``.
    """

    hand: int
    how: str
    went_out: int | None
    results: tuple[SideResult, ...]
    game_over: bool
    winners: tuple[int, ...] = ()

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Outcome:
        """Rebuild an outcome from :meth:`to_json` output."""
        results = tuple(
            SideResult(r["side"], tuple(r["seats"]),
                       tuple(ScoreLine(ln["rule"], ln["label"], ln["points"])
                             for ln in r["lines"]),
                       r["hand_score"], r["total"])
            for r in d["results"]
        )
        return cls(d["hand"], d["how"], d["went_out"], results, d["game_over"],
                   tuple(d.get("winners") or ()))

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of the outcome, breakdown lines included."""
        return {
            "hand": self.hand,
            "how": self.how,
            "went_out": self.went_out,
            "game_over": self.game_over,
            "winners": list(self.winners),
            "results": [
                {
                    "side": r.side,
                    "seats": list(r.seats),
                    "hand_score": r.hand_score,
                    "total": r.total,
                    "lines": [
                        {"rule": ln.rule_id, "label": ln.label, "points": ln.points}
                        for ln in r.lines
                    ],
                }
                for r in self.results
            ],
        }


class Observation(abc.ABC):
    """Exactly what one seat may know of a state.

    Never contains another seat's hidden cards or the stock order.

    Attributes every game's observation has: ``seat`` (the observing seat), ``options`` (the
    game's options) and ``public`` (the public fields of the state, by name, with its phase
    under ``"_phase"`` and its outcome under ``"_outcome"``).
    """

    seat: int
    options: Options
    public: dict[str, Any]

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.options.player_count

    @property
    def phase(self) -> str:
        """The phase of the observed state."""
        phase: str = self.public["_phase"]
        return phase

    @property
    def outcome(self) -> Outcome | None:
        """The outcome, once the hand (deal) has been scored."""
        outcome: Outcome | None = self.public["_outcome"]
        return outcome

    @abc.abstractmethod
    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (for the web and for logs)."""

    @abc.abstractmethod
    def to_text(self) -> str:
        """A plain-text rendering."""

    @abc.abstractmethod
    def sample_state(self, rng: random.Random) -> State:
        """A full state consistent with this observation (determinization for search).

        Hidden cards are dealt at random from ``rng`` (a ``random.Random``); nothing of the
        real hidden cards is used.
        """


class State(abc.ABC):
    """A game state: immutable, hashable-free value.  See the module docstring.

    Attributes every game's state has (slots of each game's class): ``options`` (the game's
    options), ``seed`` (the game seed), ``hand_no`` (the hand, or deal, in play; 0-based) and
    ``scores`` (cumulative points per side, or per player where scores are personal).
    """

    __slots__ = ()

    options: Options
    seed: int
    hand_no: int
    scores: tuple[int, ...]
    _phase: str
    _outcome: Outcome | None
    #: Values computed once per state (a state never changes), by key; ``None`` until the
    #: first one.
    _cache: dict[str, Any] | None

    game_name: str = ""
    #: Whether a higher hand score is better (points scored, as in canasta) or worse
    #: (penalty points, as in Shanghai Rummy, where the lowest total wins).  Tournaments and
    #: search bots compare seats through this.
    HIGH_SCORE_WINS: bool = True

    @property
    @abc.abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """Seats whose decision is awaited (empty when the game is over)."""

    @property
    def phase(self) -> str:
        """The phase name (game specific, e.g. ``"draw"``, ``"meld"``, ``"consent"``)."""
        return self._phase

    @property
    def outcome(self) -> Outcome | None:
        """``None`` while a hand is in play; the :class:`Outcome` after a hand or the game."""
        return self._outcome

    def provisional_results(self) -> tuple[SideResult, ...] | None:
        """What each side would score if the hand ended now with nobody going out (the stock
        exhausted): one :class:`SideResult` per side, hand scores in points.  An evaluation
        for search bots that cut playouts short; ``None`` where a game does not provide it.
        Reads nothing a finished hand would not show, and changes nothing."""
        return None

    @property
    def is_terminal(self) -> bool:
        """True when the game (match) is over."""
        o = self._outcome  # what :attr:`outcome` reads (no game overrides it)
        return o is not None and o.game_over

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.options.player_count

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action for ``seat`` (default: the seat to act), deterministic order.

        Computed once per state (a state never changes) by the game's :meth:`_legal`.
        """
        if seat is not None and seat not in self.to_act:
            return []
        c = self._cache
        la = c.get("legal") if c is not None else None
        if la is None:
            la = self._legal()
            c = self._cache  # the generator may have started the cache
            if c is None:
                c = self._cache = {}  # type: ignore[misc]  # a slot of every game's State class
            c["legal"] = la
        return list(la)

    def check(self, action: Action, seat: int | None = None) -> None:
        """Raise :class:`IllegalActionError` (rule ID and reason) if ``action`` is illegal."""
        self._plan(action, seat)

    @abc.abstractmethod
    def _legal(self) -> list[Action]:
        """The legal actions of the seat to act (the game's generator)."""

    @abc.abstractmethod
    def _plan(self, action: Action, seat: int | None) -> Any:
        """The one legality check: raise :class:`IllegalActionError`, or return what
        :meth:`_apply_checked` needs (a value of the game's own, opaque to this protocol)."""

    @abc.abstractmethod
    def _apply_checked(self, action: Action, plan: Any) -> Self:
        """The next state after a checked action (``plan``: what :meth:`_plan` returned, or
        ``None`` for an action taken from :meth:`legal_actions`)."""

    def is_legal(self, action: Action, seat: int | None = None) -> bool:
        """True if :meth:`check` accepts the action."""
        try:
            self.check(action, seat)
        except IllegalActionError:
            return False
        return True

    def apply(self, action: Action, seat: int | None = None) -> Self:
        """Check the action, then return the next state (this one is unchanged)."""
        c = self._cache
        if c is not None:
            la = c.get("legal")
            # the very object listed by legal_actions() (an identity scan in C: listed actions
            # are shared values, and an equal action built elsewhere is checked)
            if la is not None and any(map(is_, la, repeat(action))) \
                    and (seat is None or seat in self.to_act):
                return self._apply_checked(action, None)  # already checked
        plan = self._plan(action, seat)
        return self._apply_checked(action, plan)

    def apply_unchecked(self, action: Action) -> Self:
        """Apply an action known to be legal (taken from :meth:`legal_actions`), for search."""
        return self._apply_checked(action, None)

    @abc.abstractmethod
    def parse_action(self, text: str) -> Action:
        """Read an action in notation (raises :class:`~meldhall.errors.NotationError`)."""

    @abc.abstractmethod
    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know."""

    @abc.abstractmethod
    def history(self) -> list[tuple[int, str]]:
        """Every action so far in the game as ``(seat, notation)``, oldest first."""

    def apply_text(self, text: str, seat: int | None = None) -> Self:
        """Parse then apply an action given in notation."""
        return self.apply(self.parse_action(text), seat)

