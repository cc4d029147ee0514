"""A heuristic Classic Canasta player, written from how club players play.

It sees only its observation.  In outline:

* **Draw or take** — takes the pile when a legal take gains more than it costs (pile size,
  cards that fit its melds, against the hand cards and especially the wild cards it must
  lay down); a first melding through the pile uses the cheapest melds that reach the minimum.
* **Meld** — makes its first melding as soon as it can do so cheaply; afterwards adds naturals
  to its melds, starts melds from three naturals, and spends wild cards only to complete a
  canasta; keeps natural pairs that could take a frozen pile.
* **Go out** — goes out as soon as its side can (it tracks whether the rest of its hand can be
  melded with :func:`~meldhall.games.canasta.melds.can_go_out`), asking its partner first when
  the partner still holds many cards; answers "yes" unless its own hand is heavy and the
  opponents are not about to go out.
* **Discard** — never throws a wild card except to freeze a big pile on purpose; prefers
  black threes when the pile is worth protecting; avoids ranks the next opponent's side has
  melded (they could take the pile with the upcard alone) or is known to hold from an earlier
  pile; prefers ranks the next opponent has discarded; throws dead singletons before pairs.
"""

from __future__ import annotations

import random
from typing import Sequence

from meldhall.bots.view import ObservationView
from meldhall.bots.staging import PlannedBot
from meldhall.game import Action
from meldhall.games.canasta.actions import (
    Add,
    Answer,
    Ask,
    Discard,
    Draw,
    GoOut,
    Meld,
    Pass,
    Take,
    parse_kind,
)
from meldhall.games.canasta.melds import can_go_out
from meldhall.games.canasta.values import CLASSIC_VALUES as V

__all__ = ["ClassicHeuristicBot"]

JOKER, TWO, BLACK3 = 0, 2, 3


class _View(ObservationView):
    """Convenient derived facts from an observation."""

    def __init__(self, obs):
        super().__init__(obs)
        p = self.p
        self.side_of = p["side_of"]
        self.side = self.side_of[self.seat]
        pack = obs.pack
        self.pack = pack
        rm = pack.rank_mask
        self.counts = [(obs.hand & rm[k]).bit_count() for k in range(14)]
        self.hand_size = sum(self.counts)
        self.melds = p["melds"][self.side]
        self.my_melds = {m.rank: (m.naturals, m.twos, m.jokers) for m in self.melds
                         if m is not None}
        self.melded = bool(self.my_melds)
        self.canastas = sum(1 for m in self.melds if m is not None and m.rank != 3
                            and m.size >= 7)
        self.required = obs.options.required_canastas
        self.next_seat = (self.seat + 1) % self.n
        self.next_side = self.side_of[self.next_seat]
        self.pile = p["pile"]
        self.frozen = p["pile_frozen"]
        self.partners = [s for s in range(self.n) if s != self.seat
                         and self.side_of[s] == self.side]

    def side_melds(self, side):
        return {m.rank: m for m in self.p["melds"][side] if m is not None}

    def can_go_out(self, counts=None, melds=None) -> bool:
        return can_go_out(counts if counts is not None else self.counts,
                          melds if melds is not None else self.my_melds, self.required,
                          self.opts.wild_ratio, black_three_max=6 if self.n == 6 else 4)

    def hand_value(self) -> int:
        return sum(c * v for c, v in zip(self.counts, V))


def _used(action) -> list[int]:
    used = [0] * 14
    if isinstance(action, Take):
        used[action.rank] += action.naturals
        used[TWO] += action.twos
        used[JOKER] += action.jokers
        specs = action.extra
    elif isinstance(action, (Meld, GoOut)):
        specs = action.melds
    elif isinstance(action, Add):
        used[action.rank] += action.naturals
        used[TWO] += action.twos
        used[JOKER] += action.jokers
        return used
    else:
        return used
    for s in specs:
        used[s.rank] += s.naturals
        used[TWO] += s.twos
        used[JOKER] += s.jokers
    return used


