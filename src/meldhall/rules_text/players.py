"""The players' rules: each game's rules as a player reads them, derived from the specification.

The specification (``classic-canasta.md`` …, the text :func:`meldhall.rules_text.rules_text`
returns) is written for the developers: it names its seed documents, audits them, and follows
each rule with ``[seed: …]`` citations, the seed's words in parentheses and ``[decision: …]``
notes on why the rule is what it is.  :func:`player_rules` derives the players' text from it,
every time, so that the two can never disagree:

* the title says "rules", not "rules specification", and a paragraph on rule IDs (how
  ``meldhall rules`` shows one) follows it; the seed list, the pointer to the specification's
  conventions and the seed audit (section 0) are left out;
* from every rule, table and edge case the ``[seed: …]`` tags are removed together with the
  seed's words in parentheses that follow them, and the ``[decision: …]`` notes (among them the
  "amended after review" notes) are removed; so are the remarks in parentheses that speak of
  the seed ("(seed example)"), and the name of the default ``wild_ratio`` (``"seed"``) in the
  house-rules table, which describes that default by its content anyway;
* a rule that a house rule changes ends with a sentence saying so: the options named in its
  decision notes or in the *Affects* column of the house-rules table, unless the rule already
  names them;
* "Configurable house rules" becomes "House rules", with a sentence on how to set them, and
  "Edge cases an implementation must handle" becomes "Edge cases"; the card notation and seat
  numbering of the specification's ``README.md`` close the text.

Rule IDs, sections, worked examples, tables and edge cases are kept as they are.  The few
passages that the removal alone would leave unclear (Railroad Canasta's opening, which speaks of
its seeds, two Shanghai Rummy rules whose decision notes say how they are played, and the card
notation, which the specification writes for the developers) are written by hand in
``hand_written/GAME.md``.  Each of them records a fingerprint of the specification text it was
written from and is used only while that text is unchanged; when it changes, the derived text is
used instead and ``tests/rules/test_player_rules.py`` fails until the passage is written again,
so a change of the specification always reaches the players.

The specification also speaks to the developers within rules whose content is for everybody
("an implementation supports 2 to 8 players", "the engine offers …", deck indices).  Such a
sentence is said as a player reads it by a **sentence rewrite**, also in
``hand_written/GAME.md``: the block it belongs to (a rule ID, or ``edge_cases``), the spec's
sentence as it reads without its notes (line breaks do not matter) and the players' sentence
(:class:`Rewrite`).  Only that sentence is replaced; the rest of the block is derived as usual.
The spec's sentence is its own fingerprint: when the specification changes it, the rewrite finds
nothing to replace, the players read the new spec sentence, and the tests fail (the sentence is
not found, and the players' text speaks as a developer again) until the rewrite is written again.
"""

from __future__ import annotations

import hashlib
import re
import textwrap
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable
from importlib import resources

from meldhall.rules_text.spec import RULE_FILES, rules_text

__all__ = ["Block", "EDGE_CASES_HEADING", "HOUSE_RULES_HEADING", "HouseRule", "Override",
           "Rewrite", "apply_rewrites", "convention_blocks", "derive", "fingerprint",
           "house_rule_note", "house_rules", "in_players_words", "option_labels", "overrides",
           "player_rules", "rewrites", "spec_blocks", "strip_annotations"]

HOUSE_RULES_HEADING = "## House rules"
EDGE_CASES_HEADING = "## Edge cases"

_RULE_START = re.compile(r"^\*\*([A-Z]{2}-\d+\.\d+)\*\*")
_SEED_WORD = re.compile(r"\bseeds?\b", re.IGNORECASE)
#: A published source named in a remark (the option values ``"pagat"``, ``"britannica"`` are
#: lower case and stay).
_SOURCE = re.compile(r"\b(?:Pagat|Britannica|Hoyle)\b[:;,]?\s*")
_TAG_START = re.compile(r"\[(seed|decision):")
_LETTERED = re.compile(r"\([a-z]\) ")
#: An option named in a decision note: `name` or `name = value`.
_OPTION_REF = re.compile(r"`([a-z][a-z0-9_]*)(?:\s*=[^`]*)?`")


