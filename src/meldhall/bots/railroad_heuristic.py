"""A heuristic Railroad Canasta player.

It sees only its observation.  Railroad rewards melding a great deal (every canasta is closed
at seven cards and a new one of the same rank may follow), and going out needs one canasta of
each type (RR-11.1), so the player:

* **plans the four types** — red and black canastas from natural ranks, a wild canasta from
  jokers and twos (1,000), a sevens canasta (1,500): wild cards go first to completing a black
  canasta while it still lacks one, then to the wild meld; sevens are melded and never wasted;
* **takes big piles** whenever a legal take gains more cards than it lays down;
* **uses the kitty** as soon as it is eligible (eleven more cards to meld, and no deduction);
* **keeps a legal discard** (the engine refuses plays that would leave only sevens under the
  lock, RR-5.8) and discards what helps the next player least — black threes first, never a
  wild card, not a rank the next player has an unfinished meld of (they could take the pile by
  adding the upcard, RR-8.5);
* **goes out** when it has all four types and its kitty is taken (or the kitty would cost less
  than playing on gains), choosing "go out" over the kitty only then (RR-11.7);
* **sheds its hand** under a looser going-out house rule (``go_out_requirement`` other than
  ``all_four``): once the requirement is met it melds with wild cards too, to go out.
"""

from __future__ import annotations

import random
from typing import Sequence

from meldhall.bots.staging import PlannedBot
from meldhall.game import Action
from meldhall.games.canasta.actions import (
    Add,
    Discard,
    Draw,
    GoOutNow,
    Kitty,
    Meld,
    Pass,
    Take,
)
from meldhall.games.canasta.engine import used_counts
from meldhall.games.canasta.values import CLASSIC_VALUES as V
from meldhall.games.railroad_canasta.state import meets_go_out

__all__ = ["RailroadHeuristicBot"]

JOKER, TWO, BLACK3, SEVEN = 0, 2, 3, 7
_TYPES = {"red", "black", "wild", "sevens"}


