"""Property tests for the Classic Canasta engine (docs/rules/classic-canasta.md).

Seeded random playouts (and hypothesis-driven ones) for 2, 3, 4 and 6 players, with every
property checked after EVERY action:

* card conservation (CC-2.3): each physical card of the pack is in exactly one place — a hand,
  the stock, the discard pile, a meld or a seat's red threes — plus structural invariants
  (melds obey CC-6.2, red threes never held, CC-9.1 …);
* no information leaks (CC-5.9): observations show only public cards and the seat's own hand,
  never the stock order or the seed; they are identical for states that differ only in cards
  hidden from the seat, and ``sample_state`` never depends on the real hidden cards;
* scoring (CC-12): breakdown lines add up to ``hand_score`` and totals are cumulative;
* legality: every legal action applies and ``is_legal``; generated illegal actions raise
  ``IllegalActionError`` with a ``CC-`` rule ID and leave the state untouched; ``is_legal``
  agrees with ``legal_actions``; states are values;
* determinism, position and record round-trips; every hand ends within an action cap.

The default run plays a handful of hands per player count.  Longer soaks (many hands, option
combinations) are marked ``soak``; their size is set by ``MELDHALL_SOAK_HANDS``::

    MELDHALL_SOAK_HANDS=50 uv run pytest tests/test_properties_classic.py -m soak
"""

from __future__ import annotations

import json
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meldhall
from meldhall.games.canasta.actions import (
    Add, Answer, Ask, Deal, Discard, Draw, GoOut, Meld, MeldDone, MeldSpec, Pass, Stage, Take,
    Withdraw,
)
from meldhall.games.canasta.melds import meld_ok
from meldhall.games.canasta.values import CLASSIC_VALUES
from meldhall.games.classic_canasta.scoring import red_three_points
from meldhall.record import dump_position, load_position

import canasta_helpers
from canasta_helpers import (
    Game, bad_counts, canon, check_drawn_playout, check_game_over, check_no_seed, check_places,
    check_record_roundtrip, check_refused, check_result, check_same_seed_same_game, check_staging,
    check_states_are_values, check_table_json, check_twin, covering_option_sets, notation,
    offered_steps, places, random_take_and_meld, refuse_all, replayed, scan_observation,
    snapshot_tests, soak_games, with_near_misses,
)

GAME = "classic-canasta"
PLAYER_COUNTS = (2, 3, 4, 6)
#: Generous cap on the actions of one hand (a hand that does not end is a bug).
HAND_CAP = 3000
#: Large seeds, so that the seed's digits cannot appear in an observation by accident.
SEED_BASE = 7_340_012_345_678

SOAK_HANDS = int(os.environ.get("MELDHALL_SOAK_HANDS", "40"))

#: Non-default options played in the default run: (players, options).
OPTION_CASES = [
    (4, {"wild_ratio": "pagat"}),
    (2, {"black_three_upcard": "leave"}),
    (2, {"last_red_three": "may_meld_first"}),
    (4, {"partner_permission": "compulsory"}),
    (6, {"partner_permission": "disabled"}),
    (3, {"three_player_mode": "cutthroat"}),
    (2, {"two_player_stock_draw": 1}),
    (4, {"stock_end_forced_take": False}),
    (3, {"stock_end_forced_take": False, "last_red_three": "may_meld_first"}),
]

#: Option values crossed in the soak run.
SOAK_OPTION_AXES = {
    "wild_ratio": ["seed", "pagat"],
    "black_three_upcard": ["cover", "leave"],
    "last_red_three": ["end_immediately", "may_meld_first"],
    "partner_permission": ["optional", "disabled", "compulsory"],
    "stock_end_forced_take": [True, False],
    "unfrozen_take_with_wild": [True, False],
    "frozen_until_side_melds": [True, False],
    "single_card_pile_restriction": [True, False],
    "red_three_upcard_freezes": [True, False],
    "concealed_exempt_from_minimum": [True, False],
}


# ------------------------------------------------------------------------------------------
# invariants of one state


def check_conservation(s) -> None:
    """CC-2.3: every physical card (ids 0..pack.size-1) is in exactly one place."""
    check_places(s, places(s, "side"))


