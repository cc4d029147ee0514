"""Property tests for the Railroad Canasta engine (docs/rules/railroad-canasta.md).

Seeded playouts for 2, 3, 4, 6 and 8 players — uniformly random, and a "builder" policy that
melds greedily and takes kitties so that canastas, kitties, going out and black-three melds
actually occur — with these properties checked after every action (every k-th action for the
large tables):

* card conservation (RR-2.1, RR-2.2): each physical card of the pack is in exactly one place —
  a hand, a kitty, the stock, the discard pile, an open meld, a closed canasta or a seat's
  red threes — plus structural invariants (melds obey RR-6.1–RR-6.9, red threes never held,
  kitties whole until taken …);
* no information leaks (RR-5.10, RR-10.2): observations show only public cards, the seat's own
  hand and — once the seat is kitty-eligible — its own kitty; never another seat's kitty, the
  stock order or the seed; they are identical for states that differ only in cards hidden
  from the seat, and ``sample_state`` never depends on the real hidden cards;
* scoring (RR-13): breakdown lines add up to ``hand_score``, match an independent recount,
  and totals are cumulative;
* legality: every legal action applies and ``is_legal``; generated illegal actions raise
  ``IllegalActionError`` with an ``RR-`` rule ID and leave the state untouched; states are
  values; rule-level transitions (minimum count, sevens lock, kitty eligibility, going out)
  hold;
* determinism, position and record round-trips; every hand ends within an action cap.

Railroad hands are long (about 550 random actions per four-player hand), so the default run
plays one hand per table size with full checks, and a few more with cheap checks.  Longer
soaks are marked ``soak``; their size is set by ``MELDHALL_SOAK_HANDS``::

    MELDHALL_SOAK_HANDS=20 uv run pytest tests/test_properties_railroad.py -m soak
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
    Add, Answer, Ask, Deal, Discard, Draw, GoOut, GoOutNow, Kitty, Meld, MeldDone, MeldSpec, Pass,
    Stage, Take, Withdraw,
)
from meldhall.games.canasta.values import CLASSIC_VALUES as V
from meldhall.games.railroad_canasta.state import canasta_type
from meldhall.record import dump_position, load_position

import canasta_helpers
from canasta_helpers import (
    Game, StageStack, bad_counts, check_drawn_playout, check_game_over, check_no_seed, check_places,
    check_record_roundtrip, check_refused, check_result, check_same_seed_same_game, check_staging,
    check_states_are_values, check_table_json, check_twin, covering_option_sets, notation, places,
    random_take_and_meld, refuse_all, replayed, scan_observation, snapshot_tests, soak_games,
    with_near_misses,
)

GAME = "railroad-canasta"
PLAYER_COUNTS = (2, 3, 4, 6, 8)
#: Generous cap on the actions of one hand (a hand that does not end is a bug): a random
#: eight-player hand takes about 1,200 actions.
HAND_CAP = 8000
#: Large seeds, so that the seed's digits cannot appear in an observation by accident.
SEED_BASE = 9_120_034_567_891
SOAK_HANDS = int(os.environ.get("MELDHALL_SOAK_HANDS", "12"))
HOWS = ("went_out", "stock_exhausted", "sevens_lock", "no_legal_discard")
PHASES = ("draw", "meld", "kitty", "choice", "hand_end", "game_over")

#: Non-default options played in the default run: (players, options, policy).
OPTION_CASES = [
    (2, {"go_out_requirement": "any_one"}, "builder"),
    (4, {"go_out_requirement": "any_two", "must_take_kitty_before_going_out": True}, "builder"),
    (3, {"go_out_requirement": "red_and_black", "allow_empty_hand_into_kitty": False},
     "builder"),
    (2, {"sevens_lock": "never", "take_with_natural_and_wild": True}, "random"),
    (3, {"sevens_lock": "discarding_player", "max_wild_in_natural_meld": "wild_le_natural"},
     "builder"),
    (2, {"red_three_replacement": False, "kitty_red_three_replacement": False,
         "kitty_red_three_penalty": -100, "go_out_requirement": "any_one"}, "builder"),
    (4, {"stock_end_take": "compulsory", "upcard_wild_freezes": False,
         "max_wild_in_natural_meld": 2}, "random"),
]

#: Option values crossed in the soak run.
SOAK_OPTION_AXES = {
    "go_out_requirement": ["all_four", "red_and_black", "any_two", "any_one"],
    "red_three_replacement": [True, False],
    "kitty_red_three_replacement": [True, False],
    "kitty_red_three_penalty": [0, -100],
    "allow_empty_hand_into_kitty": [True, False],
    "must_take_kitty_before_going_out": [False, True],
    "take_with_natural_and_wild": [False, True],
    "stock_end_take": ["voluntary", "compulsory"],
    "max_wild_in_natural_meld": [3, 2, "wild_le_natural"],
    "sevens_lock": ["every_player", "discarding_player", "never"],
    "upcard_wild_freezes": [True, False],
    "tie_rule": ["play_on", "shared"],
}


# ------------------------------------------------------------------------------------------
# invariants of one state


def check_conservation(s) -> None:
    """RR-2.1, RR-2.2: every physical card (ids 0..pack.size-1) is in exactly one place."""
    assert s.pack.size == 106 * s.players
    check_places(s, places(s, "seat"))


def _check_meld_cards(s, m, what: str) -> None:
    rm = s.pack.rank_mask
    wild_mask = rm[0] | rm[2]
    r = m.rank
    assert m.twos == (m.mask & rm[2]).bit_count(), what
    assert m.jokers == (m.mask & rm[0]).bit_count(), what
    assert m.size == m.mask.bit_count(), what
    if r == 0:
        assert m.naturals == 0 and m.mask & ~wild_mask == 0, f"RR-6.4: {what} holds a natural"
        return
    assert m.naturals == (m.mask & rm[r]).bit_count(), what
    assert m.mask & ~(rm[r] | wild_mask) == 0, f"{what} holds another rank"
    if r == 3:
        assert m.mask & s.pack.red_threes == 0 and m.wilds == 0, f"RR-6.5: {what}"
        assert m.size >= 3, f"RR-6.5: {what} has {m.size} cards"
        return
    assert r not in (2,), f"{what}: a meld of twos"
    if r == 7:
        assert m.wilds == 0, f"RR-6.3: {what} holds a wild card"
    assert m.naturals >= 2, f"RR-6.2: {what} has {m.naturals} naturals"
    assert m.wilds <= s.options.wild_limit(m.naturals), f"RR-6.2: {what} has {m.wilds} wilds"


def check_structure(s) -> None:
    """Structural invariants that hold after every action."""
    pack = s.pack
    red = pack.red_threes
    n = s.players
    assert s.phase in PHASES
    for seat in range(n):
        assert not s.hands[seat] & red, f"RR-9.1: seat {seat} holds a red three"
        assert s.red3[seat] & ~red == 0, f"seat {seat}'s red-three row holds another card"
        assert s.known[seat] & ~s.hands[seat] == 0, f"seat {seat}: known card not in hand"
        taken = bool((s.kitty_taken >> seat) & 1)
        if taken:
            assert s.kitties[seat] == 0, f"RR-10.3: seat {seat}'s taken kitty still has cards"
        else:
            assert s.kitties[seat].bit_count() == 11, f"RR-4.4: seat {seat}'s kitty size"
        melds = s.melds[seat]
        assert len(melds) == 14
        for r, m in enumerate(melds):
            if m is None:
                continue
            assert m.rank == r
            what = f"seat {seat} meld of rank {r}"
            _check_meld_cards(s, m, what)
            if r != 3:
                assert 3 <= m.size <= 6, f"RR-6.1, RR-6.8: {what} has {m.size} cards open"
        for kind, m in s.closed[seat]:
            what = f"seat {seat} {kind} canasta"
            assert m.size == 7, f"RR-6.8: {what} has {m.size} cards"
            _check_meld_cards(s, m, what)
            assert kind == canasta_type(m.rank, m.naturals, m.wilds), f"RR-6.9: {what}"
    assert 0 <= s.turn < n
    if s.outcome is None:
        assert s.phase in ("draw", "meld", "kitty", "choice")
        assert s.to_act == (s.turn,)
        if s.phase == "choice":
            assert s.hands[s.turn] == 0, "RR-11.7: the choice follows the last discard"
        else:
            for seat in range(n):
                if seat != s.turn or s.phase != "draw":
                    assert s.hands[seat], f"seat {seat}'s hand is empty in a live hand"
        if s.phase == "kitty":
            assert s.kitty_open(s.turn), "RR-10.3: kitty phase for a seat that may not take it"
        b3 = [x for x in range(n) if s.melds[x][3] is not None]
        assert b3 in ([], [s.turn]), "RR-6.5: a black-three meld outside the going-out turn"
        if b3:
            assert s.b3_done and s.phase == "meld"
    else:
        assert s.phase in ("hand_end", "game_over")
    la = s.legal_actions()
    if s.is_terminal:
        assert la == [] and s.to_act == ()
        oc = s.outcome
        assert oc.winners, "RR-14.1: a finished game has winners"
        assert max(s.scores) >= s.options.target_score
        assert set(oc.winners) == {i for i, v in enumerate(s.scores) if v == max(s.scores)}
        if s.options.tie_rule == "play_on":
            assert len(oc.winners) == 1, "RR-14.2: a tie for the lead plays on"
    else:
        assert la, f"no legal action in a live state ({s!r})"
        assert len(s.to_act) == 1
        assert la == s.legal_actions(), "legal_actions is not deterministic"
        assert len(set(la)) == len(la), "legal_actions lists an action twice"
        for x in range(n):
            if x not in s.to_act:
                assert s.legal_actions(x) == []


# ------------------------------------------------------------------------------------------
# scoring


def _meld_value(m) -> int:
    return (m.naturals * V[m.rank] if m.rank else 0) + m.twos * V[2] + m.jokers * V[0]


def check_scoring(prev, s) -> None:
    """RR-13: the breakdown of the hand just ended adds up, matches a recount, and totals are
    cumulative."""
    oc = s.outcome
    assert oc is not None
    assert oc.hand == s.hand_no
    assert oc.how in HOWS, oc.how
    opts = s.options
    assert len(oc.results) == s.players == len(s.scores)
    for seat, res in enumerate(oc.results):
        assert res.side == seat and res.seats == (seat,)
        pts = check_result(prev, s, seat, res, label="seat", rules="RR-13.")
        melds = [m for m in s.melds[seat] if m is not None] + [m for _, m in s.closed[seat]]
        assert pts("RR-13.1") == sum(_meld_value(m) for m in melds), f"seat {seat}: melds"
        assert pts("RR-13.2") == sum(opts.bonus(k) for k, _ in s.closed[seat])
        assert pts("RR-13.3") == s.red3[seat].bit_count() * opts.red_three_bonus
        assert pts("RR-13.4") == (opts.going_out_bonus if oc.went_out == seat else 0)
        held = sum(V[c.rank] for c in s.hand_cards(seat))
        red = s.pack.red_threes
        kitty = 0
        if not (s.kitty_taken >> seat) & 1:
            kitty = sum(-opts.kitty_red_three_penalty if (red >> s.pack.id_of(c)) & 1
                        else V[c.rank] for c in s.pack.cards_of(s.kitties[seat]))
        assert pts("RR-13.5") == -(held + kitty), f"seat {seat}: hand and kitty deductions"
    if oc.how == "went_out":
        seat = oc.went_out
        assert seat is not None and s.hands[seat] == 0
        assert s.meets_go_out(s.canasta_types(seat), len(s.closed[seat])), "RR-11.1"
        assert s.pack.rank_of[s.pile[-1]] != 7, "RR-9.7: went out on a seven"
    else:
        assert oc.went_out is None
        if oc.how == "stock_exhausted":
            assert not s.stock, "RR-12.2: the hand ended with cards in the stock"
        elif oc.how == "sevens_lock":
            c = s.hand_counts(s.turn)
            assert sum(c) == c[7], "RR-12.4: a sevens-lock ending with other cards in hand"
        else:
            assert s.hands[s.turn], "RR-12.6"


# ------------------------------------------------------------------------------------------
# transitions: rule-level invariants between consecutive states


def _spec_value(spec: MeldSpec) -> int:
    return (spec.naturals * V[spec.rank] if spec.rank else 0) + spec.twos * 20 + spec.jokers * 50


def check_transition(prev, a, t, stages: StageStack | None = None) -> None:
    opts = prev.options
    n = prev.players
    if isinstance(a, Deal):
        assert t.dealer == (prev.dealer + 1) % n and t.hand_no == prev.hand_no + 1
        assert t.turn == (t.dealer + 1) % n, "RR-5.1"
        return
    if isinstance(a, (Stage, Withdraw)):
        check_staging(prev, a, t, stages or StageStack())
        return
    if prev.staged and isinstance(a, (MeldDone, Take, Discard)):
        a = prev._commit_of(a)  # the melding the commit makes (RR-6.11)
        if stages is not None:
            stages.stack = []
    seat = prev.to_act[0]
    assert prev.turn == seat
    if t.outcome is None:
        assert t.scores == prev.scores, "scores changed during a hand"
    if prev.phase == "meld" and prev._sevens_forced():
        assert isinstance(a, (Meld, Add)), "RR-12.4: only sevens melds while the lock forces"
        specs = a.melds if isinstance(a, Meld) else (MeldSpec(a.rank, a.naturals, a.twos,
                                                              a.jokers),)
        assert all(sp.rank == 7 and not sp.wilds for sp in specs), "RR-12.4"
    if isinstance(a, Draw):
        assert prev.phase == "draw"
        drawn = len(prev.stock) - len(t.stock)
        reds = t.red3[seat].bit_count() - prev.red3[seat].bit_count()
        grew = t.hands[seat].bit_count() - prev.hands[seat].bit_count()
        assert drawn == reds + grew, "RR-5.3: drawn cards went somewhere else"
        if opts.red_three_replacement:
            if t.stock:
                assert grew == 2, f"RR-5.3: a draw with stock left adds 2, not {grew}"
        else:
            assert drawn == min(2, len(prev.stock)), "RR-5.3: no replacement"
    if isinstance(a, Take):
        assert prev.phase == "draw"
        top = prev.pile[-1]
        r = prev.pack.rank_of[top]
        assert r not in (0, 2, 3), "RR-8.2: a wild card or a three on top was taken"
        if prev.pile_frozen:
            assert a.naturals >= 2, "RR-8.4: a frozen pile needs a natural pair"
        if not prev.has_melded(seat):
            count = V[a.rank] * (a.naturals + 1) + a.twos * 20 + a.jokers * 50
            count += sum(_spec_value(sp) for sp in a.extra)
            assert count >= prev.minimum_for(seat), "RR-7.3: take below the minimum"
        if t.outcome is None:
            assert t.pile == () and not t.pile_frozen, "RR-8.8: the pile is empty, unfrozen"
    if isinstance(a, Meld):
        if a.melds[0].rank == 3:
            assert len(a.melds) == 1
            assert t.hands[seat].bit_count() == 1, "RR-6.5: one card left"
            assert prev.meets_go_out(prev.canasta_types(seat), len(prev.closed[seat]))
            assert t.b3_done
        elif not prev.has_melded(seat):
            count = sum(_spec_value(sp) for sp in a.melds)
            assert count >= prev.minimum_for(seat), "RR-7.1: melding below the minimum"
        else:
            assert len(a.melds) == 1, "RR-6.11"
    if isinstance(a, Discard):
        assert prev.phase == "meld"
        if a.kind == 7:
            assert not prev.sevens_locked(seat), "RR-9.6: a seven discarded under the lock"
        assert t.pack.rank_of[t.pile[-1]] == a.kind
        if a.kind in (0, 2):
            assert t.pile_frozen, "RR-8.3: a discarded wild card freezes the pile"
        if t.outcome is not None:
            if t.outcome.how == "went_out":
                assert t.outcome.went_out == seat and t.hands[seat] == 0
                assert a.kind != 7, "RR-9.7"
        elif t.phase == "kitty":
            assert t.turn == seat and prev.kitty_open(seat)
        elif t.phase == "choice":
            assert t.turn == seat and t.hands[seat] == 0 and prev.kitty_open(seat)
        else:
            assert t.phase == "draw" and t.turn == (seat + 1) % n, "RR-5.1: clockwise"
            if not prev.hands[seat] & ~(1 << t.pile[-1]):
                # the last card was discarded: the kitty was taken (RR-10.5)
                assert (t.kitty_taken >> seat) & 1 and not (prev.kitty_taken >> seat) & 1
            elif prev.kitty_open(seat):
                raise AssertionError("RR-10.3: an eligible player had no kitty phase")
    if isinstance(a, Kitty):
        assert prev.phase in ("kitty", "choice") and prev.kitty_open(seat), "RR-10.2, RR-10.3"
        assert (t.kitty_taken >> seat) & 1 and t.kitties[seat] == 0
        reds = prev.kitties[seat] & prev.pack.red_threes
        assert t.red3[seat] & reds == reds, "RR-10.4: the kitty's red threes are placed"
        assert t.outcome is not None or t.turn == (seat + 1) % n
    if isinstance(a, GoOutNow):
        assert prev.phase == "choice"
        assert t.outcome.how == "went_out" and t.outcome.went_out == seat
    if isinstance(a, Pass):
        if prev.phase == "draw":
            assert not prev.stock and t.outcome.how == "stock_exhausted", "RR-12.2"
        else:
            assert prev.phase == "kitty" and t.kitties[seat] == prev.kitties[seat]
    oc = t.outcome
    if oc is not None and prev.outcome is None and oc.how in ("sevens_lock", "no_legal_discard"):
        assert isinstance(a, (Draw, Take, Meld, Add)), f"{oc.how} after {a}"
        assert t.turn == seat


# ------------------------------------------------------------------------------------------
# observations and information


def visible_kitty(s, seat: int) -> int:
    """RR-5.10, RR-10.2: the seat's own untaken kitty once it is eligible, else nothing."""
    return s.kitties[seat] if s.kitty_open(seat) else 0


