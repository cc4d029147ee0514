"""Checks both canasta games' property tests share (``tests/test_properties_classic.py``,
``tests/test_properties_railroad.py``): card conservation, scoring lines, observations and
their reshuffled twins, legality and refusals, staged melding (CC-6.9, RR-6.11), notation,
records, and the seeded playout driver.

What differs between the games stays in each test module, which hands the shared checks a
:class:`Game` of its own checks to call back into.  (``tests/`` is on ``sys.path``: see
``tests/conftest.py``.)
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meldhall
from meldhall.cards import iter_ids
from meldhall.errors import IllegalActionError, NotationError
from meldhall.games.canasta.actions import (
    Add,
    Deal,
    Discard,
    GoOut,
    Meld,
    MeldSpec,
    Stage,
    Take,
    rank_order,
)
from meldhall.games.canasta.engine import hand_seed
from meldhall.record import Record, dump_position, dump_record, load_position, load_record


def _public_views(s, but: int) -> list:
    return [(s.observation(x).to_json(), s.observation(x).to_text())
            for x in range(s.players) if x != but]


def _unbounded(s) -> dict:
    """A state's position without the per-turn stage counter (CC-6.9 (d))."""
    d = dump_position(s)
    d["turn_state"].pop("stages_this_turn", None)
    return d


def check_staging(prev, a, t, tracker) -> None:
    """CC-6.9 (a), (b): staging and withdrawing change nothing another seat sees, keep the
    hand, and a withdrawal returns to the state before the staging."""
    seat = prev.to_act[0]
    assert _public_views(prev, seat) == _public_views(t, seat), (
        f"CC-6.9: {a} changed what another seat sees")
    assert t.hands == prev.hands and t.log is prev.log and t.phase == prev.phase
    if isinstance(a, Stage):
        tracker.stack.append(prev)
        assert t.stages == prev.stages + 1
        return
    if not tracker.stack:
        return  # staged before this check began
    target = tracker.stack[0] if a.all else tracker.stack[-1]
    del tracker.stack[0 if a.all else -1:]
    assert _unbounded(t) == _unbounded(target), f"CC-6.9 (b): {a} did not restore the state"


def check_shorthand(s, a, seq, check_illegal) -> None:
    """A one-action melding (CC-6.9 shorthand) is legal exactly when its staged steps are, each
    offered by legal_actions() in turn, and it makes the same state."""
    t = s
    ok = True
    for step in seq:
        if step not in t.legal_actions():
            ok = False
            break
        t = t.apply(step)
    if ok and s.is_legal(a):
        assert dump_position(s.apply(a)) == dump_position(t)
        return
    if ok:  # every step offered, but the one-action form refused: only by its whole check
        with pytest.raises(IllegalActionError):
            s.apply(a)
        return
    check_illegal(s, a)


def offered_steps(s, a) -> bool:
    """Whether ``a`` — or each step of the staged sequence it is shorthand for (CC-6.9) — is
    offered by legal_actions() in turn."""
    seq = s._expand(a) or [a]
    for step in seq:
        if step not in s.legal_actions():
            return False
        s = s.apply(step)
    return True


class StageStack:
    """The states before each staged meld of the current turn (for :func:`check_staging`)."""

    def __init__(self):
        self.stack: list = []


# ------------------------------------------------------------------------------------------
# what the shared checks below call back into: one per game