class RailroadHeuristicBot(PlannedBot):
    """Heuristic Railroad Canasta bot (see the module docstring)."""

    name = "heuristic"
    #: Under a looser ``go_out_requirement`` (RR-11.1), once it is met: meld with wild cards
    #: too, to shed the hand and go out (``benchmarks/railroad_house_rules.py`` measures it
    #: against the play without it).
    shed_when_out_allowed = True

    def plan(self, observation, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        """Choose among ``legal_actions`` — with staged meldings written as one action
        (:func:`~meldhall.bots.staging.planning_actions`) — using only ``observation``."""
        obs = observation
        p = obs.public
        seat = obs.seat
        rm = obs.pack.rank_mask
        counts = [(obs.hand & rm[k]).bit_count() for k in range(14)]
        types = {t for t, _ in p["closed"][seat]}
        phase = obs.phase
        if phase == "choice":
            # RR-11.7: go out only when the kitty is worth less than playing on
            return self._pick(legal_actions, GoOutNow) if obs.stock_size < 20 or \
                not self._has(legal_actions, Kitty) else self._pick(legal_actions, Kitty)
        if phase == "kitty":
            return self._pick(legal_actions, Kitty)
        if phase == "draw":
            return self._draw(obs, counts, legal_actions)
        if phase == "meld":
            req = obs.options.go_out_requirement
            # under a looser house rule the requirement is met early: from then on the wild
            # cards meld too, to shed the hand and go out (RR-11.1); under the rule as written
            # (all four types) the plan for the wild canasta holds
            shed = (self.shed_when_out_allowed and req != "all_four"
                    and meets_go_out(req, types, len(p["closed"][seat])))
            return self._meld(obs, counts, types, legal_actions, shed)
        return legal_actions[0]

    @staticmethod
    def _has(legal, cls) -> bool:
        return any(type(a) is cls for a in legal)

    @staticmethod
    def _pick(legal, cls):
        for a in legal:
            if type(a) is cls:
                return a
        return legal[0]

    # ------------------------------------------------------------------ draw
    def _draw(self, obs, counts, legal) -> Action:
        takes = [a for a in legal if type(a) is Take]
        pile = obs.public["pile"]
        best, best_score = None, -1e9
        for a in takes:
            used = used_counts(a)
            score = 10 * (len(pile) - 1) - 4 * (used[TWO] + used[JOKER]) + 3 * len(a.extra)
            if score > best_score:
                best, best_score = a, score
        if best is not None and (best_score >= 10 or not self._has(legal, Draw)):
            return best
        if self._has(legal, Draw):
            return self._pick(legal, Draw)
        return best if best is not None else self._pick(legal, Pass)

    # ------------------------------------------------------------------ meld
    def _meld(self, obs, counts, types, legal, shed: bool = False) -> Action:
        p = obs.public
        seat = obs.seat
        open_melds = {m.rank: m for m in p["melds"][seat] if m is not None}
        need_black = "black" not in types
        best, best_key = None, None
        for a in legal:
            t = type(a)
            if t is Meld:
                key = self._meld_key(a, counts, need_black, shed)
            elif t is Add:
                key = self._add_key(a, open_melds, need_black, shed)
            else:
                continue
            if key is None:
                continue
            if best_key is None or key > best_key:
                best, best_key = a, key
        if best is not None:
            return best
        return self._discard(obs, counts, legal)

    def _meld_key(self, a: Meld, counts, need_black: bool, shed: bool = False):
        """Which new melds are worth making.  Wild cards are kept for the wild canasta
        (1,000) except to complete the first black canasta; natural melds and sevens always."""
        used = used_counts(a)
        cards = sum(used)
        wild = used[TWO] + used[JOKER]
        if any(s.rank == BLACK3 for s in a.melds):
            return (5, cards)  # legal only as the going-out meld
        closes = sum(1 for s in a.melds if s.size == 7)
        natural_wild = sum(s.wilds for s in a.melds if s.rank != JOKER)
        if natural_wild and not (need_black and closes) and not shed:
            if len(a.melds) == 1:
                return None
            return (1, closes, cards - 3 * natural_wild)  # a first melding that needs them
        value = sum(used[k] * V[k] for k in range(14))
        return (4 if wild or closes else 3, closes, cards, value)

    def _add_key(self, a: Add, open_melds, need_black: bool, shed: bool = False):
        m = open_melds.get(a.rank)
        if m is None:
            return None
        wild = a.twos + a.jokers
        closes = m.size + a.size == 7
        if a.rank == JOKER:
            return (4, closes, a.size)
        if wild:
            if need_black and closes and a.naturals == 0:
                return (4, True, -wild)  # completes the black canasta we still lack
            if shed:
                return (4, closes, a.size)
            return None
        return (4, closes, a.size)

    # ------------------------------------------------------------------ discard
    def _discard(self, obs, counts, legal) -> Action:
        p = obs.public
        discards = [a for a in legal if type(a) is Discard]
        if not discards:
            return legal[0]
        n = obs.players
        nxt = (obs.seat + 1) % n
        next_open = {m.rank for m in p["melds"][nxt] if m is not None}
        frozen = p["pile_frozen"]
        pile_n = len(p["pile"])
        own_open = {m.rank for m in p["melds"][obs.seat] if m is not None}
        # every score is above -1e9: the first discard is taken, then perhaps beaten
        best, best_score = discards[0], -1e9
        for a in discards:
            k = a.kind
            score: float
            if k in (JOKER, TWO):
                score = -500
            elif k == BLACK3:
                score = 40 + pile_n
            else:
                c = counts[k]
                score = V[k] / 5.0
                if k in own_open:
                    score -= 30
                if c >= 2:
                    score -= 10 * c
                if not frozen and k in next_open:
                    score -= 25 + 2 * pile_n
                if k == SEVEN:
                    score -= 40
            if score > best_score:
                best, best_score = a, score
        return best
