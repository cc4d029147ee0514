"""Hints: the move a bot recommends for a seat, with its estimated value and the runners-up.

Used by ``meldhall hint`` (a position or record file) and usable from tutorials and the web
table.  The bot sees only the seat's observation, never the state: a hint is what a player at
that seat could work out, whatever the position file says about the other hands.
"""

from __future__ import annotations

import dataclasses
import math
import random
import re
from dataclasses import dataclass, field
from typing import Any, Sequence

from meldhall.bots import make_bot
from meldhall.bots.ismcts import ActionValue, IsmctsBot
from meldhall.bots.staging import next_step, planning_actions
from meldhall.errors import OptionsError
from meldhall.game import Action, Observation, State

__all__ = ["HINT_DEALS", "HINT_SECONDS", "Hint", "hint", "hint_for_observation", "signed"]

#: The fewest sampled deals a measured hint plays its moves out on, in every game (the search's
#: choice gets more where its search gave it more).  A Classic Canasta hint on 15 deals put a
#: move 506 ± 249 points behind that 300 deals put level with it, and a Railroad Canasta hint
#: on 8 deals had a ± of 367 (testers): 30 deals halve such swings against 8 at about 1.5 s of
#: one core more in Railroad Canasta, where a hand is longest.
HINT_DEALS = 30

