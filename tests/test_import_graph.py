"""One-way imports: no import circle inside ``src/meldhall``.

The checker parses every module of the package with :mod:`ast` (nothing is imported) and
builds the graph of imports between modules of the package:

* every ``import`` and ``from ... import`` statement anywhere in a module counts, at module
  level or inside a function, a class or a ``try``;
* relative imports are resolved against the importing module's package;
* ``from pkg import name`` is an edge to the submodule ``pkg.name`` when there is one, else to
  ``pkg`` (``import a.b.c`` is an edge to ``a.b.c``, or to its longest prefix that is a module);
* imports under ``if TYPE_CHECKING:`` (or ``if typing.TYPE_CHECKING:``) are left out: they never
  run; their ``else:`` branch counts.

A cycle is a strongly connected component of more than one module, or a module that imports
itself.  (Every module is trivially a component of its own; that alone is no cycle.)  The
failure lists each cycle with the import statements that close it, file and line.
"""

from __future__ import annotations

import ast
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"


@dataclass(frozen=True)
class Edge:
    """One import of ``target`` by ``source`` at ``path:line`` (``path`` relative to the root)."""

    source: str
    target: str
    path: str
    line: int


def module_names(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` under ``root`` (the folder holding it): dotted name -> file.

    A package's ``__init__.py`` is named after the package."""
    names: dict[str, Path] = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_nodes(node: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement under ``node``, skipping the bodies of ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []
    stack: list[ast.AST] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Import, ast.ImportFrom)):
            found.append(n)
            continue
        if isinstance(n, ast.If) and _is_type_checking(n.test):
            stack.extend(n.orelse)
            continue
        stack.extend(ast.iter_child_nodes(n))
    return sorted(found, key=lambda n: (n.lineno, n.col_offset))


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """``name`` or its longest prefix that is a module of the package, else ``None``."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def import_edges(root: Path, package: str) -> list[Edge]:
    """The import graph of ``package`` (see the module docstring), as a list of edges."""
    modules = module_names(root, package)
    edges: list[Edge] = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        rel = path.relative_to(root).as_posix()
        for node in _import_nodes(tree):
            targets: list[str | None] = []
            if isinstance(node, ast.Import):
                targets = [_known(alias.name, modules) for alias in node.names]
            else:
                if node.level:
                    base = name.split(".") if is_package else name.split(".")[:-1]
                    if node.level > 1:
                        base = base[: len(base) - (node.level - 1)]
                    origin = ".".join(base + ([node.module] if node.module else []))
                else:
                    origin = node.module or ""
                for alias in node.names:
                    sub = f"{origin}.{alias.name}"
                    targets.append(sub if sub in modules else _known(origin, modules))
            for target in dict.fromkeys(targets):
                if target is not None:
                    edges.append(Edge(name, target, rel, node.lineno))
    return edges


def strongly_connected(nodes: list[str], edges: list[Edge]) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative), each sorted; in no set order."""
    succ: dict[str, list[str]] = {n: [] for n in nodes}
    for e in edges:
        succ.setdefault(e.source, []).append(e.target)
        succ.setdefault(e.target, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    for start in succ:
        if start in index:
            continue
        work: list[tuple[str, int]] = [(start, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = len(index)
                stack.append(v)
                on_stack.add(v)
            if i < len(succ[v]):
                work.append((v, i + 1))
                w = succ[v][i]
                if w not in index:
                    work.append((w, 0))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                comp: list[str] = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                components.append(sorted(comp))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    return components


def find_cycles(root: Path, package: str) -> list[tuple[list[str], list[Edge]]]:
    """Each import cycle of ``package``: its modules (sorted) and the edges among them.

    Sorted by their first module."""
    edges = import_edges(root, package)
    nodes = list(module_names(root, package))
    cycles = []
    for comp in strongly_connected(nodes, edges):
        members = set(comp)
        inner = [e for e in edges if e.source in members and e.target in members]
        if len(comp) > 1 or inner:  # a lone module counts only when it imports itself
            cycles.append((comp, inner))
    return sorted(cycles, key=lambda c: c[0])


def describe(cycles: list[tuple[list[str], list[Edge]]]) -> str:
    """A report: one paragraph per cycle, with the imports that close it."""
    out = [f"{len(cycles)} import cycle(s) inside the package:"]
    for comp, inner in cycles:
        out.append(f"\n* {len(comp)} module(s): {' <-> '.join(comp)}")
        for e in inner:
            out.append(f"    {e.source} imports {e.target}  ({e.path}:{e.line})")
    return "\n".join(out)


# ---------------------------------------------------------------------- the real package
def test_meldhall_has_no_import_cycle() -> None:
    cycles = find_cycles(SRC, "meldhall")
    if cycles:
        pytest.fail(describe(cycles), pytrace=False)


def test_the_graph_of_meldhall_is_read() -> None:
    """Guard against a vacuous pass: the walk sees known imports of every kind."""
    modules = module_names(SRC, "meldhall")
    assert {"meldhall", "meldhall.game", "meldhall.bots", "meldhall.bots.ismcts",
            "meldhall.cli.render"} <= set(modules)
    pairs = {(e.source, e.target) for e in import_edges(SRC, "meldhall")}
    assert ("meldhall.bots.ismcts", "meldhall.bots.staging") in pairs  # module level
    assert ("meldhall.bots", "meldhall.bots.ismcts") in pairs  # inside a function
    assert ("meldhall.cli.shanghai_table", "meldhall.cli.render") in pairs  # from pkg import mod
    assert len(pairs) > 100


# ---------------------------------------------------------------------- the checker itself
def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


_ACYCLIC = {
    "pkg/__init__.py": "from pkg.core import VALUE\n",
    "pkg/core.py": "VALUE = 1\n",
    "pkg/types.py": "class T: ...\n",
    "pkg/sub/__init__.py": "",
    "pkg/sub/a.py": """\
        from __future__ import annotations
        from typing import TYPE_CHECKING
        import os
        from .. import core
        from . import b
        if TYPE_CHECKING:
            from pkg.sub.c import C  # never runs: not an edge
        """,
    "pkg/sub/b.py": """\
        import pkg.types
        def f():
            from pkg.core import VALUE
            return VALUE
        """,
    "pkg/sub/c.py": """\
        import typing
        if typing.TYPE_CHECKING:
            from pkg.sub.a import os
        else:
            from pkg import types
        class C: ...
        """,
}


def test_checker_reads_every_kind_of_import(tmp_path: Path) -> None:
    _write(tmp_path, _ACYCLIC)
    pairs = {(e.source, e.target) for e in import_edges(tmp_path, "pkg")}
    assert pairs == {
        ("pkg", "pkg.core"),
        ("pkg.sub.a", "pkg.core"),  # relative, two levels, `from .. import module`
        ("pkg.sub.a", "pkg.sub.b"),  # relative, `from . import module`
        ("pkg.sub.b", "pkg.types"),  # plain `import a.b`
        ("pkg.sub.b", "pkg.core"),  # inside a function
        ("pkg.sub.c", "pkg.types"),  # the else branch of TYPE_CHECKING runs
    }


def test_checker_passes_a_package_without_cycle(tmp_path: Path) -> None:
    _write(tmp_path, _ACYCLIC)
    assert find_cycles(tmp_path, "pkg") == []


def test_checker_finds_cycles(tmp_path: Path) -> None:
    _write(tmp_path, {
        **_ACYCLIC,
        # core -> sub.c -> sub.a -> (sub.b ->) core, closed by a function-level relative import
        "pkg/core.py": "VALUE = 1\ndef g():\n    from .sub.c import C\n    return C\n",
        "pkg/sub/c.py": "from pkg.sub import a\nclass C: ...\n",
        # a two-module cycle: package and submodule
        "pkg/loop/__init__.py": "from pkg.loop.inner import X\n",
        "pkg/loop/inner.py": "X = 1\ndef h():\n    import pkg.loop\n",
        # a module importing itself
        "pkg/selfish.py": "import pkg.selfish\n",
    })
    cycles = find_cycles(tmp_path, "pkg")
    assert [comp for comp, _ in cycles] == [
        ["pkg.core", "pkg.sub.a", "pkg.sub.b", "pkg.sub.c"],
        ["pkg.loop", "pkg.loop.inner"],
        ["pkg.selfish"],
    ]
    report = describe(cycles)
    assert "3 import cycle(s)" in report
    assert "pkg.core imports pkg.sub.c  (pkg/core.py:3)" in report
    assert "pkg.sub.c imports pkg.sub.a  (pkg/sub/c.py:1)" in report
    assert "pkg.loop.inner imports pkg.loop  (pkg/loop/inner.py:3)" in report
    assert "pkg.selfish imports pkg.selfish  (pkg/selfish.py:1)" in report