@dataclass(frozen=True)
class Game:
    """The game-specific checks the shared property checks call back into.

    Attributes:
        prefix: the game's rule-ID prefix (``"CC-"``, ``"RR-"``).
        check_conservation: ``(state) -> None``, every card in exactly one place.
        check_structure: ``(state) -> None``, the structural invariants of one state.
        check_scoring: ``(prev, state) -> None``, the scoring of the hand just ended.
        check_observation: ``(state, seat, rng) -> None``, what ``seat`` sees.
        check_sampled: ``(state, seat, sampled) -> None``, a ``sample_state`` world agrees
            with what ``seat`` knows.
        world: ``(state) -> tuple``, what ``sample_state`` deals (hands, stock, seed ...).
        check_legality: ``(state, rng) -> None``, legal actions apply, illegal ones are
            refused.
        check_illegal: ``(state, action) -> None``, the action is refused.
        candidate_actions: ``(state, rng, legal) -> list``, actions of every kind, most
            illegal.
        check_position_roundtrip: ``(state) -> None``, the position loads back equal.
    """

    prefix: str
    check_conservation: Callable[[Any], None]
    check_structure: Callable[[Any], None]
    check_scoring: Callable[[Any, Any], None]
    check_observation: Callable[[Any, int, random.Random], None]
    check_sampled: Callable[[Any, int, Any], None]
    world: Callable[[Any], tuple]
    check_legality: Callable[[Any, random.Random], None]
    check_illegal: Callable[[Any, Any], None]
    candidate_actions: Callable[[Any, random.Random, list], list]
    check_position_roundtrip: Callable[[Any], None]

    @classmethod
    def of(cls, prefix: str, checks: dict[str, Any]) -> Game:
        """The game of rule-ID ``prefix`` whose checks are the functions of the same names
        in ``checks`` (a test module's ``globals()``)."""
        return cls(prefix, **{f.name: checks[f.name] for f in fields(cls) if f.name != "prefix"})


#: Physical card identities as they appear in JSON (``7H/1``, ``10S/12``, ``JK/3``).
PHYSICAL = re.compile(r"\b(?:JK|10|[2-9AKQJ])[SHDC]?/\d+\b")


# ------------------------------------------------------------------------------------------
# invariants of one state


def places(s, owner: str) -> list[tuple[str, int]]:
    """Every place a card can be, as (name, bitmask): hands, (kitties,) stock, pile, the melds
    of each ``owner`` (``"side"``, ``"seat"``), (closed canastas,) red threes."""
    out = [(f"hand of seat {i}", h) for i, h in enumerate(s.hands)]
    out += [(f"kitty of seat {i}", k) for i, k in enumerate(getattr(s, "kitties", ()))]
    out.append(("stock", sum(1 << c for c in set(s.stock))))
    out.append(("pile", sum(1 << c for c in set(s.pile))))
    for x, melds in enumerate(s.melds):
        for m in melds:
            if m is not None:
                out.append((f"{owner} {x} meld of rank {m.rank}", m.mask))
    for seat, canastas in enumerate(getattr(s, "closed", ())):
        for k, (_, m) in enumerate(canastas):
            out.append((f"seat {seat} canasta {k}", m.mask))
    out.extend((f"red threes of seat {i}", m) for i, m in enumerate(s.red3))
    return out


def check_places(s, all_places: list[tuple[str, int]]) -> None:
    """Every physical card (ids 0..pack.size-1) is in exactly one of ``all_places`` (name,
    bitmask); the stock and the pile hold no card twice."""
    pack = s.pack
    assert len(set(s.stock)) == len(s.stock), "a card is twice in the stock"
    assert len(set(s.pile)) == len(s.pile), "a card is twice in the pile"
    seen = 0
    total = 0
    for _, mask in all_places:
        seen |= mask
        total += mask.bit_count()
    if seen == pack.full_mask and total == pack.size:
        return
    # explain the failure
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


# ------------------------------------------------------------------------------------------
# scoring


def check_result(prev, s, col: int, res, *, label: str, rules: str) -> Callable[[str], int]:
    """Column ``col``'s result ``res`` of the hand just ended: its lines add up, all cite
    ``rules`` (``"CC-12."``), and its total is cumulative.  ``label`` names the column
    (``"column"``, ``"seat"``) in messages.

    Returns:
        ``pts(rule)``: the sum of the result's lines of one rule ID.
    """
    assert sum(ln.points for ln in res.lines) == res.hand_score, (
        f"{label} {col}: lines add up to {sum(ln.points for ln in res.lines)}, "
        f"hand_score is {res.hand_score}")
    assert res.total == prev.scores[col] + res.hand_score, "totals are not cumulative"
    assert s.scores[col] == res.total
    for ln in res.lines:
        assert ln.rule_id.startswith(rules), ln

    def pts(rule: str) -> int:
        return sum(ln.points for ln in res.lines if ln.rule_id == rule)

    return pts