def check_structure(s, *, legal: bool = True) -> None:
    """Structural invariants that hold after every action (``legal``: also check the legal
    actions' consistency)."""
    pack = s.pack
    opts = s.options
    rm = pack.rank_mask
    red = pack.red_threes
    for seat in range(s.players):
        assert not s.hands[seat] & red, f"CC-9.1: seat {seat} holds a red three"
        assert s.red3[seat] & ~red == 0, f"seat {seat}'s red-three row holds another card"
        assert s.known[seat] & ~s.hands[seat] == 0, f"seat {seat}: known card not in hand"
    wild_mask = rm[0] | rm[2]
    for side, melds in enumerate(s.melds):
        assert len(melds) == 14
        for r, m in enumerate(melds):
            if m is None:
                continue
            assert m.rank == r
            nat = (m.mask & rm[r]).bit_count()
            assert m.naturals == nat, f"side {side} meld {r}: naturals {m.naturals} vs cards {nat}"
            assert m.twos == (m.mask & rm[2]).bit_count()
            assert m.jokers == (m.mask & rm[0]).bit_count()
            assert m.mask & ~(rm[r] | wild_mask) == 0, f"meld of {r} holds another rank"
            assert m.size == m.mask.bit_count()
            if r == 3:
                assert m.mask & red == 0 and m.wilds == 0, "CC-9.5: bad black-three meld"
                assert 3 <= m.size <= (6 if s.players == 6 else 4)
            else:
                assert r not in (0, 2), "CC-6.3: a meld of wild cards"
                assert m.size >= 3, f"CC-6.1: side {side} meld of {r} has {m.size} cards"
                merged = (opts.cutthroat and s.first_taker is not None
                          and sum(1 for x in s.side_of if x == side) > 1)
                if merged:
                    # CC-14.1: the partners' melds of a rank merged when the sides formed;
                    # each part met CC-6.2, so the merged meld may hold up to six wild cards
                    assert m.naturals >= 2 and m.wilds <= 6 and (
                        opts.wild_ratio == "pagat" or m.wilds <= m.naturals), (
                        f"CC-6.2/CC-14.1: side {side} meld of {r}: {m.naturals} naturals, "
                        f"{m.wilds} wild")
                else:
                    assert meld_ok(m.naturals, m.wilds, opts.wild_ratio), (
                        f"CC-6.2: side {side} meld of {r}: {m.naturals} naturals, {m.wilds} wild")
    if s.outcome is None:
        # while a hand is in play nobody has gone out, so everyone holds a card (CC-10.2)
        assert all(h for h in s.hands), "a hand is empty but the hand has not ended"
        assert s.phase in ("draw", "meld", "consent")
    else:
        assert s.phase in ("hand_end", "game_over")
    if not legal:
        return
    la = s.legal_actions()
    if s.is_terminal:
        assert la == [] and s.to_act == ()
        oc = s.outcome
        assert oc.winners, "CC-13.2: a finished game has winners"
        assert max(s.scores) >= opts.target
        assert set(oc.winners) == {i for i, v in enumerate(s.scores) if v == max(s.scores)}
    else:
        assert la, f"no legal action in a live state ({s!r})"
        assert len(s.to_act) == 1
        assert la == s.legal_actions(), "legal_actions is not deterministic"
        assert len(set(la)) == len(la), "legal_actions lists an action twice"
        texts = [str(a) for a in la]
        assert len(set(texts)) == len(texts), "two legal actions share one notation"
        other = [x for x in range(s.players) if x not in s.to_act]
        for x in other:
            assert s.legal_actions(x) == []


# ------------------------------------------------------------------------------------------
# scoring


def check_scoring(prev, s) -> None:
    """CC-12: the breakdown of the hand just ended adds up, and totals are cumulative."""
    oc = s.outcome
    assert oc is not None
    assert oc.hand == s.hand_no
    opts = s.options
    assert len(oc.results) == len(prev.scores) == len(s.scores)
    V = CLASSIC_VALUES
    for col, res in enumerate(oc.results):
        assert res.side == col
        pts = check_result(prev, s, col, res, label="column", rules="CC-12.")
        # an independent recount of each category of the breakdown
        side = s.side_of[col] if opts.cutthroat else col
        side_seats = [x for x in range(s.players) if s.side_of[x] == side]
        melds = [m for m in s.melds[side] if m is not None]
        meld_value = sum(m.naturals * V[m.rank] + m.twos * V[2] + m.jokers * V[0]
                         for m in melds)
        assert pts("CC-12.1") == meld_value, f"column {col}: meld card values"
        canastas = [m for m in melds if m.rank != 3 and m.size >= 7]
        assert pts("CC-12.2") == sum(500 if m.wilds == 0 else 300 for m in canastas)
        hidden_lines = [ln for ln in res.lines if ln.rule_id == "CC-12.3"]
        assert len(hidden_lines) <= len(canastas)
        assert all(ln.points == opts.hidden_canasta_bonus for ln in hidden_lines)
        red_seats = [col] if opts.cutthroat else side_seats
        r3 = sum(s.red3[x].bit_count() for x in red_seats)
        r3_pts = red_three_points(r3, s.players)
        assert pts("CC-12.4") == (r3_pts if melds else -r3_pts), f"column {col}: red threes"
        out_bonus = 0
        if oc.went_out is not None and s.side_of[oc.went_out] == side:
            out_bonus = opts.concealed_bonus if oc.how == "went_out_concealed" else 100
        assert pts("CC-12.5") == out_bonus, f"column {col}: going-out bonus"
        held = sum(V[c.rank] for x in side_seats for c in s.hand_cards(x))
        assert pts("CC-12.6") == -held, f"column {col}: cards left in hand"
    if oc.how in ("went_out", "went_out_concealed"):
        assert oc.went_out is not None and s.hands[oc.went_out] == 0
    else:
        assert oc.went_out is None
        assert oc.how in ("stock_exhausted", "last_red_three")


# ------------------------------------------------------------------------------------------
# transitions: rule-level invariants between consecutive states


def _spec_value(spec: MeldSpec) -> int:
    V = CLASSIC_VALUES
    return spec.naturals * V[spec.rank] + spec.twos * V[2] + spec.jokers * V[0]


class TurnTracker:
    """Follows a playout to check rules that span several actions (CC-7.1, CC-10.5, CC-10.6)."""

    def __init__(self):
        self.melded_before = set()  # seats that melded in an earlier turn of this hand
        self.turn_seat = None
        self.turn_start = None
        self.turn_actions: list = []
        self.answer = None  # (asker, yes?) for the current turn
        self.taken = [0] * 6  # cards each seat took with the pile this hand
        self.stack: list = []  # states before each staged meld of this turn (CC-6.9 (b))

    def step(self, prev, a, t) -> None:
        if isinstance(a, Deal):
            self.__init__()
            return
        if isinstance(a, (Stage, Withdraw)):
            check_staging(prev, a, t, self)
            return
        if prev.staged and isinstance(a, (MeldDone, Take, Discard)):
            a = prev._commit_of(a)  # the melding the commit makes (CC-6.9 (c))
            self.stack = []
        if prev.phase == "draw":  # a new turn begins
            if self.turn_seat is not None and any(
                    isinstance(x, (Take, Meld, Add, GoOut)) for x in self.turn_actions):
                self.melded_before.add(self.turn_seat)
            self.turn_seat = prev.turn
            self.turn_start = prev
            self.turn_actions = []
            self.answer = None
        self.turn_actions.append(a)
        if isinstance(a, Answer):
            self.answer = (prev.turn, a.yes)
        if isinstance(a, Take):
            self.taken[prev.turn] |= sum(1 << c for c in prev.pile[:-1])
        check_transition(prev, a, t, self)
        if t.phase != "hand_end":
            for x in range(t.players):
                # CC-5.9: the cards a player took with the pile and still holds are public
                assert t.known[x] == t.hands[x] & self.taken[x], (
                    f"known_in_hand of seat {x} is not the pile cards it still holds")


