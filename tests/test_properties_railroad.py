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
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meldhall
from meldhall.cards import iter_ids
from meldhall.errors import IllegalActionError, NotationError
from meldhall.games.canasta.actions import (
    Add,
    Answer,
    Ask,
    Deal,
    Discard,
    Draw,
    GoOut,
    GoOutNow,
    Kitty,
    Meld,
    MeldDone,
    MeldSpec,
    Pass,
    Stage,
    Take,
    Withdraw,
    rank_order,
)
from meldhall.games.canasta.values import CLASSIC_VALUES as V
from meldhall.games.railroad_canasta.state import canasta_type
from canasta_helpers import StageStack, check_shorthand, check_staging
from meldhall.record import Record, dump_position, dump_record, load_position, load_record

GAME = "railroad-canasta"
PLAYER_COUNTS = (2, 3, 4, 6, 8)
#: Generous cap on the actions of one hand (a hand that does not end is a bug): a random
#: eight-player hand takes about 1,200 actions.
HAND_CAP = 8000
#: Large seeds, so that the seed's digits cannot appear in an observation by accident.
SEED_BASE = 9_120_034_567_891
#: Physical card identities as they appear in JSON (``7H/1``, ``10S/12``, ``JK/3``).
PHYSICAL = re.compile(r"\b(?:JK|10|[2-9AKQJ])[SHDC]?/\d+\b")
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


def places(s) -> list[tuple[str, int]]:
    """Every place a card can be, as (name, bitmask)."""
    out = [(f"hand of seat {i}", h) for i, h in enumerate(s.hands)]
    out += [(f"kitty of seat {i}", k) for i, k in enumerate(s.kitties)]
    out.append(("stock", sum(1 << c for c in set(s.stock))))
    out.append(("pile", sum(1 << c for c in set(s.pile))))
    for seat, melds in enumerate(s.melds):
        for m in melds:
            if m is not None:
                out.append((f"seat {seat} meld of rank {m.rank}", m.mask))
    for seat, canastas in enumerate(s.closed):
        for k, (_, m) in enumerate(canastas):
            out.append((f"seat {seat} canasta {k}", m.mask))
    out.extend((f"red threes of seat {i}", m) for i, m in enumerate(s.red3))
    return out


def check_conservation(s) -> None:
    """RR-2.1, RR-2.2: every physical card (ids 0..pack.size-1) is in exactly one place."""
    pack = s.pack
    assert pack.size == 106 * s.players
    assert len(set(s.stock)) == len(s.stock), "a card is twice in the stock"
    assert len(set(s.pile)) == len(s.pile), "a card is twice in the pile"
    seen = 0
    total = 0
    all_places = places(s)
    for _, mask in all_places:
        seen |= mask
        total += mask.bit_count()
    if seen == pack.full_mask and total == pack.size:
        return
    owner: dict[int, str] = {}
    for name, mask in all_places:
        for c in iter_ids(mask):
            assert c not in owner, (
                f"{pack.cards[c].physical} is both in {owner[c]} and in {name}")
            owner[c] = name
    extra = seen & ~pack.full_mask
    assert not extra, f"card ids outside the pack: {bin(extra)}"
    missing = pack.full_mask & ~seen
    raise AssertionError("cards in no place: " + " ".join(
        c.physical for c in pack.cards_of(missing)))


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
        assert sum(ln.points for ln in res.lines) == res.hand_score, (
            f"seat {seat}: lines add up to {sum(ln.points for ln in res.lines)}, "
            f"hand_score is {res.hand_score}")
        assert res.total == prev.scores[seat] + res.hand_score, "totals are not cumulative"
        assert s.scores[seat] == res.total
        for ln in res.lines:
            assert ln.rule_id.startswith("RR-13."), ln

        def pts(rule, lines=res.lines):
            return sum(ln.points for ln in lines if ln.rule_id == rule)

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


def public_physical(s, seat: int) -> set[str]:
    """Physical cards ``seat`` may see: melds and canastas, pile, red threes, known-in-hand,
    its own hand and (once eligible) its own kitty."""
    mask = s.hands[seat] | visible_kitty(s, seat)
    for melds in s.melds:
        for m in melds:
            if m is not None:
                mask |= m.mask
    for canastas in s.closed:
        for _, m in canastas:
            mask |= m.mask
    for c in s.pile:
        mask |= 1 << c
    for m in s.red3:
        mask |= m
    for m in s.known:
        mask |= m
    return {c.physical for c in s.pack.cards_of(mask)}


