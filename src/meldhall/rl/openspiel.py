"""OpenSpiel Python games of the meldhall games (docs/rl.md, "OpenSpiel").

Importing this module registers ``python_meldhall_classic_canasta``,
``python_meldhall_railroad_canasta`` and ``python_meldhall_shanghai_rummy`` with
``pyspiel.register_game``; ``pyspiel.load_game("python_meldhall_classic_canasta",
{"players": 2})`` then builds one.

* **Chance**: the first node is an explicit chance node that deals: outcome ``i`` (uniform
  over ``deals`` outcomes) is the game seed, from which the engine shuffles every hand.
* **Imperfect information**: players see their observation only.  The observation tensor is
  :mod:`meldhall.rl.encoding`'s; the observation string the seat's observation as JSON (its
  log left out).  The information state (perfect recall) of a player is the sequence, step by
  step, of the public log entries (with the player's own private details), the player's own
  actions (staging included, which nobody else sees) and the player's hand, by card names,
  whenever it changed; its tensor is the observation tensor followed by every seat's discards
  this hand by kind (relative seats).  ``make_py_observer`` gives both (``perfect_recall``).
* **Length**: ``max_hands`` hands (default 1); the game also ends when ``max_game_length``
  actions have been played (a true bound, declared in the game info).  A hand cut short
  scores nothing.
* **Rewards**: ``reward="hand"`` (default) declares per-step rewards: the hand's score
  differences (:mod:`meldhall.rl.core`) when a hand is scored; ``reward="game"`` declares
  terminal rewards, the game result.
* **Determinization**: :func:`resampler` is a resampler for OpenSpiel's Python
  ``ISMCTSBot`` (``bot.set_resampler(resampler)``): it deals the hidden cards anew from the
  player's observation (``observation.sample_state``), so the search never sees a hidden card;
  ``state.resample_from_infostate(player, probability_sampler)`` does the same.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

import meldhall
from meldhall.game import State
from meldhall.rl.core import GAMES, ActionIndex, game_rewards, hand_rewards
from meldhall.rl.encoding import encoder_for

__all__ = ["MeldhallGame", "MeldhallState", "MeldhallObserver", "resampler", "GAME_TYPES",
           "GAME_CLASSES", "ClassicCanastaGame", "RailroadCanastaGame", "ShanghaiRummyGame"]

#: Actions per hand, by game, in the default ``max_game_length`` (``max_hands`` times this):
#: well above every hand of random play measured (docs/rl.md).
_LENGTH_PER_HAND = {"classic-canasta": 3000, "railroad-canasta": 8000,
                    "shanghai-rummy": 12000}
#: Bounds of one hand's reward in points (far beyond real hands), for the declared utility.
_POINTS_PER_HAND = {"classic-canasta": 50_000.0, "railroad-canasta": 50_000.0,
                    "shanghai-rummy": 5_000.0}
_DEFAULT_DEALS = 1 << 14
_MAX_PLAYERS = {"classic-canasta": 6, "railroad-canasta": 8, "shanghai-rummy": 8}
_MIN_PLAYERS = {"classic-canasta": 2, "railroad-canasta": 2, "shanghai-rummy": 3}
_DEFAULT_PLAYERS = {"classic-canasta": 2, "railroad-canasta": 2, "shanghai-rummy": 3}


def _game_type(game: str, reward_model: Any) -> pyspiel.GameType:
    title = game.replace("-", " ").title()
    return pyspiel.GameType(
        short_name=GAMES[game][2],
        long_name=f"Python meldhall {title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=reward_model,
        max_num_players=_MAX_PLAYERS[game],
        min_num_players=_MIN_PLAYERS[game],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification={
            "players": _DEFAULT_PLAYERS[game],
            "max_hands": 1,
            "max_game_length": 0,  # 0: max_hands × the game's actions per hand
            "deals": _DEFAULT_DEALS,
            "reward": "hand",
            "reward_scale": 1.0,
            "options": "{}",  # the game's options as JSON (docs/options.md)
        },
    )


#: The registered game type of each game (its reward model as registered: per-step rewards;
#: a game loaded with ``reward="game"`` reports terminal rewards in its own type).
GAME_TYPES = {g: _game_type(g, pyspiel.GameType.RewardModel.REWARDS) for g in GAMES}


class MeldhallGame(pyspiel.Game):
    """One meldhall game for OpenSpiel (module docstring).

    Parameters (``pyspiel.load_game(name, {...})``): ``players``, ``max_hands`` (≥ 1),
    ``max_game_length`` (0: the game's default), ``deals`` (chance outcomes of the deal),
    ``reward`` (``"hand"`` or ``"game"``), ``reward_scale``, ``options`` (the game's options
    as a JSON object).

    Raises:
        meldhall.OptionsError: a bad option, player count or parameter.
    """

    game_name: str = ""

    def __init__(self, params: dict[str, Any] | None = None):
        spec = _Spec(self.game_name, dict(params or {}))
        super().__init__(spec.game_type, spec.info, spec.params)
        self.spec = spec

    def new_initial_state(self) -> MeldhallState:
        """The chance node of the deal."""
        return MeldhallState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None
                         ) -> MeldhallObserver | None:
        """The observer: the observation (default) or, with ``perfect_recall``, the
        information state; ``None`` (as ``make_observation`` expects of a kind a game does
        not provide) for any kind other than the player's own public and private view.

        Raises:
            ValueError: observation parameters.
        """
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if not iig_obs_type.public_info or \
                iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return None
        return MeldhallObserver(_spec_of(self), bool(iig_obs_type.perfect_recall))

    def max_chance_nodes_in_history(self) -> int:
        """One: the deal."""
        return 1


class _Spec:
    """What a loaded game's parameters make: the meldhall game, its options and the derived
    sizes (kept apart from the ``pyspiel.Game`` object, which OpenSpiel may rebuild)."""

    def __init__(self, game: str, params: dict[str, Any]):
        spec = GAME_TYPES[game].parameter_specification
        full = {k: params.get(k, v) for k, v in spec.items()}
        options = json.loads(full["options"]) if isinstance(full["options"], str) \
            else dict(full["options"])
        players = int(full["players"])
        first = meldhall.new_game(game, players=players, seed=0, options=options or None)
        max_hands = int(full["max_hands"])
        if max_hands < 1:
            raise meldhall.OptionsError(f"max_hands must be at least 1, not {max_hands}")
        length = int(full["max_game_length"]) or max_hands * _LENGTH_PER_HAND[game]
        deals = int(full["deals"])
        if deals < 1:
            raise meldhall.OptionsError(f"deals must be at least 1, not {deals}")
        reward = str(full["reward"])
        if reward not in ("hand", "game"):
            raise meldhall.OptionsError(f"reward must be 'hand' or 'game', not {reward!r}")
        scale = float(full["reward_scale"])
        if reward == "hand":
            bound = _POINTS_PER_HAND[game] * max_hands * abs(scale)
            model = pyspiel.GameType.RewardModel.REWARDS
        else:
            bound = 1.0
            model = pyspiel.GameType.RewardModel.TERMINAL
        self.info = pyspiel.GameInfo(
            num_distinct_actions=first.num_distinct_actions,  # type: ignore[attr-defined]
            max_chance_outcomes=deals,
            num_players=first.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=length,
        )
        self.game_type = GAME_TYPES[game] if reward == "hand" else _game_type(game, model)
        self.params = full
        self.meldhall_game = game
        self.meldhall_options = first.options
        self.first = first
        self.players = first.players
        self.max_hands = max_hands
        self.length = length
        self.deals = deals
        self.reward = reward
        self.reward_scale = scale
        self.encoder = encoder_for(game, first.options)
        self.index = ActionIndex()
        self.discard0, self.discard_kinds = _discard_ids(first)
        self.info_size = self.encoder.size + first.players * self.discard_kinds

    def __deepcopy__(self, memo: dict[int, Any]) -> _Spec:
        return self  # shared by every state of the game, never changed

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any]]]:
        return (_Spec, (self.meldhall_game, self.params))


_SPECS: dict[tuple[str, str], _Spec] = {}


def _spec_of(game: Any) -> _Spec:
    """The :class:`_Spec` of a loaded game (rebuilt from its parameters when OpenSpiel gives
    back a game object of its own making)."""
    spec = getattr(game, "spec", None)
    if isinstance(spec, _Spec):
        return spec
    params = dict(game.get_parameters())
    name = type(game).game_name
    key = (name, json.dumps(params, sort_keys=True, default=str))
    spec = _SPECS.get(key)
    if spec is None:
        spec = _SPECS[key] = _Spec(name, params)
    return spec


def _discard_ids(state: State) -> tuple[int, int]:
    """``(first discard id, number of discard kinds)`` of a game's action space."""
    if state.game_name == "shanghai-rummy":
        return 8, 53  # docs/protocol.md: simple block of 8, then 53 discards
    return 10, 14


class _Core:
    """The meldhall side of an OpenSpiel state: shared, not copied, by ``clone()`` (meldhall
    states are immutable values); the step list is copied (its items are immutable)."""

    __slots__ = ("state", "steps", "hand_start", "hands", "done", "last_rewards", "returns",
                 "discards", "info_parts", "info_done", "info_hand")

    def __init__(self) -> None:
        self.state: State | None = None
        #: per step: (seat, action id, private, new public log entries, hands after, own
        #: private details)
        self.steps: list[tuple[int, int, bool, tuple[tuple[int, str, str], ...],
                               tuple[int, ...], tuple[str, ...]]] = []
        self.hand_start = 0
        self.hands = 0
        self.done = False
        self.last_rewards: list[float] = []
        self.returns: list[float] = []
        #: discards this hand per seat by kind (absolute seats)
        self.discards: list[list[float]] = []
        #: per player: the information state's parts so far, the steps they cover, the hand
        #: last written (built on demand, extended as the game goes on)
        self.info_parts: list[list[str]] = []
        self.info_done: list[int] = []
        self.info_hand: list[int | None] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        new = _Core()
        new.state = self.state
        new.steps = list(self.steps)
        new.hand_start = self.hand_start
        new.hands = self.hands
        new.done = self.done
        new.last_rewards = list(self.last_rewards)
        new.returns = list(self.returns)
        new.discards = [list(d) for d in self.discards]
        new.info_parts = [list(p) for p in self.info_parts]
        new.info_done = list(self.info_done)
        new.info_hand = list(self.info_hand)
        return new


def _log_head(state: State) -> Any:
    return state.log  # type: ignore[attr-defined]  # every game's state keeps its log


def _new_entries(before: State, after: State) -> tuple[tuple[tuple[int, str, str], ...],
                                                        tuple[tuple[int, str], ...]]:
    """The public log entries ``after`` added to ``before``'s, oldest first, and the private
    details (Shanghai: the card drawn, a penalty card) as ``(seat, detail)``."""
    stop = _log_head(before)
    node = _log_head(after)
    public: list[tuple[int, str, str]] = []
    private: list[tuple[int, str]] = []
    if after.game_name == "shanghai-rummy":
        while node is not None and node is not stop:
            node, (s, text, note, secret) = node
            public.append((s, text, note))
            if secret:
                private.append((s, secret))
    else:
        while node is not None and node is not stop:
            public.append(node.entry)
            node = node.prev
    public.reverse()
    private.reverse()
    return tuple(public), tuple(private)


class MeldhallState(pyspiel.State):
    """A state of a :class:`MeldhallGame` (module docstring)."""

    def __init__(self, game: MeldhallGame):
        super().__init__(game)
        self._game = _spec_of(game)
        self._core = _Core()
        n = self._game.players
        core = self._core
        core.last_rewards = [0.0] * n
        core.returns = [0.0] * n
        core.discards = [[0.0] * self._game.discard_kinds for _ in range(n)]
        core.info_parts = [[f"p{p}"] for p in range(n)]
        core.info_done = [0] * n
        core.info_hand = [None] * n

    # -- the protocol of pyspiel.State -----------------------------------------------------
    def current_player(self) -> int:
        """The player to act, ``CHANCE`` before the deal, ``TERMINAL`` at the end."""
        core = self._core
        if core.done:
            return int(pyspiel.PlayerId.TERMINAL)
        if core.state is None:
            return int(pyspiel.PlayerId.CHANCE)
        return core.state.to_act[0]

    def _legal(self) -> dict[int, Any]:
        st = self._core.state
        assert st is not None  # asked only at decision nodes
        la = st.legal_actions()
        return dict(zip(self._game.index.ids(st, la), la))

    def _legal_actions(self, player: int) -> list[int]:
        """The legal action ids of ``player``, ascending."""
        core = self._core
        if core.done or core.state is None or player != core.state.to_act[0]:
            return []
        return sorted(self._legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deal: ``deals`` equally likely game seeds."""
        n = self._game.deals
        p = 1.0 / n
        return [(i, p) for i in range(n)]

    def _apply_action(self, action: int) -> None:
        core = self._core
        game = self._game
        n = game.players
        core.last_rewards = [0.0] * n
        if core.state is None:
            core.state = meldhall.new_game(game.meldhall_game, players=n, seed=int(action),
                                           options=game.meldhall_options)
            core.steps.append((-1, -1, False, (), core.state.hands,  # type: ignore[attr-defined]
                               ()))
            return
        st = core.state
        seat = st.to_act[0]
        act = self._legal()[int(action)]
        after = st.apply(act, seat)
        rewards = core.last_rewards
        dealt = False
        oc = after.outcome
        if oc is not None and oc is not st.outcome:  # a hand has just been scored
            core.hands += 1
            if game.reward == "hand":
                for s, r in enumerate(hand_rewards(after)):
                    rewards[s] += r * game.reward_scale
            if after.is_terminal or core.hands >= game.max_hands:
                core.done = True
            else:
                after = after.apply(after.legal_actions()[0])  # the deal: no decision
                dealt = True
        public, private = _new_entries(st, after)
        own = tuple(d for s, d in private if s == seat)
        core.steps.append((seat, int(action), bool(act.PRIVATE), public,
                           after.hands, own))  # type: ignore[attr-defined]
        k = game.discard_kinds
        if dealt:
            core.hand_start = len(core.steps)
            core.discards = [[0.0] * k for _ in range(n)]
        elif game.discard0 <= int(action) < game.discard0 + k:
            core.discards[seat][int(action) - game.discard0] += 1.0
        core.state = after
        if len(core.steps) - 1 >= game.length:  # the declared max_game_length
            core.done = True
        if core.done and game.reward == "game":
            for s, r in enumerate(game_rewards(after)):
                rewards[s] += r
        for s in range(n):
            core.returns[s] += rewards[s]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed {action}"
        st = self._core.state
        if st is None:
            st = self._game.first
        return str(st.action_from_id(int(action)))  # type: ignore[attr-defined]

    def is_terminal(self) -> bool:
        """True after ``max_hands`` hands, the game's end or ``max_game_length`` actions."""
        return self._core.done

    def returns(self) -> list[float]:
        """Rewards so far per player (the game result at the end with ``reward="game"``)."""
        return list(self._core.returns)

    def rewards(self) -> list[float]:
        """The rewards of the last action per player."""
        return list(self._core.last_rewards)

    def __str__(self) -> str:
        st = self._core.state
        if st is None:
            return "(the deal)"
        return "\n".join(f"{s}: {a}" for s, a in st.history()[-20:]) + \
            f"\nhand {st.hand_no + 1}, phase {st.phase}, scores {list(st.scores)}"

    # -- observations ----------------------------------------------------------------------
    def observation_string(self, player: int | None = None) -> str:
        """The observation of ``player`` as JSON (its log left out)."""
        return _observer(self._game, False).string_from(self, self._player(player))

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The observation tensor of ``player``."""
        return _observer(self._game, False).tensor_of(self, self._player(player)).tolist()

    def information_state_string(self, player: int | None = None) -> str:
        """The information state of ``player`` (module docstring)."""
        return _observer(self._game, True).string_from(self, self._player(player))

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """The information-state tensor of ``player``."""
        return _observer(self._game, True).tensor_of(self, self._player(player)).tolist()

    def _player(self, player: int | None) -> int:
        if player is None:
            player = self.current_player()
        if not 0 <= player < self._game.players:
            raise RuntimeError(f"no observation for player {player}")
        return player

    def resample_from_infostate(self, player: int, probability_sampler: Any = None
                                ) -> MeldhallState:
        """A state ``player`` cannot tell from this one: the hidden cards dealt anew from
        the player's observation (``observation.sample_state``).  ``probability_sampler``
        (a callable returning floats in [0, 1)) seeds the deal; without one, fresh
        randomness does."""
        seed = (int(probability_sampler() * 2**53) if callable(probability_sampler)
                else random.getrandbits(53))
        return _resample(self, player, random.Random(seed))


def _resample(state: MeldhallState, player: int, rng: random.Random) -> MeldhallState:
    core = state._core
    new = state.clone()
    if core.state is None or core.done:
        return new
    ncore = new._core
    ncore.state = core.state.observation(player).sample_state(rng)
    # the other players' past hands are unknown to ``player``: forgotten in the sample
    ncore.steps = [(s, a, p, pub, tuple(h if i == player else -1 for i, h in enumerate(hs)),
                    own if s == player else ())
                   for s, a, p, pub, hs, own in core.steps]
    for p in range(len(ncore.info_parts)):  # rebuilt from the forgetful steps when asked
        if p != player:
            ncore.info_parts[p] = [f"p{p}"]
            ncore.info_done[p] = 0
            ncore.info_hand[p] = None
    return new


def resampler(state: MeldhallState, player: int) -> MeldhallState:
    """The resampler hook of OpenSpiel's Python ``ISMCTSBot``
    (``bot.set_resampler(resampler)``): :meth:`MeldhallState.resample_from_infostate` with
    fresh randomness."""
    return _resample(state, player, random.Random())


class MeldhallObserver:
    """The PyObserver of a meldhall game (``tensor``, ``dict``, ``set_from``,
    ``string_from``): the observation, or with ``perfect_recall`` the information state."""

    def __init__(self, game: _Spec, perfect_recall: bool):
        self.game = game
        self.perfect_recall = perfect_recall
        enc = game.encoder
        size = game.info_size if perfect_recall else enc.size
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        for name, a, b, _doc in enc.slices:
            self.dict[name] = self.tensor[a:b]
        if perfect_recall:
            k = game.discard_kinds
            self.dict["discards"] = self.tensor[enc.size:].reshape(game.players, k)

    def tensor_of(self, state: MeldhallState, player: int) -> np.ndarray:
        """A fresh tensor of ``state`` for ``player``."""
        game = self.game
        core = state._core
        enc = game.encoder
        out = np.zeros(self.tensor.shape, np.float32)
        if core.state is None:
            return out
        out[:enc.size] = enc.encode_state(core.state, player)  # = encode(observation(player))
        if self.perfect_recall:
            n = game.players
            k = game.discard_kinds
            disc = out[enc.size:].reshape(n, k)
            for seat in range(n):
                disc[(seat - player) % n] = core.discards[seat]
        return out

    def set_from(self, state: MeldhallState, player: int) -> None:
        """Fill ``tensor`` (and its views in ``dict``) from ``state`` for ``player``."""
        self.tensor[:] = self.tensor_of(state, player)

    def string_from(self, state: MeldhallState, player: int) -> str:
        """The observation (or information state) of ``state`` for ``player``."""
        core = state._core
        if core.state is None:
            return f"p{player} (the deal)"
        if not self.perfect_recall:
            view = core.state.observation(player).to_json()
            view.pop("log", None)
            return json.dumps(view, sort_keys=True, separators=(",", ":"))
        return _information_state(state, player)


def _hand_names(state: State, mask: int) -> str:
    pack = state.pack  # type: ignore[attr-defined]  # every game's state has its pack
    counts: dict[str, int] = {}
    for i in range(mask.bit_length()):
        if (mask >> i) & 1:
            name = str(pack.cards[i]).split("/")[0]  # by name: never which copy
            counts[name] = counts.get(name, 0) + 1
    return " ".join(f"{k}×{v}" if v > 1 else k for k, v in sorted(counts.items()))


def _information_state(state: MeldhallState, player: int) -> str:
    core = state._core
    st = core.state
    assert st is not None  # after the deal
    parts = core.info_parts[player]
    last_hand = core.info_hand[player]
    steps = core.steps
    for i in range(core.info_done[player], len(steps)):
        seat, action, private, public, hands, own = steps[i]
        if seat == player:
            parts.append(f"me:{action}")
            parts.extend(own)
        elif private:
            continue  # another seat's staging: nothing shows (CC-6.9, RR-6.11, SH-8.1)
        for s, text, note in public:
            parts.append(f"{s}:{text}:{note}")
        hand = hands[player]
        if hand != last_hand:
            parts.append("hand " + _hand_names(st, hand))
            last_hand = hand
    core.info_done[player] = len(steps)
    core.info_hand[player] = last_hand
    return "|".join(parts)


_OBSERVERS: dict[tuple[int, bool], tuple[_Spec, MeldhallObserver]] = {}


def _observer(game: _Spec, perfect_recall: bool) -> MeldhallObserver:
    key = (id(game), perfect_recall)
    hit = _OBSERVERS.get(key)
    if hit is None or hit[0] is not game:
        hit = _OBSERVERS[key] = (game, MeldhallObserver(game, perfect_recall))
    return hit[1]


class ClassicCanastaGame(MeldhallGame):
    """``python_meldhall_classic_canasta`` (:class:`MeldhallGame`)."""

    game_name = "classic-canasta"


class RailroadCanastaGame(MeldhallGame):
    """``python_meldhall_railroad_canasta`` (:class:`MeldhallGame`)."""

    game_name = "railroad-canasta"


class ShanghaiRummyGame(MeldhallGame):
    """``python_meldhall_shanghai_rummy`` (:class:`MeldhallGame`)."""

    game_name = "shanghai-rummy"


GAME_CLASSES: dict[str, type[MeldhallGame]] = {
    "classic-canasta": ClassicCanastaGame,
    "railroad-canasta": RailroadCanastaGame,
    "shanghai-rummy": ShanghaiRummyGame,
}

_registered = set(pyspiel.registered_names())
for _g, _cls in GAME_CLASSES.items():
    if GAMES[_g][2] not in _registered:
        pyspiel.register_game(GAME_TYPES[_g], _cls)