#: The wall-clock safety cap of a hint's search and of its measuring, each (seconds): the
#: level's playout budget decides, not the clock, so the same position and seed give the
#: same hint on a busy machine as on an idle one (a level's own cap, 1 s at ``normal``,
#: cut Railroad Canasta hints to 4 deals of 8 under load).
HINT_SECONDS = 20.0


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
        plan: the whole move recommended where it is not the step to play now: a melding the
            engine stages (CC-6.9, RR-6.11, SH-8.1: e.g. ``meld A A A, K K 2``), or, with melds
            staged that are not part of it, the move they must be withdrawn for (a discard);
            ``None`` otherwise.
        next: the one action to play now towards it (its first staged step, its commit, or
            ``withdraw all`` when what is staged is not part of it).
        why: one sentence for people: why this move (the search's evidence, or that it is the
            only legal move or the heuristic's choice).
        notes: per alternative (same order), how far it got in the search, for people:
            ``"dropped after 3 deals: others led"`` (moves still in the running did better
            on those deals), ``"last challenger: short of the gate on every deal"`` …;
            ``""`` where the bot says nothing of it.
        gate: the rule that decided, for this game's search level: ``"The search keeps the
            heuristic's choice unless a move beats it by more than one standard error on the
            same deals."``; ``""`` without a search.
        penalty: the game scores penalty points (lower is better, Shanghai Rummy): ``value``
            and the advantages are then penalty points fewer than the others' (positive:
            better).
        partnership: the seat plays in a partnership (Classic Canasta, four or six players):
            ``value`` is then its side's hand score minus the other side's, otherwise the
            seat's own hand score minus the other players' mean.
        gate_z: the margin in standard errors: :data:`HINT_Z` (1, in every game) where the
            hint measured the moves together, else the search level's gate (1.64 in Shanghai
            Rummy); a listed move ahead of the recommendation by less than ``gate_z`` times
            its ± is noise.
        measured: the sampled deals on which the recommendation and every alternative were
            played out together for this hint (their figures then compare move with move);
            0 where the figures are the search's own.
        players: how many play (``value`` is measured against the other player alone in a
            two-player game, against the others' mean otherwise); 0 where unknown.
        value_stderr: the standard error of ``value`` (points) where it was measured on the
            hint's own deals (``measured``); ``None`` otherwise.
        staged: the seat had melds staged when it asked (CC-6.9, RR-6.11, SH-8.1): going on
            with them is kept unless a move that withdraws them does better by the margin.
        steps: per alternative (same order), the legal action that begins it where it is a
            whole melding written as shorthand (``stage A A + upcard`` for ``take A A``),
            else ``None`` (the move is itself legal now).
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
    notes: list[str] = field(default_factory=list)
    gate: str = ""
    penalty: bool = False
    measured: int = 0
    partnership: bool = False
    gate_z: float = 1.0
    players: int = 0
    value_stderr: float | None = None
    staged: bool = False
    steps: list[Action | None] = field(default_factory=list)

    #: The first words of the moves that meld (or lay off) and leave the turn going on.
    MELDING_HEADS = ("add", "meld", "stage", "layoff", "contract", "out")

    @property
    def melds_nothing_more(self) -> bool:
        """The recommendation discards (ending the turn) while a listed move melds first: the
        recommendation then means "meld nothing more this turn" (a tester read a discard
        listed against an addition as if both could not be made in one turn)."""
        if not str(self.action).startswith("discard"):
            return False
        return any(str(a).split(" ", 1)[0] in self.MELDING_HEADS
                   for a, _v, _n in self.alternatives)

    @property
    def close_call(self) -> bool:
        """A measured hint whose next-best listed move is behind the recommendation by no more
        than ``gate_z`` times its ± (or level with it): another hint, or another level, may
        then recommend that move instead (testers met two levels advising opposite discards
        on one position).  ``False`` without a measurement."""
        if not self.measured:
            return False
        for adv, se in self._padded_comparisons():
            if adv is None or se is None:
                continue
            if round(adv) == 0 and round(se) == 0:
                continue  # the same result on every deal: the same move in effect, no call
            return -adv <= self.gate_z * se
        return False

    def others(self) -> str:
        """Whom ``value`` is measured against, for people: ``"the other side's"`` in a
        partnership, ``"the other player's"`` with two players, otherwise ``"the other
        players' mean"``."""
        if self.partnership:
            return "the other side's"
        return "the other player's" if self.players == 2 else "the other players' mean"

    def _padded_comparisons(self) -> list[tuple[float | None, float | None]]:
        return list(self.comparisons) + [(None, None)] * (len(self.alternatives)
                                                          - len(self.comparisons))

    def footnote(self) -> str:
        """What the figures of the other moves mean, for people (shown under them by the
        terminal and the web), saying only what fits them: the sign sentence speaks of the
        signs the list has, the noise sentence appears only beside a positive figure; ``""``
        without alternatives."""
        if not self.alternatives:
            return ""
        advs = [round(c[0]) for c in self._padded_comparisons() if c[0] is not None]
        worse = any(a < 0 for a in advs)
        better = any(a > 0 for a in advs)
        if self.penalty and self.measured:
            sign = ""  # the figures say "more" or "fewer" in words
        elif self.penalty:
            sign = ("A positive difference: fewer penalty points than the recommendation on "
                    "the same deals (better); negative: more (worse)." if better and worse else
                    "A positive difference: fewer penalty points than the recommendation on "
                    "the same deals (better)." if better else
                    "A negative difference: more penalty points than the recommendation on "
                    "the same deals (worse)." if worse else
                    "+0: as many penalty points as the recommendation on the same deals."
                    if advs else "")
        else:
            sign = ("A negative difference: worse than the recommendation on the same deals; "
                    "positive: better there." if better and worse else
                    "A positive difference: better than the recommendation on the same deals."
                    if better else
                    "A negative difference: worse than the recommendation on the same deals."
                    if worse else
                    "+0: the same result as the recommendation on the same deals."
                    if advs else "")
        if self.measured:
            noise = ""
            if better:
                times = "its ±" if self.gate_z == 1.0 else f"{self.gate_z:g} times its ±"
                noise = f"; a positive figure smaller than {times} is noise"
            margin = _margin(self.gate_z)
            basis = (f"Every move here, the recommendation too, was played out on the same "
                     f"{self.measured} sampled deal{'s' if self.measured != 1 else ''} for "
                     "this hint (the cards you cannot see dealt at random, then the hand "
                     "played on by the heuristic bot), so the figures compare move with move "
                     "(± one standard "
                     "error).  The recommendation is the move that did best on them"
                     + ("; the melds you have staged are kept unless a move that withdraws "
                        f"them does better there by more than {margin}{noise}."
                        if self.staged else
                        # a move listed as better: said, not "did best" above it (a tester)
                        f", or one that no move beat by more than {margin}{noise}."
                        if better else ".")
                     # a normal hint's 15 deals: its ± are wide, and a tester met another
                     # hint that ranked two close moves the other way round
                     + (f"  {self.measured} deals are few: moves within about twice their ± "
                        "of each other may change places in another hint."
                        if self.measured < FEW_DEALS else "")
                     + ("  This is a close call: another hint, or another level, may "
                        "recommend the next move instead." if self.close_call else "")
                     # a tester asked why a single king was never listed beside the
                     # recommended discard of one of a pair
                     + ("  The other legal moves are not listed: a first, shorter look put "
                        "them behind these."
                        if self.legal_count > len(self.alternatives) + 1 else ""))
        else:
            basis = (f"{self.gate + '  ' if self.gate else ''}Only that comparison decides: a "
                     "move dropped after a few deals was behind the moves kept on those deals, "
                     "and its figure there, however good, is not a measure against the "
                     "recommendation on every deal.")
        return f"{sign}  {basis}" if sign else basis

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the ``meldhall hint --json`` object).  Points are whole points
        (every figure of a list at one precision: the standard errors are tens of points)."""
        notes = list(self.notes) + [""] * (len(self.alternatives) - len(self.notes))
        return {
            "seat": self.seat,
            "bot": self.bot,
            "action": str(self.action),
            "value": _whole(self.value),
            "value_stderr": _whole(self.value_stderr),
            "samples": self.samples,
            "legal_count": self.legal_count,
            "plan": None if self.plan is None else str(self.plan),
            "next": str(self.next if self.next is not None else self.action),
            "why": self.why,
            "gate": self.gate,
            "penalty_points": self.penalty,
            "measured_deals": self.measured,
            "partnership": self.partnership,
            "gate_z": self.gate_z,
            "players": self.players,
            "footnote": self.footnote(),
            "close_call": self.close_call,
            "melds_nothing_more": self.melds_nothing_more,
            "alternatives": [
                {"action": str(a), "value": _whole(v), "samples": n,
                 "versus_recommended": _whole(c[0]), "stderr": _whole(c[1]), "note": note,
                 "next": None if step is None else str(step)}
                for (a, v, n), c, note, step in zip(
                    self.alternatives, self._padded_comparisons(), notes,
                    list(self.steps) + [None] * (len(self.alternatives) - len(self.steps)))
            ],
        }


def _whole(v: float | None) -> float | None:
    """Points rounded to a whole point (as a float, ``-0`` written ``0``)."""
    return None if v is None else float(round(v)) + 0.0


def _sort_key(av) -> tuple[bool, int, float]:
    """Alternatives measured on two or more shared deals (with a standard error) first, the
    ones measured on more deals first (the last challenger, which the decision compared on
    every deal, before the moves dropped early), each by advantage: a move seen on a few
    deals says little, however good it looked there."""
    if av.advantage is not None:
        return av.stderr is not None, av.visits if av.stderr is not None else 0, av.advantage
    return False, 0, av.value if av.value is not None else float("-inf")


def _high_score_wins(game: str) -> bool:
    """The game's :attr:`~meldhall.game.State.HIGH_SCORE_WINS` (``False``: penalty points)."""
    from meldhall.games import game_module

    module = game_module(game)
    for name in dir(module):
        cls = getattr(module, name)
        if isinstance(cls, type) and issubclass(cls, State) and cls is not State:
            return bool(cls.HIGH_SCORE_WINS)
    return True


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
    level = b.level if isinstance(b, IsmctsBot) else None
    if isinstance(b, IsmctsBot) and level is not None and level.seconds is not None:
        # a hint plays the level's whole playout budget: a wall-clock cut (which a loaded
        # machine reaches sooner) would make the same position give other figures, or
        # another move, from one ask to the next; a generous cap stays as a safety net
        b.level = dataclasses.replace(level, seconds=max(level.seconds, HINT_SECONDS))
    rng = random.Random(seed)
    if len(legal) == 1:
        return Hint(seat, legal[0], None, 0, [], b.name, 1, why="It is the only legal move.",
                    players=observation.players)
    analyse = getattr(b, "analyse", None)
    if analyse is None:
        return Hint(seat, b.choose(observation, legal, rng), None, 0, [], b.name, len(legal),
                    why=f"It is the {b.name} bot's choice; that bot gives no estimate.",
                    players=observation.players)
    ranked = analyse(observation, legal, rng)
    level = getattr(b, "level", None)  # with its seconds cap raised above
    measure = getattr(b, "measure", None)
    root = measure is not None and level is not None and not getattr(level, "tree", False)
    staged_now = bool(getattr(observation, "staged", ()))
    # the search plans from the whole hand, staged melds withdrawn, and its deals do not
    # depend on what is staged: the hint works out the move it gave before anything was
    # staged (same seed, same figures), so following it step by step never flips it
    best = ranked[0]
    penalty = not _high_score_wins(game)
    others = sorted(_distinct(ranked[1:], ranked[0]), key=_sort_key,
                    reverse=True)[:alternatives]
    why = _why(ranked, level, penalty)
    measured = 0
    value_se = None

    def withdraws(av: Any) -> bool:
        return _needs_withdrawing(observation, av, legal)

    # the search's best move that goes on with what is staged (None with nothing staged)
    going_on = next((av for av in ranked if not withdraws(av)), None) if staged_now else None
    if staged_now and going_on is None and root:
        # the search explored no move that keeps what is staged: the melding they make (or
        # the nearest one holding them) is measured beside the others all the same, so the
        # player sees how committing what they staged compares (a tester saw "withdraw all"
        # recommended with no row for the melds staged)
        cont = _staged_continuation(observation, legal)
        if cont is not None:
            going_on = ActionValue(cont, 0, None, False)
    kept_staged = False  # the staged melds were the reference of the comparison
    if root and (others or going_on is not None) and best.visits >= 2:
        best, others, notes, why = _measured_together(
            measure, observation, ranked, others, level, penalty, rng, going_on, withdraws,
            _obvious(game, observation, legal))
        measured = best.visits
        value_se = best.stderr
        kept_staged = going_on is not None and withdraws(ranked[0])
    elif root and staged_now and withdraws(best):
        # too few playouts to compare: going on with what is staged is the reference
        if going_on is not None:
            ranked = [going_on] + [av for av in ranked if av is not going_on]
            best = going_on
            others = sorted(_distinct(ranked[1:], ranked[0]), key=_sort_key,
                    reverse=True)[:alternatives]
        notes = [_note(av, ranked, level) for av in others]
    else:
        notes = [_note(av, ranked, level) for av in others]
    if staged_now:
        # a listed move that does not go on with what is staged (a discard, another melding)
        # is played after withdrawing it: say so beside its figure
        for i, av in enumerate(others):
            if withdraws(av):
                notes[i] = ("after withdrawing the staged melds; " + notes[i]) if notes[i] \
                    else "after withdrawing the staged melds"
    for i, av in enumerate(others):
        if str(av.action).startswith("ask"):
            said = "asking your partner whether you may go out (CC-10.5)"
            notes[i] = f"{said}; {notes[i]}" if notes[i] else said
    rest = [(av.action, av.value, av.visits) for av in others]
    comps = [(av.advantage, av.stderr) for av in others]
    step = next_step(observation, best.action, legal)
    # the whole move recommended stays named (``plan``) whenever the step to play now differs
    # from it: a melding built meld by meld, or a legal move (a discard) that first needs the
    # staged melds withdrawn
    plan = best.action if best.action not in legal or (staged_now and step != best.action) \
        else None
    # with melds already staged the recommendation is the step to play now (it is legal
    # here); otherwise the whole melding, legal as shorthand for its staged steps
    if measured:
        # the table's side of the why (what the move does), then the figures'
        why = _with_reason(why, game_reason(game, observation, best.action))
    action = step if staged_now else best.action
    z = HINT_Z if measured else getattr(level, "gate_z", None) or 1.0
    # the rule that decided: the hint's own where it measured the moves together (the
    # search bot's gate did not decide then), else the search's
    rule = _hint_rule(measured, kept_staged, z) if measured else gate_rule(level)
    if measured:
        why = _canasta_clause(why, best.action, rest, comps,
                              _canasta_adds(game, observation, legal), penalty)
    # a melding listed as shorthand is begun by a legal step (a tester met "take A A" in a
    # hint beside the move list's "stage A A + upcard")
    steps = [None if a in legal else next_step(observation, a, legal) for a, _v, _n in rest]
    return Hint(seat, action, best.value, best.visits, rest, b.name, len(legal), comps,
                plan, step, why, notes, rule, penalty, measured,
                _partnership(game, observation), z,
                observation.players, value_se, kept_staged, steps)