# ------------------------------------------------------------------------------ blocks
@dataclass(frozen=True)
class Block:
    """A piece of the specification: ``kind`` is ``title``, ``preamble``, ``audit``, ``rule``
    (``key`` = its ID), ``heading``, ``text`` (anything else inside a section), ``rule_line``
    (``---``), ``house_rules`` or ``edge_cases``; or, from the specification's README,
    ``conventions`` (:func:`convention_blocks`)."""

    kind: str
    key: str
    text: str

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.text)


def fingerprint(text: str) -> str:
    """The first 12 hex digits of the SHA-256 of ``text`` (trailing blank lines ignored)."""
    return hashlib.sha256(text.strip().encode("utf-8")).hexdigest()[:12]


def spec_blocks(spec: str) -> list[Block]:
    """Cut a rules specification into its blocks, in order (their texts join back to it)."""
    lines = spec.splitlines()
    blocks: list[Block] = []
    i = 0

    def take(kind: str, key: str, start: int, end: int) -> None:
        blocks.append(Block(kind, key, "\n".join(lines[start:end])))

    if lines and lines[0].startswith("# "):
        take("title", "title", 0, 1)
        i = 1
    start = i
    while i < len(lines) and lines[i].strip() != "---":
        i += 1
    take("preamble", "preamble", start, i)
    while i < len(lines):
        line = lines[i]
        if line.strip() == "---":
            take("rule_line", "---", i, i + 1)
            i += 1
            continue
        if line.startswith("## 0. "):
            start = i
            i += 1
            while i < len(lines) and lines[i].strip() != "---":
                i += 1
            take("audit", "audit", start, i)
            continue
        if line.startswith("## Configurable house rules") or line.startswith("## Edge cases"):
            kind = "house_rules" if "house rules" in line else "edge_cases"
            start = i
            i += 1
            while i < len(lines) and not lines[i].startswith("## ") and lines[i].strip() != "---":
                i += 1
            take(kind, kind, start, i)
            continue
        if line.startswith("#"):
            take("heading", line, i, i + 1)
            i += 1
            continue
        m = _RULE_START.match(line)
        start = i
        i += 1
        while i < len(lines) and not (_RULE_START.match(lines[i]) or lines[i].startswith("#")
                                      or lines[i].strip() == "---"):
            i += 1
        take("rule" if m else "text", m.group(1) if m else "text", start, i)
    return blocks


# ------------------------------------------------------------------------------ removal
def _close(text: str, start: int, open_: str, close: str) -> int:
    """Index just past the bracket that closes the one at ``start``."""
    depth = 0
    for j in range(start, len(text)):
        if text[j] == open_:
            depth += 1
        elif text[j] == close:
            depth -= 1
            if depth == 0:
                return j + 1
    raise ValueError(f"unbalanced {open_!r} in the rules text: {text[start:start + 80]!r}")


def _skip_space(text: str, j: int) -> int:
    """Past spaces and at most one line break (never a blank line)."""
    k = j
    while k < len(text) and text[k] in " \t":
        k += 1
    if k < len(text) and text[k] == "\n":
        k2 = k + 1
        while k2 < len(text) and text[k2] in " \t":
            k2 += 1
        if k2 < len(text) and text[k2] != "\n":
            return k2
    return k


def _join(left: str, right: str) -> str:
    """Join the text around a removed piece, leaving one space or line break where needed."""
    left = left.rstrip(" \t")
    if left.endswith("\n") or not left:
        if right.startswith("\n") and left:
            right = right[1:]
        return left + right.lstrip(" \t")
    stripped = right.lstrip(" \t")
    if not stripped or stripped[0] in "\n.,;:)":
        return left + stripped
    return left + " " + stripped