def check_observation(s, seat: int, rng: random.Random, *, reshuffle: bool = True) -> None:
    """RR-5.10 for one seat: scan the observation for hidden cards, the stock and the seed; the
    observation and ``sample_state`` do not depend on the real hidden cards."""
    obs, j, plain = scan_observation(s, seat)
    public = obs.public
    assert not {"seed", "stock", "hands", "kitties"} & set(public), "hidden fields in public"
    check_no_seed(s, [*public.items(), *obs.private.items()])
    # the kitty: the owner sees it once eligible (RR-10.2); nobody else ever does
    mine = obs.private["kitty"]
    assert mine == (visible_kitty(s, seat) if s.kitty_open(seat) else None)
    expected_kitty = sorted(str(c) for c in s.pack.cards_of(s.kitties[seat])) \
        if s.kitty_open(seat) else None
    assert (sorted(j["my_kitty"]) if j["my_kitty"] is not None else None) == expected_kitty
    assert j["kitty_sizes"] == [k.bit_count() for k in s.kitties]
    assert j["kitty_taken"] == [bool((s.kitty_taken >> x) & 1) for x in range(s.players)]
    check_table_json(s, seat, j)
    assert "stock" not in j and "seed" not in j and "hands" not in j and "kitties" not in j
    check_twin(G, s, seat, rng, obs, j, plain, reshuffle=reshuffle)


