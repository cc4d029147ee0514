"""What every meldhall environment shares: the games offered, a table that plays one game
through the fixed action space, action masks, rewards.

A :class:`Table` holds the current state of one game and knows, for the seat to act, the
``int8`` mask of its legal action ids and the legal action object behind each id (so an id
is applied as the very object :meth:`~meldhall.game.State.legal_actions` listed, which the
engine applies without checking it again).  Between hands the next dealer's ``deal`` (the
only legal action then, and no decision) is applied by the table itself.

Rewards (docs/rl.md, "Rewards"):

* ``reward="hand"`` (default): when a hand is scored, every seat receives
  ``sign × (its side's hand score − the mean hand score of the other sides) × reward_scale``,
  with ``sign`` −1 in Shanghai Rummy (whose hand scores are penalty points) and +1 in the
  canasta games; 0 at every other step.
* ``reward="game"``: 0 until the episode ends; then, with ``W`` the winning sides (the game's
  winners, or the sides leading on cumulative score when ``max_hands`` cut the game) among
  ``N`` sides, every seat of side ``s`` receives ``N / (N − 1) × (1[s ∈ W] / |W| − 1 / N)``:
  +1 for a win alone, −1 for a loss in a two-sided game, 0 for a shared win; the rewards
  add up to 0.
* An illegal action id (one the mask does not allow) ends the episode: the mover receives
  ``illegal_reward``, every other seat 0.
"""

from __future__ import annotations

import random
from itertools import repeat
from operator import is_
from typing import Any

import numpy as np

import meldhall
from meldhall.errors import OptionsError
from meldhall.game import Action, State
from meldhall.rl.encoding import cells

__all__ = ["GAMES", "Table", "ActionIndex", "ILLEGAL_POINTS", "hand_rewards", "game_rewards",
           "bot_rng", "as_action_id"]

#: The games, by registry name: (PettingZoo id, Gymnasium id, OpenSpiel short name).
GAMES: dict[str, tuple[str, str, str]] = {
    "classic-canasta": ("meldhall/classic-canasta-v0", "meldhall/ClassicCanasta-v0",
                        "python_meldhall_classic_canasta"),
    "railroad-canasta": ("meldhall/railroad-canasta-v0", "meldhall/RailroadCanasta-v0",
                         "python_meldhall_railroad_canasta"),
    "shanghai-rummy": ("meldhall/shanghai-rummy-v0", "meldhall/ShanghaiRummy-v0",
                       "python_meldhall_shanghai_rummy"),
}

#: With ``reward="hand"``, the default ``illegal_reward`` is ``-ILLEGAL_POINTS × reward_scale``
#: (1000 points: more than most hands are worth); with ``reward="game"`` it is −1.
ILLEGAL_POINTS = 1000.0

_REWARDS = ("hand", "game")


class ActionIndex:
    """Action ids of legal actions, cached by object: the engines list the same action objects
    again and again, so the id of each is computed once.  Keeping a reference to each cached
    object means an ``id()`` can never be reused for another object while cached (so a hit
    by ``id()`` is the very object)."""

    __slots__ = ("_ids", "_keep")

    _LIMIT = 200_000

    def __init__(self) -> None:
        self._ids: dict[int, int] = {}
        self._keep: list[Action] = []  # every cached object, alive while its id is a key

    def ids(self, state: State, legal: list[Action]) -> list[int]:
        """The id of each action of ``legal`` (a list from ``state.legal_actions()``)."""
        out: list[int | None] = list(map(self._ids.get, map(id, legal)))
        if None not in out:
            return out  # type: ignore[return-value]  # no None in it
        cache = self._ids
        if len(cache) + len(legal) > self._LIMIT:
            cache.clear()
            self._keep.clear()
        for k, a in enumerate(legal):
            i = cache.get(id(a))
            if i is None:
                i = state.action_id(a)  # type: ignore[attr-defined]  # every game's state has it
                cache[id(a)] = i
                self._keep.append(a)
            out[k] = i
        return out  # type: ignore[return-value]  # every item set above


def _sides(state: State) -> tuple[tuple[int, ...], int]:
    """``(side of each seat, number of sides)``."""
    side_of = getattr(state, "side_of", None)
    if side_of is None:  # Shanghai: every player scores alone
        return tuple(range(state.players)), state.players
    return tuple(side_of), int(state.nsides)  # type: ignore[attr-defined]  # canasta states


