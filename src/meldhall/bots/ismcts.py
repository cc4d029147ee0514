"""Information-set Monte Carlo tree search (ISMCTS), generic over the game protocol.

The bot searches from its seat's :class:`~meldhall.game.Observation` only.  Each iteration
deals the cards it cannot see at random (``observation.sample_state(rng)``, a
*determinization*), walks one shared tree of decisions down that determinization (the
single-observer ISMCTS of Cowling, Powley and Whitehouse, 2012), grows the tree by one
decision, plays the rest of the hand with a fast policy (the game's heuristic bot, for every
seat, each from its own observation of the sampled state) and backs up every seat's result.

What makes it a player rather than a coin toss at small budgets:

* **Heuristic prior.** At every decision the heuristic's own choice is expanded first and
  starts with ``prior_visits`` virtual visits worth the parent's mean, so the search departs
  from the heuristic only on evidence.
* **Progressive widening.** A decision with many legal actions (canasta melds, Shanghai
  lay-offs) opens at most ``widen_c * visits ** widen_alpha`` children, in the order: the
  heuristic's choice, then the others as ``rng`` shuffles them.
* **Availability-aware UCB** (the ISMCTS selection rule): a child's exploration term counts
  the iterations in which it was legal, not the parent's visits, since the sampled hands
  change what opponents can do.

A result is a hand's score, oriented by :attr:`~meldhall.game.State.HIGH_SCORE_WINS`: a seat's
reward is its side's hand score minus the mean of the other sides'.  Rewards are normalised by
the range seen so far in the search, so one exploration constant fits every game.

Determinism: all randomness comes from the ``rng`` given to :meth:`IsmctsBot.choose`; with an
iteration budget (and no time cap reached) the same observation and ``rng`` state give the same
action whatever the hidden cards are.  The time cap is a safety net for interactive play; when
it cuts a search short the result depends on the machine's speed.

Levels (:data:`LEVELS`) are documented budgets; see ``docs/bots.md``.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, replace
from typing import Callable, Sequence

from meldhall.bots.heuristic import heuristic_bot
from meldhall.bots.staging import next_step, planning_actions
from meldhall.errors import OptionsError
from meldhall.game import Action, Observation, State

__all__ = ["Level", "LEVELS", "IsmctsBot", "ActionValue", "parse_level"]


@dataclass(frozen=True)
class Level:
    """A search budget and its policy.

    Attributes:
        name: ``"easy"``, ``"normal"`` or ``"hard"`` (or ``"custom"``).
        iterations: playouts per decision at most (the budget that makes results
            reproducible); with ``confirm`` the confirmation share is played only when a
            challenger leads the heuristic's choice after the selection.
        seconds: wall-clock cap per decision (seconds); the search stops at whichever of the
            two comes first.  ``None`` for no cap.
        exploration: UCB exploration constant on normalised rewards (0–1).
        prior_visits: virtual visits given to the heuristic's choice.
        widen_c, widen_alpha: progressive widening; a node visited ``n`` times may have
            ``max(2, ceil(widen_c * n ** widen_alpha))`` children.
        rollout_actions: actions a playout may take before it is cut off and scored as a draw
            (a safety bound: hands normally end well before it).
        horizon: playouts stop after this many actions and the position is scored by
            :meth:`~meldhall.game.State.provisional_results` (the hand as if the stock ran
            out now); ``None`` plays every playout to the end of the hand.
        tree: ``True`` grows the full single-observer tree (every seat's decisions);
            ``False`` searches the root decision only, with common random numbers and
            sequential halving (see :meth:`IsmctsBot.analyse`).  ``iterations`` counts
            playouts in both.
        max_candidates: root actions considered (the heuristic's choice and the first others
            in ``rng`` order, or in the heuristic's order with ``ranked``) in root search.
        ranked: (root search) the challengers are the heuristic's next choices
            (its ``rank`` method, best first) instead of a random draw of the legal actions;
            ignored for a heuristic without ``rank``.
        gate_z: root search leaves the heuristic's choice only when the best action's paired
            advantage over it exceeds ``gate_z`` standard errors.
        confirm: (root search) the share of ``iterations`` kept to test the best challenger
            against the heuristic's choice on fresh determinizations; the gate then uses only
            those pairs, so the luck that made a challenger look best while candidates were
            being dropped does not count twice.  ``0`` gates on the selection's own samples.
        search_from: decisions with fewer legal actions than this take the heuristic's choice
            without a search (``3`` leaves Shanghai Rummy's take-or-draw and buy-or-pass
            choices to the heuristic; the shipped levels search every choice).
        inference: deal the determinizations by what the other seats' public actions suggest
            about their hands (Shanghai Rummy: :mod:`meldhall.bots.shanghai_inference`)
            instead of uniformly.
    """

    name: str
    iterations: int
    seconds: float | None
    exploration: float = 0.7
    prior_visits: float = 4.0
    widen_c: float = 1.5
    widen_alpha: float = 0.5
    rollout_actions: int = 2000
    tree: bool = False
    horizon: int | None = None
    max_candidates: int = 12
    gate_z: float = 1.0
    confirm: float = 0.0
    search_from: int = 2
    inference: bool = False
    ranked: bool = False


#: The levels offered to players (``ismcts:easy``, ``ismcts`` = ``ismcts:normal``,
#: ``ismcts:hard``), per game.  Budgets differ by game because playouts do: a Railroad Canasta
#: hand is about three times as long as a Classic one.  Playouts run to the end of the hand:
#: cutting them short and scoring the position as if the stock ran out lost to the heuristic
#: in Railroad Canasta and in Shanghai Rummy (docs/strength.md).  The time cap is a safety
#: net.  Measured answer times and strength are in ``docs/strength.md``.
LEVELS: dict[str, dict[str, Level]] = {
    "classic-canasta": {
        "easy": Level("easy", iterations=12, seconds=0.5),
        "normal": Level("normal", iterations=48, seconds=1.0),
        "hard": Level("hard", iterations=240, seconds=5.0),
    },
    "railroad-canasta": {
        "easy": Level("easy", iterations=4, seconds=0.5),
        "normal": Level("normal", iterations=12, seconds=1.0),
        "hard": Level("hard", iterations=60, seconds=5.0),
    },
    # Shanghai Rummy: the heuristic is hard to improve on, and a search that leaves it on
    # noise loses (docs/strength.md); the deals are dealt by inference from the others'
    # public actions, and a challenger must beat the heuristic's choice by 1.64 standard
    # errors on fresh deals (one-sided 95 %).  Challengers taken from the heuristic's own next
    # choices (``ranked``) did no better, 300 paired deals (docs/strength.md).
    "shanghai-rummy": {
        "easy": Level("easy", iterations=16, seconds=0.5, confirm=0.5, gate_z=1.64,
                      inference=True),
        "normal": Level("normal", iterations=48, seconds=1.0, confirm=0.5, gate_z=1.64,
                        inference=True),
        "hard": Level("hard", iterations=240, seconds=5.0, confirm=0.5, gate_z=1.64,
                      inference=True),
    },
}


def parse_level(text: str | None, game: str = "classic-canasta") -> Level:
    """A level of ``game`` by name, or a custom budget: ``"<iterations>"``,
    ``"<iterations>/<seconds>"``, optionally followed by ``"@<horizon>"``.

    Raises:
        OptionsError: unknown game or level.
    """
    if game not in LEVELS:
        raise OptionsError(f"no ismcts levels for {game!r}")
    levels = LEVELS[game]
    if text is None or text == "":
        return levels["normal"]
    if text in levels:
        return levels[text]
    try:
        text, _, hz = text.partition("@")
        its, _, secs = text.partition("/")
        level = replace(levels["normal"], name="custom", iterations=int(its),
                        seconds=float(secs) if secs else None,
                        horizon=int(hz) if hz else None)
    except ValueError:
        raise OptionsError(
            f"unknown ismcts level {text!r}; use one of {', '.join(levels)}, "
            "or a budget such as ismcts:200 (playouts), ismcts:200/2 (and a 2 s cap) "
            "or ismcts:200@40 (playouts cut after 40 actions)") from None
    if level.iterations < 2 or (level.seconds is not None and level.seconds <= 0) \
            or (level.horizon is not None and level.horizon < 1):
        raise OptionsError(
            f"ismcts:{text} is too small a budget: the search compares moves on at least 2 "
            "playouts (ismcts:2 or more), with a positive time cap and horizon")
    return level


@dataclass(frozen=True)
class ActionValue:
    """One candidate of a search, for hints and analysis.

    Attributes:
        action: the legal action.
        visits: iterations that went through it (the heuristic prior excluded).
        value: mean result of those iterations in points: the observing side's hand score
            minus the others' mean (oriented so that more is better; penalty points count
            negative in Shanghai Rummy).  ``None`` if never visited.
        heuristic: whether it is the heuristic policy's own choice.
        advantage: (root search) the mean difference, in points, between this action's
            playouts and the chosen action's on the same sampled deals (negative: worse than
            the choice); ``None`` for the choice itself or without paired samples.
        stderr: the standard error of ``advantage`` (points); ``None`` under two pairs.
    """

    action: Action
    visits: int
    value: float | None
    heuristic: bool
    advantage: float | None = None
    stderr: float | None = None


class _Node:
    """A decision in the shared tree; the statistics are those of the seat that moved here."""

    __slots__ = ("children", "visits", "avail", "total", "prior", "order", "next")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0.0
        self.avail = 0.0
        self.total = 0.0
        self.prior = 0.0  # virtual visits at the siblings' mean (heuristic prior)
        self.order: list[Action] | None = None  # expansion order, fixed at first visit
        self.next = 0


class IsmctsBot:
    """The search bot (``ismcts``, ``ismcts:easy``, ``ismcts:hard`` in the CLI).

    Args:
        game: registry name of the game (its heuristic bot is the playout policy).
        level: a :class:`Level` or a level name (see :func:`parse_level`).

    Raises:
        OptionsError: unknown game or level.
    """

    def __init__(self, game: str, level: Level | str | None = None) -> None:
        self.game = game
        self.level = level if isinstance(level, Level) else parse_level(level, game)
        self.name = "ismcts" if self.level.name == "normal" else f"ismcts:{self.level.name}"
        self.policy = heuristic_bot(game)
        self._planned: Action | None = None  # the melding being staged step by step
        # observation -> (rng -> State): determinizations dealt by the game's inference
        self._infer: Callable[[Observation], Callable[[random.Random], State]] | None = None
        if self.level.inference:
            if game != "shanghai-rummy":
                raise OptionsError(f"no inference of hidden hands for {game!r}")
            from meldhall.bots.shanghai_inference import inferred_sampler

            self._infer = inferred_sampler

    # ------------------------------------------------------------------ public
    def choose(self, observation: Observation, legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """The most visited root action after the search (ties: the higher mean)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        if getattr(observation, "staged", ()):
            # mid-way through a melding this bot planned (CC-6.9): play its next step; a
            # melding staged otherwise is finished (or withdrawn) by the heuristic's plan
            if self._planned is not None:
                step = next_step(observation, self._planned, legal_actions)
                if str(step) != "withdraw all":
                    return step
            return self.policy.choose(observation, legal_actions, rng)
        stats = self.analyse(observation, legal_actions, rng)
        self._planned = stats[0].action
        return next_step(observation, stats[0].action, legal_actions)

    def analyse(self, observation: Observation, legal_actions: Sequence[Action],
                rng: random.Random) -> list[ActionValue]:
        """Search and return every explored root action, best first.

        Args:
            observation: the deciding seat's observation (nothing else is read).
            legal_actions: that seat's legal actions (non-empty).
            rng: the source of every random choice (sampling, playouts, widening).

        Returns:
            ``ActionValue`` per explored action, ordered by visits then value; the first is
            the bot's choice.  Unexplored legal actions are not listed.
        """
        seat = observation.seat
        if self.level.tree:
            legal = list(legal_actions)
            heur = self.policy.choose(observation, legal, rng)
        else:
            # whole meldings are the root's candidates (CC-6.9: staged as a sequence)
            legal = planning_actions(observation, legal_actions)
            plan = getattr(self.policy, "plan", None)
            heur = plan(observation, legal, rng) if plan is not None else \
                self.policy.choose(observation, legal, rng)
        self.playouts = 0
        if len(legal) == 1 or len(legal) < self.level.search_from:
            return [ActionValue(heur, 0, None, True)]
        if not self.level.tree:
            return self._root_search(observation, legal, heur, rng)
        root = _Node()
        order = [a for a in legal if a != heur]
        rng.shuffle(order)
        root.order = [heur] + order
        self._lo, self._hi = math.inf, -math.inf
        lvl = self.level
        deadline = None if lvl.seconds is None else time.perf_counter() + lvl.seconds
        start_outcome = observation.outcome
        sample = self._sampler(observation)
        for _ in range(lvl.iterations):
            state = sample(rng)
            self._iterate(root, state, seat, start_outcome, rng)
            if deadline is not None and time.perf_counter() > deadline:
                break
        ranked = sorted(root.children.items(),
                        key=lambda it: (it[1].visits + it[1].prior,
                                        it[1].total / it[1].visits if it[1].visits else -math.inf),
                        reverse=True)
        return [ActionValue(a, int(ch.visits), ch.total / ch.visits if ch.visits else None,
                            a == heur) for a, ch in ranked]

    # ------------------------------------------------------------------ root search
    def _root_search(self, observation: Observation, legal: list[Action], heur: Action,
                     rng: random.Random) -> list[ActionValue]:
        """Root decision only: sequential halving with common random numbers.

        Every surviving candidate is played out on the same determinizations with the same
        playout seeds, so candidates are compared on the same hidden cards and the same
        future draws; half are dropped after each round.  The heuristic's choice is never
        dropped, and is left only when the best candidate beats it, paired, by ``gate_z``
        standard errors: on the selection's samples, or with ``confirm`` on fresh ones.
        """
        lvl = self.level
        rank = getattr(self.policy, "rank", None) if lvl.ranked else None
        if rank is not None:
            # the heuristic's runners-up: the few moves worth the playouts
            others = [a for a in rank(observation, legal) if a != heur]
        else:
            others = [a for a in legal if a != heur]
            rng.shuffle(others)
        budget = lvl.iterations  # playouts, never exceeded
        confirm_pairs = int(budget * lvl.confirm) // 2
        select_budget = budget - 2 * confirm_pairs
        # no more candidates than the budget can play out twice each
        width = max(2, min(lvl.max_candidates, select_budget // 2))
        cands = [heur] + others[:width - 1]
        samples: dict[Action, list[float]] = {a: [] for a in cands}
        alive = list(cands)
        rounds = max(1, math.ceil(math.log2(len(cands))))
        used = 0
        deadline = None if lvl.seconds is None else time.perf_counter() + lvl.seconds
        seat = observation.seat
        sample = self._sampler(observation)
        self._lo, self._hi = math.inf, -math.inf

        def play(actions: list[Action]) -> None:
            det = sample(rng)
            seed = rng.getrandbits(64)
            for a in actions:
                rewards = self._playout(det.apply_unchecked(a), observation.outcome,
                                        random.Random(seed))
                samples[a].append(rewards[seat])

        def late() -> bool:
            return deadline is not None and time.perf_counter() > deadline

        for rnd in range(rounds):
            per = max(1, (select_budget // rounds) // len(alive))
            per = min(per, (select_budget - used) // len(alive))
            if per <= 0:
                break
            for _ in range(per):
                play(alive)
                used += len(alive)
                if late():
                    break
            if late():
                break
            if rnd < rounds - 1 and len(alive) > 2:
                keep = max(2, len(alive) // 2)
                ranked = sorted(alive[1:], key=lambda a: sum(samples[a]) / len(samples[a]),
                                reverse=True)
                alive = [heur] + ranked[:keep - 1]
        n = len(samples[heur])
        best = max(alive, key=lambda a: sum(samples[a][-n:]) / n) if n else heur
        tested = n  # the pairs the gate looks at: the last ``tested`` of best and heur
        if confirm_pairs and best != heur and not late():
            tested = 0
            for _ in range(confirm_pairs):
                play([heur, best])
                used += 2
                tested += 1
                if late():
                    break
        self.playouts = used
        choice = heur
        if best != heur and tested >= 2:
            diffs = [x - y for x, y in zip(samples[best][-tested:], samples[heur][-tested:])]
            mean = sum(diffs) / tested
            var = sum((d - mean) ** 2 for d in diffs) / (tested - 1)
            if mean > lvl.gate_z * math.sqrt(var / tested):
                choice = best
        out = []
        for a, xs in samples.items():
            if not xs:
                continue
            adv = err = None
            if a != choice:
                # candidates share the first len(xs) sampled deals with the choice
                diffs = [x - y for x, y in zip(xs, samples[choice])]
                adv = sum(diffs) / len(diffs)
                if len(diffs) >= 2:
                    v = sum((d - adv) ** 2 for d in diffs) / (len(diffs) - 1)
                    err = math.sqrt(v / len(diffs))
            out.append(ActionValue(a, len(xs), sum(xs) / len(xs), a == heur, adv, err))
        out.sort(key=lambda av: (av.action == choice, av.action in alive, av.visits,
                                 av.value), reverse=True)
        return out or [ActionValue(heur, 0, None, True)]  # no playout fitted the budget

    def measure(self, observation: Observation, actions: Sequence[Action], deals: int,
                rng: random.Random, seconds: float | None = None) -> list[list[float]]:
        """Play every one of ``actions`` out on the same fresh sampled deals (common random
        numbers: the same determinization and the same playout seed for each, as in the root
        search), for hints whose figures must be comparable move with move.

        Args:
            observation: the deciding seat's observation (nothing else is read).
            actions: legal or planning actions (as :meth:`analyse` lists them).
            deals: sampled deals to play (at least 2 are played whatever ``seconds`` says).
            rng: the source of every random choice.
            seconds: stop after the deal that passes this much wall time (``None``: all).

        Returns:
            Per action (same order), its results in points on each deal played, the
            observing side's hand score minus the others' mean (as :attr:`ActionValue.value`;
            penalty points count negative in Shanghai Rummy); every list has the same length.
        """
        seat = observation.seat
        sample = self._sampler(observation)
        self._lo, self._hi = math.inf, -math.inf
        results: list[list[float]] = [[] for _ in actions]
        deadline = None if seconds is None else time.perf_counter() + seconds
        for k in range(max(2, deals)):
            det = sample(rng)
            seed = rng.getrandbits(64)
            for i, a in enumerate(actions):
                results[i].append(self._playout(det.apply_unchecked(a), observation.outcome,
                                                random.Random(seed))[seat])
            if k >= 1 and deadline is not None and time.perf_counter() > deadline:
                break
        return results

    def _sampler(self, observation: Observation):
        """``rng -> State``: the observation's determinizations, dealt uniformly or (with
        ``inference``) by the game's inference of the other hands.  The root search plans
        whole meldings, so its determinizations have the seat's staged melds withdrawn."""
        sample: Callable[[random.Random], State]
        if self._infer is not None:  # set exactly when the level asks for inference
            sample = self._infer(observation)
        else:
            sample = observation.sample_state
        if self.level.tree or not getattr(observation, "staged", ()):
            return sample

        def unstaged(rng):
            st = sample(rng)
            # only games whose planners name whole meldings (compound_options) withdraw
            return st.unstaged() if hasattr(st, "compound_options") else st

        return unstaged

    # ------------------------------------------------------------------ search
    def _widen_limit(self, visits: float) -> int:
        lvl = self.level
        return max(2, math.ceil(lvl.widen_c * max(visits, 1.0) ** lvl.widen_alpha))

    def _iterate(self, root: _Node, state: State, seat: int, start_outcome, rng) -> None:
        """One determinization: select, expand, play out, back up."""
        lvl = self.level
        path: list[tuple[_Node, int]] = []
        node = root
        while not self._hand_over(state, start_outcome):
            actor = state.to_act[0]
            legal = state.legal_actions(actor)
            if len(legal) == 1:  # forced moves are not decisions: no node
                state = state.apply_unchecked(legal[0])
                continue
            order = node.order
            if order is None:
                order = node.order = self._expansion_order(state, actor, legal, rng)
            if len(node.children) == len(legal) and node is root:
                avail = list(node.children.items())
            else:
                avail = [(a, ch) for a, ch in node.children.items() if a in legal]
            if not avail or len(node.children) < self._widen_limit(node.visits):
                new = self._next_untried(node, order, legal)
                if new is not None:
                    child = _Node()
                    node.children[new] = child
                    # the policy's own choice gets virtual visits (see _select)
                    child.prior = lvl.prior_visits if new == order[0] else 0.0
                    for _, ch in avail:
                        ch.avail += 1
                    child.avail += 1
                    path.append((child, actor))
                    state = state.apply_unchecked(new)
                    break
            for _, ch in avail:
                ch.avail += 1
            a, node = self._select(avail)
            path.append((node, actor))
            state = state.apply_unchecked(a)
        rewards = self._playout(state, start_outcome, rng)
        root.visits += 1
        for n, actor in path:
            n.visits += 1
            n.total += rewards[actor]

    def _expansion_order(self, state: State, actor: int, legal: list[Action],
                         rng: random.Random) -> list[Action]:
        """The heuristic's choice, then the other legal actions of this sample, shuffled."""
        first = self.policy.choose(state.observation(actor), legal, rng)
        rest = [a for a in legal if a != first]
        rng.shuffle(rest)
        return [first] + rest

    @staticmethod
    def _next_untried(node: _Node, order: list[Action], legal: list[Action]) -> Action | None:
        """The first action of the node's order (``order``, its ``node.order``) not yet a child
        and legal in this sample; then any legal action of this sample not yet a child (added
        to the order)."""
        legal_set = set(legal) if len(legal) > 8 else legal
        while node.next < len(order):
            a = order[node.next]
            node.next += 1
            if a not in node.children:
                if a in legal_set:
                    return a
                node.next -= 1  # keep it for a sample where it is legal
                break
        for a in order[node.next:]:
            if a not in node.children and a in legal_set:
                return a
        for a in legal:
            if a not in node.children:
                order.append(a)
                return a
        return None

    def _select(self, avail: list[tuple[Action, _Node]]) -> tuple[Action, _Node]:
        """UCB1 on normalised means, with availability counts (ISMCTS).

        A child with a prior counts ``prior`` extra visits at the mean of its available
        siblings, so the heuristic's choice is left only on evidence.
        """
        lo, hi = self._lo, self._hi
        span = hi - lo if hi > lo else 1.0
        c = self.level.exploration
        tot = sum(ch.total for _, ch in avail)
        vis = sum(ch.visits for _, ch in avail)
        base = tot / vis if vis else 0.0
        best, best_v = avail[0], -math.inf
        for a, ch in avail:
            n = ch.visits + ch.prior
            if n <= 0:
                return a, ch
            mean = (ch.total + ch.prior * base) / n
            q = (mean - lo) / span if hi > lo else 0.5
            v = q + c * math.sqrt(math.log(max(ch.avail + ch.prior, 1.0)) / n)
            if v > best_v:
                best, best_v = (a, ch), v
        return best

    @staticmethod
    def _hand_over(state: State, start_outcome) -> bool:
        oc = state.outcome
        return oc is not None and oc is not start_outcome

    def _playout(self, state: State, start_outcome, rng: random.Random) -> list[float]:
        """Play on with the policy to the end of the hand, or for ``horizon`` actions and
        then score the position provisionally; each seat's reward in points."""
        policy = self.policy
        limit = self.level.horizon or self.level.rollout_actions
        results = None
        for _ in range(limit):
            if self._hand_over(state, start_outcome) or not state.to_act:
                break
            actor = state.to_act[0]
            legal = state.legal_actions(actor)
            a = legal[0] if len(legal) == 1 else policy.choose(state.observation(actor), legal, rng)
            state = state.apply_unchecked(a)
        oc = state.outcome
        if oc is not None and oc is not start_outcome:  # the hand is over
            results = oc.results
        elif self.level.horizon is not None:
            results = state.provisional_results()
        if results is None:
            return [0.0] * state.players
        rewards = self._rewards(results, state.players, state.HIGH_SCORE_WINS)
        for r in rewards:
            if r < self._lo:
                self._lo = r
            if r > self._hi:
                self._hi = r
        return rewards

    @staticmethod
    def _rewards(results, players: int, high_wins: bool) -> list[float]:
        """Per seat: its side's oriented hand score minus the mean of the other sides'."""
        sign = 1.0 if high_wins else -1.0
        side_score = [sign * r.hand_score for r in results]
        total = sum(side_score)
        k = len(side_score)
        by_seat = [0.0] * players
        for r, sc in zip(results, side_score):
            v = sc - (total - sc) / (k - 1) if k > 1 else sc
            for s in r.seats:
                by_seat[s] = v
        return by_seat