class ClassicHeuristicBot(PlannedBot):
    """Heuristic Classic Canasta bot (see the module docstring)."""

    name = "heuristic"

    def plan(self, observation, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        """Choose among ``legal_actions`` — with staged meldings written as one action
        (:func:`~meldhall.bots.staging.planning_actions`) — using only ``observation``."""
        v = _View(observation)
        phase = observation.phase
        if phase == "consent":
            return self._answer(v, legal_actions)
        if phase == "draw":
            return self._draw(v, legal_actions)
        if phase == "meld":
            return self._meld(v, legal_actions)
        return legal_actions[0]

    # -------------------------------------------------------------------- answering
    def _answer(self, v: _View, legal) -> Action:
        """Say yes unless my own hand is heavy and the opponents are not close to going out."""
        opp_close = any(
            sum(1 for m in v.p["melds"][side] if m is not None and m.size >= 7) >= v.required
            and min(v.obs.hand_sizes[s] for s in range(v.n) if v.side_of[s] == side) <= 3
            for side in set(v.side_of) if side != v.side
        )
        heavy = v.hand_value() >= 120 and v.hand_size >= 6
        yes = opp_close or not heavy
        return next(a for a in legal if isinstance(a, Answer) and a.yes == yes)

    # -------------------------------------------------------------------- drawing
    def _draw(self, v: _View, legal) -> Action:
        takes = [a for a in legal if isinstance(a, Take)]
        best, best_score = None, -1e9
        pile_n = len(v.pile)
        pile_fit = 0
        for c in v.pile[:-1]:
            r = v.pack.rank_of[c]
            if r in v.my_melds or v.counts[r] >= 2:
                pile_fit += 1
        for a in takes:
            used = _used(a)
            wilds = used[JOKER] + used[TWO]
            cards = sum(used)
            score = 12 * pile_n + 4 * pile_fit - 3 * cards - 18 * wilds + 5 * len(a.extra)
            if score > best_score:
                best, best_score = a, score
        if best is not None:
            if not any(isinstance(a, Draw) for a in legal):
                return best  # stock empty: take whenever we may
            if best_score > 6:
                return best
        for a in legal:
            if isinstance(a, Draw):
                return a
        return next(a for a in legal if isinstance(a, Pass)) if any(
            isinstance(a, Pass) for a in legal) else legal[0]

    # -------------------------------------------------------------------- melding
    def _meld(self, v: _View, legal) -> Action:
        goouts = [a for a in legal if isinstance(a, GoOut)]
        if goouts:
            return max(goouts, key=lambda a: (sum(1 for s in a.melds if s.size >= 7),
                                              sum(s.size for s in a.melds)))
        permission = v.p["permission"]
        if v.melded and permission is not False and v.can_go_out():
            asks = [a for a in legal if isinstance(a, Ask)]
            if asks and permission is None and self._should_ask(v):
                return asks[0]
            if not asks or permission is True or not self._should_ask(v) or \
                    v.opts.partner_permission != "compulsory":
                step = self._go_out_step(v, legal)
                if step is not None:
                    return step
        if not v.melded:
            melds = [a for a in legal if isinstance(a, Meld)]
            if melds:
                best = min(melds, key=lambda a: self._first_meld_cost(v, a))
                if self._first_meld_cost(v, best) < 60:
                    return best
        else:
            choice = self._improve(v, legal)
            if choice is not None:
                return choice
        return self._discard(v, legal)

    def _should_ask(self, v: _View) -> bool:
        """Ask when a partner still holds many cards (they may prefer to play on)."""
        return any(v.obs.hand_sizes[s] >= 7 for s in v.partners)

    def _first_meld_cost(self, v: _View, a: Meld) -> float:
        used = _used(a)
        wilds = used[JOKER] + used[TWO]
        left = v.hand_size - sum(used)
        cost = 8 * wilds + 1.5 * sum(used)
        if left < 3:
            cost += 30
        return cost

    def _after(self, v: _View, a) -> tuple[list[int], dict]:
        used = _used(a)
        counts = [c - u for c, u in zip(v.counts, used)]
        melds = dict(v.my_melds)
        if isinstance(a, Add):
            n, t, j = melds[a.rank]
            melds[a.rank] = (n + a.naturals, t + a.twos, j + a.jokers)
        elif isinstance(a, Meld):
            for s in a.melds:
                melds[s.rank] = (s.naturals, s.twos, s.jokers)
        return counts, melds

    def _go_out_step(self, v: _View, legal):
        """The next action of a going out: keep going-out possible, complete canastas first."""
        best: Add | Meld | Discard | None = None
        best_key: tuple[bool, int, int] | None = None
        for a in legal:
            if isinstance(a, (Add, Meld)):
                counts, melds = self._after(v, a)
                left = sum(counts)
                if left and not v.can_go_out(counts, melds):
                    continue
                canastas = sum(1 for r, (n, t, j) in melds.items() if r != 3 and n + t + j >= 7)
                key = (left == 0, canastas, -left)
                if best_key is None or key > best_key:
                    best, best_key = a, key
            elif isinstance(a, Discard) and v.hand_size == 1:
                key = (True, v.canastas, 0)
                if best_key is None or key > best_key:
                    best, best_key = a, key
        return best

    def _improve(self, v: _View, legal):
        """Melds worth making now (side already melded)."""
        best: Add | Meld | None = None
        best_key: tuple[int, float] | None = None
        pile_frozen_for_us = v.frozen
        for a in legal:
            key: tuple[int, float]
            if isinstance(a, Add):
                n, t, j = v.my_melds[a.rank]
                size = n + t + j
                wild = a.twos + a.jokers
                if wild == 0:
                    key = (3, a.naturals)
                else:
                    if size < 7 <= size + a.size and a.naturals == v.counts[a.rank]:
                        key = (2, -wild if a.twos else -wild - 0.5)  # prefer spending twos
                    else:
                        continue
                if a.naturals != v.counts[a.rank] and wild == 0:
                    continue  # add all naturals of a rank at once
            elif isinstance(a, Meld):
                s = a.melds[0]
                if s.rank == 3:
                    continue
                if s.wilds:
                    # a pair plus a wild only when the hand is long and the pile is not frozen
                    if not (v.hand_size >= 9 and s.wilds == 1 and s.twos == 1
                            and not pile_frozen_for_us):
                        continue
                    key = (0, s.naturals)
                else:
                    if s.naturals != v.counts[s.rank]:
                        continue
                    key = (1, s.naturals)
            else:
                continue
            counts, _ = self._after(v, a)
            if sum(counts) < 2:
                continue
            if best_key is None or key > best_key:
                best, best_key = a, key
        return best

    # -------------------------------------------------------------------- discarding
    def _discard(self, v: _View, legal) -> Action:
        discards = [a for a in legal if isinstance(a, Discard)]
        if not discards:
            for a in legal:
                if isinstance(a, Pass):
                    return a
            return legal[0]
        next_melds = v.side_melds(v.next_side)
        next_melded = bool(next_melds)
        next_frozen = v.frozen or (v.opts.frozen_until_side_melds and not next_melded)
        known_next = v.p["known"][v.next_seat]
        known_counts = [(known_next & v.pack.rank_mask[k]).bit_count() for k in range(14)]
        recent_next = set()
        for c in _recent_discards(v, v.next_seat):
            recent_next.add(c)
        pile_n = len(v.pile)
        # every score is above -1e9: the first discard is taken, then perhaps beaten
        best, best_score = discards[0], -1e9
        for a in discards:
            k = a.kind
            score = 0.0
            if k in (JOKER, TWO):
                # freeze a big pile on purpose, spending the cheaper wild card
                if pile_n >= 10 and not v.frozen and next_melded and k == TWO:
                    score = 45
                else:
                    score = -1000
            elif k == BLACK3:
                score = 35 + min(pile_n, 20)
            else:
                c = v.counts[k]
                if k in v.my_melds:
                    score -= 40
                elif c >= 3:
                    score -= 35
                elif c == 2:
                    score -= 22 if v.frozen else 15
                score += V[k] / 4
                if not next_frozen and k in next_melds:
                    score -= 30 + 2 * pile_n
                if known_counts[k]:
                    score -= 12 + 2 * pile_n
                if k in recent_next:
                    score += 8
                if c == 1:
                    score += 6
            if score > best_score:
                best, best_score = a, score
        return best


def _recent_discards(v: _View, seat: int, limit: int = 12) -> list[int]:
    """Kinds that ``seat`` discarded recently (from the public log)."""
    out: list[int] = []
    node = v.p["log"]
    while node is not None and len(out) < limit:
        who, text, _ = node.kept
        node = node.prev
        if who != seat:
            continue
        if type(text) is Discard:
            out.append(text.kind)  # the action itself: its notation is "discard " + its kind
        elif type(text) is str and text.startswith("discard "):
            out.append(parse_kind(text.split()[1]))
    return out