def check_transition(prev, a, t, tracker: TurnTracker) -> None:
    opts = prev.options
    n = prev.players
    seat = prev.to_act[0]
    if isinstance(a, Answer):
        assert prev.phase == "consent" and t.phase == "meld" and t.turn == prev.turn
    if isinstance(a, Ask):
        assert t.phase == "consent" and t.to_act == (a.partner,), "CC-10.5: the partner answers"
        assert t.side_of[a.partner] == t.side_of[seat]
    if isinstance(a, Draw):
        drawn = len(prev.stock) - len(t.stock)
        reds = t.red3[seat].bit_count() - prev.red3[seat].bit_count()
        grew = t.hands[seat].bit_count() - prev.hands[seat].bit_count()
        assert drawn == reds + grew, "CC-5.3: drawn cards went somewhere else"
        if t.stock:
            assert grew == opts.stock_draw, (
                f"CC-5.3/CC-5.4: a draw with stock left adds {opts.stock_draw}, not {grew}")
        elif (t.pack.red_threes >> prev.stock[0]) & 1 and opts.last_red_three == "end_immediately":
            # the last stock card (bottom of the stock) was a red three
            assert t.outcome is not None and t.outcome.how == "last_red_three", "CC-11.2"
    if isinstance(a, Take):
        if t.outcome is None:
            assert t.pile == () and not t.pile_frozen, "CC-8.9: the pile is empty and unfrozen"
        side = prev.side_of[seat]
        if not prev.side_has_melded(side):
            count = (a.naturals + 1) * CLASSIC_VALUES[a.rank] + a.twos * 20 + a.jokers * 50
            count += sum(_spec_value(sp) for sp in a.extra)
            assert count >= prev.minimum_for(seat), "CC-7.4: take below the minimum count"
    if isinstance(a, Meld) and a.melds[0].rank != 3:
        side = prev.side_of[seat]
        if not prev.side_has_melded(side):
            count = sum(_spec_value(sp) for sp in a.melds)
            assert count >= prev.minimum_for(seat), "CC-7.1: melding below the minimum count"
    if isinstance(a, Discard) and t.outcome is None:
        assert t.pack.rank_of[t.pile[-1]] == a.kind
        assert t.turn == (seat + 1) % n, "CC-5.1: turns pass clockwise"
        assert t.phase == "draw"
        if a.kind in (0, 2):
            assert t.pile_frozen, "CC-8.3: a discarded wild card freezes the pile"
    if tracker.answer is not None and tracker.turn_seat == tracker.answer[0]:
        asker, yes = tracker.answer
        turn_over = t.outcome is not None or (t.phase == "draw" and prev.phase != "draw")
        if yes and turn_over:
            assert t.outcome is not None and t.outcome.went_out == asker, (
                "CC-10.5: after \"yes\" the turn may end only by going out")
        if not yes and t.outcome is not None:
            assert t.outcome.went_out != asker, "CC-10.5: went out after \"no\""
    oc = t.outcome
    if oc is not None and prev.outcome is None:
        if oc.went_out is not None:
            assert oc.went_out == seat
            side = t.side_of[seat]
            assert t.canastas(side) >= opts.required_canastas, (
                f"CC-10.1: went out with {t.canastas(side)} canastas")
            if seat in tracker.melded_before:
                assert oc.how == "went_out", "CC-10.6: concealed after melding on an earlier turn"
            own_new = set()
            for x in tracker.turn_actions:
                if isinstance(x, (Meld, GoOut)):
                    own_new |= {sp.rank for sp in x.melds}
                elif isinstance(x, Take):
                    own_new |= {sp.rank for sp in x.extra}
                    if tracker.turn_start.melds[side][x.rank] is None:
                        own_new.add(x.rank)
            if any(isinstance(x, GoOut) for x in tracker.turn_actions):
                assert oc.how == "went_out_concealed", "CC-6.9: 'out' is a concealed going out"
            if oc.how == "went_out_concealed":
                for x in tracker.turn_actions:
                    if isinstance(x, Add):
                        assert x.rank in own_new, (
                            "CC-10.6: concealed although the turn added to an older meld")
                    if isinstance(x, Take):
                        assert x.rank in own_new, (
                            "CC-10.6: concealed although the take added to an older meld")
            if not opts.cutthroat and not tracker.turn_start.side_has_melded(side):
                made_canasta = any(m is not None and m.rank in own_new and m.rank != 3
                                   and m.size >= 7 for m in t.melds[side])
                expect = "went_out_concealed" if made_canasta else "went_out"
                assert oc.how == expect, (
                    f"CC-10.6: the side had not melded before this turn and "
                    f"{'a' if made_canasta else 'no'} canasta was made this turn: expected "
                    f"{expect}, got {oc.how}")
        else:
            assert not t.stock, f"{oc.how} with {len(t.stock)} cards in the stock (CC-11)"