#: A joker standing for a card (``JK=AC``, SH-9.4): its suit apart.
_JOKER_AS = re.compile(r"\bJK=(10|[2-9AKQJ])[SHDC]\b")


def _distinct(avs: Sequence[Any], best: Any) -> list[Any]:
    """``avs`` without the moves that differ from ``best`` or from an earlier one only in the
    suit a joker of a set stands for (SH-9.4): a tester found ``… A♠ A♣ Jk=A♠`` listed beside
    the recommended ``… A♠ A♣ Jk=A♣``, taking one of the few places of the comparison."""
    seen = {_JOKER_AS.sub(r"JK=\1", str(best.action))}
    out = []
    for av in avs:
        key = _JOKER_AS.sub(r"JK=\1", str(av.action))
        if key not in seen:
            seen.add(key)
            out.append(av)
    return out


def _hint_rule(deals: int, kept_staged: bool, gate_z: float) -> str:
    """The rule a measured hint recommends by, in one sentence (its ``gate``)."""
    rule = (f"The hint recommends the move that did best on its {deals} sampled "
            f"deal{'s' if deals != 1 else ''}")
    if kept_staged:
        return (rule + ", except that the melds you have staged are kept unless a move that "
                f"withdraws them does better by more than {_margin(gate_z)}.")
    return rule + "."


def _staged_continuation(observation: Observation, legal: Sequence[Action]) -> Action | None:
    """The whole move (a planning action, CC-6.9, RR-6.11, SH-8.1) that goes on with the
    melds staged without withdrawing any: the one that commits exactly them first (its next
    step ``meld done`` / ``contract done``, or the take or discard that commits), else the
    first that adds to them; ``None`` if none does."""
    plans = planning_actions(observation, legal)
    going = [p for p in plans
             if not str(next_step(observation, p, legal)).startswith("withdraw")]
    for p in going:
        if type(next_step(observation, p, legal)).__name__ in ("MeldDone", "ContractDone"):
            return p
    return going[0] if going else None


def _partnership(game: str, observation: Observation) -> bool:
    """Whether the seat plays with a partner (CC-1: four or six players form two sides)."""
    return game == "classic-canasta" and observation.players >= 4


def _needs_withdrawing(observation: Observation, av: Any, legal: Sequence[Action]) -> bool:
    """Whether ``av``'s move, with melds staged, begins by withdrawing them (it does not go
    on with what is staged, CC-6.9, RR-6.11, SH-8.1)."""
    return str(next_step(observation, av.action, legal)).startswith("withdraw")


def _paired(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float | None]:
    """Mean of ``x - y`` over shared deals and its standard error (``None`` under two)."""
    diffs = [x - y for x, y in zip(xs, ys)]
    mean = sum(diffs) / len(diffs)
    if len(diffs) < 2:
        return mean, None
    return mean, math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1) / len(diffs))


