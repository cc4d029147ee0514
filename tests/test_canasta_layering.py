"""Inside each canasta game package the imports run one way: the state imports neither its
observation, scoring nor position module (they import it); the package ``__init__`` ties in
the observation class and the scorer the state calls.  Importing only the state module still
gives a state that observes and scores (docs/architecture.md, "Game packages")."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import meldhall

GAMES = {"classic_canasta": 4, "railroad_canasta": 3}
SRC = Path(meldhall.__file__).parent


def _imported_modules(tree: ast.AST) -> set[str]:
    """Every module an ``import`` names, at any depth, except under ``if TYPE_CHECKING:``."""
    out: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and getattr(child.test, "id", None) == "TYPE_CHECKING":
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


@pytest.mark.parametrize("package", sorted(GAMES))
def test_state_imports_none_of_the_modules_built_on_it(package: str) -> None:
    tree = ast.parse((SRC / "games" / package / "state.py").read_text(encoding="utf-8"))
    names = _imported_modules(tree)
    for module in ("observation", "scoring", "position"):
        assert f"meldhall.games.{package}.{module}" not in names


@pytest.mark.parametrize("package", sorted(GAMES))
def test_importing_only_the_state_module_observes_and_scores(package: str) -> None:
    """A fresh interpreter that imports nothing but the state module plays a hand to its
    score and takes an observation."""
    code = f"""
import random
from meldhall.games.{package}.state import new_game
s = new_game({GAMES[package]}, seed=5)
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
