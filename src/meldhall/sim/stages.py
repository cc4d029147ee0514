"""Stages of a game, for measuring bots where players play: a hand dealt mid-game.

A tournament's paired deals are normally the first hand of a game: in Shanghai Rummy that is
always the first contract, in the canasta games always the 50-point minimum count.  A
*stage* starts the deal's hand as it would be later in a game:

* Shanghai Rummy — ``contract N`` (``N`` = 1 … the game's number of deals, SH-4): the hand
  is played as deal ``N`` of the game, with its contract; the cards dealt are the deal's own
  (a fresh shuffle of the game seed), the scores so far zero (they decide nothing in play).
* Classic and Railroad Canasta — ``minimum M``: every side starts the hand at the lowest
  cumulative score of the band whose minimum count for the first melding is ``M`` (CC-7.1,
  RR-7.1; the game's own table, house rules included), or at −100 for the negative band
  (minimum 15).  So both sides need ``M`` and play as they would at that point of a game.

Each stage is reached through a position (:func:`meldhall.record.dump_position` and
:func:`~meldhall.record.load_position`), so the start state passes every check a loaded
position does.
"""

from __future__ import annotations

from typing import Any

from meldhall import new_game
from meldhall.errors import OptionsError
from meldhall.game import State
from meldhall.record import dump_position, load_position

__all__ = ["stage_names", "start_state"]

#: The cumulative score standing for the negative band (minimum 15, CC-7.1, RR-7.1).
NEGATIVE_SCORE = -100


def _canasta_bands(state: State) -> list[tuple[int, int]]:
    """(minimum count, the band's lowest cumulative score), lowest band first (CC-7.1,
    CC-7.2, RR-7.1, with the options' own table where a house rule sets one)."""
    from meldhall.games.classic_canasta.options import DEFAULT_MINIMUM_TABLE as CLASSIC
    from meldhall.games.railroad_canasta.options import DEFAULT_MINIMUM_TABLE as RAILROAD

    opts: Any = state.options
    default = RAILROAD if state.game_name == "railroad-canasta" else CLASSIC
    thresholds = [t for t, _ in (opts.minimum_count_table or default)]
    six = getattr(opts, "six_player_150_threshold", None)
    if six is not None:
        thresholds.append(six)  # CC-7.2: a six-player side from this score needs 150
    bands: dict[int, int] = {opts.minimum_count(NEGATIVE_SCORE): NEGATIVE_SCORE}
    for t in sorted(thresholds):
        bands.setdefault(opts.minimum_count(t), t)
    return sorted(bands.items(), key=lambda band: band[1])


def stage_names(game: str, players: int, options: dict[str, Any] | None = None) -> list[str]:
    """The stages of ``game`` in play order: ``["contract 1", …]`` (Shanghai Rummy) or
    ``["minimum 15", "minimum 50", …]`` (canasta games).

    Raises:
        OptionsError: unknown game or bad options.
    """
    state = new_game(game, players=players, seed=0, options=options)
    if game == "shanghai-rummy":
        return [f"contract {n}" for n in range(1, state.options.deals + 1)]  # type: ignore[attr-defined]  # a Shanghai option
    return [f"minimum {m}" for m, _ in _canasta_bands(state)]


def start_state(game: str, players: int, seed: int, options: dict[str, Any] | None,
                stage: str | None) -> State:
    """The state a deal of ``stage`` starts from (``None``: the game's first hand).

    Raises:
        OptionsError: a stage this game does not have (:func:`stage_names` lists them).
    """
    state = new_game(game, players=players, seed=seed, options=options)
    if stage is None:
        return state
    names = stage_names(game, players, options)
    if stage not in names:
        raise OptionsError(f"{game} has no stage {stage!r}; its stages: {', '.join(names)}")
    doc = dump_position(state)
    if game == "shanghai-rummy":
        n = int(stage.split()[1])
        doc["hand_no"] = n - 1
        doc["deal_scores"] = [[0] * players for _ in range(n - 1)]
    else:
        minimum = int(stage.split()[1])
        score = dict(_canasta_bands(state))[minimum]
        doc["scores"] = [score] * len(doc["scores"])
    return load_position(doc)
