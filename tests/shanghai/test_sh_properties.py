"""Property tests for the Shanghai Rummy engine (docs/rules/shanghai-rummy.md).

Seeded random playouts and hypothesis-driven ones for 3, 4, 5 and 8 players, with every
property checked after EVERY action:

* card conservation (SH-2.3): each physical card of the pack is in exactly one place — a hand,
  the stock, the discard pile or a meld; every meld stays legal (a position round trip
  re-validates them);
* no information leaks (SH-6.4): an observation is identical for a state that differs only in
  cards hidden from the seat (``sample_state``), never names another seat's private log detail
  (the card drawn, a penalty card) and has no seed;
* scoring (SH-13): breakdown lines add up to each deal score and totals are cumulative;
* legality: every legal action applies and ``is_legal``; generated illegal actions raise
  ``IllegalActionError`` with an ``SH-`` rule ID and leave the state untouched (compared by
  position); ``is_legal`` agrees with ``legal_actions``; states are values;
* buying: a buy moves exactly two cards to the buyer, buy counts never exceed the limit, the
  discarder is never offered their own card (SH-10.3–SH-10.6);
* staged melding (SH-8.1): another seat's observation (JSON and text) never changes when the
  player in turn stages or withdraws; a compound ``contract A, B`` that ``check`` accepts is
  reachable through listed stages and ``contract done``;
* action ids: every legal action has an id below ``num_distinct_actions`` (a constant of the
  game) that maps back to the same action;
* determinism, position and record round trips; every deal ends within an action cap.

Longer soaks are marked ``soak`` (``MELDHALL_SOAK_GAMES`` sets their size)::

    MELDHALL_SOAK_GAMES=20 uv run pytest tests/shanghai/test_sh_properties.py -m soak
"""

from __future__ import annotations

import json
import os
import re
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meldhall
from meldhall.errors import IllegalActionError, MeldhallError
from meldhall.games.shanghai.actions import (
    BUY,
    CONTRACT_DONE,
    PASS,
    WITHDRAW,
    WITHDRAW_ALL,
    Buy,
    Contract,
    Discard,
    LayOff,
    Stage,
    Swap,
    Withdraw,
    stage_action,
)
from meldhall.games.shanghai.rules import JOKER_KIND, kind_name, parse_kind
from meldhall.record import Record, dump_position, dump_record, load_position, load_record

GAME = "shanghai-rummy"
#: Generous cap on the actions of one deal (a deal that does not end is a bug, SH-12.3).
DEAL_CAP = 20000


# --------------------------------------------------------------------------- policies
def choose(state, legal, rng: random.Random, policy: str):
    """A legal action: ``random`` (uniform) or ``eager`` (makes contracts, lays off, buys
    now and then — reaches the rarer rules quickly)."""
    if policy == "random" or len(legal) == 1:
        return legal[rng.randrange(len(legal))]
    if state.phase == "buy":
        return BUY if rng.random() < 0.35 else PASS
    if CONTRACT_DONE in legal and rng.random() < 0.9:
        return CONTRACT_DONE
    if state.staged or any(type(a) is Stage for a in legal):
        a = _staging_step(state, legal, rng)
        if a is not None:
            return a
    plays = [a for a in legal if type(a) in (LayOff, Swap)]
    if plays and rng.random() < 0.75:
        return rng.choice(plays)
    if state.phase == "meld":
        discards = [a for a in legal if type(a) is Discard]
        return rng.choice(discards)
    return legal[rng.randrange(len(legal))]


def _staging_step(state, legal, rng: random.Random):
    """Eager staging (SH-8.1): one of the solver's ways to make the contract, fixed for the
    turn, staged meld by meld; now and then a stray stage, then withdrawn."""
    plans = state.contract_actions()
    stages = [a for a in legal if type(a) is Stage]
    if plans and rng.random() < 0.9:
        todo = list(plans[state.stock_size % len(plans)].melds)  # the same all turn
        for m in state.staged:
            if m not in todo:
                return WITHDRAW if rng.random() < 0.5 else WITHDRAW_ALL
            todo.remove(m)
        if todo and stage_action(todo[0]) in legal:
            return stage_action(todo[0])
    elif stages and rng.random() < 0.15:
        return rng.choice(stages)
    if state.staged:
        return WITHDRAW if rng.random() < 0.5 else WITHDRAW_ALL
    return None


