"""Planning a staged melding in one piece (CC-6.9, RR-6.11, SH-8.1).

The engine offers a melding that the rules check as a whole as a sequence of small actions:
stage one meld, stage the next, commit.  A bot may still decide the whole melding at once:
:func:`planning_actions` turns the legal actions into the one-action meldings they can build
(the shorthand the engine accepts, e.g. ``meld A A A, K K 2``), and :func:`next_step` turns
the chosen melding back into the one small action to play now.  Both read only the
observation, and both are deterministic, so a bot needs no memory between its calls: while
the plan is being staged the hand is unchanged, so the same choice is made at every step.
"""

from __future__ import annotations

import abc
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from meldhall.game import Action, Observation

__all__ = ["planning_actions", "next_step", "unstaged_state", "PlannedBot"]


def _staging_types(legal: Sequence[Action]) -> bool:
    return any(getattr(type(a), "PRIVATE", False) or type(a).__name__ in (
        "MeldDone", "ContractDone") for a in legal)


def unstaged_state(observation: Observation):
    """A state consistent with ``observation`` in which the seat has staged nothing (its own
    cards, the table and the pile are the observation's; other hands do not matter to the
    seat's own meldings)."""
    st = observation.sample_state(random.Random(0))
    unstage = getattr(st, "unstaged", None)
    return unstage() if unstage is not None else st


def planning_actions(observation: Observation, legal: Sequence[Action],
                     state=None) -> list[Action]:
    """The seat's choices with every staged melding written as one action.

    Where nothing is staged or stageable, ``legal`` itself.  Otherwise: the actions the seat
    could choose before staging anything (draw, discards, asks …) and every one-action
    melding that would commit (``State.compound_options``).  Each returned action is legal
    shorthand for its staged sequence.  ``state``: an unstaged state of the observation, if
    the caller has one (:func:`unstaged_state`).
    """
    staged = getattr(observation, "staged", ())
    if not staged and not _staging_types(legal):
        return list(legal)
    st = state if state is not None else unstaged_state(observation)
    compound = getattr(st, "compound_options", None)
    if compound is None:
        return list(legal)
    simple = [a for a in st.legal_actions()
              if not getattr(type(a), "PRIVATE", False)
              and type(a).__name__ not in ("MeldDone", "ContractDone")]
    return simple + compound()


def next_step(observation: Observation, plan: Action, legal: Sequence[Action],
              state=None) -> Action:
    """The legal action to play now towards ``plan`` (a choice among
    :func:`planning_actions`): its next staged step, its commit, or — when what is staged is
    not a prefix of the plan — withdrawing everything first."""
    if plan in legal:
        staged = getattr(observation, "staged", ())
        if not staged:
            return plan
    st = state if state is not None else unstaged_state(observation)
    seq = st._expand(plan) if hasattr(st, "_expand") else None
    seq = seq or [plan]
    staged = list(getattr(observation, "staged", ()))

    def spec_of(a: Action) -> Any:
        # a staged step names its meld as ``spec`` (canasta) or ``meld`` (Shanghai Rummy)
        return getattr(a, "spec", None) or getattr(a, "meld", a)

    steps = [a for a in seq if getattr(type(a), "PRIVATE", False)]
    if len(staged) < len(seq) and not Counter(staged) - Counter(map(spec_of, steps)):
        # the plan holds every staged meld, in whatever order they were staged: go on with
        # its first step not staged yet (withdrawing to stage the same melds again gains
        # nothing)
        todo = list(staged)
        for a in seq:
            if getattr(type(a), "PRIVATE", False) and spec_of(a) in todo:
                todo.remove(spec_of(a))  # staged already
                continue
            if a in legal:
                return a
            break
    if staged:
        for a in legal:
            if str(a) == "withdraw all":
                return a
    return plan if plan in legal else legal[0]


class PlannedBot(abc.ABC):
    """Mixin for bots written over whole meldings: subclasses implement :meth:`plan`
    (choose among :func:`planning_actions`); :meth:`choose` plays its next step."""

    @abc.abstractmethod
    def plan(self, observation: Observation, actions: Sequence[Action],
             rng: random.Random) -> Action:
        """Choose among ``actions`` (:func:`planning_actions`) using only ``observation``."""

    def choose(self, observation: Observation, legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """Pick a legal action using only ``observation``: plan the whole melding
        (:meth:`plan`), play its next step (:func:`next_step`)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        st = None
        if getattr(observation, "staged", ()) or _staging_types(legal_actions):
            st = unstaged_state(observation)
        actions = planning_actions(observation, legal_actions, st)
        return next_step(observation, self.plan(observation, actions, rng), legal_actions, st)