# ------------------------------------------------------------------------------------------
# observations and information


def check_observation(s, seat: int, rng: random.Random, *, reshuffle: bool = True) -> None:
    """CC-5.9 for one seat: scan the observation for hidden cards, the stock and the seed; the
    observation and ``sample_state`` do not depend on the real hidden cards."""
    obs, j, plain = scan_observation(s, seat)
    fields = {k: v for k, v in vars(obs).items() if k != "public"} if hasattr(obs, "__dict__") \
        else {}
    public = getattr(obs, "public", {})
    assert not {"seed", "stock", "hands", "_hand_seed"} & set(public), "hidden fields in public"
    check_no_seed(s, [*fields.items(), *public.items()])
    check_table_json(s, seat, j)
    assert "stock" not in j and "seed" not in j and "hands" not in j
    check_twin(G, s, seat, rng, obs, j, plain, reshuffle=reshuffle)


def world(s):
    """What sample_state deals (the public fields are copied from the observation)."""
    return s.hands, s.stock, s.seed, s.pile, s.red3, s.known, s.scores


def check_sampled(s, seat: int, sampled) -> None:
    """``sample_state`` agrees with everything ``seat`` knows and is itself a valid state."""
    assert sampled.hands[seat] == s.hands[seat]
    assert [h.bit_count() for h in sampled.hands] == [h.bit_count() for h in s.hands]
    assert len(sampled.stock) == len(s.stock)
    assert sampled.pile == s.pile
    assert sampled.red3 == s.red3
    assert sampled.known == s.known
    for a, b in zip(sampled.melds, s.melds):
        assert [(m.rank, m.mask) if m else None for m in a] == \
               [(m.rank, m.mask) if m else None for m in b]
    assert sampled.scores == s.scores and sampled.phase == s.phase
    assert sampled.turn == s.turn and sampled.to_act == s.to_act
    for x in range(s.players):
        if x != seat:
            assert sampled.known[x] & ~sampled.hands[x] == 0
    check_conservation(sampled)
    # B1 (/tmp/engine_bugs.md): sample_state deals red threes into hands; checked by
    # test_sample_state_never_deals_red_threes_into_hands instead
    check_structure(sampled)
    if seat in s.to_act:
        assert sampled.legal_actions() == s.legal_actions(), (
            "the sampled state offers the observer other actions than the real one")
        # the sampled world is playable: a few random actions keep every invariant
        rng = random.Random(sampled.seed)
        world = sampled
        for _ in range(3):
            if world.is_terminal:
                break
            world = world.apply(rng.choice(world.legal_actions()))
            check_conservation(world)
            check_structure(world)


# ------------------------------------------------------------------------------------------
# legality


def _rand_spec(rng: random.Random, rank: int | None = None) -> MeldSpec:
    r = rng.randrange(14) if rank is None else rank
    return MeldSpec(r, rng.randint(0, 8), rng.randint(0, 3), rng.randint(0, 3))


def mutations(a, rng: random.Random) -> list:
    """Near misses of a legal action."""
    return canasta_helpers.mutations(a, rng, _rand_spec)


def candidate_actions(s, rng: random.Random, legal) -> list:
    """Actions of every kind, most of them illegal here: fixed forms, random forms (kinds
    0..13, counts >= 0, often cards not held) and near misses of legal ones."""
    n = s.players
    out = [Draw(), Pass(), Deal(), Answer(True), Answer(False), Meld(())]
    out += [Ask(p) for p in range(-1, n + 1)]
    out += [Discard(k) for k in range(14)]
    top = s.pack.rank_of[s.pile[-1]] if s.pile else rng.randrange(14)
    for _ in range(4):
        out += random_take_and_meld(rng, top, _rand_spec)
        sp = _rand_spec(rng)
        out.append(Add(sp.rank, min(sp.naturals, 4), sp.twos, sp.jokers))
        out.append(GoOut(canon(_rand_spec(rng) for _ in range(rng.randint(1, 3))),
                         rng.choice((None, rng.randrange(14)))))
    return with_near_misses(out, legal, rng, mutations)


def malformed_actions(s, rng: random.Random) -> list:
    """Actions no notation produces: kinds outside 0..13 and negative counts."""
    out = [Discard(14), Discard(-1), Add(14, 1), Add(-1, 1), Take(14, 2), Take(-1, 2),
           Meld((MeldSpec(14, 3),)), Meld((MeldSpec(-1, 3),)), GoOut((MeldSpec(4, 3),), 14),
           Ask(99)]
    out += bad_counts(s, go_out=True)
    rng.shuffle(out)
    return out


def check_illegal(s, a) -> None:
    """``a`` is illegal in ``s``: apply refuses it with a CC- rule ID."""
    check_refused(s, a, "CC-")


def check_legality(s, rng: random.Random, *, candidates: bool = True) -> None:
    """Every legal action applies (and leaves ``s`` unchanged); illegal ones are refused."""

    def each(s, a):
        t = s.apply(a)
        check_conservation(t)
        # notation round trip (docs/notation.md)
        assert s.parse_action(str(a)) == a, f"{str(a)!r} does not parse back"

    canasta_helpers.check_legality(G, s, rng, candidates=candidates, each=each)


# ------------------------------------------------------------------------------------------
# positions and records