def world(s):
    """What sample_state deals (the public fields are copied from the observation)."""
    return s.hands, s.kitties, s.stock, s.seed, s.pile, s.red3, s.known, s.scores


def check_sampled(s, seat: int, sampled) -> None:
    """``sample_state`` agrees with everything ``seat`` knows and is itself a valid state."""
    assert sampled.hands[seat] == s.hands[seat]
    assert [h.bit_count() for h in sampled.hands] == [h.bit_count() for h in s.hands]
    assert [k.bit_count() for k in sampled.kitties] == [k.bit_count() for k in s.kitties]
    assert visible_kitty(sampled, seat) == visible_kitty(s, seat)
    assert len(sampled.stock) == len(s.stock)
    assert sampled.pile == s.pile and sampled.pile_frozen == s.pile_frozen
    assert sampled.red3 == s.red3 and sampled.known == s.known
    assert sampled.kitty_taken == s.kitty_taken
    for a, b in zip(sampled.melds, s.melds):
        assert [(m.rank, m.mask) if m else None for m in a] == \
               [(m.rank, m.mask) if m else None for m in b]
    assert [[(k, m.mask) for k, m in c] for c in sampled.closed] == \
           [[(k, m.mask) for k, m in c] for c in s.closed]
    assert sampled.scores == s.scores and sampled.phase == s.phase
    assert sampled.turn == s.turn and sampled.to_act == s.to_act
    for x in range(s.players):
        assert not sampled.hands[x] & sampled.pack.red_threes, "a sampled hand holds a red three"
    check_conservation(sampled)
    check_structure(sampled)
    if seat in s.to_act:
        assert sampled.legal_actions() == s.legal_actions(), (
            "the sampled state offers the observer other actions than the real one")


