"""The observation tensor carries exactly the seat's knowledge: identical for two states that
give the seat the same observation (other hands and the stock dealt anew, hidden cards swapped
between other hands, a card of the seat's own hand exchanged for another copy of the same
card), different when the seat's own knowledge differs (a card of its hand exchanged for one
it cannot see)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import meldhall
from meldhall.rl.encoding import encoder_for

CASES = [("classic-canasta", 2), ("classic-canasta", 4), ("classic-canasta", 6),
         ("railroad-canasta", 2), ("railroad-canasta", 5), ("shanghai-rummy", 3),
         ("shanghai-rummy", 6)]


def _positions(game: str, players: int, count: int, seed: int):
    """``count`` states of random play, spread over a few games."""
    rng = random.Random(seed)
    out = []
    state = meldhall.new_game(game, players=players, seed=seed)
    while len(out) < count:
        if state.is_terminal:
            state = meldhall.new_game(game, players=players, seed=rng.randrange(10**9))
        state = state.apply(rng.choice(state.legal_actions()))
        if rng.random() < 0.03 and state.to_act:
            out.append(state)
    return out


def _name(pack, c: int) -> int:
    return c % 52 if pack.cards[c].rank else 52


def _with_hands(state, hands):
    s = state._copy()
    s.hands = tuple(hands)
    s._cache = None
    return s


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if (mask >> i) & 1]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_same_observation_same_tensor(game: str, players: int) -> None:
    rng = random.Random(1)
    for state in _positions(game, players, 25, seed=players):
        seat = state.to_act[0]
        enc = encoder_for(game, state.options)
        t = enc.encode(state.observation(seat))
        assert t.shape == (enc.size,) and t.dtype == np.float32
        assert (t >= enc.low).all() and (t <= enc.high).all()
        # the other hands and the stock dealt anew from the seat's observation
        for _ in range(2):
            other = state.observation(seat).sample_state(rng)
            assert np.array_equal(enc.encode(other.observation(seat)), t)
        pack = state.pack
        hands = list(state.hands)
        known = state.known
        # a hidden card of one other hand exchanged for a hidden card of another
        others = [s for s in range(players) if s != seat and hands[s] & ~known[s]]
        if len(others) >= 2:
            a, b = others[0], others[1]
            ca = _bits(hands[a] & ~known[a])[0]
            cb = _bits(hands[b] & ~known[b])[0]
            h = list(hands)
            h[a] ^= (1 << ca) | (1 << cb)
            h[b] ^= (1 << ca) | (1 << cb)
            assert np.array_equal(enc.encode(_with_hands(state, h).observation(seat)), t)
        # a card of the seat's hand exchanged for another copy of it held by a hidden hand
        for c in _bits(hands[seat]):
            twins = [(s, d) for s in range(players) if s != seat
                     for d in _bits(hands[s] & ~known[s]) if _name(pack, d) == _name(pack, c)]
            if twins:
                s, d = twins[0]
                h = list(hands)
                h[seat] ^= (1 << c) | (1 << d)
                h[s] ^= (1 << c) | (1 << d)
                assert np.array_equal(enc.encode(_with_hands(state, h).observation(seat)), t)
                break


@pytest.mark.parametrize(("game", "players"), CASES)
def test_other_knowledge_other_tensor(game: str, players: int) -> None:
    checked = 0
    for state in _positions(game, players, 15, seed=10 + players):
        seat = state.to_act[0]
        enc = encoder_for(game, state.options)
        t = enc.encode(state.observation(seat))
        pack = state.pack
        hands = list(state.hands)
        mine = _bits(hands[seat])
        for s in range(players):
            if s == seat:
                continue
            unseen = [d for d in _bits(hands[s] & ~state.known[s])
                      if all(_name(pack, d) != _name(pack, c) for c in mine)]
            if mine and unseen:
                c, d = mine[0], unseen[0]
                h = list(hands)
                h[seat] ^= (1 << c) | (1 << d)
                h[s] ^= (1 << c) | (1 << d)
                assert not np.array_equal(
                    enc.encode(_with_hands(state, h).observation(seat)), t)
                checked += 1
                break
    assert checked > 5


def test_relative_seats() -> None:
    """Slice ``hand_sizes`` starts with the observer's own count."""
    state = meldhall.new_game("shanghai-rummy", players=4, seed=2)
    state = state.apply(state.legal_actions()[0])
    enc = encoder_for("shanghai-rummy", state.options)
    for seat in range(4):
        t = enc.encode(state.observation(seat))
        sizes = t[enc.slice("hand_sizes")]
        assert list(sizes) == [state.hands[(seat + i) % 4].bit_count() for i in range(4)]