def strip_annotations(text: str) -> tuple[str, list[str]]:
    """``text`` without its ``[seed: …]`` tags (and the seed's words in parentheses after
    them) and ``[decision: …]`` notes; also returns the decision notes removed."""
    notes: list[str] = []
    while True:
        m = _TAG_START.search(text)
        if not m:
            break
        start = m.start()
        end = _close(text, start, "[", "]")
        if m.group(1) == "decision":
            notes.append(" ".join(text[start + len("[decision:"):end - 1].split()))
        else:
            # further seed tags and one parenthesis that quotes or paraphrases the seed
            while True:
                k = _skip_space(text, end)
                if text.startswith("[seed:", k):
                    end = _close(text, k, "[", "]")
                    continue
                if text.startswith("(", k) and not _LETTERED.match(text, k):
                    end = _close(text, k, "(", ")")
                break
        left, right = text[:start], text[end:]
        if _PARAGRAPH_END.match(right):
            left = _full_stop(left)
        text = _join(left, right)
    return _drop_seed_remarks(text), notes


#: What follows a note that ends its paragraph.
_PARAGRAPH_END = re.compile(r"[ \t]*(\n[ \t]*\n|\n?$)")


def _full_stop(left: str) -> str:
    """A sentence whose last words were followed by a removed note ends with a full stop
    ("… 13 each with six players [decision: …]")."""
    body = left.rstrip()
    last_line = body.rsplit("\n", 1)[-1].lstrip()
    core = body.rstrip("*_`\"”)")
    if (core and core[-1].isalnum() and not last_line.startswith(("|", "#"))):
        return body + "."
    return left


def _drop_seed_remarks(text: str) -> str:
    """Remarks in parentheses about the seed: the clauses that speak of it are dropped, and the
    parenthesis with them when nothing else is left ("(seed example)", "(seed)")."""
    out = []
    i = 0
    while True:
        j = text.find("(", i)
        if j < 0:
            out.append(text[i:])
            break
        end = _close(text, j, "(", ")")
        inner = text[j + 1:end - 1]
        if _SOURCE.search(inner):
            # "(Pagat)", "(Pagat: stays on top, …)", "(Britannica; still no discard)": the
            # source's name goes, what it says stays
            inner = _SOURCE.sub("", inner).strip()
            before = text[i:j]
            out.append(before + "(" + inner + ")" if inner else before.rstrip(" "))
            i = end
            continue
        if not _SEED_WORD.search(inner):
            out.append(text[i:j + 1])
            i = j + 1
            continue
        kept = _drop_clauses(inner)
        before = text[i:j]
        if kept:
            out.append(before + "(" + kept + ")")
        else:
            out.append(before.rstrip(" "))
        i = end
    return "".join(out)


def _drop_clauses(inner: str) -> str:
    parts = []
    for part in inner.split("; "):
        if _SEED_WORD.search(part):
            part = ", ".join(p for p in part.split(", ") if not _SEED_WORD.search(p))
        if part and not _SEED_WORD.search(part):
            parts.append(part)
    return "; ".join(parts)


def _tidy(text: str) -> str:
    lines = []
    for line in text.split("\n"):
        indent = len(line) - len(line.lstrip(" "))
        body = re.sub(r" {2,}", " ", line[indent:]).rstrip()
        body = re.sub(r" +([.,;:])(?=\s|$)", r"\1", body)
        body = body.replace("( ", "(").replace(" )", ")")
        lines.append(" " * indent + body if body else "")
    out = "\n".join(lines)
    out = re.sub(r"\n{3,}", "\n\n", out)
    return out.strip("\n")


#: A line that starts a list item, a lettered item or a table row.
_MARKER = re.compile(r"(\([a-z]\) |[-*] |\d+\. |\|)")
#: A line that starts a Markdown list item.
_LIST_ITEM = re.compile(r"\s*([-*] |\d+\. )")


def _end_lists(text: str) -> str:
    """A blank line between a list and the unindented line that follows it.

    The specification sometimes goes on with its rule right after a list ("- … last item.\n
    A commit that fails …"); Markdown reads such a line as the last item's continuation, so
    the terminal and the web page would show it inside that item."""
    out: list[str] = []
    in_list = False
    for line in text.split("\n"):
        if not line.strip():
            in_list = False
        elif _LIST_ITEM.match(line):
            in_list = True
        elif in_list and not line.startswith((" ", "|", "#")):
            out.append("")
            in_list = False
        out.append(line)
    return "\n".join(out)


