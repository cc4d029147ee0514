"""The players' rules for the web: Markdown to HTML, with every rule ID a link.

``GET /api/rules/{game}`` and ``GET /api/rules/{game}/{rule_id}`` (see :mod:`meldhall.server.app`)
answer with :func:`rules_json` or, with ``?format=html``, the page of :func:`rules_page`.  The
Markdown is the players' text of :func:`meldhall.rules_text.player_rules`; it is rendered with
raw HTML disabled, so the page holds nothing but the rules, and it has no script at all.
"""

from __future__ import annotations

import html
import re
from functools import lru_cache
from typing import Any
from urllib.parse import quote

from markdown_it import MarkdownIt
from markdown_it.token import Token

from meldhall.rules_text import (
    RULE_PREFIXES,
    find_rule,
    game_of_rule,
    normalize_rule_id,
    player_rules,
    rule_ids,
)

__all__ = ["rule_url", "rules_json", "rules_page", "table_house_rules"]

_RULE_REF = re.compile(r"\b(?:CC|RR|SH)-\d+(?:\.\d+)?\b")
_RULE_ID = re.compile(r"^[A-Z]{2}-\d+\.\d+$")
_SECTION_HEADING = re.compile(r"^(\d+)\. ")


def rule_url(game: str, rule_id: str | None = None, *, page: bool = True) -> str:
    """The address of a game's players' rules (whole, or one rule), as a page or as JSON."""
    path = f"/api/rules/{quote(game)}" + (f"/{quote(rule_id)}" if rule_id else "")
    return path + ("?format=html" if page else "")


def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")


def _anchor_and_link(tokens: list[Token], game: str, whole: bool) -> None:
    """Give each rule paragraph (``**CC-8.5** …``) and each section heading an ``id``, and turn
    every rule ID in the text into a link: to its anchor on the whole page, otherwise to the
    whole page of its game at that anchor."""
    prefix = RULE_PREFIXES[game]
    for n, tok in enumerate(tokens):
        if tok.type == "heading_open" and n + 1 < len(tokens):
            m = _SECTION_HEADING.match(tokens[n + 1].content)
            if m:
                tok.attrSet("id", f"{prefix}-{m.group(1)}")
            elif tokens[n + 1].content.strip() == "House rules":
                tok.attrSet("id", "house-rules")  # a one-rule page's "see House rules" link
        if tok.type != "inline" or not tok.children:
            continue
        kids = [c for c in tok.children if not (c.type == "text" and not c.content)]
        if (n > 0 and tokens[n - 1].type == "paragraph_open" and len(kids) >= 3
                and kids[0].type == "strong_open" and _RULE_ID.match(kids[1].content)
                and kids[2].type == "strong_close"):
            tokens[n - 1].attrSet("id", kids[1].content)
            start = 3
        else:
            start = 0
        out: list[Token] = kids[:start]
        in_link = False
        for child in kids[start:]:
            if child.type == "link_open":
                in_link = True
            elif child.type == "link_close":
                in_link = False
            if child.type != "text" or in_link or not _RULE_REF.search(child.content):
                out.append(child)
                continue
            pos = 0
            for m in _RULE_REF.finditer(child.content):
                if m.start() > pos:
                    out.append(_text(child.content[pos:m.start()]))
                ref = m.group(0)
                ref_game = game_of_rule(ref) or game
                href = (f"#{ref}" if whole and ref_game == game
                        else f"{rule_url(ref_game)}#{ref}")
                link = Token("link_open", "a", 1)
                link.attrSet("href", href)
                out += [link, _text(ref), Token("link_close", "a", -1)]
                pos = m.end()
            if pos < len(child.content):
                out.append(_text(child.content[pos:]))
        tok.children = out


def _text(content: str) -> Token:
    t = Token("text", "", 0)
    t.content = content
    return t


def _render(markdown: str, game: str, whole: bool) -> str:
    md = _markdown()
    tokens = md.parse(markdown)
    _anchor_and_link(tokens, game, whole)
    return md.renderer.render(tokens, md.options, {})


def _title(game: str) -> str:
    first = player_rules(game).splitlines()[0]
    return first.lstrip("# ").strip()


@lru_cache(maxsize=256)
def _one(game: str, rule_id: str | None) -> tuple[str, str | None, str]:
    """(Markdown, normalised rule ID, HTML fragment); raises OptionsError for an unknown game
    or rule."""
    if rule_id is None:
        # said for the web: every rule ID here is a link (the terminal's command is not)
        text = _TERMINAL_HOW.sub(", and every rule ID on this page and at the table is a link "
                                 "to the rule.", player_rules(game), count=1)
        return text, None, _render(_for_the_web(text), game, whole=True)
    text = find_rule(game, rule_id, players=True)
    # a one-rule page holds no "House rules" section: its pointer links to the whole page's
    web = re.sub(r"\(see\s+\*House\s+rules\*\s+at\s+the\s+end\s+of\s+the\s+rules\)",
                 f"(see [House rules]({rule_url(game)}#house-rules) on the page of all the rules)",
                 _for_the_web(text))
    return text, normalize_rule_id(game, rule_id), _render(web, game, whole=False)