def _measured_together(measure: Any, observation: Observation, ranked: Sequence[Any],
                       listed: list[Any], level: Any, penalty: bool, rng: random.Random,
                       going_on: Any = None, withdraws: Any = None,
                       obvious: Sequence[Any] = (),
                       ) -> tuple[Any, list[Any], list[str], str]:
    """Comparable figures for a hint: the search's choice and every listed move (the
    heuristic's choice among them) are played out again on the same fresh sampled deals, as
    many as the search gave its choice (the bot's ``measure``).  The search drops moves after a
    few deals on which others happened to lead, and compares its choice with its last
    challenger only, so its own figures are not comparable move with move.  At least 8 deals
    are played (the clock only stops them past :data:`HINT_SECONDS`), never fewer than 2.

    The hint recommends the move that did best on these deals (the search's choice on a tie),
    so no other figure reads better than the recommendation; every figure is the difference
    from it on these deals.  With melds staged (CC-6.9,
    RR-6.11, SH-8.1), ``going_on`` is the search's best move that goes on with them and
    ``withdraws(av)`` tells a move that withdraws them first: when the recommendation found
    that way would withdraw what is staged, going on with it is kept instead unless another
    move beats that by the gate (no flip-flopping between staging and withdrawing).

    Returns:
        ``(best, alternatives, notes, why)``: the recommendation (``ActionValue``: its mean,
        deals and, as ``stderr``, the standard error of that mean), the others against it
        (advantage and standard error, best first), a note on each (what the search made of
        it) and the sentence of why.
    """
    chosen = ranked[0]
    moves = [chosen] + list(listed)
    heur = next((av for av in ranked if av.heuristic), None)
    if heur is not None and all(m.action != heur.action for m in moves):
        moves.append(heur)  # the heuristic's choice is always among the figures
    # a move a player would surely weigh (one that makes a canasta) is measured even where
    # the search drew no playout of it (a tester asked why the hint never spoke of one)
    for a in obvious:
        if all(m.action != a for m in moves):
            moves.append(type(chosen)(a, 0, None, False))
    obvious_set = set(obvious)
    if going_on is not None and all(m.action != going_on.action for m in moves):
        moves.append(going_on)  # last: the deals and the others' figures stay as they were
    # as many deals as the search gave its choice, and at least HINT_DEALS (a figure over a
    # few deals says little)
    results = measure(observation, [m.action for m in moves],
                      max(chosen.visits, HINT_DEALS), rng,
                      seconds=HINT_SECONDS)
    deals = len(results[0])
    # the hint's own margin, one for every game (a tester met one standard error in a canasta
    # hint and 1.64 in a Shanghai one): its figures are its own deals, not the search's gate
    z = HINT_Z

    def beaten_by(ref: int) -> int:
        """The move that beats ``moves[ref]`` by the most, by the gate; ``ref`` if none."""
        beating = []
        for i in range(len(moves)):
            if i == ref:
                continue
            adv, err = _paired(results[i], results[ref])
            if err is not None and adv > z * err:
                beating.append((adv, i))
        return max(beating)[1] if beating else ref

    # the recommendation is the move that did best on these deals (the earlier listed on a
    # tie: the search's choice first), so no figure beside it reads better than it does
    means = [sum(xs) / deals for xs in results]
    rec = max(range(len(moves)), key=lambda i: (means[i], -i))
    keep_staged = False
    g = 0
    if going_on is not None and withdraws is not None and withdraws(moves[rec]):
        # what is staged stays unless a move that withdraws it does better by the gate
        g = next(i for i, m in enumerate(moves) if m.action == going_on.action)
        keep_staged = True
        rec = beaten_by(g)
    rows = []
    first_with: dict[tuple[float, ...], Any] = {}  # a result list -> the first move with it
    for i, m in enumerate(moves):
        first_with.setdefault(tuple(results[i]), m.action)
    for i, m in enumerate(moves):
        if i == rec:
            continue
        adv, err = _paired(results[i], results[rec])
        av = type(m)(m.action, deals, sum(results[i]) / deals, m.heuristic, adv, err)
        twin = first_with[tuple(results[i])]
        if i == g and keep_staged:
            note = "goes on with the melds you have staged"
        elif i == 0 and round(adv) > 0:
            # only with melds staged kept: the search's pick did a little better, inside
            # the margin
            note = _compared(adv, err, z)
        elif m.heuristic:
            note = "what the heuristic bot would play"
        elif m.action in obvious_set and m.visits == 0:
            note = ("a new meld of natural cards" if str(m.action).startswith("meld ") else
                    "a card you hold only one of" if str(m.action).startswith("discard") else
                    "it makes a canasta")
        else:
            # how far a move got in the opening search is not said: testers read "first in
            # the hint's opening search" or "set it aside after 3 deals" as jargon, and as a
            # contradiction beside its figure on the hint's own deals
            note = ""
        if results[i] == results[rec]:
            # the same result as the recommendation on every deal: the figure says so (a
            # tester read it twice, "the same result … — came out the same as …"); only why
            note = ((f"{note}; " if note else "") + "after either move the bots playing the "
                    "deal on ended the hand the same way")
        elif twin != m.action:
            # two moves that end the same way on every deal (the playout lays the rest of a
            # melding next): said, or the list reads as two measurements agreeing by chance
            note = ((f"{note}; " if note else "") + f"came out the same as {twin} on every deal"
                    # why two different moves can tie exactly: the hand went on alike
                    " (after either, the bots playing the deal on ended the hand the same "
                    "way)")
        rows.append((av, note))
    rows.sort(key=lambda r: r[0].advantage, reverse=True)
    r = moves[rec]
    # the recommendation's own figure: its mean and that mean's standard error (``stderr``)
    _, spread = _paired(results[rec], [0.0] * deals)
    best = type(r)(r.action, deals, means[rec], r.heuristic, None, spread)
    gate = _gate(level)
    # what a sampled deal is, the footnote says (a tester found the why heavy with it)
    basis = f"on {deals} sampled deals"
    top = rows[0][0] if rows else None
    if keep_staged and rec != g:
        adv, err = _paired(results[rec], results[g])
        why = (f"{basis[0].upper()}{basis[1:]}, it did {_lead(adv, err or 0.0, penalty)} "
               f"than going on with the melds you have staged ({going_on.action}), a lead "
               f"of {gate}.")
    elif keep_staged:
        why = (f"It goes on with the melds you have staged: {basis}, no move that withdraws "
               f"them did better by {gate}.")
        if top is not None and top.advantage > 0:
            why += (f" {top.action} did {_worded(top.advantage, top.stderr or 0.0, penalty)}, "
                    f"not a clear difference ({_within(z)}).")
    elif top is not None and _same(top.advantage, top.stderr):
        # a tie is not "did best": both moves came out the same on every deal
        why = (f"{basis[0].upper()}{basis[1:]}, it did as well as any of the {len(moves)} "
               f"moves tried: {top.action} did exactly as well on every deal (the hand goes on "
               "the same way after either).")
    else:
        why = f"{basis[0].upper()}{basis[1:]}, it did best of the {len(moves)} moves tried"
        if top is not None:
            same = _same(top.advantage, top.stderr)
            fig = _worded(top.advantage, top.stderr or 0.0, penalty)
            close = top.stderr is not None and -top.advantage <= z * top.stderr
            why += (f"; the next, {top.action}, did {same}" if same else
                    f"; the next, {top.action}, did {fig}"
                    # said with the margin it is measured against (a tester read "-9 ± 7,
                    # within the noise" where the margin was 1.64 standard errors)
                    + (f", not a clear difference ({_within(z)})" if close else ""))
        why += "."
    return best, [row[0] for row in rows], [row[1] for row in rows], why