def _reflow(text: str, width: int = 96, longest: int = 100) -> str:
    """Re-wrap the lines that removals or additions made longer than ``longest`` characters
    (tables, headings and quotes are left alone; list items keep their indentation)."""
    paras = text.split("\n\n")
    for n, para in enumerate(paras):
        lines = para.split("\n")
        if (all(len(line) <= longest for line in lines)
                or para.lstrip().startswith(("#", ">", "```"))):
            continue
        items: list[list[str]] = []
        for line in lines:
            if not items or _MARKER.match(line.lstrip()) or not line.strip():
                items.append([line])
            else:
                items[-1].append(line)
        out = []
        for item in items:
            first = item[0]
            if all(len(line) <= longest for line in item) or first.lstrip().startswith("|"):
                out.extend(item)
                continue
            indent = first[:len(first) - len(first.lstrip())]
            m = _MARKER.match(first.lstrip())
            if len(item) > 1:
                hang = item[1][:len(item[1]) - len(item[1].lstrip())]
            elif m and not _LETTERED.match(m.group(1)):
                hang = indent + " " * len(m.group(1))     # a list item's continuation
            else:
                hang = indent      # a lettered item "(a) …" is a line of its paragraph
            words = " ".join(line.strip() for line in item)
            # a number ending a sentence ("deal 10.") stays with the word before it: a line
            # opening with "10. " would be read as a numbered list item
            words = re.sub(r" (\d+\.)(?= |$)", "\x00\\1", words)
            out.append(textwrap.fill(words, width=width, initial_indent=indent,
                                     subsequent_indent=hang, break_on_hyphens=False,
                                     break_long_words=False).replace("\x00", " "))
        paras[n] = "\n".join(out)
    return "\n\n".join(paras)


# ------------------------------------------------------------------------------ house rules
@dataclass(frozen=True)
class HouseRule:
    name: str
    default: str
    alternatives: str
    affects: tuple[str, ...]


def _cell(text: str) -> str:
    text, _ = strip_annotations(text)
    # the default Classic Canasta wild-card ratio is named after the seed ("seed"): the
    # players' text describes it by its content only
    text = re.sub(r'`"seed"`:\s*', "", text)
    # the spec's history of a default ("3 (the earlier default: shorter deals)") is for us
    text = re.sub(r"\(the earlier default: ", "(", text)
    return _tidy(text).rstrip(".")


def house_rules(block: Block) -> list[HouseRule]:
    """The rows of a spec's "Configurable house rules" table."""
    rows = []
    for line in block.text.splitlines():
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        name = cells[0].strip("`")
        affects = tuple(re.findall(r"[A-Z]{2}-\d+(?:\.\d+)?", cells[3]))
        rows.append(HouseRule(name, _cell(cells[1]), _cell(cells[2]), affects))
    return rows


_ON_OFF = re.compile(r"^(true|false)\b")


def _choices(rule: HouseRule) -> str:
    """"by default on (…); a table may turn it off (…)" for a switch, "by default X; a table
    may choose Y instead" otherwise: the table's cells in a player's words (no true/false)."""
    d, alt = _ON_OFF.match(rule.default), _ON_OFF.match(rule.alternatives)
    if d and alt:
        on = "on" if d.group(1) == "true" else "off"
        off = "off" if on == "on" else "on"
        rest_d = rule.default[d.end():].strip()
        rest_a = rule.alternatives[alt.end():].strip()
        return (f"by default {on}{' ' + rest_d if rest_d else ''}; a table may turn it "
                f"{off}{' ' + rest_a if rest_a else ''}")
    # the spec's "any" / "…, other" cells name no value: a player reads "another value"
    alt_text = "another value" if rule.alternatives == "any" else re.sub(
        r",\s*other$", " or another value", rule.alternatives)
    return f"by default {rule.default}; a table may choose {alt_text} instead"