#: An option's name or value in code after its label (``*Canastas to go out*
#: (`go_out_requirement`)``, ``“any two canastas” (value `any_two`)``): what the terminal's
#: ``--option`` takes; the web's lobby names options by their labels only.
_OPTION_CODE = re.compile(r"\s\((?:value\s+)?`[a-z][a-z0-9_]*`\)")


def _for_the_web(markdown: str) -> str:
    """The players' Markdown as a web page shows it: without the option identifiers that
    only the terminal's ``--option NAME=VALUE`` needs (a tester read them as raw names)."""
    return _OPTION_CODE.sub("", markdown)


def rules_json(game: str, rule_id: str | None = None) -> dict[str, Any]:
    """The JSON answer: the players' Markdown and its HTML, for the whole game or one rule or
    section (``rule_id``); raises OptionsError for an unknown game or rule."""
    markdown, rid, fragment = _one(game, rule_id)
    out: dict[str, Any] = {"game": game, "title": _title(game), "rule_id": rid,
                           "markdown": markdown, "html": fragment,
                           "page": rule_url(game, rid)}
    if rid is None:
        out["rule_ids"] = rule_ids(game, players=True)
    return out


#: The players' text opens by saying how to find a rule in the terminal; a web page says it
#: for the web (a tester read the command beside the links as out of place).
_TERMINAL_HOW = re.compile(r",\s+and\s+`meldhall\s+rules\s+[^`]*`\s+shows\s+that\s+rule\s+"
                           r"\(`meldhall\s+rules\s+[^`]*`\s+the\s+whole\s+section\);\s+at\s+"
                           r"the\s+web\s+table\s+the\s+rule\s+IDs\s+are\s+links\.")
_NOT_HOUSE_RULES = ("player_count", "copy_choice")


def table_house_rules(game: str, options: dict[str, Any], players: int | None = None
                      ) -> list[tuple[str, str, tuple[str, ...]]]:
    """The house rules of a table in a player's words: per option that differs from the
    rules as written, ``(label, value in words, rule IDs it changes)``.

    Args:
        game: a game name.
        options: the table's options (a JSON object: option name -> value), validated here.
        players: the table's players (some options depend on them); the game's default if
            ``None``.

    Raises:
        MeldhallError: an unknown game, option or value (or one the players do not allow).
    """
    from meldhall import new_game
    from meldhall.rules_text.players import house_rules, option_labels, spec_blocks
    from meldhall.rules_text.spec import rules_text

    chosen = new_game(game, players=players, seed=0, options=options).options.to_json()
    base = new_game(game, players=players, seed=0).options.to_json()
    labels, words = option_labels(game)
    affects = {r.name: r.affects for b in spec_blocks(rules_text(game))
               if b.kind == "house_rules" for r in house_rules(b)}
    out = []
    for name, value in chosen.items():
        if name in _NOT_HOUSE_RULES or base.get(name) == value:
            continue
        said = words.get(name, {}).get(value)
        if said is None:
            said = ("on" if value else "off") if isinstance(value, bool) else str(value)
        out.append((labels.get(name, name.replace("_", " ")), said, affects.get(name, ())))
    return out


def _house_rules_box(game: str, rules: list[tuple[str, str, tuple[str, ...]]]) -> str:
    """The page's box of a table's house rules (rule IDs linked to their anchors)."""
    if not rules:
        return ('<section class="table-house-rules"><h2>House rules at this table</h2>'
                "<p>None: the rules below are played as written.</p></section>\n")
    items = []
    for label, said, ids in rules:
        links = ", ".join(f'<a href="#{html.escape(i)}">{html.escape(i)}</a>' for i in ids)
        items.append(f"<li><strong>{html.escape(label)}</strong>: {html.escape(said)}"
                     + (f" (changes {links})" if links else "") + "</li>")
    return ('<section class="table-house-rules"><h2>House rules at this table</h2>'
            "<p>The rules below are the rules as written; this table plays them with these "
            "changes (each rule they change says so):</p><ul>" + "".join(items)
            + "</ul></section>\n")


def rules_page(game: str, rule_id: str | None = None,
               house: list[tuple[str, str, tuple[str, ...]]] | None = None) -> str:
    """A whole HTML page of the players' rules (or of one rule); no script, the site's style
    sheet; ``house``: a table's house rules (:func:`table_house_rules`), shown above the rules
    when given.  Raises OptionsError for an unknown game or rule."""
    _, rid, fragment = _one(game, rule_id)
    if house is not None:
        fragment = _house_rules_box(game, house) + fragment
    title = _title(game)
    if rid is None:
        heading = ""
        nav = '<p class="rules-nav"><a href="/">meldhall</a></p>'
    else:
        heading = f"<h1>{html.escape(title)}</h1>\n"
        whole = f"{rule_url(game)}#{quote(rid)}"
        nav = (f'<p class="rules-nav"><a href="{html.escape(whole)}">All the rules of '
               f"{html.escape(title.split(' — ')[0])}</a></p>")
    page_title = title if rid is None else f"{rid} · {title}"
    return (
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{html.escape(page_title)}</title>\n"
        "<link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\">\n"
        "<link rel=\"stylesheet\" href=\"/css/meldhall.css\">\n</head>\n"
        "<body class=\"rules-page\">\n"
        "<header class=\"topbar\"><a href=\"/\" class=\"brand\">meldhall</a></header>\n"
        f"<main class=\"rules\">\n{heading}{fragment}{nav}\n</main>\n</body>\n</html>\n")