# ------------------------------------------------------------------------------------------
# observations and information


def reshuffle_hidden(s, seat: int, rng: random.Random):
    """A state that ``seat`` cannot tell from ``s``: the cards hidden from it (other hands
    except publicly known cards, the stock and, in Railroad, other seats' kitties and its own
    until it is eligible) are dealt again at random.  Red threes stay in the stock and the
    kitties (they are never held, CC-9.1, RR-9.1)."""
    pack = s.pack
    red = pack.red_threes
    d = dump_position(s)
    slots = []  # (where, index) of each hidden card that is not a red three
    pool = []
    for x, h in enumerate(s.hands):
        if x != seat:
            for c in pack.cards_of(h & ~s.known[x]):
                slots.append(("hand", x))
                pool.append(c.physical)
    kitties = None
    if "kitties" in d:
        own_kitty_hidden = not s.kitty_open(seat)
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
    if kitties is not None:
        d["kitties"] = kitties
    d["stock"] = stock_phys
    if seat != s.turn:
        # another seat's staged melds are unseen (CC-6.9, RR-6.11): the twin has none
        d["turn_state"].update(staged=[], staged_upcard=False, stages_this_turn=0)
    return load_position(d)


def hand_seed_of(s) -> int:
    """The seed of the current hand's shuffle."""
    return hand_seed(s.seed, s.hand_no)


def scan_observation(s, seat: int):
    """``seat``'s observation of ``s``, its JSON round-trips, and neither its JSON nor its text
    shows a deck index or the seed.

    Returns:
        (obs, j, plain): the observation, its JSON and its text.
    """
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
        for secret in (str(s.seed), str(hand_seed_of(s))):
            # (short seeds' digits occur everywhere; the playouts use long seeds)
            assert len(secret) < 9 or secret not in blob, (
                f"the seed {secret} is in seat {seat}'s observation")
    return obs, j, plain


def check_no_seed(s, items) -> None:
    """No value of ``items`` (name, value) of an observation object is the seed."""
    secrets = {s.seed, hand_seed_of(s)}
    for name, value in items:
        assert not (isinstance(value, int) and value in secrets and len(str(value)) >= 9), (
            f"the seed is inside the observation object ({name})")


def check_table_json(s, seat: int, j: dict) -> None:
    """The observation JSON ``j`` shows the hand sizes, the stock size, ``seat``'s own hand
    and the pile (public in order; the stock order never)."""
    for x in range(s.players):
        assert j["hand_sizes"][x] == s.hands[x].bit_count()
    assert j["stock_size"] == len(s.stock)
    assert sorted(j["hand"]) == sorted(str(c) for c in s.hand_cards(seat))
    assert j["pile"] == [str(s.pack.cards[c]) for c in s.pile]


def check_twin(g: Game, s, seat: int, rng: random.Random, obs, j: dict, plain: str, *,
               reshuffle: bool) -> None:
    """``sample_state`` of ``seat``'s observation ``obs`` (JSON ``j``, text ``plain``) agrees
    with ``s``; with ``reshuffle``, a state differing only in what ``seat`` cannot see looks
    exactly the same and samples the same world."""
    sample_seed = rng.getrandbits(32)
    sampled = obs.sample_state(random.Random(sample_seed))
    g.check_sampled(s, seat, sampled)
    if not reshuffle or s.outcome is not None:
        return
    # a state that differs only in what ``seat`` cannot see must look exactly the same
    twin = reshuffle_hidden(s, seat, rng)
    g.check_conservation(twin)
    tobs = twin.observation(seat)
    assert tobs.to_json() == j, f"seat {seat}'s observation depends on hidden cards"
    assert tobs.to_text() == plain, f"seat {seat}'s text view depends on hidden cards"
    tsampled = tobs.sample_state(random.Random(sample_seed))
    assert g.world(tsampled) == g.world(sampled), "sample_state depends on the real hidden cards"


