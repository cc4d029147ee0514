"""The ISMCTS bot: legal answers, budgets, determinism, and blindness to hidden cards."""

from __future__ import annotations

import random

import pytest

from meldhall import new_game
from meldhall.bots import make_bot
from meldhall.bots.ismcts import LEVELS, IsmctsBot, Level, parse_level
from meldhall.errors import OptionsError

GAMES = [("classic-canasta", 4), ("railroad-canasta", 2), ("shanghai-rummy", 4)]


def decision_states(game: str, players: int, seed: int, count: int, skip: int = 0):
    """``count`` live states with a real choice (two or more legal actions), reached by
    heuristic play from ``seed``, after skipping the first ``skip`` such states."""
    policy = make_bot("heuristic", game)
    rng = random.Random(seed)
    state = new_game(game, players=players, seed=seed)
    found = []
    seen = 0
    while len(found) < count and not state.is_terminal:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            if seen >= skip:
                found.append(state)
            seen += 1
            action = policy.choose(state.observation(seat), legal, rng)
        else:
            action = legal[0]
        state = state.apply(action, seat)
    return found


@pytest.mark.parametrize("game,players", GAMES)
def test_returns_only_legal_actions(game, players):
    bot = IsmctsBot(game, "8")
    for i, state in enumerate(decision_states(game, players, seed=3, count=12)):
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        action = bot.choose(state.observation(seat), legal, random.Random(i))
        assert action in legal
        state.check(action, seat)  # the engine agrees


@pytest.mark.parametrize("game,players", GAMES)
def test_root_search_never_exceeds_its_playout_budget(game, players):
    for budget in (2, 5, 12, 30):
        bot = IsmctsBot(game, str(budget))
        for i, state in enumerate(decision_states(game, players, seed=5, count=4)):
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            bot.analyse(state.observation(seat), legal, random.Random(i))
            assert bot.playouts <= budget
            # a level may leave choices among few actions to the heuristic (search_from)
            assert bot.playouts >= 1 or len(legal) < bot.level.search_from


def test_time_cap_stops_a_huge_budget():
    bot = IsmctsBot("classic-canasta", "1000000/0.05")
    state = decision_states("classic-canasta", 4, seed=2, count=1, skip=3)[0]
    seat = state.to_act[0]
    bot.analyse(state.observation(seat), state.legal_actions(seat), random.Random(0))
    assert bot.playouts < 1000000


@pytest.mark.parametrize("game,players", GAMES)
def test_deterministic_for_a_fixed_seed(game, players):
    bot = IsmctsBot(game, "10")
    for state in decision_states(game, players, seed=11, count=5):
        seat = state.to_act[0]
        obs, legal = state.observation(seat), state.legal_actions(seat)
        first = bot.analyse(obs, legal, random.Random(42))
        again = IsmctsBot(game, "10").analyse(obs, legal, random.Random(42))
        assert first == again


@pytest.mark.parametrize("game,players", GAMES)
def test_choice_does_not_depend_on_hidden_cards(game, players):
    """Same observation and seed, different hidden cards (other hands, stock order, kitties,
    the hidden seed): the same choice and the same statistics."""
    bot = IsmctsBot(game, "10")
    for k, state in enumerate(decision_states(game, players, seed=17, count=4, skip=2)):
        seat = state.to_act[0]
        obs = state.observation(seat)
        legal = state.legal_actions(seat)
        expected = bot.analyse(obs, legal, random.Random(7))
        for j in range(3):
            other = obs.sample_state(random.Random(1000 * k + j))  # another real deal
            assert other.hands[seat] == state.hands[seat]
            assert other.hands != state.hands or other.stock != state.stock
            obs2 = other.observation(seat)
            assert obs2.to_json() == obs.to_json()
            legal2 = other.legal_actions(seat)
            assert [str(a) for a in legal2] == [str(a) for a in legal]
            assert bot.analyse(obs2, legal2, random.Random(7)) == expected


