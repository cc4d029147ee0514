"""What the other players' public actions suggest about their Shanghai Rummy hands.

A uniform determinization deals the cards a seat cannot see as if the other players had kept
whatever they were dealt.  They did not: a player who took a 7♥ from the discard pile probably
holds other sevens (a set contract) or hearts around it (a run contract), a player who passed
a card or discarded it probably holds nothing that goes with it, and a player who has made
the contract lays off what fits the table, so what it still holds mostly does not.  Searching
on uniform deals, the search bot underrated how much its discards feed the others and
switched away from the heuristic's discards on that false belief (measured in
``docs/strength.md``).

:func:`card_weights` turns those public facts into per-kind multipliers for
``ShanghaiObservation.sample_state(rng, weights=...)``, and :func:`inferred_sampler` is that
sampling for the search bot.  Only the observation is read: the took and declined cards come
from the public log and the ``known`` cards, the contract status from ``made`` and the table
melds.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from meldhall.bots.shanghai_heuristic import _Fit, _View
from meldhall.game import State
from meldhall.games.shanghai.rules import JOKER_KIND, rank_of_kind, suit_of_kind

__all__ = ["TOOK_WEIGHT", "MADE_FIT_WEIGHT", "card_weights", "inferred_sampler"]

#: Multiplier per piece of evidence (a card taken, or declined, that the kind goes with):
#: ``exp(±0.7)`` ≈ 2.0 or 0.5.  The strength benchmark measured the search with this value.
TOOK_WEIGHT = 0.7

#: Multiplier for a kind that fits a table meld, in the hand of a player who has made the
#: contract (it would have laid the card off).
MADE_FIT_WEIGHT = 0.15


def card_weights(observation) -> dict[int, list[float]]:
    """Per other seat, the multiplier of each kind (index 0–51, 52 the joker) for
    ``sample_state(rng, weights=...)``.

    Evidence, for a player who has not made the contract (SH-5.2 decides whether sets, runs
    or both count): each kind it took or bought this deal raises the cards that go with it
    (same rank for sets; same suit one rank away, or half as much two ranks away, for runs);
    each kind it declined or discarded lowers them.  For a player who has made it, kinds (and
    the joker) that fit a table meld are lowered to :data:`MADE_FIT_WEIGHT`.

    Args:
        observation: a ``ShanghaiObservation``.

    Returns:
        ``{seat: [53 floats > 0]}`` for every seat but the observer's.
    """
    v = _View(observation)
    contract = observation.contract
    made = observation.public["made"]
    fit = _Fit(observation.public["melds"], observation.options.ace_both_ends)
    out: dict[int, list[float]] = {}
    for seat, info in v.interest().items():
        if made >> seat & 1:
            w = [1.0] * 53
            for k in fit.kinds:
                w[k] = MADE_FIT_WEIGHT
            if fit.joker_room:
                w[JOKER_KIND] = MADE_FIT_WEIGHT
            out[seat] = w
            continue
        score = [0.0] * 53
        for sign, kinds in ((1.0, info["took"]), (-1.0, info["declined"])):
            for k in kinds:
                if k == JOKER_KIND:
                    continue
                r, su = rank_of_kind(k), suit_of_kind(k)
                if contract.sets:
                    for s2 in range(4):
                        score[s2 * 13 + r - 1] += sign
                if contract.runs:
                    for dr, step in ((-2, 0.5), (-1, 1.0), (1, 1.0), (2, 0.5)):
                        rr = r + dr
                        if 1 <= rr <= 13:
                            score[su * 13 + rr - 1] += sign * step
        out[seat] = [math.exp(TOOK_WEIGHT * x) for x in score]
    return out


def inferred_sampler(observation) -> Callable[[random.Random], State]:
    """``rng -> State``: determinizations of ``observation`` (a ``ShanghaiObservation``) with
    the other hands dealt by :func:`card_weights` (computed once, here)."""
    weights = card_weights(observation)
    return lambda rng: observation.sample_state(rng, weights=weights)