# ------------------------------------------------------------------------------------------
# legality


def canon(specs) -> tuple[MeldSpec, ...]:
    """Melds in the canonical order of an action (one per rank, highest rank first)."""
    by_rank: dict[int, MeldSpec] = {}
    for sp in specs:
        by_rank.setdefault(sp.rank, sp)
    return tuple(sorted(by_rank.values(), key=lambda m: -rank_order(m.rank)))


def bump(spec: MeldSpec, rng: random.Random) -> MeldSpec:
    """``spec`` with one of its counts one higher or lower (not below 0)."""
    field = rng.choice(("naturals", "twos", "jokers"))
    vals = {"naturals": spec.naturals, "twos": spec.twos, "jokers": spec.jokers}
    vals[field] = max(0, vals[field] + rng.choice((-1, 1)))
    return MeldSpec(spec.rank, **vals)


def mutations(a, rng: random.Random, rand_spec: Callable[[random.Random], MeldSpec], *,
              add_two: bool = False) -> list:
    """Near misses of a legal action ``a`` (``rand_spec(rng)``: a random meld of the game;
    ``add_two``: also an added meld with one more two)."""
    out = []
    if isinstance(a, Take):
        for _ in range(3):
            sp = bump(MeldSpec(a.rank, a.naturals, a.twos, a.jokers), rng)
            out.append(Take(a.rank, sp.naturals, sp.twos, sp.jokers, a.extra))
        out.append(Take(a.rank, a.naturals, a.twos, a.jokers,
                        canon(a.extra + (rand_spec(rng),))))
        if a.extra:
            out.append(Take(a.rank, a.naturals, a.twos, a.jokers, a.extra[1:]))
            out.append(Take(a.rank, a.naturals, a.twos, a.jokers,
                            canon((bump(a.extra[0], rng),) + a.extra[1:])))
    elif isinstance(a, (Meld, GoOut)):
        specs = list(a.melds)
        i = rng.randrange(len(specs))
        bumped = canon(specs[:i] + [bump(specs[i], rng)] + specs[i + 1:])
        grown = canon(specs + [rand_spec(rng)])
        fewer = tuple(specs[1:])
        if isinstance(a, Meld):
            out += [Meld(bumped), Meld(grown)]
            if fewer:
                out.append(Meld(fewer))
        else:
            out += [GoOut(bumped, a.discard), GoOut(grown, a.discard),
                    GoOut(a.melds, None if a.discard is not None else rng.randrange(14)),
                    GoOut(a.melds, rng.randrange(14))]
            if fewer:
                out.append(GoOut(fewer, a.discard))
    elif isinstance(a, Add):
        sp = bump(MeldSpec(a.rank, a.naturals, a.twos, a.jokers), rng)
        out.append(Add(a.rank, sp.naturals, sp.twos, sp.jokers))
        out.append(Add(rng.randrange(14), a.naturals, a.twos, a.jokers))
        out.append(Add(a.rank, a.naturals + 1, a.twos, a.jokers))
        if add_two:
            out.append(Add(a.rank, a.naturals, a.twos + 1, a.jokers))
    elif isinstance(a, Discard):
        out.append(Discard(rng.randrange(14)))
    return out


