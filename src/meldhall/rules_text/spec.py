"""The annotated rules specifications shipped in this package, read as they are.

The bottom of ``meldhall.rules_text``: :mod:`meldhall.rules_text.players` derives the players'
text from what this module reads, and the package imports both (so imports run one way).
"""

from __future__ import annotations

from importlib import resources

from meldhall.errors import OptionsError

__all__ = ["RULE_FILES", "RULE_PREFIXES", "rules_text"]

#: Game name -> rules file (games whose engine is still to come have their rules here too).
RULE_FILES: dict[str, str] = {
    "classic-canasta": "classic-canasta.md",
    "railroad-canasta": "railroad-canasta.md",
    "shanghai-rummy": "shanghai-rummy.md",
}
#: Game name -> rule ID prefix.
RULE_PREFIXES: dict[str, str] = {
    "classic-canasta": "CC",
    "railroad-canasta": "RR",
    "shanghai-rummy": "SH",
}


def rules_text(game: str) -> str:
    """The whole rules file of ``game`` (Markdown).

    Raises:
        OptionsError: no rules for that game name.
    """
    if game not in RULE_FILES:
        raise OptionsError(f"no rules for {game!r}; rules exist for: {', '.join(RULE_FILES)}")
    path = resources.files("meldhall.rules_text").joinpath(RULE_FILES[game])
    return path.read_text(encoding="utf-8")