# ------------------------------------------------------------------------------------------
# legality


def _rand_spec(rng: random.Random, rank: int | None = None) -> MeldSpec:
    r = rng.randrange(14) if rank is None else rank
    nat = 0 if r in (0, 2) and rng.random() < 0.7 else rng.randint(0, 8)
    return MeldSpec(r, nat, rng.randint(0, 3), rng.randint(0, 4))


def mutations(a, rng: random.Random) -> list:
    """Near misses of a legal action."""
    return canasta_helpers.mutations(a, rng, _rand_spec, add_two=True)


def candidate_actions(s, rng: random.Random, legal) -> list:
    """Actions of every kind, most of them illegal here: fixed forms, random forms and near
    misses of legal ones."""
    out = [Draw(), Pass(), Deal(), Kitty(), GoOutNow(), Meld(()), Answer(True), Ask(1),
           GoOut((MeldSpec(4, 3),), 5)]
    out += [Discard(k) for k in range(14)]
    top = s.pack.rank_of[s.pile[-1]] if s.pile else rng.randrange(14)
    counts = s.hand_counts(s.turn)
    held = [k for k in range(14) if counts[k]] or [4]
    for _ in range(4):
        out += random_take_and_meld(rng, top, _rand_spec)
        out.append(Meld((_rand_spec(rng, rng.choice(held)),)))
        sp = _rand_spec(rng, rng.choice(held + [0]))
        out.append(Add(sp.rank, min(sp.naturals, 4), sp.twos, sp.jokers))
    return with_near_misses(out, legal, rng, mutations)


