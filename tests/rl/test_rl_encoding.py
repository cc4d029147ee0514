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