def check_position_roundtrip(s) -> None:
    d = dump_position(s)
    text = json.dumps(d)
    back = load_position(text)
    assert back == s, "load_position(dump_position(s)) != s"
    assert dump_position(back) == d
    legal = s.legal_actions()
    assert back.legal_actions() == legal
    assert back.to_act == s.to_act and back.phase == s.phase
    if legal:
        a = legal[len(d["log"]) % len(legal)]
        assert back.apply(a) == s.apply(a), "a loaded position plays on differently"
        assert s.apply(a, s.to_act[0]) == s.apply(a), "apply(a, seat) differs from apply(a)"


# ------------------------------------------------------------------------------------------
# playouts


def policy_uniform(rng: random.Random, s, legal: list):
    """Uniformly random legal action."""
    return rng.choice(legal)


def policy_cautious(rng: random.Random, s, legal: list):
    """Mostly draw and discard: long hands, stock exhaustion, forced takes (CC-11).  Melds
    more once a hand grows past 30 cards (staged melding keeps even those lists short,
    CC-6.9; the cap keeps hands from lasting until the stock is gone every time)."""
    simple = [a for a in legal if isinstance(a, (Draw, Discard, Pass, Deal, Answer))]
    big = s.to_act and s.hands[s.to_act[0]].bit_count() > 30
    if simple and rng.random() < 0.85 and not (big and len(simple) < len(legal)):
        return rng.choice(simple)
    return rng.choice(legal)


def policy_eager(rng: random.Random, s, legal: list):
    """Meld as much as possible: going out, black-three melds, canastas (CC-9.5, CC-10)."""
    outs = [a for a in legal if isinstance(a, (GoOut, MeldDone))
            or (s.staged and isinstance(a, (Take, Discard)))]
    if outs:
        return rng.choice(outs)
    melds = [a for a in legal if isinstance(a, (Meld, Add, Take, Ask, Stage))]
    if melds and rng.random() < 0.9:
        return max(melds, key=lambda a: (len(str(a)), rng.random()))
    return rng.choice(legal)


POLICIES = {"uniform": policy_uniform, "cautious": policy_cautious, "eager": policy_eager}

#: The checks above (by name), for the shared ones of canasta_helpers to call back into.
G = Game.of("CC-", globals())


class Playout(canasta_helpers.Playout):
    """A seeded random playout with every property checked after every action (with ``full``,
    every seat's observation is scanned and sampled, and one seat in rotation, or every seat
    with ``all_twins``, is compared with a reshuffled twin); the arguments are those of
    :class:`canasta_helpers.Playout`, ``policy`` one of :data:`POLICIES`."""

    game = GAME
    hand_cap = HAND_CAP
    policies = POLICIES

    def __init__(self, players: int, seed: int, options: dict | None = None, *,
                 hands: int = 2, full: bool = True, all_twins: bool = False,
                 policy: str = "uniform"):
        super().__init__(players, seed, options, hands=hands, full=full, all_twins=all_twins,
                         policy=policy)

    def check_state(self, s, force: bool = False) -> None:
        # every state gets every check (``force`` changes nothing)
        check_conservation(s)
        check_structure(s)
        if self.full:
            # every seat's view is scanned and sampled; the (costlier) reshuffled-twin
            # comparison is made for one seat in rotation (all seats in the soak)
            self.steps += 1
            twins = {self.steps % s.players}
            for seat in range(s.players):
                check_observation(s, seat, self.check_rng,
                                  reshuffle=self.all_twins or seat in twins)
            check_legality(s, self.check_rng)
            check_position_roundtrip(s)

    def start(self) -> None:
        self.tracker = TurnTracker()

    def choose(self, s, legal):
        return self.policy(self.rng, s, legal)

    def after(self, prev, a, t) -> None:
        self.tracker.step(prev, a, t)

    def cap_note(self) -> str:
        return f" (players={self.players}, seed={self.seed}, options={self.options})"

    def scored(self, prev, s, initial_dealer: int) -> None:
        self.check_state(s)
        check_scoring(prev, s)
        check_record_roundtrip(s, initial_dealer)

    def between(self, prev, a, s) -> None:
        self.check_state(s)
        if s.outcome is None and not isinstance(a, Deal):
            assert s.scores == prev.scores, "scores changed during a hand"
            assert len(s.stock) <= len(prev.stock), "the stock grew during a hand"

    def finish(self, s, initial_dealer: int) -> None:
        check_record_roundtrip(s, initial_dealer)

    def repro(self, kw) -> str:
        return (f"players={self.players} seed={self.seed} options={self.options} "
                f"policy={self.policy.__name__} after {len(self.actions)} actions; "
                f"last: {self.actions[-5:]}")


def run_playout(players, seed, options=None, *, hands=2, full=True,
                all_twins=False, policy="uniform") -> Playout:
    return Playout.play(players, seed, options, hands=hands, full=full, all_twins=all_twins,
                        policy=policy)


# ------------------------------------------------------------------------------------------
# default tests


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("k", range(2))
def test_random_playout_full_checks(players, k):
    """One hand per game, every property checked after every action (more in the soak)."""
    p = run_playout(players, SEED_BASE + 101 * k + players, hands=1)
    assert p.replay() == p.final, "same seed and actions gave a different game"


@pytest.mark.parametrize("players,options", OPTION_CASES,
                         ids=[f"{n}p-" + "-".join(f"{k}={v}" for k, v in o.items())
                              for n, o in OPTION_CASES])
def test_random_playout_options(players, options):
    p = run_playout(players, SEED_BASE + 7 * players + len(str(options)), options, hands=1)
    assert p.replay() == p.final


@pytest.mark.parametrize("policy", sorted(POLICIES))
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_many_hands_light_checks(players, policy):
    """More hands with the cheaper checks (conservation, structure, transitions, scoring,
    records), under three ways of choosing actions: uniform, cautious (long hands, the stock
    runs out) and eager (melding, going out, black threes)."""
    run_playout(players, SEED_BASE + 999 + players, hands=6, full=False, policy=policy)