def malformed_actions(s, rng: random.Random) -> list:
    """Actions no notation produces: kinds outside 0..13 and negative counts."""
    out = [Discard(14), Discard(-1), Add(14, 1), Add(-1, 1), Take(14, 2), Take(-1, 2),
           Meld((MeldSpec(14, 3),)), Meld((MeldSpec(-1, 3),)), Meld((MeldSpec(0, 3),)),
           Meld((MeldSpec(0, 2, 1, 1),)), Take(7, 2, 0, 0, (MeldSpec(0, 3),))]
    out += bad_counts(s)
    rng.shuffle(out)
    return out


def check_illegal(s, a) -> None:
    """``a`` is illegal in ``s``: check and apply refuse it with an RR- rule ID."""
    check_refused(s, a, "RR-", methods=("check", "apply"))


def check_legality(s, rng: random.Random, *, candidates: bool = True) -> None:
    """Every legal action applies (and leaves ``s`` unchanged); illegal ones are refused."""

    def each(s, a):
        assert s.parse_action(str(a)) == a, f"{str(a)!r} does not parse back"
        check_conservation(s.apply(a))

    def fresh(s, legal, rng):
        for a in rng.sample(legal, min(4, len(legal))):
            # a freshly built equal action (not the listed object) goes through the checked
            # path
            check_conservation(s.apply(s.parse_action(str(a))))

    canasta_helpers.check_legality(G, s, rng, candidates=candidates, each=each, more=fresh)


