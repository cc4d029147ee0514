"""Dealing determinizations by what the other players' public actions suggest
(``ShanghaiObservation.sample_state(rng, weights=...)`` and
``meldhall.bots.shanghai_inference.card_weights``)."""

from __future__ import annotations

import random

from meldhall import new_game
from meldhall.bots import make_bot
from meldhall.bots.shanghai_inference import MADE_FIT_WEIGHT, card_weights
from meldhall.games.shanghai.rules import JOKER_KIND

from sh_position import build, play
from test_sh_properties import check_cards

HANDS = {0: "2C 3D 4H 5S 6C 8D 9H 10S JC QD AH",
         1: "7S 7H 2D 3C 4S 5H 6D 8C 9S 10H KS",
         2: "2H 3S 4C 5D 6H 8S 9C 10D JH QS AC",
         3: "2S 3H 4D 5C 6S 8H 9D 10C JS QH AD"}


def _kind(rank: int, suit: int) -> int:
    return suit * 13 + rank - 1


def _took_seven_discarded_king():
    """Contract 1 (two sets): seat 1 takes the 7♦ upcard, then discards the K♠."""
    st = build(phase="upcard", turn=1, upcard_from=0, pile="QC 7D", hands=HANDS)
    return play(st, "take", "discard KS", seat=1)


def test_taking_a_card_raises_its_rank_and_discarding_lowers_it():
    """Sets contract: a seat that took a seven probably holds sevens; one that discarded a
    king probably holds no kings."""
    st = _took_seven_discarded_king()
    w = card_weights(st.observation(0))[1]
    for suit in range(4):
        assert w[_kind(7, suit)] > 1.5
        assert w[_kind(13, suit)] < 0.75
    assert w[_kind(5, 0)] == 1.0  # no evidence about fives
    assert w[JOKER_KIND] == 1.0
    assert set(card_weights(st.observation(0))) == {1, 2, 3}  # never the observer's own


def test_a_player_who_made_the_contract_holds_little_that_fits_the_table():
    st = build(hands={0: "9S AH 4C", 1: "2C 3D 4H"}, melds=[(1, "5S 6S 7S 8S"),
                                                            (1, "AS AD AC")], made=[1])
    w = card_weights(st.observation(0))[1]
    assert w[_kind(9, 0)] == MADE_FIT_WEIGHT and w[_kind(4, 0)] == MADE_FIT_WEIGHT
    assert all(w[_kind(1, s)] == MADE_FIT_WEIGHT for s in range(4))
    assert w[_kind(10, 1)] == 1.0


def test_weighted_deal_keeps_every_card_and_the_observation():
    rng = random.Random(4)
    policy = make_bot("heuristic", "shanghai-rummy")
    st = new_game("shanghai-rummy", players=4, seed=8)
    checked = 0
    while st.outcome is None:
        seat = st.to_act[0]
        legal = st.legal_actions(seat)
        obs = st.observation(seat)
        if checked < 60:
            weights = card_weights(obs)
            det = obs.sample_state(random.Random(checked), weights=weights)
            check_cards(det)
            assert det.observation(seat).to_json() == obs.to_json()
            assert len(det.stock) == obs.stock_size
            for s in range(4):
                assert det.hands[s] & st.known[s] == st.known[s]  # known cards stay put
            again = obs.sample_state(random.Random(checked), weights=weights)
            assert (again.hands, again.stock) == (det.hands, det.stock)
            checked += 1
        action = legal[0] if len(legal) == 1 else policy.choose(obs, legal, rng)
        st = st.apply(action, seat)
    assert checked == 60


def test_weights_move_the_cards_they_favour():
    """Sevens weighted up for seat 1 land in its hand far more often than uniformly."""
    st = _took_seven_discarded_king()
    obs = st.observation(0)
    sevens = {_kind(7, s) for s in range(4)}
    n52 = st.n52

    def sevens_held(det) -> int:
        h = det.hands[1] & ~st.known[1]
        return sum(1 for c in range(st.pack.size) if h >> c & 1 and c < n52
                   and c % 52 in sevens)

    uniform = sum(sevens_held(obs.sample_state(random.Random(i))) for i in range(300))
    weights = card_weights(obs)
    inferred = sum(sevens_held(obs.sample_state(random.Random(i), weights=weights))
                   for i in range(300))
    assert inferred > 1.5 * uniform