@pytest.mark.parametrize("players,policy",
                         [(2, "cautious"), (4, "cautious"), (3, "eager"), (6, "eager")])
def test_biased_playout_full_checks(players, policy):
    """One hand with a biased policy and every check (all pairs in the soak run)."""
    run_playout(players, SEED_BASE + 333 + players, hands=1, policy=policy)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_whole_game_reaches_game_over(players):
    """A whole game to the target (CC-13): terminal, winners, no action accepted after."""
    p = run_playout(players, SEED_BASE + 4242 + players, hands=10_000, full=False)
    check_game_over(p.final, (Draw(), Deal(), Discard(4), Pass(), Answer(True)), "CC-")


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_determinism_same_seed_same_game(players):
    check_same_seed_same_game(run_playout, players, SEED_BASE + 55, hands=3, full=False)


def test_states_are_values():
    """Applying an action never changes the state it was applied to."""
    check_states_are_values(meldhall.new_game(GAME, players=4, seed=SEED_BASE),
                            random.Random(3), over=lambda s: s.is_terminal)


# ------------------------------------------------------------------------------------------
# hypothesis: action sequences chosen by hypothesis (shrinks to a minimal counterexample)


@st.composite
def game_options(draw, players: int):
    """Any combination of the option axes (shrinks towards the defaults)."""
    opts = draw(st.fixed_dictionaries(
        {k: st.sampled_from(v) for k, v in SOAK_OPTION_AXES.items()}))
    if players == 3 and draw(st.booleans()):
        opts["three_player_mode"] = "cutthroat"
    if players == 2:
        opts["two_player_stock_draw"] = draw(st.sampled_from([2, 1]))
    return opts


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(players=st.sampled_from(PLAYER_COUNTS), seed=st.integers(SEED_BASE, SEED_BASE + 2**40),
       data=st.data())
def test_hypothesis_action_sequences(players, seed, data):
    """Hypothesis chooses the options and every action (so a failure shrinks to a short
    sequence); conservation, structure, scoring, transitions, one seat's observation and the
    position round-trip are checked after each action."""
    options = data.draw(game_options(players), label="options")
    s = meldhall.new_game(GAME, players=players, seed=seed, options=options)
    s, history = check_drawn_playout(G, s, data, random.Random(seed), steps=120,
                                     over=lambda s: s.is_terminal, after=TurnTracker().step)
    assert replayed(meldhall.new_game(GAME, players=players, seed=seed, options=options),
                    history) == s


_HEADS = ["draw", "take", "meld", "add", "discard", "out", "ask", "yes", "no", "pass", "deal",
          "DRAW", "Take", "melt", "go", ""]
_TAILS = ["", " -> K", " -> 2", " -> 3", "; discard 4", "; discard", " -> ", ";", " 1", " 2",
          " 9"]


@pytest.fixture(scope="module")
def snapshot_states():
    """States from short playouts of each player count, every phase represented."""
    out = []
    for players in PLAYER_COUNTS:
        s = meldhall.new_game(GAME, players=players, seed=SEED_BASE + players)
        rng = random.Random(players)
        for i in range(400):
            if s.is_terminal:
                break
            if i % 7 == 0 or s.phase in ("consent", "hand_end"):
                out.append(s)
            s = s.apply(rng.choice(s.legal_actions()))
    return out


test_notation_fuzz, test_random_python_actions_agree_with_legal_actions = snapshot_tests(
    G, notation(_HEADS, _TAILS), notation_examples=300, action_examples=150)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_sample_state_never_deals_red_threes_into_hands(players):
    """CC-9.1: red threes are never held, so a sampled world holds them only in the stock."""
    s = meldhall.new_game(GAME, players=players, seed=SEED_BASE)
    rng = random.Random(players)
    for step in range(200):
        if s.is_terminal:
            break
        for seat in range(players):
            t = s.observation(seat).sample_state(random.Random(step * 7 + seat))
            for x in range(players):
                assert not t.hands[x] & t.pack.red_threes, (
                    f"seat {seat}'s sample gives seat {x} a red three (step {step})")
        s = s.apply(rng.choice(s.legal_actions()))


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_malformed_python_actions_are_refused(players):
    """Kinds outside 0..13 and negative counts are refused with a CC- rule ID, never a
    KeyError, and never accepted (a negative count would corrupt a meld)."""
    s = meldhall.new_game(GAME, players=players, seed=SEED_BASE + 3)
    rng = random.Random(players)
    for _ in range(250):
        if s.is_terminal:
            break
        refuse_all(s, malformed_actions(s, rng), "CC-")
        s = s.apply(rng.choice(s.legal_actions()))


B3_ACTIONS = [
    "take 10 10, 5 5 5 5", "discard 8", "draw", "discard 8", "draw", "discard K", "draw",
    "discard A", "take A 2", "discard J", "draw", "meld K K JK, Q Q 2", "discard 5", "draw",
    "add 10 10 -> 10", "discard Q", "draw", "add K 2 -> K", "discard Q", "draw", "meld 8 8 8",
    "discard K", "take", "discard 9", "draw", "add 2 -> 10", "discard 3", "draw",
    "meld 4 4 4 JK", "discard 7", "draw", "ask 0", "yes",
]


def test_sample_state_respects_the_partner_question():
    """CC-10.5: "may I go out?" is asked only by a player who can go out, and "yes" obliges
    them to; a sampled world must never leave the asker without a legal action."""
    s = meldhall.new_game(GAME, players=4, seed=28)
    for text in B3_ACTIONS:
        s = s.apply_text(text)
    assert s.permission is True and s.legal_actions()
    for seat in range(4):
        for k in range(20):
            t = s.observation(seat).sample_state(random.Random(k))
            assert t.legal_actions(), f"seat {seat}'s sample {k} has no legal action"