def reshuffle_hidden(s, seat: int, rng: random.Random):
    """A state that ``seat`` cannot tell from ``s``: the cards hidden from it (other hands
    except publicly known cards, other seats' kitties, its own kitty until it is eligible, and
    the stock) are dealt again at random.  Red threes stay in the stock and the kitties (they
    are never held, RR-9.1)."""
    pack = s.pack
    red = pack.red_threes
    d = dump_position(s)
    own_kitty_hidden = not s.kitty_open(seat)
    slots = []  # (where, index) of each hidden card that is not a red three
    pool = []
    for x, h in enumerate(s.hands):
        if x != seat:
            for c in pack.cards_of(h & ~s.known[x]):
                slots.append(("hand", x))
                pool.append(c.physical)
    kitties = [[c.physical for c in pack.cards_of(k & red)] for k in s.kitties]
    for x, k in enumerate(s.kitties):
        if x != seat or own_kitty_hidden:
            for c in pack.cards_of(k & ~red):
                slots.append(("kitty", x))
                pool.append(c.physical)
        else:
            kitties[x] = [c.physical for c in pack.cards_of(k)]
    stock_phys = [pack.cards[c].physical for c in reversed(s.stock)]  # dump order: top first
    for i, c in enumerate(reversed(s.stock)):
        if not (red >> c) & 1:
            slots.append(("stock", i))
            pool.append(pack.cards[c].physical)
    rng.shuffle(pool)
    hands = [[c.physical for c in pack.cards_of(s.known[x])]
             if x != seat else list(d["hands"][x]) for x in range(s.players)]
    for (where, i), card in zip(slots, pool):
        if where == "hand":
            hands[i].append(card)
        elif where == "kitty":
            kitties[i].append(card)
        else:
            stock_phys[i] = card
    rng.shuffle(stock_phys)
    d["hands"] = hands
    d["kitties"] = kitties
    d["stock"] = stock_phys
    if seat != s.turn:
        # another seat's staged melds are unseen (RR-6.11): the twin has none
        d["turn_state"].update(staged=[], staged_upcard=False, stages_this_turn=0)
    return load_position(d)


def _hand_seed(s) -> int:
    from meldhall.games.canasta.engine import hand_seed

    return hand_seed(s.seed, s.hand_no)


def check_observation(s, seat: int, rng: random.Random, *, reshuffle: bool = True) -> None:
    """RR-5.10 for one seat: scan the observation for hidden cards, the stock and the seed; the
    observation and ``sample_state`` do not depend on the real hidden cards."""
    obs = s.observation(seat)
    assert obs.seat == seat
    j = obs.to_json()
    text = json.dumps(j, ensure_ascii=False)
    assert json.loads(text) == j, "observation JSON does not round-trip"
    plain = obs.to_text()
    for blob in (text, plain):
        # cards are shown by rank and suit only: no deck index reaches a seat (which copy is
        # where is hidden information); hidden cards themselves are caught by the twin below
        assert not PHYSICAL.findall(blob), f"seat {seat} is shown deck indices"
        for secret in (str(s.seed), str(_hand_seed(s))):
            assert len(secret) < 9 or secret not in blob, (
                f"the seed {secret} is in seat {seat}'s observation")
    public = obs.public
    assert not {"seed", "stock", "hands", "kitties"} & set(public), "hidden fields in public"
    secrets = {s.seed, _hand_seed(s)}
    for name, value in [*public.items(), *obs.private.items()]:
        assert not (isinstance(value, int) and value in secrets and len(str(value)) >= 9), (
            f"the seed is inside the observation object ({name})")
    # the kitty: the owner sees it once eligible (RR-10.2); nobody else ever does
    mine = obs.private["kitty"]
    assert mine == (visible_kitty(s, seat) if s.kitty_open(seat) else None)
    expected_kitty = sorted(str(c) for c in s.pack.cards_of(s.kitties[seat])) \
        if s.kitty_open(seat) else None
    assert (sorted(j["my_kitty"]) if j["my_kitty"] is not None else None) == expected_kitty
    assert j["kitty_sizes"] == [k.bit_count() for k in s.kitties]
    assert j["kitty_taken"] == [bool((s.kitty_taken >> x) & 1) for x in range(s.players)]
    for x in range(s.players):
        assert j["hand_sizes"][x] == s.hands[x].bit_count()
    assert j["stock_size"] == len(s.stock)
    assert sorted(j["hand"]) == sorted(str(c) for c in s.hand_cards(seat))
    assert j["pile"] == [str(s.pack.cards[c]) for c in s.pile]
    assert "stock" not in j and "seed" not in j and "hands" not in j and "kitties" not in j

    sample_seed = rng.getrandbits(32)
    sampled = obs.sample_state(random.Random(sample_seed))
    check_sampled(s, seat, sampled)
    if not reshuffle or s.outcome is not None:
        return
    twin = reshuffle_hidden(s, seat, rng)
    check_conservation(twin)
    tobs = twin.observation(seat)
    assert tobs.to_json() == j, f"seat {seat}'s observation depends on hidden cards"
    assert tobs.to_text() == plain, f"seat {seat}'s text view depends on hidden cards"
    tsampled = tobs.sample_state(random.Random(sample_seed))
    assert _world(tsampled) == _world(sampled), "sample_state depends on the real hidden cards"