# ------------------------------------------------------------------------------------------
# positions and records


def check_position_roundtrip(s) -> None:
    d = dump_position(s)
    back = load_position(json.dumps(d))
    assert back == s, "load_position(dump_position(s)) != s"
    assert dump_position(back) == d
    assert back.legal_actions() == s.legal_actions()
    assert back.to_act == s.to_act and back.phase == s.phase


# ------------------------------------------------------------------------------------------
# policies


def _size(a) -> int:
    if isinstance(a, Add):
        return a.naturals + a.twos + a.jokers
    if isinstance(a, Take):
        return 10 + a.naturals + a.twos + a.jokers + sum(m.size for m in a.extra)
    if isinstance(a, Meld):
        return sum(m.size for m in a.melds)
    return 0


def builder_policy(s, legal, rng: random.Random):
    """Melds as much as it can, takes the pile and the kitty, goes out when offered, and
    discards its least useful card; one action in seven is random."""
    if rng.random() < 0.15:
        return rng.choice(legal)
    for a in legal:
        if isinstance(a, (GoOutNow, Kitty)):
            return a
    melds = [a for a in legal if isinstance(a, (Meld, Add, Take))]
    if melds:
        best = max(_size(a) for a in melds)
        return rng.choice([a for a in melds if _size(a) == best])
    discards = [a for a in legal if isinstance(a, Discard)]
    if discards:
        c = s.hand_counts(s.turn)

        def key(a):
            return (a.kind in (0, 2), a.kind == 7, c[a.kind])

        best = min(key(a) for a in discards)
        return rng.choice([a for a in discards if key(a) == best])
    return rng.choice(legal)


def random_policy(s, legal, rng: random.Random):
    return rng.choice(legal)


POLICIES = {"random": random_policy, "builder": builder_policy}

#: The checks above (by name), for the shared ones of canasta_helpers to call back into.
G = Game.of("RR-", globals())


# ------------------------------------------------------------------------------------------
# playouts


class Playout(canasta_helpers.Playout):
    """A seeded playout with property checks: the arguments of
    :class:`canasta_helpers.Playout` (``policy``: ``"random"`` or ``"builder"``), and ``every``:
    with ``full``, the expensive checks run after every ``every``-th action (and at each hand's
    start and end), for the seat to act and one more seat in rotation.
    """

    game = GAME
    hand_cap = HAND_CAP
    policies = POLICIES

    def __init__(self, players: int, seed: int, options: dict | None = None, *,
                 hands: int = 1, full: bool = True, every: int = 1, policy: str = "random",
                 all_twins: bool = False):
        super().__init__(players, seed, options, hands=hands, full=full, all_twins=all_twins,
                         policy=policy)
        self.every = every
        self.seen_phases: set[str] = set()
        self.hows: list[str] = []

    def check_state(self, s, force: bool = False) -> None:
        check_conservation(s)
        check_structure(s)
        self.steps += 1
        if self.full and (force or self.steps % self.every == 0):
            # the seat to act and one more seat in rotation (every seat in the soak) are
            # observed, with a reshuffled twin for the seat to act
            k = self.steps // self.every
            seats = range(s.players) if self.all_twins else sorted(
                {k % s.players, *s.to_act})
            for seat in seats:
                check_observation(s, seat, self.check_rng,
                                  reshuffle=self.all_twins or seat in s.to_act or k % 3 == 0)
            check_legality(s, self.check_rng)
            check_position_roundtrip(s)

    def start(self) -> None:
        self.stages = StageStack()

    def choose(self, s, legal):
        return self.policy(s, legal, self.rng)

    def after(self, prev, a, t) -> None:
        self.seen_phases.add(t.phase)
        check_transition(prev, a, t, self.stages)

    def scored(self, prev, s, initial_dealer: int) -> None:
        self.check_state(s, force=True)
        check_scoring(prev, s)
        check_record_roundtrip(s, initial_dealer)
        self.hows.append(s.outcome.how)

    def between(self, prev, a, s) -> None:
        self.check_state(s)

    def repro(self, kw) -> str:
        return (f"players={self.players} seed={self.seed} options={self.options} {kw} "
                f"after {len(self.actions)} actions; last: {self.actions[-6:]}")


