"""Inside each game package the imports run one way (docs/architecture.md, "Layering inside
each game package"): the state imports none of the modules built on it (its observation,
scoring, position and action-id modules import the state); the package ``__init__`` ties in
what the state's own methods call.  Importing only the state module still gives a state that
observes, scores and numbers its actions."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import meldhall

SRC = Path(meldhall.__file__).parent
#: game package -> the modules layered above its state
ABOVE_STATE = {
    "classic_canasta": ("observation", "scoring", "position"),
    "railroad_canasta": ("observation", "scoring", "position"),
    "shanghai": ("observation", "action_ids", "position"),
}


def _imported_modules(tree: ast.AST) -> set[str]:
    """Every module an ``import`` names, at any depth, except under ``if TYPE_CHECKING:``."""
    out: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and ast.unparse(child.test).endswith("TYPE_CHECKING"):
                for stmt in child.orelse:
                    visit(stmt)
                continue
            if isinstance(child, ast.Import):
                out.update(a.name for a in child.names)
            elif isinstance(child, ast.ImportFrom) and child.module:
                out.add(child.module)
                out.update(f"{child.module}.{a.name}" for a in child.names)
            visit(child)

    visit(tree)
    return out


@pytest.mark.parametrize("package", sorted(ABOVE_STATE))
def test_state_imports_none_of_the_modules_built_on_it(package: str) -> None:
    tree = ast.parse((SRC / "games" / package / "state.py").read_text(encoding="utf-8"))
    names = _imported_modules(tree)
    for module in ABOVE_STATE[package]:
        assert f"meldhall.games.{package}.{module}" not in names, module


CANASTA_PLAYERS = {"classic_canasta": 4, "railroad_canasta": 3}


@pytest.mark.parametrize("package", sorted(CANASTA_PLAYERS))
def test_importing_only_the_canasta_state_module_observes_and_scores(package: str) -> None:
    """A fresh interpreter that imports nothing but the state module plays a hand to its
    score and takes an observation."""
    code = f"""
import random
from meldhall.games.{package}.state import new_game
s = new_game({CANASTA_PLAYERS[package]}, seed=5)
rng = random.Random(1)
while s.outcome is None:
    s = s.apply(rng.choice(s.legal_actions()))
obs = s.observation(0)
assert type(obs).__module__ == "meldhall.games.{package}.observation", type(obs)
assert obs.to_json()["outcome"]["results"]
print("ok")
"""
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=300, check=False)
    assert p.returncode == 0 and p.stdout.strip() == "ok", p.stderr


def test_importing_only_the_shanghai_state_module_wires_its_links() -> None:
    code = (
        "import meldhall.games.shanghai.state as st\n"
        "s = st.new_game(4, seed=3)\n"
        "o = s.observation(1)\n"
        "assert type(o).__name__ == 'ShanghaiObservation', o\n"
        "a = s.legal_actions()[-1]\n"
        "assert s.action_from_id(s.action_id(a)) == a\n"
        "assert s.num_distinct_actions > s.action_id(a)\n"
        "assert s == st.new_game(4, seed=3) and s != st.new_game(4, seed=4)\n"
        "import meldhall\n"
        "assert meldhall.dump_position(s)['game'] == 'shanghai-rummy'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
