"""Shanghai Rummy's one-way imports: the state does not import its observation, action-id or
position modules (they import it and set its links in ``_links``), and the state's methods
that reach them work whichever module of the package is imported first."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import meldhall.games.shanghai.state as state_module

ABOVE_STATE = ("observation", "action_ids", "position")


def _imported_modules(tree: ast.Module) -> set[str]:
    """Every module named by an import statement, except under ``if TYPE_CHECKING:``."""
    out: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and ast.unparse(child.test).endswith("TYPE_CHECKING"):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import):
                out.update(a.name for a in child.names)
            elif isinstance(child, ast.ImportFrom) and child.module:
                out.add(child.module)
                out.update(f"{child.module}.{a.name}" for a in child.names)
            visit(child)

    visit(tree)
    return out


def test_state_imports_nothing_layered_above_it() -> None:
    tree = ast.parse(Path(state_module.__file__).read_text(encoding="utf-8"))
    names = _imported_modules(tree)
    for mod in ABOVE_STATE:
        assert f"meldhall.games.shanghai.{mod}" not in names, mod


def test_importing_only_the_state_module_wires_its_links() -> None:
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