def option_labels(game: str) -> tuple[dict[str, str], dict[str, dict[Any, str]]]:
    """The lobby's words for ``game``'s options: ``(LABELS, CHOICE_LABELS)`` of its options
    module (option name -> label; option name -> value -> words); empty for an unknown game."""
    from meldhall.games.classic_canasta import options as classic
    from meldhall.games.railroad_canasta import options as railroad
    from meldhall.games.shanghai import options as shanghai

    module = {"classic-canasta": classic, "railroad-canasta": railroad,
              "shanghai-rummy": shanghai}.get(game)
    if module is None:
        return {}, {}
    return dict(getattr(module, "LABELS", {})), dict(getattr(module, "CHOICE_LABELS", {}))


def _value_words(name: str, raw: str, choices: dict[str, dict[Any, str]]) -> str:
    """An option value as a player reads it: ``true``/``false`` -> on/off, a named value ->
    the lobby's words for it with the value to type (``“left on top …” (`leave`)``)."""
    raw = " ".join(raw.split())
    if raw in ("true", "false"):
        return "on" if raw == "true" else "off"
    value = raw.strip('"')
    words = choices.get(name, {}).get(value)
    if words is not None and raw.startswith('"'):
        # "(value `pagat`)": a bare "(pagat)" read as the name of a source
        return f"“{words}” (value `{value}`)"
    return f"`{raw}`"


def _quoted_values(text: str, name: str, choices: dict[str, dict[Any, str]]) -> str:
    """A house-rules cell's quoted values (`` `"cover"` ``) in the lobby's words."""
    def said(m: re.Match[str]) -> str:
        words = choices.get(name, {}).get(m.group(1))
        return m.group(0) if words is None else f"{words} (value `{m.group(1)}`)"
    # a value the cell explains itself ('`"leave"` (stays on top, …)') keeps that explanation
    def explained(m: re.Match[str]) -> str:
        # the lobby's words where it has them ("clockwise from the player in turn
        # (`next_in_turn`)", which the cell's remark only said again), else the remark
        words = choices.get(name, {}).get(m.group(1))
        if words is None:
            return f"`{m.group(1)}` ({m.group(2)})"
        return f"{words} (value `{m.group(1)}`)"

    text = re.sub(r'`"([a-z_]+)"` \(([^()]*)\)', explained, text)
    return re.sub(r'`"([a-z_]+)"`', said, text)


def in_players_words(text: str, game: str, names: Iterable[str]) -> str:
    """Option references of a rule's text in a player's words (the lobby's labels): ``the
    option `x = "v"``` -> ``the house rule *Label* (`x`) set to “words” (`v`)``, ``
    `x` is true`` -> ``the house rule *Label* (`x`) is on``, `` `x` `` -> ``the house rule
    *Label* (`x`)``.  Only ``names`` (the game's options) are touched; the option name stays
    in code beside its label, as ``--option NAME=VALUE`` is typed."""
    labels, choices = option_labels(game)
    known = [n for n in names if n in labels]
    if not known:
        return text
    alt = "|".join(sorted(map(re.escape, known), key=len, reverse=True))
    # "the `x`" and "the option `x`" become "the house rule …" (never "the the house rule")
    pre = r"(?:the (?:house rule |option )?|(?<=\()option |option )?"

    def rule(name: str) -> str:
        return f"the house rule *{labels[name]}* (`{name}`)"

    # "Under `x = v` the discarder …" -> "With the house rule … set to on, the discarder …"
    def clause(m: re.Match[str], setting: str) -> str:
        # a comma closes the clause, except where a bracket follows: "… set to off
        # (RR-8.2)", not "off, (RR-8.2)"
        comma = "" if m.string.startswith("(", m.end()) else ","
        return f"{'W' if m.group(1) == 'U' else 'w'}ith {rule(m.group(2))} {setting}{comma} "

    text = re.sub(r"\b([Uu])nder\s+`(" + alt + r")\s*=\s*([^`]*)`\s",
                  lambda m: clause(m, "set to " + _value_words(m.group(2), m.group(3), choices)),
                  text)
    # "under `x` a contract …" -> "with the house rule … on, a contract …"
    text = re.sub(r"\b([Uu])nder\s+`(" + alt + r")`\s(?!\()", lambda m: clause(m, "on"), text)
    # "more jokers under `x`)" -> "more jokers under the house rule … (`x`))"
    text = re.sub(r"\b([Uu])nder\s+`(" + alt + r")`",
                  lambda m: f"{m.group(1)}nder {rule(m.group(2))}", text)

    text = re.sub(pre + r"`(" + alt + r")\s*=\s*([^`]*)`",
                  lambda m: f"{rule(m.group(1))} set to "
                            f"{_value_words(m.group(1), m.group(2), choices)}", text)
    text = re.sub(pre + r"`(" + alt + r")` is (true|false)\b",
                  lambda m: f"{rule(m.group(1))} is {'on' if m.group(2) == 'true' else 'off'}",
                  text)
    # (a name already written "*Label* (`x`)" is followed by its bracket: left alone)
    text = re.sub(r"(?<![*])" + pre + r"`(" + alt + r")`(?! \(|\)|`)",
                  lambda m: rule(m.group(1)), text)
    # "whatever the options" -> "whatever the house rules" (the lobby's word)
    text = re.sub(r"\bwhatever the options\b", "whatever the house rules", text)
    # a sentence that now opens with "the house rule" opens with a capital
    return re.sub(r"(^|[.!?]\s+)the house rule", r"\1The house rule", text)