def _compared(adv: float, err: float | None, z: float) -> str:
    """How the recommendation compared with a listed move on the hint's deals, in words
    agreeing with its figure ``adv`` (the move minus the recommendation, points): "the
    recommendation did better", "the recommendation did exactly as well" (a tie), or, where
    the move's lead is inside the margin ``z`` standard errors, that it is not a clear
    difference."""
    if round(adv) < 0:
        return "the recommendation did better"
    if round(adv) == 0 and (err is None or round(err) == 0):
        return "the recommendation did exactly as well"
    if round(adv) == 0:
        return "the recommendation did as well on average"
    return f"this move did a little better, not a clear difference ({_within(z)})"


def _obvious(game: str, observation: Observation, legal: Sequence[Action]) -> list[Action]:
    """Legal moves a player would surely weigh, measured by a hint whether or not the search
    tried them: in the canasta games, an addition that makes a canasta (CC-6.6, RR-6.8), the
    one with the fewest wild cards per meld (at most two melds), the largest new meld of
    natural cards alone (three or more of a rank), and up to two discards of a lone natural
    card (:func:`_lone_discards`).  Empty in Shanghai Rummy."""
    if game == "shanghai-rummy":
        return []
    best: dict[int, Action] = {}
    for a in _canasta_adds(game, observation, legal):
        rank = a.rank  # type: ignore[attr-defined]  # an Add
        held = best.get(rank)
        if held is None or a.twos + a.jokers < held.twos + held.jokers:  # type: ignore[attr-defined]
            best[rank] = a
    out = list(best.values())[:2]
    return out + _natural_meld(legal) + _lone_discards(observation, legal)


def _lone_discards(observation: Observation, legal: Sequence[Action]) -> list[Action]:
    """Up to two discards of a lone natural card (one of its rank in hand, no meld of it on
    the seat's side), those the next player's side has no meld of first, then the higher
    ranks: what a canasta player weighs first (a tester found "discard 5" of three 5s
    recommended with the lone J and 8 never measured; on 200 deals the J did 68 ± 42 better)."""
    p = observation.public
    seat = observation.seat
    side_of = p["side_of"]
    players = len(side_of)

    def ranks(side: int) -> set[int]:
        return {m.rank for m in p["melds"][side] if m is not None}

    mine, nexts = ranks(side_of[seat]), ranks(side_of[(seat + 1) % players])
    hand: Any = observation
    found = []
    # with melds staged the discards are the seat's choices before staging (the hint plans
    # from there: the same moves measured before and after staging)
    choices = planning_actions(observation, legal) if getattr(observation, "staged", ()) \
        else legal
    for a in choices:
        kind = getattr(a, "kind", None)
        if not str(a).startswith("discard") or kind is None or kind in (0, 2, 3):
            continue
        if kind in mine or (hand.hand & hand.pack.rank_mask[kind]).bit_count() != 1:
            continue
        found.append((kind in nexts, -(14 if kind == 1 else kind), str(a), a))
    return [t[3] for t in sorted(found)[:2]]


def _canasta_adds(game: str, observation: Observation, legal: Sequence[Action]
                  ) -> list[Action]:
    """The additions of ``legal`` that make a side's meld a canasta (seven cards or more,
    CC-6.6, RR-6.8); empty in Shanghai Rummy."""
    if game == "shanghai-rummy":
        return []
    p = observation.public
    side = p["side_of"][observation.seat]
    sizes: dict[int, int] = {}
    for m in p["melds"][side]:
        if m is None:
            continue
        n = m.naturals + m.twos + m.jokers
        if m.rank not in sizes or sizes[m.rank] >= 7 > n:  # the unfinished meld takes adds
            sizes[m.rank] = n
    out: list[Action] = []
    for a in legal:
        rank = getattr(a, "rank", None)
        if str(a).split(" ", 1)[0] != "add" or rank is None or rank not in sizes:
            continue
        now, after = sizes[rank], sizes[rank] + a.size  # type: ignore[attr-defined]  # an Add
        if now < 7 <= after:
            out.append(a)
    return out


def _natural_meld(legal: Sequence[Action]) -> list[Action]:
    """The largest new meld of natural cards alone in ``legal`` (three or more of a rank), as a
    one-item list; empty without one (a tester held A A A and asked why "meld A A A" was never
    among the moves compared)."""
    melds = []
    for a in legal:
        specs = getattr(a, "melds", None)
        if type(a).__name__ != "Meld" or not specs or len(specs) != 1:
            continue
        sp = specs[0]
        if sp.wilds == 0 and sp.naturals >= 3:
            melds.append((sp.naturals, str(a), a))
    return [max(melds, key=lambda t: (t[0], t[1]))[2]] if melds else []


def _canasta_clause(why: str, action: Action, rest: Sequence[tuple[Action, Any, int]],
                    comps: Sequence[tuple[float | None, float | None]],
                    makers: Sequence[Action], penalty: bool) -> str:
    """``why`` saying that a listed move which makes a canasta (CC-6.6, RR-6.8) did worse
    than the recommendation, which makes none, with its figure: a tester met "discard 8"
    recommended over the addition that made the side's first canasta with no word of it."""
    if not makers or action in makers or not why.endswith("."):
        return why
    for (a, _v, _n), (adv, se) in zip(rest, comps):
        if a not in makers or adv is None or se is None or round(adv) >= 0:
            continue
        named = f"the next, {a},"
        if named in why:
            return why.replace(named, f"the next, {a}, which makes a canasta,", 1)
        return (f"{why[:-1]}; making the canasta now, {a}, did "
                f"{_worded(adv, se, penalty)}.")
    return why


