"""Play complete games between bots (used by ``meldhall simulate`` and the tests)."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from meldhall import new_game
from meldhall.bots import make_bot

__all__ = ["GameResult", "bot_move", "play_game", "seat_bots"]

#: A hand that has not ended after this many actions is a bug (every hand terminates; see
#: docs/protocol.md); the simulator raises rather than loop.
ACTION_CAP_PER_HAND = 5000


@dataclass
class GameResult:
    """The result of one complete game.

    Attributes:
        seed: the game seed.
        scores: final cumulative score per side (per player where scores are personal).
        winners: winning sides.
        hands: hands played.
        actions: actions applied.
        hand_scores: per hand, the score per side.
        error: the exception text if the game failed, else ``None``.
    """

    seed: int
    scores: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    hands: int = 0
    actions: int = 0
    hand_scores: list[list[int]] = field(default_factory=list)
    error: str | None = None


def seat_bots(bot_names: list[str], players: int) -> list[str]:
    """Bots per seat: assigned in order and cycled (``heuristic,random`` with 4 players puts
    heuristic on seats 0 and 2, side 0)."""
    return [bot_names[i % len(bot_names)] for i in range(players)]


def bot_move(state, seat: int, bot, rng: random.Random):
    """``(action, seconds)``: the seat's only legal action (``seconds`` ``None``: the bot is
    not asked), or the bot's choice from the seat's observation and how long ``choose`` took
    (seconds)."""
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0], None
    t0 = time.perf_counter()
    action = bot.choose(state.observation(seat), legal, rng)
    return action, time.perf_counter() - t0


def play_game(game: str, players: int, bot_names: list[str], seed: int,
              options: dict | None = None, max_hands: int = 200) -> GameResult:
    """Play one complete game between bots.

    Bots get only their seat's observation and the legal actions.  Each seat's randomness comes
    from its own ``random.Random`` seeded from ``seed`` and the seat.
    """
    names = seat_bots(bot_names, players)
    bots = [make_bot(n, game) for n in names]
    rngs = [random.Random(seed * 1009 + i) for i in range(players)]
    state = new_game(game, players=players, seed=seed, options=options)
    result = GameResult(seed=seed)
    steps_this_hand = 0
    try:
        while not state.is_terminal:
            seat = state.to_act[0]
            action, _ = bot_move(state, seat, bots[seat], rngs[seat])
            before = state.outcome
            state = state.apply(action, seat)
            result.actions += 1
            steps_this_hand += 1
            if steps_this_hand > ACTION_CAP_PER_HAND:
                raise RuntimeError(f"hand {state.hand_no} exceeded {ACTION_CAP_PER_HAND} actions")
            oc = state.outcome
            if oc is not None and oc is not before:  # a hand has just been scored
                result.hands += 1
                result.hand_scores.append([r.hand_score for r in oc.results])
                steps_this_hand = 0
                if result.hands >= max_hands and not state.is_terminal:
                    raise RuntimeError(f"game not finished after {max_hands} hands")
        final = state.outcome
        assert final is not None  # the loop above ends only on a finished game (is_terminal)
        result.scores = list(state.scores)
        result.winners = list(final.winners)
    except Exception as exc:  # noqa: BLE001  (reported, counted as an error by the simulator)
        result.error = f"{type(exc).__name__}: {exc}"
    return result