def random_take_and_meld(rng: random.Random, top: int,
                         rand_spec: Callable[..., MeldSpec]) -> list:
    """A random take (of ``top`` or another kind) and a random meld, mostly illegal
    (``rand_spec(rng, rank=None)``: a random meld of the game)."""
    r = rng.choice((top, rng.randrange(14)))
    sp = rand_spec(rng, r)
    extra = canon(rand_spec(rng) for _ in range(rng.choice((0, 0, 1, 2))))
    return [Take(r, sp.naturals, sp.twos, sp.jokers, extra),
            Meld(canon(rand_spec(rng) for _ in range(rng.randint(1, 3))))]


def with_near_misses(out: list, legal: list, rng: random.Random, near) -> list:
    """``out`` and near misses (``near(a, rng)``) of up to six legal actions, each once."""
    for a in rng.sample(legal, min(6, len(legal))):
        out.extend(near(a, rng))
    seen = set()
    uniq = []
    for a in out:
        if a not in seen:
            seen.add(a)
            uniq.append(a)
    return uniq


def bad_counts(s, *, go_out: bool = False) -> list:
    """Melds, adds and takes (and with ``go_out`` concealed goings out) with a negative
    count, of the kinds the seat to act holds enough of."""
    out = []
    counts = s.hand_counts(s.to_act[0]) if s.to_act else [0] * 14
    for r in range(14):
        for nat, tw, jk in ((3, 1, -1), (3, -1, 1), (2, 2, -1), (4, -1, 0), (-1, 2, 2)):
            if counts[r] >= max(nat, 0):
                out.append(Meld((MeldSpec(r, nat, tw, jk),)))
                out.append(Add(r, nat, tw, jk))
                out.append(Take(r, nat - 1, tw, jk))
                if go_out:
                    out.append(GoOut((MeldSpec(r, nat, tw, jk),), None))
    return out


def check_refused(s, a, prefix: str, *, methods: tuple[str, ...] = ("apply",)) -> None:
    """``a`` is illegal in ``s``: each of ``methods`` (``"check"``, ``"apply"``) refuses it
    with a rule ID starting with ``prefix`` and a reason."""
    assert not s.is_legal(a), f"{a!r} is legal but not in legal_actions()"
    for method in methods:
        with pytest.raises(IllegalActionError) as ei:
            getattr(s, method)(a)
        assert ei.value.rule_id.startswith(prefix), ei.value.rule_id
        assert ei.value.reason


def refuse_all(s, actions, prefix: str, *, unchanged: bool = True) -> None:
    """Every action of ``actions`` is refused by ``apply`` with a ``prefix`` rule ID (and, with
    ``unchanged``, ``s`` is unchanged)."""
    before = dump_position(s) if unchanged else None
    for a in actions:
        with pytest.raises(IllegalActionError) as ei:
            s.apply(a)
        assert ei.value.rule_id.startswith(prefix)
    if unchanged:
        assert dump_position(s) == before


def check_legality(g: Game, s, rng: random.Random, *, candidates: bool = True,
                   each: Callable[[Any, Any], None],
                   more: Callable[[Any, list, random.Random], None] | None = None) -> None:
    """Every legal action is legal for the seats to act and passes ``each(s, a)`` (then
    ``more(s, legal, rng)``); another seat may not play it; with ``candidates``, illegal
    candidates are refused and one-action meldings agree with their staged steps; ``s`` is
    unchanged."""
    before = dump_position(s)
    legal = s.legal_actions()
    for a in legal:
        assert s.is_legal(a), f"{a} is listed but not legal"
        s.check(a)
        for seat in s.to_act:
            assert s.is_legal(a, seat)
        each(s, a)
    if more is not None:
        more(s, legal, rng)
    for a in legal[:3]:
        for seat in range(s.players):
            if seat not in s.to_act:
                with pytest.raises(IllegalActionError) as ei:
                    s.apply(a, seat)
                assert ei.value.rule_id.startswith(g.prefix)
    if candidates:
        legal_set = set(legal)
        for a in g.candidate_actions(s, rng, legal):
            if a in legal_set:
                continue
            seq = s._expand(a)
            if seq is not None:
                check_shorthand(s, a, seq, g.check_illegal)
                continue
            g.check_illegal(s, a)
    assert dump_position(s) == before, "applying or checking an action changed the state"


