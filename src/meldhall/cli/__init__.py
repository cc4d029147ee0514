"""The ``meldhall`` command (typer + rich): play, simulate, replay, rules, serve.

``main()`` is the console script declared in pyproject.toml; ``app`` is the typer
application (tests drive it with ``typer.testing.CliRunner``).
"""

from __future__ import annotations

from meldhall.cli import hint as _hint  # noqa: F401  (registers the commands)
from meldhall.cli import play as _play  # noqa: F401
from meldhall.cli import replay as _replay  # noqa: F401
from meldhall.cli import rules as _rules  # noqa: F401
from meldhall.cli import serve as _serve  # noqa: F401
from meldhall.cli import simulate as _simulate  # noqa: F401
from meldhall.cli import tournament as _tournament  # noqa: F401
from meldhall.cli.app import app

__all__ = ["app", "main"]


def main() -> None:
    """Run the ``meldhall`` command."""
    app(prog_name="meldhall")