def run_playout(players, seed, options=None, **kw) -> Playout:
    return Playout.play(players, seed, options, **kw)


#: Full checks after every k-th action, by table size (the default run must stay fast).
EVERY = {2: 1, 3: 4, 4: 8, 6: 20, 8: 40}


# ------------------------------------------------------------------------------------------
# default tests


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_playout_full_checks(players):
    """One random hand per table size, cheap checks after every action and the full checks
    after every k-th (every action for two players)."""
    p = run_playout(players, SEED_BASE + players, every=EVERY[players])
    assert p.replay() == p.final, "same seed and actions gave a different game"


@pytest.mark.parametrize("players", (2, 4))
def test_builder_playout_full_checks(players):
    """A greedy melder reaches canastas, the kitty phase and (often) the sevens lock."""
    p = run_playout(players, SEED_BASE + 50 + players, policy="builder",
                    every=2 * EVERY[players])
    assert "kitty" in p.seen_phases or "choice" in p.seen_phases
    assert p.replay() == p.final


@pytest.mark.parametrize("players,options,policy", OPTION_CASES,
                         ids=[f"{n}p-{pol}-" + "-".join(f"{k}={v}" for k, v in o.items())
                              for n, o, pol in OPTION_CASES])
def test_playout_options(players, options, policy):
    p = run_playout(players, SEED_BASE + 7 * players + len(str(options)), options,
                    policy=policy, every=EVERY[players] * 6, hands=1)
    assert p.replay() == p.final


def test_going_out_paths_are_exercised():
    """Under go_out_requirement = "any_one" the builder goes out, meets the going-out-or-kitty
    choice and makes black-three melds; every property still holds."""
    seen: set[str] = set()
    hows: list[str] = []
    b3 = 0
    for k in range(4):
        p = run_playout(2 + k % 3, SEED_BASE + 700 + k, {"go_out_requirement": "any_one"},
                        policy="builder", full=k == 0, every=3, hands=3)
        seen |= p.seen_phases
        hows += p.hows
        b3 += sum(a.startswith("meld 3 3 3") for a in p.actions)
    assert "went_out" in hows
    assert b3 > 0, "no black-three meld was made"


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_many_hands_light_checks(players):
    """More hands with the cheaper checks (conservation, structure, transitions, scoring,
    records)."""
    hands = {2: 4, 3: 3, 4: 2, 6: 2, 8: 1}[players]
    run_playout(players, SEED_BASE + 999 + players, hands=hands, full=False,
                policy="builder" if players % 2 else "random")


@pytest.mark.parametrize("players", (2, 4))
def test_whole_game_reaches_game_over(players):
    """A whole game to the target (RR-14): terminal, winners, no action accepted after."""
    p = run_playout(players, SEED_BASE + 4242 + players, {"target_score": 12_000},
                    hands=10_000, full=False, policy="builder")
    check_game_over(p.final, (Draw(), Deal(), Discard(4), Pass(), Kitty(), GoOutNow()), "RR-")


@pytest.mark.parametrize("players", (2, 4, 8))
def test_determinism_same_seed_same_game(players):
    check_same_seed_same_game(run_playout, players, SEED_BASE + 55, full=False)


def test_states_are_values():
    """Applying an action never changes the state it was applied to."""
    check_states_are_values(meldhall.new_game(GAME, players=3, seed=SEED_BASE),
                            random.Random(3), over=lambda s: s.outcome is not None)


def test_kitty_never_leaks():
    """RR-5.10, RR-10.2: over a game's observations, no seat ever sees a card of another seat's
    kitty, nor of its own kitty before it is eligible, in JSON or text."""
    leaks = 0
    checked_own = 0
    for players in (2, 3):
        s = meldhall.new_game(GAME, players=players, seed=SEED_BASE + 77)
        rng = random.Random(players)
        step = 0
        while s.outcome is None:
            step += 1
            for seat in range(players) if step % 3 == 0 else ():
                obs = s.observation(seat)
                blob = json.dumps(obs.to_json()) + obs.to_text()
                for x in range(players):
                    if x == seat and s.kitty_open(seat):
                        checked_own += 1
                        continue
                    for c in s.pack.cards_of(s.kitties[x]):
                        leaks += c.physical in blob
            s = s.apply(builder_policy(s, s.legal_actions(), rng))
    assert leaks == 0
    assert checked_own > 0, "no seat was ever eligible with its kitty untaken"