def game_reason(game: str, observation: Observation, action: Action) -> str:
    """What the recommended move does at the table, in a player's words (the game's side of
    the why; the figures give the other), from ``observation`` alone; ``""`` where there is
    nothing to say beyond the move itself.

    A discard in the canasta games: a wild card freezes the pile (CC-8.3, RR-8.3), a black
    three blocks the next player (CC-8.10, RR-8.2), and a natural card is said by how many of
    its rank the hand holds and whether the next player's side has a meld of it (it could
    take the pile with it, CC-8.6, RR-8.5).  A take: the size of the pile.  Shanghai Rummy's
    buy: the two cards it adds (SH-10.4); its contract: the lay-offs it allows (SH-9.1) and
    the melds it ends (SH-8.6); a lay-off: one card fewer in hand (SH-9.1)."""
    from meldhall.games.canasta.actions import rank_word

    head = str(action).split(" ", 1)[0]
    p = observation.public
    if game == "shanghai-rummy":
        if head in ("buy", "pass") and observation.phase == "buy":
            # what the card does for the contract, beside the buy's cost (a tester met a pass
            # on a card that completed contract 1, and a buy explained by its cost alone)
            toward = _shanghai_contract_gain(observation)
            if head == "buy":
                return (f"buying {toward}; it adds a penalty card to your hand too (SH-10.4)"
                        if toward else
                        "buying adds the upcard and a penalty card to your hand (SH-10.4)")
            return ("passing keeps your hand two cards smaller than a buy would (SH-10.4)"
                    + (f", though buying {toward}" if toward else ""))
        if head == "discard" and hasattr(action, "kind"):
            return _shanghai_discard_reason(observation, action.kind)
        if head in ("take", "draw") and observation.phase == "upcard":
            return _shanghai_upcard_reason(observation, head == "take")
        if head == "contract":
            # what making the contract changes (a tester found such hints statistics only)
            return ("it lays down your contract: from your next turn you may lay off on any "
                    "meld on the table (SH-9.1), and you may start no other meld this deal "
                    "(SH-8.6)")
        if head == "layoff":
            return "it lays off a card, one fewer left in your hand to count against you (SH-9.1)"
        return ""
    if game == "railroad-canasta" and observation.phase == "kitty" and head in ("kitty", "pass"):
        # RR-10.3: the kitty is taken once, whole, after a discard
        sizes = observation.to_json().get("kitty_sizes") or []
        size = sizes[observation.seat] if observation.seat < len(sizes) else None
        cards = f" its {size} cards" if size else " its cards"
        return (f"taking the kitty puts{cards} in your hand, to play from your next turn "
                "(RR-10.3)" if head == "kitty" else
                "passing leaves the kitty for a later discard; its cards stay out of your "
                "hand until then (RR-10.3)")
    side = p["side_of"][observation.seat]
    out_with = _goes_out_next(observation, action) if head in ("meld", "add") else None
    if out_with is not None:
        # the one thing a player wants to hear (a tester read a meld that let them go out
        # explained by statistics only)
        rule = "CC-10.1" if game == "classic-canasta" else "RR-11.1"
        return (f"it leaves you one card, {out_with}: discarding it goes out this turn, as "
                f"your melds now allow ({rule})")
    specs = getattr(action, "melds", None)
    if head == "meld" and specs and not [m for m in p["melds"][side] if m is not None]:
        # a first melding: its count against the side's minimum (CC-7.1, RR-7.1)
        from meldhall.games.canasta.observation import staged_count

        count = staged_count(tuple(specs), False)
        cards = sum(m.naturals + m.twos + m.jokers for m in specs)
        need = observation.to_json()["minimums"][side]
        rule = "CC-7.1" if game == "classic-canasta" else "RR-7.1"
        return (f"it melds {cards} cards for a count of {count}, the first melding needing "
                f"{need} ({rule})") if need is not None else ""
    if head == "meld" and specs:
        # a new meld of a side that has melded: its cards count for the side on the table and
        # against it in hand (a tester met a why of figures only)
        cards = sum(m.naturals + m.twos + m.jokers for m in specs)
        rules = "CC-12.1, CC-12.6" if game == "classic-canasta" else "RR-13.1, RR-13.5"
        return (f"it puts {cards} cards from your hand on the table, where they count for you "
                f"instead of against you when the hand ends ({rules})")
    if head == "add" and hasattr(action, "rank"):
        # how far the meld gets towards a canasta of seven (CC-6.6, RR-6.8)
        mine = next((m for m in p["melds"][side] if m is not None and m.rank == action.rank
                     and m.naturals + m.twos + m.jokers < 7), None)
        if mine is None:
            mine = next((m for m in p["melds"][side] if m is not None and m.rank == action.rank),
                        None)
        if mine is None:
            return ""
        now = mine.naturals + mine.twos + mine.jokers
        after = now + action.size  # type: ignore[attr-defined]  # a canasta Add
        ranks = "wild cards" if action.rank in (0, 2) else rank_word(action.rank, plural=True)
        rule = "CC-6.6" if game == "classic-canasta" else "RR-6.8"
        if now < 7 <= after:
            return f"it makes your meld of {ranks} a canasta ({after} cards, {rule})"
        if after < 7:
            return (f"it brings your meld of {ranks} to {after} cards, {7 - after} short of a "
                    f"canasta ({rule})")
        return f"it adds to your canasta of {ranks} ({after} cards)"
    known_rule = "CC-5.9" if game == "classic-canasta" else "RR-5.10"
    if head == "draw" and observation.phase == "draw" and p.get("pile"):
        # why not the pile (a tester found such a why statistics only)
        n = len(p["pile"])
        shown = (f"taking it would show the others the cards you meld with it and every card "
                 f"it gives you ({known_rule})")
        return (f"the pile holds only {n} card{'s' if n != 1 else ''}, and {shown}" if n <= 5
                else f"drawing keeps your hand hidden: {shown}")
    if head == "take":
        pile = p.get("pile") or ()
        said = f"it takes the whole pile, {len(pile)} card{'s' if len(pile) != 1 else ''}"
        wild = (getattr(action, "twos", 0) or 0) + (getattr(action, "jokers", 0) or 0)
        rank = getattr(action, "rank", None)
        if wild and rank:
            # a take with a wild card beside natural ones still held: what it keeps
            canasta_obs: Any = observation
            held = (canasta_obs.hand & canasta_obs.pack.rank_mask[rank]).bit_count()
            left = held - (getattr(action, "naturals", 0) or 0)
            if left > 0:
                said += (f"; using the wild card keeps {left} {rank_word(rank, plural=left > 1)}"
                         " in your hand for later")
        return said
    if head != "discard" or not hasattr(action, "kind"):
        return ""
    kind = action.kind
    cc = game == "classic-canasta"
    if kind in (0, 2):
        return f"a wild card freezes the pile for everyone ({'CC-8.3' if cc else 'RR-8.3'})"
    if kind == 3:
        return (f"a black three blocks the next player from taking the pile "
                f"({'CC-8.10' if cc else 'RR-8.2'})")
    canasta: Any = observation  # a canasta observation: its hand is a bitmask of its pack
    held = (canasta.hand & canasta.pack.rank_mask[kind]).bit_count()
    side_of = p["side_of"]
    nxt = side_of[(observation.seat + 1) % observation.players]
    theirs = {m.rank for m in p["melds"][nxt] if m is not None}
    ranks = rank_word(kind, plural=True)
    own = "your only " + rank_word(kind) if held <= 1 else f"one of your {held} {ranks}"
    if kind in theirs:
        return (f"{own}, though the next player has a meld of {ranks} to take the pile with "
                f"({'CC-8.6' if cc else 'RR-8.5'})")
    return f"{own}, and the next player has no meld of {ranks}"


def _goes_out_next(observation: Observation, action: Action) -> str | None:
    """The card (in notation) whose discard goes out right after ``action``, a canasta meld
    or addition that leaves the seat one card, where going out is then legal (CC-10.1,
    RR-11.1); ``None`` otherwise.  Worked out on a state dealt from the observation (the
    legality of going out depends only on the seat's own hand and the public melds)."""
    seat = observation.seat
    from meldhall.errors import IllegalActionError

    try:
        st = observation.sample_state(random.Random(0)).apply(action, seat)
    except IllegalActionError:  # not a move of this seat now: nothing to say
        return None
    hand = st.hands[seat]  # type: ignore[attr-defined]  # a canasta state: bitmasks
    if hand.bit_count() != 1 or seat not in st.to_act:
        return None
    for a in st.legal_actions(seat):
        if str(a).startswith("discard "):
            after = st.apply(a, seat)
            if after.hands[seat] == 0:  # type: ignore[attr-defined]  # went out
                card = st.pack.cards[hand.bit_length() - 1]  # type: ignore[attr-defined]
                return str(card)
    return None