def check_notation(g: Game, s, text: str) -> None:
    """``text`` either fails to parse (NotationError, or IllegalActionError with a rule of the
    game), or parses to an action that is legal exactly when legal_actions() lists it."""
    before = dump_position(s)
    try:
        a = s.parse_action(text)
    except NotationError as exc:
        assert str(exc)
        return
    except IllegalActionError as exc:
        assert exc.rule_id.startswith(g.prefix) and exc.reason
        return
    if a in s.legal_actions():
        s.apply(a)
    else:
        g.check_illegal(s, a)
    assert dump_position(s) == before


def check_states_are_values(s, rng: random.Random, *, steps: int = 300,
                            over: Callable[[Any], bool]) -> None:
    """Along a random playout of ``s`` (until ``over(state)``): applying an action never
    changes the state it was applied to."""
    for _ in range(steps):
        if over(s):
            break
        before = dump_position(s)
        obs_before = s.observation(s.to_act[0]).to_json()
        la = s.legal_actions()
        nxt = [s.apply(a) for a in la]
        assert dump_position(s) == before
        assert s.observation(s.to_act[0]).to_json() == obs_before
        assert s.legal_actions() == la
        s = rng.choice(nxt)


# ------------------------------------------------------------------------------------------
# positions and records


def check_record_roundtrip(s, initial_dealer: int) -> None:
    """The record of the game so far loads back and replays to ``s``."""
    rec = Record.from_state(s, initial_dealer)
    back = load_record(dump_record(rec))
    assert back.actions == rec.actions
    assert back.final_state() == s, "replaying the record does not reproduce the state"


def check_game_over(s, actions, prefix: str) -> None:
    """``s`` is a finished game (terminal, ``game_over``) and refuses each of ``actions`` with
    a ``prefix`` rule ID."""
    assert s.is_terminal and s.phase == "game_over"
    refuse_all(s, actions, prefix, unchanged=False)


def check_same_seed_same_game(play: Callable[..., Playout], players: int, seed: int,
                              **kw: Any) -> None:
    """Two playouts ``play(players, seed, **kw)`` make the same actions and end equal; the
    next seed deals another game."""
    a = play(players, seed, **kw)
    b = play(players, seed, **kw)
    assert a.actions == b.actions
    assert dump_position(a.final) == dump_position(b.final)
    c = meldhall.new_game(a.game, players=players, seed=seed + 1)
    assert dump_position(c) != dump_position(a.new()), "different seeds, same deal"


# ------------------------------------------------------------------------------------------
# hypothesis


#: Card tokens of notation fuzzing: valid, odd-cased, out of range and nonsense.
NOTATION_TOKENS = ["A", "K", "Q", "J", "10", "T", "9", "8", "7", "6", "5", "4", "3", "3S", "3C",
                   "3H", "3D", "2", "JK", "joker", "KH", "10s", "Q♦", "7H/1", "X", "0", "11",
                   "", "1"]


@st.composite
def notation(draw, heads: list[str], tails: list[str]) -> str:
    """Action texts, mostly malformed: one of ``heads``, groups of :data:`NOTATION_TOKENS`,
    one of ``tails``."""
    head = draw(st.sampled_from(heads))
    groups = draw(st.lists(st.lists(st.sampled_from(NOTATION_TOKENS), max_size=8), max_size=3))
    body = ", ".join(" ".join(g) for g in groups)
    tail = draw(st.sampled_from(tails))
    return f"{head} {body}{tail}"