def test_long_game_states_pickle_copy_and_print():
    """States and observations stay plain values however long the game: they pickle (the
    batch simulator uses worker processes), deep-copy and print after 1,500 actions."""
    import copy
    import pickle

    s = meldhall.new_game(GAME, players=3, seed=SEED_BASE, options={"target_score": 10**6})
    rng = random.Random(1)
    for _ in range(1500):
        s = s.apply(rng.choice(s.legal_actions()))
    back = pickle.loads(pickle.dumps(s))
    assert back == s and back.legal_actions() == s.legal_actions()
    assert copy.deepcopy(s) == s
    obs = s.observation(0)
    assert repr(obs) and repr(s)
    assert pickle.loads(pickle.dumps(obs)).to_json() == obs.to_json()


# ------------------------------------------------------------------------------------------
# concealed going out from random rigged hands (random play almost never reaches 'out')


def rig_meld_phase(players: int, kinds: list[int], seed: int, options: dict | None = None):
    """A position in the meld phase of the first turn (nobody has melded) where the seat in
    turn holds exactly ``kinds`` (black threes for kind 3); the other cards are dealt at random
    (red threes into the stock)."""
    s = meldhall.new_game(GAME, players=players, seed=seed, options=options).apply(Draw())
    pack = s.pack
    seat = s.turn
    rng = random.Random(seed)
    free = list(range(pack.size))
    rng.shuffle(free)
    red = pack.red_threes
    hand = []
    for k in kinds:
        for i, c in enumerate(free):
            if pack.rank_of[c] == k and not (red >> c) & 1:
                hand.append(free.pop(i))
                break
        else:
            return None  # not enough copies in the pack
    top = next(c for c in free if pack.rank_of[c] in (5, 6, 7, 8, 9) and c not in hand)
    free.remove(top)
    ordinary = [c for c in free if not (red >> c) & 1]
    others = {}
    for x in range(players):
        if x != seat:
            others[x] = [ordinary.pop() for _ in range(s.options.hand_size)]
    taken = {c for h in others.values() for c in h}
    stock = [c for c in free if c not in taken]
    d = dump_position(s)

    def phys(ids):
        return [pack.cards[c].physical for c in ids]

    d["hands"] = [phys(hand) if x == seat else phys(others[x]) for x in range(players)]
    d["stock"] = phys(stock)
    d["pile"] = phys([top])
    d["pile_frozen"] = False
    d["red_threes"] = [[] for _ in range(players)]
    d["known"] = [[] for _ in range(players)]
    # a rigged scenario (a big stock, a short hand): not a position the rules reach
    return load_position(d, check_rules=False)


@st.composite
def concealed_plans(draw):
    """(players, melds, discard): a random go-out-concealed action, often a legal one."""
    players = draw(st.sampled_from(PLAYER_COUNTS))
    decks = 3 if players == 6 else 2
    supply = {r: 4 * decks for r in range(1, 14)}
    supply[3] = 2 * decks
    supply[2] = 4 * decks
    supply[0] = 6 if players == 6 else 4
    ranks = draw(st.lists(st.sampled_from([1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4]),
                          min_size=1, max_size=3, unique=True))
    specs = []
    for i, r in enumerate(ranks):
        lo = 5 if i < (2 if players in (2, 6) else 1) and draw(st.booleans()) else 2
        n = draw(st.integers(lo, supply[r]))
        t = draw(st.integers(0, min(3, supply[2])))
        j = draw(st.integers(0, min(3 - t, supply[0])))
        supply[r] -= n
        supply[2] -= t
        supply[0] -= j
        specs.append(MeldSpec(r, n, t, j))
    if draw(st.booleans()):
        b = draw(st.integers(3, 6 if players == 6 else 4))
        if b <= supply[3]:
            specs.append(MeldSpec(3, b))
            supply[3] -= b
    discard = draw(st.one_of(st.none(), st.sampled_from(
        [k for k in range(14) if supply.get(k, 0) > 0])))
    return players, canon(specs), discard


@pytest.mark.timeout(120)
@settings(max_examples=100, deadline=None)
@given(plan=concealed_plans(), seed=st.integers(0, 2**30), exempt=st.booleans())
def test_concealed_going_out_from_rigged_hands(plan, seed, exempt):
    """CC-6.9, CC-10.6, CC-7.6: with an unmelded side, 'out' with the whole hand is legal
    exactly when every meld is valid, the side then has the canastas CC-10.1 asks for (and,
    without the CC-7.6 exemption, the minimum count); when legal it is listed by
    legal_actions(), ends the hand concealed and scores the concealed and hidden bonuses."""
    players, specs, discard = plan
    kinds = [k for sp in specs for k in [sp.rank] * sp.naturals + [2] * sp.twos
             + [0] * sp.jokers]
    if discard is not None:
        kinds.append(discard)
    options = {"concealed_exempt_from_minimum": exempt}
    s = rig_meld_phase(players, kinds, seed, options)
    if s is None:
        return
    check_conservation(s)
    check_structure(s)
    a = GoOut(specs, discard)
    opts = s.options
    ordinary = [sp for sp in specs if sp.rank != 3]
    canastas = sum(1 for sp in ordinary if sp.size >= 7)
    valid = all(sp.size >= 3 and meld_ok(sp.naturals, sp.wilds, opts.wild_ratio)
                for sp in ordinary)
    count = sum(_spec_value(sp) for sp in ordinary)
    expect = (valid and bool(ordinary) and canastas >= max(1, opts.required_canastas)
              and (exempt or count >= s.minimum_for(s.turn)))
    assert s.is_legal(a) == expect, (
        f"{a} with {players} players (exempt={exempt}): expected "
        f"{'legal' if expect else 'illegal'}")
    # CC-6.9: the one-action form is shorthand; each staged step and the commit are offered
    assert offered_steps(s, a) == expect, f"{a}: legal_actions() disagrees with the rules"
    if not expect:
        check_illegal(s, a)
        return
    t = s.apply(a)
    check_conservation(t)
    oc = t.outcome
    assert oc is not None and oc.how == "went_out_concealed" and oc.went_out == s.turn
    check_scoring(s, t)
    col = s.turn if opts.cutthroat else s.side_of[s.turn]
    lines = oc.results[col].lines
    assert sum(ln.points for ln in lines if ln.rule_id == "CC-12.5") == opts.concealed_bonus
    hidden = [ln for ln in lines if ln.rule_id == "CC-12.3"]
    assert len(hidden) == canastas, "CC-6.8: every canasta of a concealed going out is hidden"


