"""The rules specifications, shipped inside the package (copies of ``docs/rules/*.md``), and
the players' rules derived from them.

``docs/rules/`` is the documentation copy; ``tests/test_cli.py`` checks that both copies are
identical.  :func:`rules_text` reads a game's file (the annotated specification, for the
developers: seed citations, audit, decision notes), :func:`player_rules` gives the same rules as
a player reads them (:mod:`meldhall.rules_text.players` says how it is derived), and
:func:`find_rule` finds one rule or section by ID in either.
"""

from __future__ import annotations

import re

from meldhall.errors import OptionsError
from meldhall.rules_text.players import player_rules as _derive_player_rules
from meldhall.rules_text.spec import RULE_FILES, RULE_PREFIXES, rules_text

__all__ = ["RULE_FILES", "RULE_PREFIXES", "find_rule", "game_of_rule", "player_rules",
           "rule_ids", "rules_text"]

_RULE_START = re.compile(r"^\*\*([A-Z]{2}-\d+\.\d+)\*\*")
_SECTION = re.compile(r"^## (\d+)\. ")


def player_rules(game: str) -> str:
    """The players' rules of ``game`` (Markdown): the specification without its seed
    citations, audit and decision notes, with the house rules that change a rule named at it.

    Raises:
        OptionsError: no rules for that game name.
    """
    return _derive_player_rules(game)


def _text(game: str, players: bool) -> str:
    return player_rules(game) if players else rules_text(game)


def game_of_rule(rule_id: str) -> str | None:
    """The game whose rule IDs carry the prefix of ``rule_id`` (``"RR-8.2"`` -> Railroad)."""
    prefix = rule_id.strip().upper()[:2]
    return next((g for g, p in RULE_PREFIXES.items() if p == prefix), None)


def rule_ids(game: str, *, players: bool = False) -> list[str]:
    """Every rule ID of ``game`` in file order (``CC-1.1`` …), of the specification or (with
    ``players``) of the players' rules; the two lists are the same."""
    out = []
    for line in _text(game, players).splitlines():
        m = _RULE_START.match(line)
        if m:
            out.append(m.group(1))
    return out


def normalize_rule_id(game: str, rule_id: str) -> str:
    """``cc-8.5`` / ``8.5`` / ``CC 8.5`` -> ``CC-8.5``; ``8`` or ``CC-8`` -> ``CC-8``."""
    prefix = RULE_PREFIXES.get(game, "")
    t = rule_id.strip().upper().replace(" ", "-")
    if t and t[0].isdigit():
        t = f"{prefix}-{t}"
    return t


def find_rule(game: str, rule_id: str, *, players: bool = False) -> str:
    """The Markdown of one rule or of one section, from the specification or (with
    ``players``) from the players' rules.

    A rule runs from its paragraph (``**CC-8.5** …``) to the next rule, heading or rule line, so
    it keeps its lists, tables and citations (in the players' rules: its house-rule note); a
    section (``CC-8``) is the whole of ``## 8. …``.

    Raises:
        OptionsError: unknown game, malformed or unknown rule ID (the message says which IDs
            exist nearby).
    """
    text = _text(game, players)
    rid = normalize_rule_id(game, rule_id)
    prefix = RULE_PREFIXES[game]
    m = re.fullmatch(rf"{prefix}-(\d+)(?:\.(\d+))?", rid)
    if not m:
        raise OptionsError(
            f"{rule_id!r} is not a rule ID of {game}: expected e.g. {prefix}-8.5 or {prefix}-8")
    lines = text.splitlines()
    if m.group(2) is None:
        section = m.group(1)
        start = None
        for i, line in enumerate(lines):
            sm = _SECTION.match(line)
            if start is None and sm and sm.group(1) == section:
                start = i
            elif start is not None and (line.startswith("## ") or line.strip() == "---"):
                return "\n".join(lines[start:i]).strip() + "\n"
        if start is not None:
            return "\n".join(lines[start:]).strip() + "\n"
        raise OptionsError(f"{game} has no section {rid}")
    for i, line in enumerate(lines):
        rm = _RULE_START.match(line)
        if rm and rm.group(1) == rid:
            j = i + 1
            while j < len(lines) and not (_RULE_START.match(lines[j])
                                          or lines[j].startswith("#")
                                          or lines[j].strip() == "---"):
                j += 1
            return "\n".join(lines[i:j]).strip() + "\n"
    same = [r for r in rule_ids(game) if r.startswith(f"{prefix}-{m.group(1)}.")]
    hint = (f"; section {prefix}-{m.group(1)} has {same[0]} to {same[-1]}" if same
            else f"; see 'meldhall rules {game}' for every rule")
    raise OptionsError(f"{game} has no rule {rid}{hint}")