def test_tree_mode_also_answers_legally():
    bot = IsmctsBot("classic-canasta", Level("tree", iterations=20, seconds=None, tree=True))
    for i, state in enumerate(decision_states("classic-canasta", 4, seed=9, count=5)):
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        assert bot.choose(state.observation(seat), legal, random.Random(i)) in legal


def test_levels_and_names():
    for game, _ in GAMES:
        levels = LEVELS[game]
        assert levels["easy"].iterations < levels["normal"].iterations < levels["hard"].iterations
        assert levels["normal"].seconds <= 1.0 and levels["hard"].seconds <= 5.0
        assert make_bot("ismcts", game).name == "ismcts"
        assert make_bot("ismcts:hard", game).level == levels["hard"]
        assert make_bot("ismcts:easy", game).name == "ismcts:easy"
    custom = parse_level("200/2@30", "shanghai-rummy")
    assert (custom.iterations, custom.seconds, custom.horizon) == (200, 2.0, 30)
    with pytest.raises(OptionsError, match="unknown ismcts level"):
        make_bot("ismcts:brilliant", "classic-canasta")
    for tiny in ("ismcts:1", "ismcts:0", "ismcts:-5", "ismcts:8/0"):
        with pytest.raises(OptionsError, match="too small a budget"):
            make_bot(tiny, "shanghai-rummy")
    # the smallest budget still answers, with the confirmation share rounding to nothing
    bot = make_bot("ismcts:2", "shanghai-rummy")
    state = decision_states("shanghai-rummy", 4, seed=3, count=1, skip=5)[0]
    seat = state.to_act[0]
    assert bot.choose(state.observation(seat), state.legal_actions(seat),
                      random.Random(0)) in state.legal_actions(seat)


def test_confirmation_stays_within_budget_and_is_deterministic():
    """``confirm``: the best challenger is re-tested on fresh deals, within the budget."""
    level = Level("c", iterations=20, seconds=None, confirm=0.5)
    for i, state in enumerate(decision_states("classic-canasta", 4, seed=13, count=4)):
        seat = state.to_act[0]
        obs, legal = state.observation(seat), state.legal_actions(seat)
        bot = IsmctsBot("classic-canasta", level)
        first = bot.analyse(obs, legal, random.Random(i))
        assert 1 <= bot.playouts <= 20
        # a whole melding is a root candidate: legal as shorthand for its staged steps (CC-6.9)
        assert first[0].action in legal or state.unstaged().is_legal(first[0].action)
        assert IsmctsBot("classic-canasta", level).analyse(obs, legal, random.Random(i)) == first


def test_small_choices_can_be_left_to_the_heuristic():
    """``search_from=3``: a take-or-draw or buy-or-pass choice is the heuristic's, unsearched."""
    level = Level("s", iterations=12, seconds=None, search_from=3)
    bot = IsmctsBot("shanghai-rummy", level)
    heuristic = make_bot("heuristic", "shanghai-rummy")
    seen = {2: 0, 3: 0}
    for i, state in enumerate(decision_states("shanghai-rummy", 4, seed=21, count=40)):
        seat = state.to_act[0]
        obs, legal = state.observation(seat), state.legal_actions(seat)
        stats = bot.analyse(obs, legal, random.Random(i))
        if len(legal) == 2:
            assert bot.playouts == 0
            assert stats[0].action == heuristic.choose(obs, legal, random.Random(i))
            seen[2] += 1
        else:
            assert bot.playouts >= 1
            seen[3] += 1
    assert seen[2] and seen[3]


def test_inference_is_only_offered_where_a_game_has_it():
    with pytest.raises(OptionsError, match="no inference"):
        IsmctsBot("classic-canasta", Level("i", iterations=4, seconds=None, inference=True))
    assert IsmctsBot("shanghai-rummy", Level("i", iterations=4, seconds=None, inference=True))