def snapshot_tests(g: Game, texts, *, notation_examples: int, action_examples: int):
    """The two fuzz tests over a test module's ``snapshot_states`` fixture (a list of states,
    every phase represented), for the module to bind to their names:

    * ``test_notation_fuzz``: any text (of ``texts`` or any other) is handled as
      :func:`check_notation` says (``notation_examples`` examples);
    * ``test_random_python_actions_agree_with_legal_actions``: the game's ``check_legality``
      with a random seed (``action_examples`` examples).

    Returns:
        (test_notation_fuzz, test_random_python_actions_agree_with_legal_actions)
    """
    article = "an" if g.prefix[0] in "AEFHILMNORSX" else "a"

    def test_notation_fuzz(snapshot_states, data, text):
        check_notation(g, snapshot_states[data.draw(st.integers(0, len(snapshot_states) - 1))],
                       text)

    test_notation_fuzz.__doc__ = (
        f"Any text either fails to parse (NotationError / IllegalActionError with {article} "
        f"{g.prefix} rule), or parses to an action that is legal exactly when legal_actions() "
        "lists it.")

    def test_random_python_actions_agree_with_legal_actions(snapshot_states, data, seed):
        """is_legal(a) == (a in legal_actions()) for random and mutated actions."""
        s = snapshot_states[data.draw(st.integers(0, len(snapshot_states) - 1))]
        g.check_legality(s, random.Random(seed))

    fixture_ok = [HealthCheck.function_scoped_fixture]
    return (
        settings(max_examples=notation_examples, deadline=None,
                 suppress_health_check=fixture_ok)(
            given(data=st.data(), text=st.one_of(texts, st.text(max_size=30)))(
                test_notation_fuzz)),
        settings(max_examples=action_examples, deadline=None,
                 suppress_health_check=fixture_ok)(
            given(data=st.data(), seed=st.integers(0, 2**32))(
                test_random_python_actions_agree_with_legal_actions)),
    )


def check_drawn_playout(g: Game, s, data, rng: random.Random, *, steps: int,
                        over: Callable[[Any], bool], after: Callable[[Any, Any, Any], None]):
    """Up to ``steps`` actions of ``s`` chosen by hypothesis (``data``), until ``over(state)``;
    after each: ``after(prev, a, t)``, conservation, structure, the scoring of a hand just
    ended, one seat's observation (chosen by ``rng``) and the position round trip.

    Returns:
        (state, history): the last state and the actions, as notation.
    """
    history: list[str] = []
    for _ in range(steps):
        if over(s):
            break
        a = drawn_action(s, data, history)
        prev = s
        s = s.apply(a)
        after(prev, a, s)
        g.check_conservation(s)
        g.check_structure(s)
        if s.outcome is not None and prev.outcome is None:
            g.check_scoring(prev, s)
        g.check_observation(s, rng.randrange(s.players), rng)
        g.check_position_roundtrip(s)
    return s, history


def drawn_action(s, data, history: list[str]):
    """An action of ``s``'s legal actions chosen by hypothesis (``data``), noted in
    ``history``."""
    legal = s.legal_actions()
    a = legal[data.draw(st.integers(0, len(legal) - 1), label="action index")]
    history.append(str(a))
    return a


def replayed(s, history: list[str]):
    """``s`` after the actions ``history`` (notation)."""
    for text in history:
        s = s.apply_text(text)
    return s


# ------------------------------------------------------------------------------------------
# soak runs


def covering_option_sets(axes: dict[str, list], seed: int) -> list[dict[str, Any]]:
    """A covering set of option combinations: every value of every axis (option -> values)
    appears, with the other axes varied pseudo-randomly (``seed``)."""
    rng = random.Random(seed)
    names = list(axes)
    width = max(len(v) for v in axes.values())
    return [{n: axes[n][(i + rng.randrange(7)) % len(axes[n])] for n in names}
            for i in range(max(width, 6))]


def soak_games(budget: int, per_game: int):
    """(game number, hands) of playouts of at most ``per_game`` hands, ``budget`` in all."""
    games = 0
    while budget > 0:
        hands = min(budget, per_game)
        yield games, hands
        budget -= hands
        games += 1