def _world(s):
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


def _canon(specs) -> tuple[MeldSpec, ...]:
    by_rank: dict[int, MeldSpec] = {}
    for sp in specs:
        by_rank.setdefault(sp.rank, sp)
    return tuple(sorted(by_rank.values(), key=lambda m: -rank_order(m.rank)))


def _rand_spec(rng: random.Random, rank: int | None = None) -> MeldSpec:
    r = rng.randrange(14) if rank is None else rank
    nat = 0 if r in (0, 2) and rng.random() < 0.7 else rng.randint(0, 8)
    return MeldSpec(r, nat, rng.randint(0, 3), rng.randint(0, 4))


def _bump(spec: MeldSpec, rng: random.Random) -> MeldSpec:
    field = rng.choice(("naturals", "twos", "jokers"))
    vals = {"naturals": spec.naturals, "twos": spec.twos, "jokers": spec.jokers}
    vals[field] = max(0, vals[field] + rng.choice((-1, 1)))
    return MeldSpec(spec.rank, **vals)


def mutations(a, rng: random.Random) -> list:
    """Near misses of a legal action."""
    out = []
    if isinstance(a, Take):
        for _ in range(3):
            sp = _bump(MeldSpec(a.rank, a.naturals, a.twos, a.jokers), rng)
            out.append(Take(a.rank, sp.naturals, sp.twos, sp.jokers, a.extra))
        out.append(Take(a.rank, a.naturals, a.twos, a.jokers,
                        _canon(a.extra + (_rand_spec(rng),))))
        if a.extra:
            out.append(Take(a.rank, a.naturals, a.twos, a.jokers, a.extra[1:]))
            out.append(Take(a.rank, a.naturals, a.twos, a.jokers,
                            _canon((_bump(a.extra[0], rng),) + a.extra[1:])))
    elif isinstance(a, Meld):
        specs = list(a.melds)
        i = rng.randrange(len(specs))
        out.append(Meld(_canon(specs[:i] + [_bump(specs[i], rng)] + specs[i + 1:])))
        out.append(Meld(_canon(specs + [_rand_spec(rng)])))
        if len(specs) > 1:
            out.append(Meld(tuple(specs[1:])))
    elif isinstance(a, Add):
        sp = _bump(MeldSpec(a.rank, a.naturals, a.twos, a.jokers), rng)
        out.append(Add(a.rank, sp.naturals, sp.twos, sp.jokers))
        out.append(Add(rng.randrange(14), a.naturals, a.twos, a.jokers))
        out.append(Add(a.rank, a.naturals + 1, a.twos, a.jokers))
        out.append(Add(a.rank, a.naturals, a.twos + 1, a.jokers))
    elif isinstance(a, Discard):
        out.append(Discard(rng.randrange(14)))
    return out


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
        r = rng.choice((top, rng.randrange(14)))
        sp = _rand_spec(rng, r)
        extra = _canon(_rand_spec(rng) for _ in range(rng.choice((0, 0, 1, 2))))
        out.append(Take(r, sp.naturals, sp.twos, sp.jokers, extra))
        out.append(Meld(_canon(_rand_spec(rng) for _ in range(rng.randint(1, 3)))))
        out.append(Meld((_rand_spec(rng, rng.choice(held)),)))
        sp = _rand_spec(rng, rng.choice(held + [0]))
        out.append(Add(sp.rank, min(sp.naturals, 4), sp.twos, sp.jokers))
    for a in rng.sample(legal, min(6, len(legal))):
        out.extend(mutations(a, rng))
    seen = set()
    uniq = []
    for a in out:
        if a not in seen:
            seen.add(a)
            uniq.append(a)
    return uniq