# ---------------------------------------------------------------- the state path
FAST_CASES = CASES + [("classic-canasta", 3), ("railroad-canasta", 4), ("shanghai-rummy", 4),
                      ("shanghai-rummy", 5)]
CUTTHROAT = {"three_player_mode": "cutthroat"}


def _walk(game: str, players: int, steps: int, seed: int, options=None):
    """Every state of ``steps`` actions of random play (new games as games end)."""
    rng = random.Random(seed)
    state = meldhall.new_game(game, players=players, seed=seed, options=options)
    for _ in range(steps):
        if state.is_terminal:
            state = meldhall.new_game(game, players=players, seed=rng.randrange(10**9),
                                      options=options)
        yield state
        state = state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("game", "players"), FAST_CASES)
def test_state_path_same_tensor(game: str, players: int) -> None:
    """``encode_state(state, seat)`` is ``encode(state.observation(seat))`` for every seat of
    every state of a few games of random play (whatever the caches hold: the same encoder
    serves both paths, in the order an environment asks)."""
    enc = None
    checked = 0
    for state in _walk(game, players, 1500, seed=players + 20):
        enc = enc or encoder_for(game, state.options)
        for seat in range(players):
            a = enc.encode_state(state, seat)
            b = enc.encode(state.observation(seat))
            assert a.dtype == np.float32 and np.array_equal(a, b), (seat, np.nonzero(a != b))
            checked += 1
    assert checked == 1500 * players


def test_state_path_cutthroat() -> None:
    enc = None
    for state in _walk("classic-canasta", 3, 1500, seed=5, options=CUTTHROAT):
        enc = enc or encoder_for("classic-canasta", state.options)
        for seat in range(3):
            assert np.array_equal(enc.encode_state(state, seat),
                                  enc.encode(state.observation(seat)))


class _Hands(tuple):
    """A state's hands that record which single hands are read (``hands[i]``); counting the
    cards of every hand goes through iteration, which is public (CC-5.9, SH-6.4)."""

    read: set[int]

    def __getitem__(self, i):  # type: ignore[override]
        self.read.add(i)
        return tuple.__getitem__(self, i)


class _Stock:
    """A stock that tells only its size."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n


class _Spy:
    """A state seen through the attributes read from it."""

    def __init__(self, state) -> None:
        object.__setattr__(self, "_state", state)
        object.__setattr__(self, "read", set())
        hands = _Hands(state.hands)
        hands.read = set()
        object.__setattr__(self, "hands", hands)
        object.__setattr__(self, "stock", _Stock(len(state.stock)))

    def __getattr__(self, name):
        self.read.add(name)
        return getattr(self._state, name)


@pytest.mark.parametrize(("game", "players"), [("classic-canasta", 4), ("railroad-canasta", 4),
                                               ("shanghai-rummy", 4)])
def test_state_path_reads_only_the_seats_knowledge(game: str, players: int) -> None:
    """The state path reads the public fields the observation copies, the observer's own
    hand (no other hand's cards), the size of the stock (not its order), and what the
    observation class's ``private_of`` reads (the observer's staged melds, a kitty it may
    see)."""
    from meldhall.games.shanghai.observation import PUBLIC_FIELDS as SHANGHAI_PUBLIC

    private = {"turn", "staged", "staged_up", "stages", "kitty_open", "kitties"}
    for state in _walk(game, players, 400, seed=3):
        enc = encoder_for(game, state.options)
        public = set(SHANGHAI_PUBLIC if game == "shanghai-rummy"
                     else type(state.observation(0)).PUBLIC_FIELDS)
        for seat in range(players):
            spy = _Spy(state)
            t = enc.encode_state(spy, seat)
            assert np.array_equal(t, enc.encode(state.observation(seat)))
            assert spy.read <= public | private, spy.read - public - private
            assert spy.hands.read <= {seat}