# --------------------------------------------------------------------------- invariants
def check_cards(state) -> None:
    """SH-2.3: every physical card in exactly one place."""
    seen = 0
    total = 0
    for h in state.hands:
        assert not seen & h
        seen |= h
        total += h.bit_count()
    for group in (state.stock, state.pile, *[m.cards for m in state.melds]):
        for c in group:
            assert not (seen >> c) & 1, f"card {state.pack.cards[c].physical} twice"
            seen |= 1 << c
            total += 1
    assert seen == state.pack.full_mask and total == state.pack.size


def check_melds(state) -> None:
    """SH-7: sets of one rank with at most one joker; runs of one suit in sequence within the
    joker limits and A…A; more naturals than jokers (SH-7.6)."""
    from meldhall.games.shanghai.rules import joker_limit

    n52 = state.n52
    for m in state.melds:
        jk = sum(1 for c in m.cards if c >= n52)
        assert jk == m.jokers and jk <= joker_limit(m.size, m.run)
        assert m.size - jk > jk
        for c, d in zip(m.cards, m.decl):
            if c < n52:
                assert c % 52 == d
        if m.run:
            assert 4 <= m.size <= (14 if state.options.ace_both_ends else 13)
            assert 1 <= m.lo and m.hi <= 14
            assert all(d // 13 == m.suit for d in m.decl)
        else:
            assert m.size >= 3 and all(d % 13 + 1 == m.rank for d in m.decl)


def check_buys(state) -> None:
    """SH-10.3, SH-10.6: counts within the limit; the discarder never on the offer list."""
    lim = state.buy_limit()
    if lim is not None:
        assert all(b <= lim for b in state.buys)
    if state.phase == "buy":
        assert state.queue and state.turn not in state.queue
        if not state.options.discarder_may_buy:
            assert state.upcard_from not in state.queue
        for s in state.queue:
            assert lim is None or state.buys[s] < lim


def check_outcome(state) -> None:
    """SH-13: lines add up; totals are the sums of the deal scores."""
    oc = state.outcome
    if oc is None:
        return
    for r in oc.results:
        assert sum(ln.points for ln in r.lines) == r.hand_score
        assert all(ln.rule_id.startswith("SH-") for ln in r.lines)
        assert r.total == state.scores[r.side]
    assert list(state.scores) == [sum(d[s] for d in state.deal_scores)
                                  for s in range(state.players)] or state.deal_scores == ()
    if oc.game_over:
        low = min(state.scores)
        if state.options.tie_rule == "shared":
            assert oc.winners == tuple(s for s in range(state.players) if state.scores[s] == low)


def check_observations(state, rng: random.Random) -> None:
    """SH-6.4: what each seat sees; identical for a state that differs only in hidden cards."""
    entries = state._entries(state.log_mark)  # observations carry this deal's log
    for seat in range(state.players):
        obs = state.observation(seat)
        j = obs.to_json()
        assert "seed" not in j and not hasattr(obs, "seed")
        assert sorted(j["hand"]) == sorted(str(c) for c in state.hand_cards(seat))
        # cards are shown by rank and suit only: no deck index reaches a seat
        assert not re.search(r"\b(?:JK|10|[2-9AKQJ])[SHDC]?/\d+\b", json.dumps(j)), j
        for (s, _, _, secret), logged in zip(entries, j["log"]):
            if secret and s != seat:
                assert secret not in logged["note"]
        # a hidden card may share its name with a shown copy, so names alone prove nothing:
        # the sampled state below (other hidden cards, same observation) is the real check
        sampled = obs.sample_state(rng)
        check_cards(sampled)
        assert sampled.observation(seat).to_json() == j
        assert obs.to_text()


ILLEGAL_TEXTS = ["take", "draw", "buy", "pass", "deal", "contract 7S 7H 7D, KS KH KD",
                 "contract 5H 6H 7H 8H, 9C 10C JC QC", "swap 7D -> 1", "layoff JK -> 1 low",
                 "stage 7S 7H 7D", "stage 5H 6H 7H 8H", "stage 9C 9D JK=9S", "withdraw",
                 "withdraw all", "contract done"]


def candidate_texts(state, rng: random.Random) -> list[str]:
    """Action texts to try: some legal, most not."""
    out = list(ILLEGAL_TEXTS)
    for _ in range(4):
        k = rng.randrange(53)
        out.append(f"discard {kind_name(k)}")
    nm = len(state.melds)
    for _ in range(4):
        k = rng.randrange(53)
        n = rng.randint(1, nm + 1)
        if k == JOKER_KIND:
            out.append(f"layoff JK={kind_name(rng.randrange(52))} -> {n}")
        else:
            out.append(f"layoff {kind_name(k)} -> {n}")
            out.append(f"swap {kind_name(k)} -> {n}")
    hand = [str(c) for c in state.hand_cards(state.turn)] if state.to_act else []
    # every card of the hand, as a discard and onto every meld: the listed discards, lay-offs
    # and exchanges must be exactly those check() accepts
    for name in sorted(set(hand)):
        out.append(f"discard {name}")
        for n in sorted(rng.sample(range(1, nm + 1), min(nm, 3))):
            if name == "JK":
                out.append(f"layoff JK -> {n} low")
                out.append(f"layoff JK -> {n} high")
                out += [f"layoff JK={r}{s} -> {n}" for r in ("A", "7") for s in "SHDC"]
            else:
                out += [f"layoff {name} -> {n}", f"layoff {name} -> {n} low",
                        f"layoff {name} -> {n} high", f"swap {name} -> {n}"]
    if len(hand) >= 6:
        a = rng.sample(hand, 3)
        b = rng.sample(hand, 3)
        out.append("contract " + " ".join(a) + ", " + " ".join(b))
        out.append("stage " + " ".join(a))
        out.append("stage " + " ".join(sorted(rng.sample(hand, 4))))
    if state.to_act and state.phase == "meld":
        for plan in state.contract_actions()[:2]:
            out.append(str(plan))  # the shorthand of a real contract
            out += [f"stage {m}" for m in plan.melds]
    return out


def check_legality(state, rng: random.Random, full: bool) -> None:
    """Every listed action applies and is legal; candidates outside the list are refused with
    an SH- rule and leave the state untouched."""
    legal = state.legal_actions()
    texts = [str(a) for a in legal]
    assert len(texts) == len(set(texts)), "duplicate legal actions"
    assert state.legal_actions() == legal  # deterministic
    before = dump_position(state)
    sample = legal if full or len(legal) <= 12 else rng.sample(legal, 12)
    n_ids = state.num_distinct_actions
    for a in legal:
        i = state.action_id(a)
        assert 0 <= i < n_ids and str(state.action_from_id(i)) == str(a)
    for a in sample:
        assert state.is_legal(a)
        assert str(state.parse_action(str(a))) == str(a)
        nxt = state.apply(state.parse_action(str(a)))
        check_cards(nxt)
    for t in candidate_texts(state, rng):
        try:
            a = state.parse_action(t)
        except MeldhallError:
            continue
        seats = [None] + [rng.randrange(state.players)]
        for seat in seats:
            listed = str(a) in texts and (seat is None or seat in state.to_act)
            if listed:
                assert state.is_legal(a, seat)
                continue
            if type(a) is Contract and state.is_legal(a, seat):
                _check_shorthand(state, a)  # accepted, never listed (SH-8.1)
                continue
            try:
                state.check(a, seat)
            except IllegalActionError as exc:
                assert exc.rule_id.startswith("SH-"), exc
            else:
                raise AssertionError(f"{t!r} (seat {seat}) passes check but is not listed")
            with pytest.raises(IllegalActionError):
                state.apply(a, seat)
    assert dump_position(state) == before, "a refused action changed the state"


def _public_position(state) -> dict:
    """The position without the player in turn's staging (SH-8.1), which no log records."""
    doc = dump_position(state)
    doc.pop("staged")
    doc.pop("stages_this_turn")
    return doc


def _check_shorthand(state, a) -> None:
    """SH-8.1: an accepted ``contract A, B`` equals staging its new melds through listed
    actions and a listed ``contract done``."""
    target = state.apply(a)
    s = state
    todo = list(Contract(s.staged + a.melds).melds)
    for m in s.staged:
        todo.remove(m)
    for m in todo:
        st_ = stage_action(m)
        assert str(st_) in [str(x) for x in s.legal_actions()], st_
        s = s.apply(st_)
    assert CONTRACT_DONE in s.legal_actions()
    assert s.apply(CONTRACT_DONE) == target


def check_interest(state, loaded) -> None:
    """``took_kinds`` / ``declined_kinds`` (kept per action) say what the deal's public log
    says: per seat, the kinds taken or bought from the pile, and those discarded or declined
    as the upcard; a position loaded from the state's document derives the same."""
    took = [0] * state.players
    declined = [0] * state.players
    for seat, action, note in state.observation(0).log:
        words = action.split() if action.startswith("discard") else note.split()
        if seat < 0 or len(words) < 2 or words[0] not in ("takes", "buys", "declines",
                                                          "discard"):
            continue
        if words[1] == "the":  # "takes the joker into hand": an exchange
            continue
        kind, _ = parse_kind(words[1])
        if words[0] in ("takes", "buys"):
            took[seat] |= 1 << kind
        else:
            declined[seat] |= 1 << kind
    assert state.took_kinds == tuple(took)
    assert state.declined_kinds == tuple(declined)
    assert (loaded.took_kinds, loaded.declined_kinds) == (state.took_kinds,
                                                          state.declined_kinds)


def check_private_staging(prev, state, seat: int) -> None:
    """SH-8.1: staging and withdrawing change no other seat's observation."""
    for other in range(state.players):
        if other != seat:
            a, b = prev.observation(other), state.observation(other)
            assert a.to_json() == b.to_json() and a.to_text() == b.to_text()


# --------------------------------------------------------------------------- playout
def playout(players: int, seed: int, *, options=None, policy="eager", max_actions=None,
            deals=None, full_every: int = 1, rng_seed: int | None = None):
    """Play from a new game, checking the invariants after every action.  Returns the final
    state."""
    rng = random.Random(seed if rng_seed is None else rng_seed)
    state = meldhall.new_game(GAME, players=players, seed=seed, options=options)
    first = dump_position(state)
    n_ids = state.num_distinct_actions
    actions = 0
    deal_steps = 0
    while not state.is_terminal:
        if max_actions is not None and actions >= max_actions:
            break
        if deals is not None and state.hand_no >= deals:
            break
        legal = state.legal_actions()
        assert legal and state.to_act
        a = choose(state, legal, rng, policy)
        seat = state.to_act[0]
        snapshot = dump_position(state) if actions % full_every == 0 else None
        prev = state
        state = state.apply(a, seat)
        actions += 1
        deal_steps += 1
        assert deal_steps < DEAL_CAP, "a deal did not end"
        if snapshot is not None:
            assert dump_position(prev) == snapshot, "apply changed the state it was applied to"
            if type(a) in (Stage, Withdraw):
                check_private_staging(prev, state, seat)
            assert state.num_distinct_actions == n_ids
        if type(a) is Buy:
            got = state.hands[seat] & ~prev.hands[seat]
            assert got.bit_count() == 2 and (got >> prev.pile[-1]) & 1
            assert state.buys[seat] == prev.buys[seat] + 1
        if state.outcome is not None and prev.outcome is None:
            deal_steps = 0
        check_cards(state)
        check_buys(state)
        check_outcome(state)
        if actions % full_every == 0:
            check_melds(state)
            doc = dump_position(state)
            assert dump_position(load_position(doc)) == doc
            check_interest(state, load_position(doc))
            check_observations(state, rng)
            check_legality(state, rng, full=False)
    # determinism: the record replays to the identical state
    # (staging is private and leaves no log entry, SH-8.1: a record made mid-staging replays
    # to the same state without the staged melds)
    rec = Record.from_state(state, state.first_dealer)
    again = load_record(dump_record(rec)).final_state()
    assert _public_position(again) == _public_position(state)
    assert dump_position(meldhall.new_game(GAME, players=players, seed=seed,
                                           options=options)) == first
    return state


# --------------------------------------------------------------------------- tests
@pytest.mark.parametrize("players", [3, 4, 5, 8])
def test_eager_playout_every_action_checked(players):
    """All properties after every action, for one and a half deals of eager play."""
    st_ = playout(players, seed=100 + players, policy="eager", max_actions=260)
    assert st_.hand_no >= 0


@pytest.mark.parametrize("players", [3, 4, 5, 8])
def test_whole_games_cheap_checks(players):
    """Whole ten-deal games (eager play): cards, buys, scores after every action; the full
    checks every 300th action; the game ends and the winners have the lowest total."""
    st_ = playout(players, seed=7 * players, policy="eager", full_every=300)
    assert st_.is_terminal and st_.hand_no == 9
    assert len(st_.deal_scores) == 10


def test_random_play_deals_end():
    """Uniformly random play: the deal still ends (the rebuild limit, SH-12.3)."""
    st_ = playout(4, seed=3, policy="random", deals=2, full_every=200)
    assert st_.hand_no >= 2 or st_.is_terminal


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([3, 4, 5, 8]), seed=st.integers(0, 10**6),
       policy=st.sampled_from(["eager", "random"]),
       opts=st.fixed_dictionaries({}, optional={
           "discarder_may_buy": st.booleans(), "buy_priority": st.sampled_from(
               ["next_in_turn", "dealer_left"]),
           "layoff_on_contract_turn": st.booleans(), "exchange_on_contract_turn": st.booleans(),
           "discard_taken_upcard": st.booleans(), "go_out_without_discard": st.booleans(),
           "contract_min_sizes": st.booleans(), "distinct_set_ranks": st.booleans(),
           "ace_both_ends": st.booleans(), "max_stock_rebuilds": st.sampled_from([0, 1, 3, 10]),
           "jokers_in_pack": st.sampled_from([1, 2, 4]), "buy_limits": st.sampled_from(
               [None, 1, "unlimited"])}))