_SEE = "(see *House rules* at the end of the rules)"


def house_rule_note(rules: list[HouseRule], game: str = "") -> str:
    """The closing note of a rule that house rules change: each option (the lobby's label and
    the name to type), its default and the other choices, as the house-rules table gives
    them."""
    labels, choices = option_labels(game)

    def named(r: HouseRule) -> str:
        return f"*{labels[r.name]}* (`{r.name}`)" if r.name in labels else f"`{r.name}`"

    def said(r: HouseRule) -> str:
        return _quoted_values(_choices(r), r.name, choices)

    if len(rules) == 1:
        return f"*House rule:* {named(rules[0])} changes this rule: {said(rules[0])} {_SEE}."
    items = [f"- {named(r)}: {said(r)}." for r in rules]
    return "\n".join([f"*House rules that change this rule* {_SEE}:", *items])


def _house_rules_section(block: Block, game: str = "") -> str:
    """The players' *House rules* section: one list item per option of the spec's table, its
    name as typed on the command line, the rules it changes and its choices in words
    (:func:`_choices`).  A list, not the spec's four-column table, so an 80-column terminal
    never splits an option name or crops a column, and no cell reads ``true``/``false``."""
    intro = ("Every table can change these rules before the game starts: in the web lobby "
             "(*House rules*), or with `--option NAME=VALUE` and `--preset NAME` on `meldhall "
             "play` and `meldhall simulate`. The defaults are the rules above, and every rule that "
             "a house rule changes says so. The lobby shows each option with its default and a "
             "one-line explanation, the values to choose from where there is a fixed set, and the "
             "presets (*Preset*).")
    labels, words = option_labels(game)
    items = []
    for rule in house_rules(block):
        where = f"; {', '.join(rule.affects)}" if rule.affects else ""
        choices = _quoted_values(_choices(rule), rule.name, words)
        head = (f"**{labels[rule.name]}** (`{rule.name}`{where})" if rule.name in labels
                else f"`{rule.name}`" + (f" ({where[2:]})" if where else ""))
        items.append(f"- {head}: {choices[0].upper()}{choices[1:]}.")
    return "\n".join([HOUSE_RULES_HEADING, "", intro, "", *items])


# ------------------------------------------------------------------------------ overrides
@dataclass(frozen=True)
class Override:
    """A hand-written players' passage replacing one block (``key``: ``preamble`` or a rule
    ID), written from the spec block whose fingerprint is ``spec_fingerprint``."""

    key: str
    spec_fingerprint: str
    text: str


