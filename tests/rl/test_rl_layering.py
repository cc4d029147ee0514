"""``meldhall.rl`` is a layer on top: no other module of the package imports it."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "meldhall"


def test_nothing_imports_the_rl_package() -> None:
    offenders = []
    for path in SRC.rglob("*.py"):
        if (SRC / "rl") in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            if any(n == "meldhall.rl" or n.startswith("meldhall.rl.") for n in names):
                offenders.append(f"{path.relative_to(SRC)}:{node.lineno}")
    assert not offenders, offenders
