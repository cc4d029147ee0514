"""What the server builds for a seat and for a spectator (in-process: pure functions)."""

from __future__ import annotations

import json
import random
import re

import pytest

from meldhall import new_game
from meldhall.server.views import public_view, seat_view

CARD = re.compile(r"(?<![0-9A-Z])(?:10|[2-9AKQJ])[SHDC]/\d+\b|(?<![A-Z])JK/\d+\b")


def random_states(game: str, seed: int, steps: int, players=None):
    st = new_game(game, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if st.is_terminal:
            break
        yield st
        seat = st.to_act[0]
        legal = st.legal_actions(seat)
        st = st.apply(legal[rng.randrange(len(legal))], seat)


@pytest.mark.parametrize("game", ["classic-canasta", "railroad-canasta", "shanghai-rummy"])
def test_public_view_shows_only_what_every_seat_sees(game):
    for i, st in enumerate(random_states(game, 3, 400)):
        if i % 8:
            continue
        pub = json.dumps(public_view(st))
        shared = set.intersection(*[set(CARD.findall(json.dumps(st.observation(s).to_json())))
                                    for s in range(st.players)])
        assert set(CARD.findall(pub)) <= shared
        v = json.loads(pub)
        assert v["hand"] == [] and v["seat"] is None and "my_kitty" not in v
        assert v["hand_sizes"] == st.observation(0).to_json()["hand_sizes"]


def test_classic_consent_is_a_prompt_to_the_partner():
    for seed in range(40):
        for st in random_states("classic-canasta", seed, 3000):
            if st.phase == "consent":
                partner = st.to_act[0]
                view = seat_view(st, partner)
                assert view["prompt"]["kind"] == "consent"
                assert sorted(view["legal"]) == ["no", "yes"]
                asker = view["observation"]["turn"]
                assert asker != partner and seat_view(st, asker)["legal"] == []
                return
    pytest.skip("no 'may I go out?' in these random games")


def test_shanghai_buy_prompt_names_the_card_and_the_penalty_card():
    """The buy prompt writes the card with its suit symbol and says that a penalty card comes
    with it, and which buy of the limit it would be (it said "Buy the discard AD?")."""
    st = new_game("shanghai-rummy", players=3, seed=1).apply_text("draw", 1)
    assert st.phase == "buy" and st.to_act == (2,)
    view = seat_view(st, 2)
    obs = view["observation"]
    assert obs["upcard"] == "AD" and obs["buys"][2] == 0
    assert view["prompt"] == {
        "kind": "buy", "card": "AD",
        "text": f"Buy A\u2666? You also take a penalty card from the stock "
                f"(buy 1 of {obs['buy_limit']}).",
    }


def test_the_public_view_does_not_change_while_a_player_stages():
    """CC-6.9, SH-8.1: staging is private, so the spectator's view of a state with melds staged
    equals its view of the state before: no field changes and none goes missing (the stage
    counter and the staged count are shown at the value every other seat sees)."""
    state = new_game("classic-canasta", players=4, seed=0).apply_text("draw")
    before = public_view(state)
    staged = state.apply_text("stage A A 2")
    assert staged.observation(staged.to_act[0]).to_json()["staged_count"] > 0
    assert public_view(staged) == before
    sh = new_game("shanghai-rummy", players=3, seed=1).apply_text("draw", 1)
    while sh.to_act != (1,) or sh.phase != "meld":
        sh = sh.apply(sh.legal_actions()[0])
    stage = next(a for a in sh.legal_actions() if str(a).startswith("stage "))
    assert public_view(sh.apply(stage)) == public_view(sh)


@pytest.mark.parametrize("game", ["classic-canasta", "railroad-canasta"])
def test_a_draw_with_the_pile_out_of_reach_says_why(game):
    """A seat whose only move is ``draw`` is told why the pile cannot be taken
    (``take_refused``: a rule ID and a sentence, CC-8 / RR-8, CC-7 / RR-7), worked out from
    its own observation: the same for two states that give the seat the same observation;
    no such field while a take is legal or on another seat's view."""
    seen = 0
    for st in random_states(game, 5, 600, players=2):
        seat = st.to_act[0] if st.to_act else None
        if seat is None or st.phase != "draw":
            continue
        v = seat_view(st, seat)
        other = seat_view(st, 1 - seat)
        assert "take_refused" not in other
        if v["legal"] != ["draw"]:
            assert "take_refused" not in v
            continue
        refused = v["take_refused"]
        assert re.fullmatch(r"(CC|RR)-\d+\.\d+", refused["rule"]) and refused["text"]
        # another deal of the cards the seat cannot see: the same words
        twin = st.observation(seat).sample_state(random.Random(9))
        assert seat_view(twin, seat).get("take_refused") == refused
        seen += 1
    assert seen >= 3