_OVERRIDE = re.compile(
    r"^<!-- players: (?P<key>\S+) from spec (?P<fp>[0-9a-f]{12}) -->\n(?P<text>.*?)\n<!-- end -->$",
    re.MULTILINE | re.DOTALL)


def _hand_written(game: str) -> str:
    path = resources.files("meldhall.rules_text").joinpath("hand_written", RULE_FILES[game])
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def overrides(game: str) -> dict[str, Override]:
    """The hand-written passages of ``game`` (``hand_written/GAME.md``), by block key (a rule
    ID, ``preamble``, or a section of the spec's README: ``card-notation``)."""
    found = {}
    for m in _OVERRIDE.finditer(_hand_written(game)):
        found[m.group("key")] = Override(m.group("key"), m.group("fp"), m.group("text").strip())
    return found


@dataclass(frozen=True)
class Rewrite:
    """One sentence of the specification said as a player reads it (``hand_written/GAME.md``).

    Attributes:
        key: the block the sentence is in: a rule ID (``CC-4.1``) or ``edge_cases``.
        spec: the spec's sentence as it reads without its notes (what :func:`strip_annotations`
            leaves); compared word for word, line breaks and runs of spaces aside.
        players: the sentence the players read instead (line breaks do not matter).
    """

    key: str
    spec: str
    players: str

    def pattern(self) -> re.Pattern[str]:
        """``spec`` as a pattern allowing any white space between its words."""
        return re.compile(r"\s+".join(re.escape(w) for w in self.spec.split()))


_REWRITE = re.compile(
    r"^<!-- players: (?P<key>\S+) sentence -->\n(?P<spec>.*?)\n<!-- reads -->\n(?P<text>.*?)\n"
    r"<!-- end -->$", re.MULTILINE | re.DOTALL)


def rewrites(game: str) -> list[Rewrite]:
    """The sentence rewrites of ``game`` (``hand_written/GAME.md``), in file order."""
    return [Rewrite(m.group("key"), " ".join(m.group("spec").split()),
                    " ".join(m.group("text").split()))
            for m in _REWRITE.finditer(_hand_written(game))]


def apply_rewrites(text: str, found: list[Rewrite]) -> tuple[str, list[Rewrite]]:
    """``text`` (one block, notes removed) with each rewrite's sentence replaced; also returns
    the rewrites whose sentence it does not hold exactly once (the spec has changed: those
    sentences stay as the spec has them)."""
    unused = []
    for rw in found:
        matches = list(rw.pattern().finditer(text))
        if len(matches) != 1:
            unused.append(rw)
            continue
        text = text[:matches[0].start()] + rw.players + text[matches[0].end():]
    return text, unused


# ------------------------------------------------------------------------------ the text
def convention_blocks() -> list[Block]:
    """The sections of the specification's README that close the players' text: ``Card
    notation`` and ``Seats`` (kind ``conventions``, key ``card-notation`` / ``seats``)."""
    readme = resources.files("meldhall.rules_text").joinpath("README.md").read_text("utf-8")
    out = []
    for title in ("Card notation", "Seats"):
        m = re.search(rf"^## {title}\n(.*?)(?=^## |\Z)", readme, re.MULTILINE | re.DOTALL)
        if m:
            out.append(Block("conventions", title.lower().replace(" ", "-"), m.group(1)))
    return out


def _conventions(hand_written: dict[str, Override]) -> str:
    """Card notation and seats, from the specification's README (or a hand-written passage)."""
    out = []
    for b in convention_blocks():
        title = "Card notation" if b.key == "card-notation" else "Seats"
        ov = hand_written.get(b.key)
        if ov is not None and ov.spec_fingerprint == b.fingerprint:
            body = ov.text
        else:
            body = _tidy(strip_annotations(b.text)[0])
        out.append(f"### {title}\n\n{body}")
    return "## Card notation and seats\n\n" + "\n\n".join(out)