def _shanghai_discard_reason(observation: Observation, kind: int) -> str:
    """Why a Shanghai discard, at the table: before the contract, whether the card is one the
    contract needs (SH-8); after it, whether it fits a meld on the table (SH-9.3); with what
    it would cost in hand (SH-13.2) when it is not the cheapest card (a tester read "5♦ would
    count 5 penalty points" as a reason against it, beside a 10 and an ace)."""
    from meldhall.bots.shanghai_heuristic import _counts, _View  # the heuristic's reading
    from meldhall.games.shanghai.rules import card_points, kind_name

    v = _View(observation)
    card = kind_name(kind)  # in notation (AC): the terminal and the web show its suit symbol
    opts: Any = observation.options  # a Shanghai observation: ShanghaiOptions
    pts = card_points(kind, opts)
    held = {k for k, n in enumerate(_counts(v.obs.hand, v.n52)) if n}
    dearer = sorted({card_points(k, opts) for k in held if card_points(k, opts) > pts})
    # its cost only where it is a reason: the dearest card held; beside dearer ones its
    # points argue for discarding those instead (a tester read "it counts 5 penalty points"
    # next to a rejected 10-point jack as a reason against the hint)
    # "the dearest" only where no other card held costs as much (a tester held an ace, 20
    # points too, beside a recommended 2)
    tied = any(card_points(k, opts) == pts for k in held if k != kind)
    cost = ("" if dearer else
            f"; at {pts} penalty points no card you hold costs more (SH-13.2)" if tied else
            f"; at {pts} penalty points it is the dearest kind of card you hold (SH-13.2)")
    if not v.made:
        counts = list(v.counts)
        counts[kind] -= 1
        if v.deficiency(v.counts) == 0 and v.deficiency(counts) == 0:
            # the whole contract is in hand with or without it (a tester read "as near the
            # contract as with it" of a hand that held the contract)
            return (f"you hold your whole contract without {card} too, so the contract does "
                    f"not need it (SH-8.1){cost}")
        if v.deficiency(counts) <= v.deficiency(v.counts):
            # what the heuristic's measure says, and no more: the hand without it is as near
            # the contract (a tester read "not one of the cards your contract needs" about a
            # queen of a J-Q-K start, which another card served as well)
            # the other cards that serve as well are not named: said that there are (a
            # tester broke a pair of 7s on it, not seeing the pair of 8s beside it)
            return (f"without {card} your hand is as near the contract as with it: other "
                    f"cards you hold serve the contract as well{cost}")
        return ""
    if not v.table_fit().fits(kind):
        return f"{card} fits no meld on the table, so it cannot be laid off{cost}"
    return ""


def _shanghai_contract_gain(observation: Observation) -> str:
    """What the upcard would do for a Shanghai hand whose contract is not made (SH-8):
    ``"4♦ would complete your contract"``, ``"4♦ would bring your contract closer"``, or
    ``""`` (it would not, or the contract is made)."""
    from meldhall.bots.shanghai_heuristic import _View
    from meldhall.games.shanghai.rules import kind_name

    v = _View(observation)
    k = v.upcard_kind
    if k is None or v.made:
        return ""
    counts = list(v.counts)
    counts[k] += 1
    before, after = v.deficiency(v.counts), v.deficiency(counts)
    if after >= before:
        return ""
    card = kind_name(k)
    return (f"{card} would complete your contract (SH-8)" if after == 0 else
            f"{card} would bring your contract closer")


def _shanghai_upcard_reason(observation: Observation, take: bool) -> str:
    """Why take the upcard or draw (SH-10.2, SH-10.3): whether the upcard brings the contract
    closer (before it is made) or fits a table meld (after)."""
    from meldhall.bots.shanghai_heuristic import ShanghaiHeuristicBot, _View
    from meldhall.games.shanghai.rules import kind_name

    v = _View(observation)
    k = v.upcard_kind
    if k is None:
        return ""
    card = kind_name(k)
    if v.made:
        fits = v.table_fit().fits(k)
        if fits:
            return f"the upcard {card} fits a meld on the table, to lay off (SH-9.3)" if take \
                else ""
        # a take of a card that fits nothing: said as the reason against it that it is, with
        # what speaks for it (a tester read "fits no meld" as the why of a take)
        return (f"the upcard {card} fits no meld on the table, though a card drawn from the "
                "stock may fit none either" if take else
                f"the upcard {card} fits no meld on the table")
    helps = ShanghaiHeuristicBot()._gain(v, k) >= 1
    if take:
        return f"the upcard {card} brings your contract closer" if helps else ""
    return "" if helps else (f"the upcard {card} would not bring your contract closer; the "
                             "draw from the stock may (SH-10.3)")


def _with_reason(why: str, reason: str) -> str:
    """``reason`` (what the move does) opening the why sentence."""
    if not reason or not why:
        return why
    if ", though " in reason:
        # a reason against the move: the figures are why it is still recommended (a tester
        # read "though the next player has a meld of 5s" with no reason to discard it anyway)
        return f"{reason[0].upper()}{reason[1:]}; even so, {why[0].lower()}{why[1:]}"
    return f"{reason[0].upper()}{reason[1:]}: {why[0].lower()}{why[1:]}"


def _lead(adv: float, se: float, penalty: bool = False) -> str:
    """``better by +101 ± 298 points``; Shanghai Rummy: ``better by +9 ± 5 penalty points
    (fewer)``."""
    adv = round(adv) or 0
    unit = "penalty points (fewer)" if penalty else "points"
    return f"better by {signed(adv)} ± {se:.0f} {unit}"


def _same(adv: float | None, se: float | None) -> str:
    """``"exactly as well on every deal"`` for a difference of +0 ± 0 (the same result on
    each shared deal), where a figure would read as a measurement; ``""`` otherwise."""
    if adv is not None and se is not None and round(adv) == 0 and round(se) == 0:
        return "exactly as well on every deal"
    return ""


def signed(v: float) -> str:
    """Whole points with their sign as players read it: ``+101``, ``−11`` (a minus sign, not a
    hyphen), ``+0`` for anything that rounds to nothing (never ``-0``)."""
    r = round(v) or 0
    return f"−{-r}" if r < 0 else f"+{r}"


def _worded(adv: float, se: float, penalty: bool = False) -> str:
    """A difference from the recommendation said as one (a tester read "did −114 ± 108
    points" as a score): ``114 ± 108 points worse``, ``9 ± 7 more penalty points``, ``as
    well (± 3 points)``."""
    a = round(adv) or 0
    if penalty:
        if a == 0:
            return f"as many penalty points (± {se:.0f})"
        return f"{abs(a)} ± {se:.0f} {'fewer' if a > 0 else 'more'} penalty points"
    if a == 0:
        return f"as well (± {se:.0f} points)"
    return f"{abs(a)} ± {se:.0f} points {'better' if a > 0 else 'worse'}"