# ------------------------------------------------------------------------------------------
# hypothesis


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(players=st.sampled_from(PLAYER_COUNTS), seed=st.integers(SEED_BASE, SEED_BASE + 2**40),
       data=st.data())
def test_hypothesis_action_sequences(players, seed, data):
    s, history = check_drawn_playout(
        G, meldhall.new_game(GAME, players=players, seed=seed), data, random.Random(seed),
        steps=40, over=lambda s: s.outcome is not None, after=check_transition)
    assert replayed(meldhall.new_game(GAME, players=players, seed=seed), history) == s


_HEADS = ["draw", "take", "meld", "add", "discard", "out", "ask", "yes", "no", "pass", "deal",
          "kitty", "go", "go out", "DRAW", "Take", "melt", ""]
_TAILS = ["", " -> K", " -> 2", " -> 3", " -> wild", " -> 7", " out", "; discard 4", " -> ", ";",
          " 1", " 9"]


@pytest.fixture(scope="module")
def snapshot_states():
    """States from short playouts of each table size, every phase represented."""
    out = []
    for players in PLAYER_COUNTS:
        for policy, opts in (("random", None), ("builder", {"go_out_requirement": "any_one"})):
            s = meldhall.new_game(GAME, players=players, seed=SEED_BASE + players, options=opts)
            rng = random.Random(players)
            for i in range(500):
                if s.is_terminal:
                    break
                if i % 17 == 0 or s.phase in ("kitty", "choice", "hand_end"):
                    out.append(s)
                s = s.apply(POLICIES[policy](s, s.legal_actions(), rng))
    return out


test_notation_fuzz, test_random_python_actions_agree_with_legal_actions = snapshot_tests(
    G, notation(_HEADS, _TAILS), notation_examples=250, action_examples=120)


@pytest.mark.parametrize("players", (2, 4, 8))
def test_malformed_python_actions_are_refused(players):
    """Kinds outside 0..13, negative counts, 'natural' cards in a wild meld: refused with an
    RR- rule ID, never a KeyError, and never accepted (they would corrupt a meld)."""
    s = meldhall.new_game(GAME, players=players, seed=SEED_BASE + 3)
    rng = random.Random(players)
    for _ in range(150):
        if s.outcome is not None:
            break
        refuse_all(s, malformed_actions(s, rng), "RR-")
        s = s.apply(builder_policy(s, s.legal_actions(), rng))


@pytest.mark.parametrize("players", (2, 3, 6))
def test_sample_state_keeps_red_threes_out_of_hands(players):
    """RR-9.1: red threes are never held, so a sampled world holds hidden red threes only in
    the stock or an untaken kitty."""
    s = meldhall.new_game(GAME, players=players, seed=SEED_BASE)
    rng = random.Random(players)
    for step in range(120):
        if s.outcome is not None:
            break
        for seat in range(players):
            t = s.observation(seat).sample_state(random.Random(step * 7 + seat))
            for x in range(players):
                assert not t.hands[x] & t.pack.red_threes
            check_conservation(t)
        s = s.apply(rng.choice(s.legal_actions()))


# ------------------------------------------------------------------------------------------
# soak runs (deselected by default: -m soak; size from MELDHALL_SOAK_HANDS)


def _soak_option_sets():
    """A covering set of option combinations: every value of every axis appears."""
    return covering_option_sets(SOAK_OPTION_AXES, 2025)


@pytest.mark.soak
@pytest.mark.parametrize("policy", ("random", "builder"))
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_soak_default_options(players, policy):
    for games, hands in soak_games(SOAK_HANDS, 4):
        run_playout(players, SEED_BASE + 10_000 + 97 * games + players, hands=hands,
                    every=EVERY[players], full=games % 3 == 0, all_twins=True, policy=policy)


@pytest.mark.soak
@pytest.mark.parametrize("combo", range(len(_soak_option_sets())))
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_soak_option_combinations(players, combo):
    options = dict(_soak_option_sets()[combo])
    hands = max(1, SOAK_HANDS // 6)
    run_playout(players, SEED_BASE + 20_000 + combo * 13 + players, options, hands=hands,
                full=combo % 3 == 0, every=EVERY[players] * 2,
                policy="builder" if combo % 2 else "random")


@pytest.mark.soak
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_soak_whole_games(players):
    for k in range(max(1, SOAK_HANDS // 10)):
        p = run_playout(players, SEED_BASE + 30_000 + k * 11 + players, hands=10_000,
                        full=False, policy="builder")
        assert p.final.is_terminal