def _introduction(game: str, blocks: list[Block]) -> str:
    """How to find a rule, opening every game's players' text (the example is the first rule
    of section 8)."""
    ids = [b.key for b in blocks if b.kind == "rule"]
    example = next((r for r in ids if ".".join(r.split("-")[1:]).startswith("8.")), ids[0])
    prefix, number = example.split("-")
    section, rule = number.split(".")
    return (f"Every rule has an ID: {example} is rule {rule} of section {section}. When the "
            f"game refuses a move it names the rule that decides, and `meldhall rules {game} "
            f"{example}` shows that rule (`meldhall rules {game} {prefix}-{section}` the whole "
            "section); at the web table the rule IDs are links. The rule IDs of this game all "
            f"begin with {prefix}. Card notation and seat numbers are explained at the end.")


def derive(spec: str, game: str, hand_written: dict[str, Override] | None = None,
           sentences: list[Rewrite] | None = None) -> str:
    """The players' text of one specification (see the module's docstring): ``hand_written``
    passages by block key (:func:`overrides`) and ``sentences`` rewritten (:func:`rewrites`)."""
    hand_written = hand_written or {}
    by_block: dict[str, list[Rewrite]] = {}
    for rw in sentences or []:
        by_block.setdefault(rw.key, []).append(rw)

    def said_for_players(key: str, text: str) -> str:
        return apply_rewrites(text, by_block.get(key, []))[0]

    blocks = spec_blocks(spec)
    table = next((b for b in blocks if b.kind == "house_rules"), None)
    options = {r.name: r for r in house_rules(table)} if table else {}
    parts: list[str] = []
    for b in blocks:
        ov = hand_written.get(b.key)
        if ov is not None and ov.spec_fingerprint == b.fingerprint:
            parts.append(in_players_words(ov.text, game, options))
            continue
        if b.kind == "title":
            parts.append(re.sub(r" — rules specification$", " — rules", b.text))
            parts.append(_introduction(game, blocks))
        elif b.kind == "preamble":
            parts.append(_preamble(b.text))
        elif b.kind == "audit":
            if parts and parts[-1] == "---":
                parts.pop()           # the audit's own rule line goes with it
        elif b.kind == "rule":
            text, notes = strip_annotations(b.text)
            text = said_for_players(b.key, _tidy(text))
            named = []
            for note in notes:
                named += [n for n in _OPTION_REF.findall(note) if n in options]
            named += [r.name for r in options.values() if b.key in r.affects]
            changing = [options[n] for n in dict.fromkeys(named) if f"`{n}" not in text]
            text = in_players_words(text, game, options)
            parts.append(text + ("\n\n" + house_rule_note(changing, game) if changing else ""))
        elif b.kind == "house_rules":
            parts.append(_house_rules_section(b, game))
        elif b.kind == "edge_cases":
            text = said_for_players(b.key, _tidy(strip_annotations(b.text)[0]))
            text = in_players_words(text, game, options)
            parts.append(EDGE_CASES_HEADING + text[text.index("\n"):])
        elif b.kind == "rule_line":
            parts.append("---")
        else:
            text = _tidy(strip_annotations(b.text)[0])
            if text:
                parts.append(text)
    parts.append(_conventions(hand_written))
    text = "\n\n".join(p.strip("\n") for p in parts if p.strip())
    return _reflow(_end_lists(text)) + "\n"


def _preamble(text: str) -> str:
    """The opening paragraphs without the seed list and the pointer to the spec's README."""
    paras = [p for p in re.split(r"\n\s*\n", text.strip()) if p.strip()]
    kept = []
    skip_list = False
    for p in paras:
        if p.startswith("Rule prefix:") or re.match(r"Seeds? for this game", p):
            skip_list = p.startswith("Seed")
            continue
        if skip_list and p.lstrip().startswith("- "):
            continue
        skip_list = False
        kept.append(_tidy(strip_annotations(p)[0]))
    return "\n\n".join(kept)


@lru_cache(maxsize=None)
def player_rules(game: str) -> str:
    """The players' rules of ``game`` (Markdown), derived from :func:`rules_text`.

    Raises:
        OptionsError: no rules for that game name.
    """
    return derive(rules_text(game), game, overrides(game), rewrites(game))