def _pm(adv: float, se: float, penalty: bool = False) -> str:
    """``+101 ± 298 points``; with ``penalty`` (Shanghai Rummy) the sign is said:
    ``+14 ± 5, fewer penalty points``; a difference that rounds to 0 is ``+0``."""
    adv = round(adv) or 0  # never "-0"
    if not penalty:
        return f"{signed(adv)} ± {se:.0f} points"
    sign = "fewer" if adv > 0 else "more" if adv < 0 else "as many"
    return f"{signed(adv)} ± {se:.0f}, {sign} penalty points"


#: Below this many deals a measured hint's footnote says its figures are rough.
FEW_DEALS = 30

HINT_Z = 1.0
"""The margin of a measured hint, in standard errors, in every game: a move that did better
than the recommendation by less than ``HINT_Z`` times its ± is not a clear difference, and
staged melds are kept unless a move that withdraws them does better by more than that."""


def _within(gate_z: float | None) -> str:
    """A difference within the margin, said with the ± shown beside it (players read "1.64
    standard errors, a one-tailed 95 % margin" as jargon): ``under its ±``, ``under 1.64
    times its ±``."""
    return "under its ±" if gate_z in (None, 1.0) else f"under {gate_z:g} times its ±"


def _margin(gate_z: float | None) -> str:
    """A search's margin in words: ``one standard error``, ``1.64 standard errors``."""
    # a margin other than one standard error says what it is (a tester met one standard error
    # in a canasta hint and 1.64 in Shanghai with no word on why)
    return ("one standard error" if gate_z in (None, 1.0) else
            f"{gate_z:g} standard errors, a one-tailed 95 % margin" if gate_z == 1.64 else
            f"{gate_z:g} standard errors")


def _gate(level: Any) -> str:
    return f"more than {_margin(getattr(level, 'gate_z', None))}"


def _fresh_pairs(level: Any) -> int:
    """The confirmation deals of a root search at ``level`` (0: none; the gate then uses all
    the deals the challenger and the heuristic's choice shared)."""
    confirm = getattr(level, "confirm", 0.0) or 0.0
    return int(getattr(level, "iterations", 0) * confirm) // 2


def gate_rule(level: Any) -> str:
    """The rule that decides between the heuristic's choice and the search's best challenger,
    for one game's search ``level`` (:data:`meldhall.bots.ismcts.LEVELS`: its ``gate_z`` and
    ``confirm``), in one sentence; ``""`` for a bot without a root search."""
    if level is None or getattr(level, "tree", False):
        return ""
    fresh = _fresh_pairs(level)
    where = (f"on {fresh} fresh deals played after the other moves were dropped (the deals "
             "that picked it do not count)" if fresh else "on every deal they shared")
    return (f"The search keeps the heuristic's choice unless its last challenger beats it by "
            f"{_gate(level)} {where}.")


def _note(av: Any, ranked: Sequence[Any], level: Any) -> str:
    """How far ``av`` got in the root search (sequential halving, ``ranked[0]`` the choice):
    the deals it was measured on, and why its figure did not decide."""
    if getattr(level, "tree", False) or level is None:
        return ""
    best = ranked[0]
    # analyse() ranks the choice first, then the moves still in the running at the end, best
    # first: with the heuristic's choice kept, the next is the challenger the gate compared
    last = ranked[1] if best.heuristic and len(ranked) > 1 else None
    if av.heuristic and not best.heuristic:
        return "heuristic's choice: beaten by the gate"
    if av is last:
        fresh = _fresh_pairs(level)
        return (f"last challenger: short of the gate on {fresh} fresh deals" if fresh else
                "last challenger: short of the gate on every deal")
    if av.visits >= best.visits:
        return "kept to the end, behind the last challenger"
    return f"dropped after {av.visits} deal{'s' if av.visits != 1 else ''}: others led"


def _why(ranked: Sequence[Any], level: Any, penalty: bool = False) -> str:
    """One sentence on the search's evidence for ``ranked[0]`` (``ActionValue`` list from
    :meth:`IsmctsBot.analyse`, best first; ``level`` the bot's search level; ``penalty``: the
    game scores penalty points), from the figures the search measured, naming only this
    game's own gate."""
    best, others = ranked[0], ranked[1:]
    if getattr(level, "tree", False):
        return "It is the move the tree search played out most often."
    gate_z = getattr(level, "gate_z", None)
    if not others:
        return ("The search played out only this move (too few playouts to compare others); "
                "it is the heuristic's choice." if best.heuristic else
                "The search played out only this move (too few playouts to compare others).")
    gate = _gate(level)
    fresh = _fresh_pairs(level)
    if not best.heuristic:
        heur = next((av for av in others if av.heuristic), None)
        if heur is not None and heur.advantage is not None and heur.stderr is not None:
            better = (f"{_pm(-heur.advantage, heur.stderr, penalty)} against" if penalty else
                      f"{_pm(-heur.advantage, heur.stderr)} more than")
            return (f"On the same sampled deals it scored {better} the heuristic's choice "
                    f"({heur.action}), a clear gain: the search leaves the heuristic's choice "
                    f"only for a move that beats it by {gate}"
                    + (f" on {fresh} fresh deals." if fresh else "."))
        return ("The search found it better than the heuristic's choice on the sampled "
                "deals.")
    # the root search's last challenger: the other move still in the running at the end,
    # compared with the choice on every deal (the moves dropped earlier only on a few)
    last = others[0]
    if last.advantage is None or last.stderr is None:
        return ("It is the heuristic's choice, and no other move had enough playouts (two or "
                "more) to be compared with it.")
    keeps = (f"It is the heuristic's choice, which the search keeps unless a challenger beats "
             f"it by {gate} on the same deals" + (f" ({fresh} fresh ones)" if fresh else ""))
    fig = f"{_pm(last.advantage, last.stderr, penalty)} over {last.visits} deals"
    if fresh and gate_z is not None and last.advantage > gate_z * last.stderr:
        said = (f"{keeps}: the last challenger, {last.action}, did {fig} in all, but not on "
                "the fresh deals, which alone decide")
    elif round(last.advantage) > 0:
        said = f"{keeps}: the last challenger, {last.action}, did {fig}, not enough"
    elif round(last.advantage) == 0:
        said = f"{keeps}: the last challenger, {last.action}, did no better: {fig}"
    else:
        said = f"{keeps}: the last challenger, {last.action}, did worse: {fig}"
    dropped = [av for av in others if av is not last and av.stderr is not None
               and av.advantage is not None and av.advantage > av.stderr]
    if dropped:
        said += ("; the moves dropped after a few deals looked good on those deals only, "
                 "where the ones kept did better still")
    return said + "."