def malformed_actions(s, rng: random.Random) -> list:
    """Actions no notation produces: kinds outside 0..13 and negative counts."""
    out = [Discard(14), Discard(-1), Add(14, 1), Add(-1, 1), Take(14, 2), Take(-1, 2),
           Meld((MeldSpec(14, 3),)), Meld((MeldSpec(-1, 3),)), Meld((MeldSpec(0, 3),)),
           Meld((MeldSpec(0, 2, 1, 1),)), Take(7, 2, 0, 0, (MeldSpec(0, 3),))]
    counts = s.hand_counts(s.to_act[0]) if s.to_act else [0] * 14
    for r in range(14):
        for nat, tw, jk in ((3, 1, -1), (3, -1, 1), (2, 2, -1), (4, -1, 0), (-1, 2, 2)):
            if counts[r] >= max(nat, 0):
                out.append(Meld((MeldSpec(r, nat, tw, jk),)))
                out.append(Add(r, nat, tw, jk))
                out.append(Take(r, nat - 1, tw, jk))
    rng.shuffle(out)
    return out


def check_illegal(s, a) -> None:
    """``a`` is illegal in ``s``: check and apply refuse it with an RR- rule ID."""
    assert not s.is_legal(a), f"{a!r} is legal but not in legal_actions()"
    with pytest.raises(IllegalActionError) as ei:
        s.check(a)
    assert ei.value.rule_id.startswith("RR-"), ei.value.rule_id
    assert ei.value.reason
    with pytest.raises(IllegalActionError) as ei:
        s.apply(a)
    assert ei.value.rule_id.startswith("RR-") and ei.value.reason


def check_legality(s, rng: random.Random, *, candidates: bool = True) -> None:
    """Every legal action applies (and leaves ``s`` unchanged); illegal ones are refused."""
    before = dump_position(s)
    legal = s.legal_actions()
    for a in legal:
        assert s.is_legal(a), f"{a} is listed but not legal"
        s.check(a)
        for seat in s.to_act:
            assert s.is_legal(a, seat)
        assert s.parse_action(str(a)) == a, f"{str(a)!r} does not parse back"
        check_conservation(s.apply(a))
    for a in rng.sample(legal, min(4, len(legal))):
        # a freshly built equal action (not the listed object) goes through the checked path
        check_conservation(s.apply(s.parse_action(str(a))))
    for a in legal[:3]:
        for seat in range(s.players):
            if seat not in s.to_act:
                with pytest.raises(IllegalActionError) as ei:
                    s.apply(a, seat)
                assert ei.value.rule_id.startswith("RR-")
    if candidates:
        legal_set = set(legal)
        for a in candidate_actions(s, rng, legal):
            if a in legal_set:
                continue
            seq = s._expand(a)
            if seq is not None:
                check_shorthand(s, a, seq, check_illegal)
                continue
            check_illegal(s, a)
    assert dump_position(s) == before, "applying or checking an action changed the state"


# ------------------------------------------------------------------------------------------
# positions and records


def check_position_roundtrip(s) -> None:
    d = dump_position(s)
    back = load_position(json.dumps(d))
    assert back == s, "load_position(dump_position(s)) != s"
    assert dump_position(back) == d
    assert back.legal_actions() == s.legal_actions()
    assert back.to_act == s.to_act and back.phase == s.phase


def check_record_roundtrip(s, initial_dealer: int) -> None:
    rec = Record.from_state(s, initial_dealer)
    back = load_record(dump_record(rec))
    assert back.actions == rec.actions
    assert back.final_state() == s, "replaying the record does not reproduce the state"


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