def hand_rewards(state: State) -> list[float]:
    """Per seat: ``sign × (own side's hand score − mean of the other sides')`` of the hand just
    scored in ``state`` (``state.outcome`` must be set), in points."""
    oc = state.outcome
    assert oc is not None  # called only right after a hand was scored
    sign = 1.0 if state.HIGH_SCORE_WINS else -1.0
    by_side = {r.side: r.hand_score for r in oc.results}
    out = []
    for seat in range(state.players):
        own = None
        others = []
        for r in oc.results:
            if seat in r.seats:
                own = r.hand_score
            else:
                others.append(r.hand_score)
        if own is None:  # a seat outside every scored line-up (not in these games)
            own = by_side.get(seat, 0)
        diff = own - (sum(others) / len(others) if others else 0.0)
        out.append(sign * diff)
    return out


def game_rewards(state: State) -> list[float]:
    """Per seat: the game result (module docstring): +1 for a win alone, zero-sum."""
    side_of, nsides = _sides(state)
    oc = state.outcome
    if oc is not None and oc.game_over and oc.winners:
        winners = set(oc.winners)
    else:
        scores = list(state.scores)
        best = max(scores) if state.HIGH_SCORE_WINS else min(scores)
        winners = {i for i, s in enumerate(scores) if s == best}
        if len(scores) != nsides:  # scores per player while sides group them
            winners = {side_of[i] for i in winners}
    n = max(nsides, 2)
    k = len(winners)
    side_value = [n / (n - 1) * ((1.0 / k if s in winners else 0.0) - 1.0 / n)
                  for s in range(nsides)]
    return [side_value[side_of[seat]] for seat in range(state.players)]