# ------------------------------------------------------------------------------------------
# playouts


class Playout:
    """A seeded playout of one canasta game with property checks after every action; each
    game's property tests subclass it with their checks (the hooks below).

    Class attributes:
        game: the game's name for ``meldhall.new_game``.
        hand_cap: actions after which a hand that has not ended is a bug.
        policies: policy name -> ``choose`` function.

    Args:
        players, seed, options: the game.
        hands: stop after this many hands have been scored (or at game over).
        full: run the expensive checks (every legal action, illegal candidates, observations
            with a reshuffled twin, position round-trip; when: see the subclass's
            ``check_state``); the cheap ones run after every action.
        all_twins: compare a reshuffled twin for every observed seat.
        policy: a name of ``policies``.
    """

    game: ClassVar[str]
    hand_cap: ClassVar[int]
    policies: ClassVar[dict[str, Callable[..., Any]]]

    def __init__(self, players: int, seed: int, options: dict | None, *, hands: int,
                 full: bool, all_twins: bool, policy: str):
        self.players = players
        self.seed = seed
        self.options = options
        self.hands = hands
        self.full = full
        self.all_twins = all_twins
        self.policy = self.policies[policy]
        self.steps = 0
        self.rng = random.Random(seed * 31 + players)
        self.check_rng = random.Random(seed * 17 + 5)
        self.actions: list[str] = []
        self.final = None

    @classmethod
    def play(cls, players: int, seed: int, options: dict | None = None, **kw: Any):
        """A playout run to its end; a failed check names how to reproduce it."""
        p = cls(players, seed, options, **kw)
        try:
            p.run()
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n  reproduce: {p.repro(kw)}") from exc
        return p

    def new(self):
        return meldhall.new_game(self.game, players=self.players, seed=self.seed,
                                 options=dict(self.options) if self.options else None)

    # hooks -----------------------------------------------------------------------------

    def check_state(self, s, force: bool = False) -> None:
        """The checks of one state (``force``: the expensive ones too)."""
        raise NotImplementedError

    def start(self) -> None:
        """Before the first action."""

    def choose(self, s, legal: list):
        """The next action."""
        raise NotImplementedError

    def after(self, prev, a, t) -> None:
        """Right after each action ``a`` (``prev`` -> ``t``)."""

    def cap_note(self) -> str:
        """What the hand-cap message adds."""
        return ""

    def scored(self, prev, s, initial_dealer: int) -> None:
        """After the action that ended a hand."""

    def between(self, prev, a, s) -> None:
        """After every other action."""

    def finish(self, s, initial_dealer: int) -> None:
        """After the last action."""

    def repro(self, kw: dict[str, Any]) -> str:
        """How to reproduce this playout (``kw``: the keywords it was made with)."""
        raise NotImplementedError

    # -----------------------------------------------------------------------------------

    def run(self):
        s = self.new()
        initial_dealer = s.dealer
        assert s == self.new(), "new_game is not deterministic"
        self.check_state(s, force=True)
        scored = 0
        hand_steps = 0
        self.start()
        while not s.is_terminal:
            legal = s.legal_actions()
            a = self.choose(s, legal)
            prev = s
            s = s.apply(a)
            self.actions.append(str(a))
            self.after(prev, a, s)
            hand_steps = 0 if isinstance(a, Deal) else hand_steps + 1
            assert hand_steps <= self.hand_cap, (
                f"hand {s.hand_no} has not ended after {self.hand_cap} actions{self.cap_note()}")
            if s.outcome is not None and prev.outcome is None:
                self.scored(prev, s, initial_dealer)
                scored += 1
                if scored >= self.hands:
                    break
            else:
                self.between(prev, a, s)
        self.finish(s, initial_dealer)
        self.final = s
        return s

    def replay(self):
        """Same seed, same actions: the identical game."""
        s = self.new()
        for text in self.actions:
            s = s.apply(s.parse_action(text))
        return s
