"""Hints: the move a bot recommends for a seat, with its estimated value and the runners-up.

Used by ``meldhall hint`` (a position or record file) and usable from tutorials and the web
table.  The bot sees only the seat's observation, never the state: a hint is what a player at
that seat could work out, whatever the position file says about the other hands.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Sequence

from meldhall.bots import make_bot
from meldhall.bots.staging import next_step
from meldhall.errors import OptionsError
from meldhall.game import Action, Observation, State

__all__ = ["Hint", "hint", "hint_for_observation"]


@dataclass(frozen=True)
class Hint:
    """A recommended action.

    Attributes:
        seat: the seat advised.
        action: the recommended legal action.
        value: its estimated result in points: the seat's side's hand score minus the other
            sides' mean, over the bot's playouts (penalty points count negative in Shanghai
            Rummy); ``None`` when the bot gives no estimate (heuristic, or a forced move).
        samples: playouts behind ``value`` (0 without an estimate).
        alternatives: other actions the search compared, as ``(action, value, samples)``,
            ordered by their advantage over the recommendation on the same sampled deals,
            those measured on two or more deals (with a standard error) first.
        comparisons: per alternative (same order), ``(advantage, stderr)``: the mean
            difference in points from the recommended action on the same sampled deals
            (negative: worse) and its standard error; ``None`` entries where unknown.
        bot: the bot name that gave the hint.
        legal_count: how many legal actions the seat had.
        plan: the whole melding recommended, where the engine stages it (CC-6.9, RR-6.11,
            SH-8.1: e.g. ``meld A A A, K K 2``); ``None`` otherwise.
        next: the one action to play now towards it (its first staged step, its commit, or
            ``withdraw all`` when what is staged is not part of it).
        why: one sentence for people: why this move (the search's evidence, or that it is the
            only legal move or the heuristic's choice).
    """

    seat: int
    action: Action
    value: float | None
    samples: int
    alternatives: list[tuple[Action, float | None, int]] = field(default_factory=list)
    bot: str = "ismcts"
    legal_count: int = 1
    comparisons: list[tuple[float | None, float | None]] = field(default_factory=list)
    plan: Action | None = None
    next: Action | None = None
    why: str = ""

    def _padded_comparisons(self) -> list[tuple[float | None, float | None]]:
        return list(self.comparisons) + [(None, None)] * (len(self.alternatives)
                                                          - len(self.comparisons))

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the ``meldhall hint --json`` object)."""
        return {
            "seat": self.seat,
            "bot": self.bot,
            "action": str(self.action),
            "value": None if self.value is None else round(self.value, 1),
            "samples": self.samples,
            "legal_count": self.legal_count,
            "plan": None if self.plan is None else str(self.plan),
            "next": str(self.next if self.next is not None else self.action),
            "why": self.why,
            "alternatives": [
                {"action": str(a), "value": None if v is None else round(v, 1), "samples": n,
                 "versus_recommended": None if c[0] is None else round(c[0], 1),
                 "stderr": None if c[1] is None else round(c[1], 1)}
                for (a, v, n), c in zip(self.alternatives, self._padded_comparisons())
            ],
        }


def _sort_key(av) -> tuple[bool, float]:
    """Alternatives measured on two or more shared deals (with a standard error) first, each
    group by advantage: a move seen on one deal says little, however good it looked there."""
    if av.advantage is not None:
        return av.stderr is not None, av.advantage
    return False, av.value if av.value is not None else float("-inf")


def hint(state: State, seat: int | None = None, *, bot: str = "ismcts", seed: int = 0,
         alternatives: int = 3) -> Hint:
    """The move ``bot`` recommends for ``seat`` in ``state``.

    Args:
        state: any live state (e.g. from :func:`meldhall.record.load_position`).
        seat: the seat to advise; default the first seat whose decision is awaited.
        bot: a bot name for :func:`meldhall.bots.make_bot` (``"ismcts"``, ``"ismcts:hard"``,
            ``"heuristic"`` …).
        seed: seeds the bot's random choices (same state, seat, bot and seed → same hint).
        alternatives: how many runners-up to list (search bots only).

    Returns:
        A :class:`Hint` whose ``action`` is legal for ``seat`` in ``state``.

    Raises:
        OptionsError: the game is over, ``seat`` is not a seat or has no decision to make
            now, or an unknown bot.
    """
    if state.is_terminal or not state.to_act:
        raise OptionsError("the game is over: there is no move to advise")
    if seat is None:
        seat = state.to_act[0]
    if not 0 <= seat < state.players:
        raise OptionsError(f"seat must be from 0 to {state.players - 1}, not {seat}")
    if seat not in state.to_act:
        waiting = ", ".join(str(s) for s in state.to_act)
        raise OptionsError(f"seat {seat} has no decision to make now (waiting for seat "
                           f"{waiting})")
    return hint_for_observation(state.game_name, state.observation(seat),
                                state.legal_actions(seat), bot=bot, seed=seed,
                                alternatives=alternatives)


def hint_for_observation(game: str, observation: Observation, legal_actions: Sequence[Action],
                         *, bot: str = "ismcts", seed: int = 0, alternatives: int = 3) -> Hint:
    """:func:`hint` from what the seat sees: its observation and its legal actions (for
    callers that hold no state, such as the web server's bot workers).

    Raises:
        OptionsError: an unknown bot, or no legal action given.
    """
    legal = list(legal_actions)
    if not legal:
        raise OptionsError("no legal action to advise on")
    seat = observation.seat
    b = make_bot(bot, game)
    rng = random.Random(seed)
    if len(legal) == 1:
        return Hint(seat, legal[0], None, 0, [], b.name, 1, why="It is the only legal move.")
    analyse = getattr(b, "analyse", None)
    if analyse is None:
        return Hint(seat, b.choose(observation, legal, rng), None, 0, [], b.name, len(legal),
                    why=f"It is the {b.name} bot's choice; that bot gives no estimate.")
    ranked = analyse(observation, legal, rng)
    best = ranked[0]
    others = sorted(ranked[1:], key=_sort_key, reverse=True)[:alternatives]
    rest = [(av.action, av.value, av.visits) for av in others]
    comps = [(av.advantage, av.stderr) for av in others]
    step = next_step(observation, best.action, legal)
    plan = best.action if best.action not in legal else None
    # with melds already staged the recommendation is the step to play now (it is legal
    # here); otherwise the whole melding, legal as shorthand for its staged steps
    action = step if getattr(observation, "staged", ()) else best.action
    level = getattr(b, "level", None)
    return Hint(seat, action, best.value, best.visits, rest, b.name, len(legal), comps,
                plan, step, _why(ranked, level))


def _pm(adv: float, se: float) -> str:
    return f"{adv:+.0f} ± {se:.0f} points"


def _why(ranked: Sequence[Any], level: Any) -> str:
    """One sentence on the search's evidence for ``ranked[0]`` (``ActionValue`` list from
    :meth:`IsmctsBot.analyse`, best first; ``level`` the bot's search level), from the
    figures the search measured."""
    best, others = ranked[0], ranked[1:]
    if getattr(level, "tree", False):
        return "It is the move the tree search played out most often."
    gate_z = getattr(level, "gate_z", None)
    if not others:
        return ("The search played out only this move (too few playouts to compare others); "
                "it is the heuristic's choice." if best.heuristic else
                "The search played out only this move (too few playouts to compare others).")
    gate = "more than one standard error" if gate_z in (None, 1.0) else \
        f"more than {gate_z:g} standard errors"
    if not best.heuristic:
        heur = next((av for av in others if av.heuristic), None)
        if heur is not None and heur.advantage is not None and heur.stderr is not None:
            return (f"On the same sampled deals it scored {_pm(-heur.advantage, heur.stderr)} "
                    f"more than the heuristic's choice ({heur.action}), a clear gain: the "
                    f"search leaves the heuristic's choice only for a move that beats it by "
                    f"{gate}.")
        return ("The search found it better than the heuristic's choice on the sampled "
                "deals.")
    # the root search's last challenger: ranked after the choice, the other move still in
    # the running at the end, compared with it on every deal
    last = others[0]
    if last.advantage is None or last.stderr is None:
        return ("It is the heuristic's choice, and no other move had enough playouts (two or "
                "more) to be compared with it.")
    confirm = getattr(level, "confirm", 0.0)
    keeps = (f"It is the heuristic's choice, which the search keeps unless a challenger beats "
             f"it by {gate} on the same deals" + (" (fresh ones)" if confirm else ""))
    fig = f"{_pm(last.advantage, last.stderr)} over {last.visits} deals"
    if gate_z is not None and last.advantage > gate_z * last.stderr:
        return (f"{keeps}: the last challenger, {last.action}, did {fig} in all, but did "
                "not hold up on the fresh deals.")
    if last.advantage > 0:
        return f"{keeps}: the last challenger, {last.action}, did {fig}, not enough."
    return f"{keeps}: the last challenger, {last.action}, did worse ({fig})."
