"""``make_bot`` builds a bot named ``package.module:factory[:argument]`` (how a trained policy
plays in ``meldhall tournament``), and refuses a spec that names nothing."""

from __future__ import annotations

import sys

import pytest

from meldhall.bots import make_bot
from meldhall.errors import OptionsError
from meldhall.sim.tournament import run_tournament

PLUGIN = '''
import random


class FirstBot:
    """Plays the first legal action; remembers how it was built."""

    def __init__(self, game, argument):
        self.name = f"first:{argument}"
        self.game = game
        self.argument = argument

    def choose(self, observation, legal_actions, rng):
        return legal_actions[0]


def make(game, argument):
    return FirstBot(game, argument)
'''


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    pkg = tmp_path / "meldplug"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "bots.py").write_text(PLUGIN)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "meldplug.bots"
    for name in [m for m in sys.modules if m.startswith("meldplug")]:
        del sys.modules[name]


def test_plugin_bot_is_built_with_its_argument(plugin: str) -> None:
    bot = make_bot(f"{plugin}:make:runs/a:b.zip", "shanghai-rummy")
    assert bot.game == "shanghai-rummy" and bot.argument == "runs/a:b.zip"
    assert make_bot(f"{plugin}:make", "classic-canasta").argument is None


def test_plugin_bot_plays_a_tournament(plugin: str) -> None:
    result = run_tournament("classic-canasta", 2, [f"{plugin}:make", "random"], deals=2,
                            seed=1, workers=1)
    assert result.results[0].hands == 4 and all(d.error is None for d in result.deal_results)


def test_bad_plugin_specs(plugin: str) -> None:
    with pytest.raises(OptionsError, match="cannot import"):
        make_bot("nosuch.module:make", "classic-canasta")
    with pytest.raises(OptionsError, match="no bot factory"):
        make_bot(f"{plugin}:nothing", "classic-canasta")
    with pytest.raises(OptionsError, match="needs the model's path"):
        make_bot("meldhall.rl.policy_bot:maskable_ppo", "classic-canasta")