@pytest.mark.timeout(120)
def test_first_melding_action_space_stays_bounded():
    """CC-6.9 (formerly engine bug B6): a two-player hand after two turns without melding (19
    cards: five triples and 2 2 JK JK).  legal_actions() is called every step by bots and the
    simulator; with staged melding it lists single stages, never combinations (at most 2,000
    actions), and every staged prefix stays as small."""
    kinds = [r for r in (1, 13, 12, 11, 10) for _ in range(3)] + [2, 2, 0, 0]
    s = rig_meld_phase(2, kinds, 1)
    assert len(s.legal_actions()) <= 2000
    for text in ("stage A A A", "stage K K K 2", "stage Q Q Q JK"):
        s = s.apply_text(text)
        assert len(s.legal_actions()) <= 2000
    assert "meld done" in {str(a) for a in s.legal_actions()}


# ------------------------------------------------------------------------------------------
# information carried by the choice of physical copies


def test_physical_copy_choice_does_not_reveal_other_cards():
    """CC-5.9: the engine chooses which physical copy of a kind leaves a hand; that choice
    must not tell the table anything about the rest of the hand.  If it always took the copy
    with the lowest card id, discarding e.g. KC/1 (the highest-id king) would show that the
    player holds no other king.  Over many discards from hands holding two or more copies of
    the discarded kind, a copy with a lower id and a copy with a higher id must each sometimes
    stay behind."""
    lower_kept = higher_kept = multi = 0
    for players in (2, 4):
        for k in range(6):
            s = meldhall.new_game(GAME, players=players, seed=SEED_BASE + 31 * k)
            rng = random.Random(k)
            while not s.is_terminal and multi < 400:
                a = rng.choice(s.legal_actions())
                if isinstance(a, Discard) and s.phase == "meld":
                    seat = s.turn
                    copies = s.hands[seat] & s.pack.rank_mask[a.kind]
                    t = s.apply(a)
                    if copies.bit_count() >= 2 and t.pile and t.outcome is None:
                        gone = t.pile[-1]
                        kept = [c for c in range(s.pack.size) if (copies >> c) & 1 and c != gone]
                        multi += 1
                        lower_kept += any(c < gone for c in kept)
                        higher_kept += any(c > gone for c in kept)
                    s = t
                    continue
                s = s.apply(a)
                if s.phase == "hand_end":
                    s = s.apply(Deal())
    assert multi >= 100
    assert lower_kept and higher_kept, (
        f"in {multi} discards from several copies, a lower-id copy stayed {lower_kept} times "
        f"and a higher-id copy {higher_kept} times: the physical card discarded reveals the "
        "rest of the hand")


# ------------------------------------------------------------------------------------------
# soak runs (deselected by default: -m soak; size from MELDHALL_SOAK_HANDS)


def _soak_option_sets():
    """A covering set of option combinations: every value of every axis appears, with the
    other axes varied pseudo-randomly."""
    return covering_option_sets(SOAK_OPTION_AXES, 2024)


@pytest.mark.soak
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_soak_default_options(players):
    for games, hands in soak_games(SOAK_HANDS, 10):
        run_playout(players, SEED_BASE + 10_000 + 97 * games + players, hands=hands,
                    full=games % 5 == 0, all_twins=True,
                    policy=sorted(POLICIES)[games % len(POLICIES)])


@pytest.mark.soak
@pytest.mark.parametrize("combo", range(len(_soak_option_sets())))
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_soak_option_combinations(players, combo):
    options = dict(_soak_option_sets()[combo])
    if players == 3 and combo % 2:
        options["three_player_mode"] = "cutthroat"
    if players == 2 and combo % 2:
        options["two_player_stock_draw"] = 1
    hands = max(1, SOAK_HANDS // 8)
    run_playout(players, SEED_BASE + 20_000 + combo * 13 + players, options, hands=hands,
                full=combo % 3 == 0, all_twins=True,
                policy=sorted(POLICIES)[combo % len(POLICIES)])


@pytest.mark.soak
def test_soak_cutthroat_many_hands():
    run_playout(3, SEED_BASE + 30_000, {"three_player_mode": "cutthroat"},
                hands=max(2, SOAK_HANDS // 2), full=False)


@pytest.mark.soak
@pytest.mark.parametrize("policy", sorted(POLICIES))
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_soak_policies_full_checks(players, policy):
    run_playout(players, SEED_BASE + 40_000 + players, hands=max(1, SOAK_HANDS // 10),
                all_twins=True, policy=policy)