# ------------------------------------------------------------------------------------------
# playouts


class Playout:
    """A seeded playout with property checks.

    Args:
        players, seed, options: the game.
        hands: stop after this many hands have been scored (or at game over).
        full: run the expensive checks (every legal action, illegal candidates, observations
            of every seat with a reshuffled twin, position round-trip) — after every
            ``every``-th action (cheap checks run after each action).
        policy: ``"random"`` or ``"builder"``.
    """

    def __init__(self, players: int, seed: int, options: dict | None = None, *,
                 hands: int = 1, full: bool = True, every: int = 1, policy: str = "random",
                 all_twins: bool = False):
        self.players = players
        self.seed = seed
        self.options = options
        self.hands = hands
        self.full = full
        self.every = every
        self.policy = POLICIES[policy]
        self.all_twins = all_twins
        self.steps = 0
        self.rng = random.Random(seed * 31 + players)
        self.check_rng = random.Random(seed * 17 + 5)
        self.actions: list[str] = []
        self.seen_phases: set[str] = set()
        self.hows: list[str] = []
        self.final = None

    def new(self):
        return meldhall.new_game(GAME, players=self.players, seed=self.seed,
                                 options=dict(self.options) if self.options else None)

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

    def run(self):
        s = self.new()
        initial_dealer = s.dealer
        assert s == self.new(), "new_game is not deterministic"
        self.check_state(s, force=True)
        scored = 0
        hand_steps = 0
        stages = StageStack()
        while not s.is_terminal:
            legal = s.legal_actions()
            a = self.policy(s, legal, self.rng)
            prev = s
            s = s.apply(a)
            self.actions.append(str(a))
            self.seen_phases.add(s.phase)
            check_transition(prev, a, s, stages)
            hand_steps = 0 if isinstance(a, Deal) else hand_steps + 1
            assert hand_steps <= HAND_CAP, (
                f"hand {s.hand_no} has not ended after {HAND_CAP} actions")
            if s.outcome is not None and prev.outcome is None:
                self.check_state(s, force=True)
                check_scoring(prev, s)
                check_record_roundtrip(s, initial_dealer)
                self.hows.append(s.outcome.how)
                scored += 1
                if scored >= self.hands:
                    break
            else:
                self.check_state(s)
        self.final = s
        return s

    def replay(self):
        """Same seed, same actions: the identical game."""
        s = self.new()
        for text in self.actions:
            s = s.apply(s.parse_action(text))
        return s


def run_playout(players, seed, options=None, **kw) -> Playout:
    p = Playout(players, seed, options, **kw)
    try:
        p.run()
    except AssertionError as exc:
        raise AssertionError(
            f"{exc}\n  reproduce: players={players} seed={seed} options={options} {kw} "
            f"after {len(p.actions)} actions; last: {p.actions[-6:]}") from exc
    return p


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
    s = p.final
    assert s.is_terminal and s.phase == "game_over"
    for a in (Draw(), Deal(), Discard(4), Pass(), Kitty(), GoOutNow()):
        with pytest.raises(IllegalActionError) as ei:
            s.apply(a)
        assert ei.value.rule_id.startswith("RR-")


@pytest.mark.parametrize("players", (2, 4, 8))
def test_determinism_same_seed_same_game(players):
    a = run_playout(players, SEED_BASE + 55, full=False)
    b = run_playout(players, SEED_BASE + 55, full=False)
    assert a.actions == b.actions
    assert dump_position(a.final) == dump_position(b.final)
    c = meldhall.new_game(GAME, players=players, seed=SEED_BASE + 56)
    assert dump_position(c) != dump_position(a.new()), "different seeds, same deal"