def test_hypothesis_playouts(players, seed, policy, opts):
    """Short playouts over random options: every property after every action."""
    playout(players, seed, options=opts, policy=policy, max_actions=80)


def test_states_are_values():
    """Applying an action never changes the state it was applied to."""
    s0 = meldhall.new_game(GAME, players=4, seed=9)
    d0 = dump_position(s0)
    s1 = s0.apply_text("draw")
    assert dump_position(s0) == d0 and s1 is not s0
    assert s0 == meldhall.new_game(GAME, players=4, seed=9)


@pytest.mark.soak
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_soak_whole_games(players):
    """Many whole games per player count, eager and random play, with the cheap checks after
    every action and all checks every 25th action (every 250th at CI's one-game budget: the
    full checks are about 98 % of a game's time, and a whole ten-deal game is what this soak
    is for)."""
    n = int(os.environ.get("MELDHALL_SOAK_GAMES", "5"))
    full_every = 25 if n > 1 else 250
    for i in range(n):
        policy = "random" if i % 3 == 2 else "eager"
        st_ = playout(players, seed=1000 * players + i, policy=policy, full_every=full_every)
        assert st_.is_terminal


def test_long_game_states_pickle_copy_and_print():
    """States and observations stay plain values however long the game: they pickle, deep-copy
    and print after a whole random game (over ten thousand actions)."""
    import copy
    import pickle

    rng = random.Random(1)
    s = meldhall.new_game(GAME, players=4, seed=1)
    while not s.is_terminal:
        s = s.apply(rng.choice(s.legal_actions()))
    assert len(s.history()) > 5000
    back = pickle.loads(pickle.dumps(s))
    assert back == s and back.history() == s.history() and back.public_log() == s.public_log()
    assert copy.deepcopy(s) == s
    mid = meldhall.new_game(GAME, players=4, seed=2)
    for _ in range(3000):
        mid = mid.apply(rng.choice(mid.legal_actions()))
    again = pickle.loads(pickle.dumps(mid))
    assert again == mid and again.legal_actions() == mid.legal_actions()
    assert again.observation(1).to_json() == mid.observation(1).to_json()
    obs = mid.observation(0)
    assert repr(obs) and repr(mid)
    assert pickle.loads(pickle.dumps(obs)).to_json() == obs.to_json()
    assert copy.deepcopy(obs).to_json() == obs.to_json()
