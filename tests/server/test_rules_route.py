"""``GET /api/rules/{game}[/{rule_id}]`` of a real ``meldhall serve`` process: the players'
rules as JSON or as an HTML page (no script, the site's security headers), 404 in the API's
error shape for an unknown game or rule."""

from __future__ import annotations

import re

import pytest

from meldhall.rules_text import RULE_FILES, rule_ids

SEED_FILE = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")


def assert_players_text(text: str) -> None:
    assert "[seed" not in text and "[decision" not in text
    assert not SEED_FILE.search(text)
    assert not re.search(r"\bseeds?\b", text, re.IGNORECASE)


def test_one_rule_as_json(server):
    r = server.request("GET", "/api/rules/railroad-canasta/RR-11.1")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/json")
    assert r.headers["cache-control"] == "no-store"
    d = r.json()
    assert d["game"] == "railroad-canasta" and d["rule_id"] == "RR-11.1"
    assert d["title"] == "Railroad Canasta — rules"
    assert d["markdown"].startswith("**RR-11.1**") and "RR-11.2" not in d["markdown"]
    assert "`go_out_requirement`" in d["markdown"]           # the house rule that changes it
    assert d["page"] == "/api/rules/railroad-canasta/RR-11.1?format=html"
    assert_players_text(d["markdown"])
    assert_players_text(d["html"])
    # a short form of the ID and a section
    assert server.request("GET", "/api/rules/railroad-canasta/11.1").json()["rule_id"] == "RR-11.1"
    section = server.request("GET", "/api/rules/shanghai-rummy/SH-13").json()
    assert section["markdown"].startswith("## 13. Scoring") and "SH-13.6" in section["markdown"]


@pytest.mark.parametrize("game", list(RULE_FILES))
def test_whole_game_as_json(server, game):
    r = server.request("GET", f"/api/rules/{game}")
    assert r.status_code == 200, r.text
    d = r.json()
    assert d["rule_id"] is None and d["rule_ids"] == rule_ids(game)
    assert_players_text(d["markdown"])


def test_rule_as_html_page(server):
    r = server.request("GET", "/api/rules/classic-canasta/CC-8.5?format=html")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["x-content-type-options"] == "nosniff"
    page = r.text
    assert "<script" not in page.lower() and " style=" not in page.lower()
    assert '<link rel="stylesheet" href="/css/meldhall.css">' in page
    assert "Taking a frozen pile" in page and "CC-8.6" not in page
    # the rule's own ID and the rules it names link to the whole page
    assert 'href="/api/rules/classic-canasta?format=html#CC-8.5"' in page
    assert 'href="/api/rules/classic-canasta?format=html#CC-7.4"' in page
    assert_players_text(page)


def test_whole_page_has_anchors_and_links(server):
    page = server.request("GET", "/api/rules/classic-canasta?format=html").text
    assert '<p id="CC-8.5">' in page and '<h2 id="CC-8">' in page
    assert '<a href="#CC-8.4">CC-8.4</a>' in page               # links within the page
    assert "Seed audit" not in page and "<script" not in page.lower()
    # a rule that names another game's rule links to that game's page (the players' texts
    # name none today, so the renderer is asked directly)
    from meldhall.server.rules_page import _render

    html = _render("**RR-6.11** as CC-6.9 says, then RR-7.1.", "railroad-canasta", True)
    assert 'href="/api/rules/classic-canasta?format=html#CC-6.9"' in html
    assert 'href="#RR-7.1"' in html
    # text in the rules is escaped, never markup: the Markdown's raw HTML is disabled
    assert "<br" not in page


@pytest.mark.parametrize("path,fragment", [
    ("/api/rules/classic-canasta/CC-99.1", "no rule CC-99.1"),
    ("/api/rules/classic-canasta/CC-99", "no section CC-99"),
    ("/api/rules/classic-canasta/nonsense", "not a rule ID"),
    ("/api/rules/classic-canasta/RR-8.1", "not a rule ID"),
    ("/api/rules/chess", "no rules for 'chess'"),
    ("/api/rules/chess/CC-8.5", "no rules for 'chess'"),
    ("/api/rules/classic-canasta/CC-99.1?format=html", "no rule CC-99.1"),
    ("/api/rules/classic-canasta/" + "9" * 300, "no such game or rule"),
])
def test_unknown_rule_or_game_is_404_in_the_error_shape(server, path, fragment):
    r = server.request("GET", path)
    assert r.status_code == 404, r.text
    assert r.headers["content-type"].startswith("application/json")
    err = r.json()["error"]
    assert err["code"] == "not_found" and fragment in err["message"]


def test_bad_format_is_malformed(server):
    r = server.request("GET", "/api/rules/classic-canasta?format=pdf")
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "malformed"


def test_the_page_lists_a_tables_house_rules(server):
    """The table's "the rules" link passes its options: the page lists the house rules that
    differ from the rules as written, in the lobby's words with the rules they change, above
    the rules; and says how to find a rule for the web, not by a terminal command (a tester
    read "`meldhall rules …` shows that rule" on the page)."""
    import json
    from urllib.parse import quote

    options = {"wild_ratio": "pagat", "player_count": 4, "copy_choice": "uniform"}
    r = server.request("GET", "/api/rules/classic-canasta?format=html&players=4&house="
                       + quote(json.dumps(options)))
    assert r.status_code == 200, r.text
    page = r.text
    box = page[page.index('<section class="table-house-rules">'):page.index("</section>")]
    assert "House rules at this table" in box and "at most 3 wild cards" in box
    assert 'href="#CC-6.2"' in box
    assert "copy" not in box.lower() and "player count" not in box.lower()  # not house rules
    assert "meldhall rules classic-canasta" not in page
    assert "every rule ID on this page and at the table is a link" in page
    # no house rule: said so; a bad option: refused, not a page
    plain = server.request("GET", "/api/rules/classic-canasta?format=html&house=%7B%7D").text
    assert "None: the rules below are played as written" in plain
    bad = server.request("GET", "/api/rules/classic-canasta?format=html&house="
                         + quote(json.dumps({"wild_ratio": "many"})))
    assert bad.status_code in (404, 422) and "wild_ratio" in bad.text
    assert server.request("GET", "/api/rules/classic-canasta?format=html&house=%5B%5D"
                          ).status_code == 422