def test_states_are_values():
    """Applying an action never changes the state it was applied to."""
    s = meldhall.new_game(GAME, players=3, seed=SEED_BASE)
    rng = random.Random(3)
    for _ in range(300):
        if s.outcome is not None:
            break
        before = dump_position(s)
        obs_before = s.observation(s.to_act[0]).to_json()
        la = s.legal_actions()
        nxt = [s.apply(a) for a in la]
        assert dump_position(s) == before
        assert s.observation(s.to_act[0]).to_json() == obs_before
        assert s.legal_actions() == la
        s = rng.choice(nxt)


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
    s = meldhall.new_game(GAME, players=players, seed=seed)
    rng = random.Random(seed)
    history = []
    for _ in range(40):
        if s.outcome is not None:
            break
        legal = s.legal_actions()
        a = legal[data.draw(st.integers(0, len(legal) - 1), label="action index")]
        history.append(str(a))
        prev = s
        s = s.apply(a)
        check_transition(prev, a, s)
        check_conservation(s)
        check_structure(s)
        if s.outcome is not None:
            check_scoring(prev, s)
        check_observation(s, rng.randrange(players), rng)
        check_position_roundtrip(s)
    replayed = meldhall.new_game(GAME, players=players, seed=seed)
    for text in history:
        replayed = replayed.apply_text(text)
    assert replayed == s


_TOKENS = ["A", "K", "Q", "J", "10", "T", "9", "8", "7", "6", "5", "4", "3", "3S", "3C", "3H",
           "3D", "2", "JK", "joker", "KH", "10s", "Q♦", "7H/1", "X", "0", "11", "", "1"]
_HEADS = ["draw", "take", "meld", "add", "discard", "out", "ask", "yes", "no", "pass", "deal",
          "kitty", "go", "go out", "DRAW", "Take", "melt", ""]


@st.composite
def notation(draw):
    head = draw(st.sampled_from(_HEADS))
    groups = draw(st.lists(st.lists(st.sampled_from(_TOKENS), max_size=8), max_size=3))
    body = ", ".join(" ".join(g) for g in groups)
    tail = draw(st.sampled_from(["", " -> K", " -> 2", " -> 3", " -> wild", " -> 7", " out",
                                 "; discard 4", " -> ", ";", " 1", " 9"]))
    return f"{head} {body}{tail}"


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


@settings(max_examples=250, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), text=st.one_of(notation(), st.text(max_size=30)))
def test_notation_fuzz(snapshot_states, data, text):
    """Any text either fails to parse (NotationError / IllegalActionError with an RR- rule), or
    parses to an action that is legal exactly when legal_actions() lists it."""
    s = snapshot_states[data.draw(st.integers(0, len(snapshot_states) - 1))]
    before = dump_position(s)
    try:
        a = s.parse_action(text)
    except NotationError as exc:
        assert str(exc)
        return
    except IllegalActionError as exc:
        assert exc.rule_id.startswith("RR-") and exc.reason
        return
    if a in s.legal_actions():
        s.apply(a)
    else:
        check_illegal(s, a)
    assert dump_position(s) == before


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_random_python_actions_agree_with_legal_actions(snapshot_states, data, seed):
    """is_legal(a) == (a in legal_actions()) for random and mutated actions."""
    s = snapshot_states[data.draw(st.integers(0, len(snapshot_states) - 1))]
    check_legality(s, random.Random(seed))


@pytest.mark.parametrize("players", (2, 4, 8))
def test_malformed_python_actions_are_refused(players):
    """Kinds outside 0..13, negative counts, 'natural' cards in a wild meld: refused with an
    RR- rule ID, never a KeyError, and never accepted (they would corrupt a meld)."""
    s = meldhall.new_game(GAME, players=players, seed=SEED_BASE + 3)
    rng = random.Random(players)
    for _ in range(150):
        if s.outcome is not None:
            break
        before = dump_position(s)
        for a in malformed_actions(s, rng):
            with pytest.raises(IllegalActionError) as ei:
                s.apply(a)
            assert ei.value.rule_id.startswith("RR-")
        assert dump_position(s) == before
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
    rng = random.Random(2025)
    names = list(SOAK_OPTION_AXES)
    width = max(len(v) for v in SOAK_OPTION_AXES.values())
    return [{n: SOAK_OPTION_AXES[n][(i + rng.randrange(7)) % len(SOAK_OPTION_AXES[n])]
             for n in names} for i in range(max(width, 6))]


@pytest.mark.soak
@pytest.mark.parametrize("policy", ("random", "builder"))
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_soak_default_options(players, policy):
    budget = SOAK_HANDS
    games = 0
    while budget > 0:
        hands = min(budget, 4)
        run_playout(players, SEED_BASE + 10_000 + 97 * games + players, hands=hands,
                    every=EVERY[players], full=games % 3 == 0, all_twins=True, policy=policy)
        budget -= hands
        games += 1


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