class Table:
    """One game played through action ids (see the module docstring).

    Args:
        game: a registry name (:data:`GAMES`).
        players: seats.
        options: the game's options (a dict or the options object).
        reward: ``"hand"`` or ``"game"``.
        reward_scale: multiplies the ``"hand"`` rewards.
        illegal_reward: the mover's reward for an illegal action id (default: module
            docstring).
        max_hands: end the episode after this many hands (``None``: play the game out).

    Raises:
        OptionsError: an unknown game, a bad option, reward mode or ``max_hands``.
    """

    def __init__(self, game: str, players: int | None = None,
                 options: dict[str, Any] | Any = None, *, reward: str = "hand",
                 reward_scale: float = 1.0, illegal_reward: float | None = None,
                 max_hands: int | None = None):
        if game not in GAMES:
            raise OptionsError(f"unknown game {game!r}; known: {', '.join(GAMES)}")
        if reward not in _REWARDS:
            raise OptionsError(f"reward must be 'hand' or 'game', not {reward!r}")
        if max_hands is not None and (not isinstance(max_hands, int) or max_hands < 1):
            raise OptionsError(f"max_hands must be a positive whole number, not {max_hands!r}")
        self.game = game
        first = meldhall.new_game(game, players=players, seed=0, options=options)
        self.options = first.options
        self.players = first.players
        self.num_actions: int = first.num_distinct_actions  # type: ignore[attr-defined]
        self.reward_mode = reward
        self.reward_scale = float(reward_scale)
        if illegal_reward is None:
            illegal_reward = -1.0 if reward == "game" else -ILLEGAL_POINTS * self.reward_scale
        self.illegal_reward = float(illegal_reward)
        self.max_hands = max_hands
        self.index = ActionIndex()
        self.state: State = first
        self.hands_played = 0
        self.done = False
        self._to_act = first.to_act[0]
        self._legal_seat = -1
        self._legal: dict[int, Action] = {}
        self._mask: np.ndarray | None = None

    # ------------------------------------------------------------------ the game
    def new(self, seed: int) -> None:
        """Start a new game seeded ``seed`` (an ``int``)."""
        self.state = meldhall.new_game(self.game, players=self.players, seed=seed,
                                       options=self.options)
        self.hands_played = 0
        self.done = False
        self._to_act = self.state.to_act[0]
        self._legal_seat = -1
        self._mask = None

    @property
    def to_act(self) -> int:
        """The seat whose decision is awaited (``-1`` once the episode is over)."""
        return self._to_act

    def legal(self) -> dict[int, Action]:
        """The legal actions of the seat to act, by id (empty once the episode is over)."""
        self._refresh()
        return self._legal

    def mask(self) -> np.ndarray:
        """The ``int8`` mask of the seat to act (all 0 once over): a new array for every
        state, the same one for repeated calls on one state (legality never reads it)."""
        self._refresh()
        assert self._mask is not None  # set by _refresh
        return self._mask

    def _refresh(self) -> None:
        seat = self._to_act
        if seat == self._legal_seat and self._mask is not None:
            return
        mask = np.zeros(self.num_actions, np.int8)
        if seat < 0:
            self._legal = {}
        else:
            la = self.state.legal_actions()  # the seat to act's
            ids = self.index.ids(self.state, la)
            self._legal = dict(zip(ids, la))
            mv = cells(mask)  # a dozen ids: cheaper than numpy's fancy indexing
            for i in ids:
                mv[i] = 1
        self._mask = mask
        self._legal_seat = seat

    def apply_id(self, action_id: int) -> tuple[list[float], bool]:
        """Apply the seat to act's action ``action_id``.

        Returns:
            ``(rewards per seat, episode over)``.  An id not in the mask ends the episode
            with ``illegal_reward`` for the mover (module docstring).
        """
        seat = self._to_act
        i = action_id if type(action_id) is int else as_action_id(action_id)
        if seat != self._legal_seat or self._mask is None:
            self._refresh()
        action = self._legal.get(i) if i is not None else None
        rewards = [0.0] * self.players
        if action is None:
            rewards[seat] = self.illegal_reward
            self._end()
            return rewards, True
        self._apply(action, seat, rewards, True)
        return rewards, self.done

    def apply_action(self, action: Action, seat: int, rewards: list[float]) -> None:
        """Apply a legal action (from ``state.legal_actions(seat)``) and add the rewards it
        brings to ``rewards`` (per seat)."""
        self._apply(action, seat, rewards)

    def _apply_listed(self, action: Action, rewards: list[float]) -> None:  # for this package
        """Apply an action object of the current state's ``legal_actions()`` (the seat to
        act's list, or :meth:`legal`'s values) without checking it again, and add the rewards
        it brings to ``rewards``.  Anything else must go through :meth:`apply_action`."""
        self._apply(action, self._to_act, rewards, True)

    def _apply(self, action: Action, seat: int, rewards: list[float],
               listed: bool = False) -> None:
        """Apply ``action`` of ``seat``; ``listed``: it is one of the objects ``_legal``
        holds (listed by the current state's ``legal_actions()`` for the seat to act)."""
        state = self.state
        before = state._outcome
        if listed or (seat == self._to_act
                      and any(map(is_, state.legal_actions(), repeat(action)))):
            st = state.apply_unchecked(action)  # the very object listed for the seat to act
        else:
            st = state.apply(action, seat)  # checked (raises IllegalActionError)
        self._legal_seat = -1
        self._mask = None
        oc = st._outcome
        if oc is not None and oc is not before:  # a hand has just been scored
            self.hands_played += 1
            self.state = st
            if self.reward_mode == "hand":
                scale = self.reward_scale
                for s, r in enumerate(hand_rewards(st)):
                    rewards[s] += r * scale
            if st.is_terminal or (self.max_hands is not None
                                  and self.hands_played >= self.max_hands):
                self._end(rewards)
                return
            # the next dealer's deal: the only legal action, no decision
            deal = st.legal_actions()
            st = st.apply(deal[0])
        self.state = st
        self._to_act = st.to_act[0]

    def _end(self, rewards: list[float] | None = None) -> None:
        self.done = True
        self._to_act = -1
        self._legal_seat = -1
        self._mask = None
        if rewards is not None and self.reward_mode == "game":
            for s, r in enumerate(game_rewards(self.state)):
                rewards[s] += r

    def observation(self, seat: int) -> Any:
        """``state.observation(seat)``."""
        return self.state.observation(seat)


def as_action_id(value: Any) -> int | None:
    """An action id given as a Python or NumPy integer (or a 0-d or one-element integer
    array), else ``None``."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, np.ndarray) and value.size == 1 and np.issubdtype(value.dtype,
                                                                          np.integer):
        return int(value.reshape(()))
    return None


def bot_rng(np_random: np.random.Generator) -> random.Random:
    """A ``random.Random`` for a bot, seeded from an environment's ``np_random``."""
    return random.Random(int(np_random.integers(0, 2**63 - 1)))
