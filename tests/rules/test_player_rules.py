"""The players' rules (:func:`meldhall.rules_text.player_rules`): derived from the specification,
with the same rule IDs and sections, and without its seed citations, audit or decision notes."""

from __future__ import annotations

import re

import pytest

from meldhall.errors import OptionsError
from meldhall.rules_text import RULE_FILES, find_rule, player_rules, rule_ids, rules_text
from meldhall.rules_text.players import (
    derive,
    fingerprint,
    house_rules,
    overrides,
    spec_blocks,
    strip_annotations,
)

GAMES = list(RULE_FILES)
SEED_FILE = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")
SECTION = re.compile(r"^## (\d+)\. .*$", re.MULTILINE)


def blocks_of(text: str, kind: str = "rule") -> dict[str, str]:
    return {b.key: b.text for b in spec_blocks(text) if b.kind == kind}


# --------------------------------------------------------------------------- what is left out


@pytest.mark.parametrize("game", GAMES)
def test_no_seed_citation_decision_or_audit(game):
    text = player_rules(game)
    assert "[seed" not in text and "[decision" not in text
    assert not SEED_FILE.search(text)
    assert not re.search(r"\bseeds?\b", text, re.IGNORECASE), \
        re.search(r".{0,60}\bseeds?\b.{0,60}", text, re.IGNORECASE).group(0)
    for phrase in ("after review", "audit", "README", "rules specification", "## 0."):
        assert phrase not in text, phrase


@pytest.mark.parametrize("game", GAMES)
def test_text_is_clean(game):
    """What removing the notes could leave behind: empty or unbalanced brackets, doubled
    spaces, a space before punctuation, a paragraph without its full stop."""
    text = player_rules(game)
    assert "()" not in text and "[]" not in text
    for n, line in enumerate(text.splitlines(), 1):
        body = line.strip()
        assert "  " not in body, (n, line)
        assert not re.search(r"\s[.,;:](\s|$)", body), (n, line)
        assert line == line.rstrip(), (n, line)
    for para in text.split("\n\n"):
        assert para.count("(") == para.count(")"), para
        assert para.count("[") == para.count("]"), para
        assert para.count("**") % 2 == 0, para
        last = para.rstrip().splitlines()[-1].strip()
        if para.startswith("**") and not re.match(r"(\d+\.|-|\||\([a-z]\)) ", last):
            assert re.search(r"[.:!?)]\**$", last), para
    assert "\n\n\n" not in text and text.endswith("\n") and not text.endswith("\n\n")


# --------------------------------------------------------------------------- what is kept


@pytest.mark.parametrize("game", GAMES)
def test_same_rule_ids_and_sections(game):
    assert rule_ids(game, players=True) == rule_ids(game)
    spec, players = rules_text(game), player_rules(game)
    assert SECTION.findall(players) == [s for s in SECTION.findall(spec) if s != "0"]
    assert re.findall(r"^## \d+\. .*$", players, re.MULTILINE) == \
        [h for h in re.findall(r"^## \d+\. .*$", spec, re.MULTILINE) if not h.startswith("## 0.")]


@pytest.mark.parametrize("game", GAMES)
def test_rules_keep_their_words_tables_and_examples(game):
    """Every rule that is not written by hand is the spec's rule with the notes removed: its
    words in order (line breaks aside), every table row and list item; the edge cases too."""
    hand = overrides(game)
    spec_rules = blocks_of(rules_text(game))
    players_rules = blocks_of(player_rules(game))
    assert set(players_rules) == set(spec_rules)
    for rid, spec in spec_rules.items():
        if rid in hand:
            continue
        expected = " ".join(strip_annotations(spec)[0].split())
        got = " ".join(players_rules[rid].split())
        assert got.startswith(expected.rstrip(".")), rid
        rest = got[len(expected):].strip(" .")
        assert rest == "" or rest.startswith("*House rule"), (rid, rest[:80])
        for row in spec.splitlines():
            if row.startswith("|") and "seed" not in row:
                assert row in players_rules[rid], (rid, row)
    edge_spec = blocks_of(rules_text(game), "edge_cases")["edge_cases"]
    edge = player_rules(game).split("## Edge cases\n", 1)[1]
    assert len(re.findall(r"^\d+\. \*\*", edge, re.MULTILINE)) == \
        len(re.findall(r"^\d+\. \*\*", edge_spec, re.MULTILINE))


@pytest.mark.parametrize("game", GAMES)
def test_house_rules_are_named_at_the_rules_they_change(game):
    table = blocks_of(rules_text(game), "house_rules")["house_rules"]
    rows = house_rules(next(b for b in spec_blocks(rules_text(game)) if b.kind == "house_rules"))
    assert len(rows) == len([ln for ln in table.splitlines() if ln.startswith("| `")])
    players = blocks_of(player_rules(game))
    for row in rows:
        for rid in row.affects:
            if rid in players:             # a rule, not a whole section
                assert f"`{row.name}" in players[rid], (row.name, rid)
    assert "## House rules\n" in player_rules(game)


def test_examples_of_house_rule_notes():
    sh = " ".join(find_rule("shanghai-rummy", "SH-6.5", players=True).split())
    assert sh.endswith("(see *House rules* at the end of the rules).")
    assert "*House rule:* `discard_taken_upcard` changes this rule: by default false" in sh
    cc = find_rule("classic-canasta", "CC-4.8", players=True)
    assert "`red_three_upcard_freezes`" in cc
    # named in the rule itself: no second note
    cc47 = find_rule("classic-canasta", "CC-4.7", players=True)
    assert "`black_three_upcard = \"leave\"`" in cc47 and "*House rule" not in cc47
    # the cutthroat three-player game of a decision note, explained at CC-14.1
    assert "cutthroat" in find_rule("classic-canasta", "CC-14.1", players=True)
    # several house rules: a list
    sh132 = find_rule("shanghai-rummy", "SH-13.2", players=True)
    assert "*House rules that change this rule*" in sh132
    assert all(f"- `{n}`" in sh132 for n in ("joker_penalty", "deuce_penalty", "ace_penalty"))


def test_decision_note_with_a_rule_in_it_is_written_out():
    """SH-8.1's decision note holds how the contract is staged: the players' text says it."""
    sh81 = find_rule("shanghai-rummy", "SH-8.1", players=True)
    assert "contract done" in sh81 and "withdraw" in sh81 and "[decision" not in sh81


@pytest.mark.parametrize("game", GAMES)
def test_opening_and_closing(game):
    text = player_rules(game)
    title = rules_text(game).splitlines()[0]
    assert text.splitlines()[0] == title.replace(" — rules specification", " — rules")
    assert f"`meldhall rules {game} " in text.split("---", 1)[0]
    assert text.rstrip().endswith("vs 1, 3, 5).")          # the README's seats, last
    assert "### Card notation" in text and "### Seats" in text


# --------------------------------------------------------------------------- hand-written passages


@pytest.mark.parametrize("game", GAMES)
def test_hand_written_passages_match_the_current_spec(game):
    """A passage written by hand names the fingerprint of the spec text it replaces; when the
    spec changes the passage is no longer used, and this test says which one to write again."""
    blocks = {b.key: b for b in spec_blocks(rules_text(game))}
    for key, ov in overrides(game).items():
        assert key in blocks, f"hand_written/{RULE_FILES[game]}: no block {key} in the spec"
        now = blocks[key].fingerprint
        assert ov.spec_fingerprint == now, (
            f"hand_written/{RULE_FILES[game]}: the spec's {key} changed (fingerprint {now}, the "
            f"passage was written from {ov.spec_fingerprint}): read it and write the passage "
            "again")
        if key != "preamble":
            assert ov.text.startswith(f"**{key}**"), key
        assert ov.text in player_rules(game)


def test_a_stale_passage_gives_way_to_the_derived_text():
    spec = rules_text("shanghai-rummy").replace("any\nturn: they lay down",
                                                "any\nturn: they put down")
    derived = derive(spec, "shanghai-rummy", overrides("shanghai-rummy"))
    sh81 = derived.split("**SH-8.1**", 1)[1].split("**SH-8.2**", 1)[0]
    assert "they put down" in sh81 and "contract done" not in sh81
    assert fingerprint("a\n\n") == fingerprint("a")


# --------------------------------------------------------------------------- the removal itself


@pytest.mark.parametrize("source,expected,notes", [
    ("A rule. [seed: 000_0123456789abcdef.txt] [seed: 001_0123456789abcdef.txt]\n(the seed's words)"
     " [decision: ours; option `x`.]\n\n**B-1.2** Next.",
     "A rule.\n\n**B-1.2** Next.", ["ours; option `x`."]),
    ("Hand size: 11 with four players [seed:\n000_0123456789abcdef.txt]; 15 with two players "
     "[decision: the [bracketed] note.]", "Hand size: 11 with four players; 15 with two players.",
     ["the [bracketed] note."]),
    ("Every meld [seed: 000_0123456789abcdef.txt]\n(a) has two naturals;\n(b) no more.",
     "Every meld\n(a) has two naturals;\n(b) no more.", []),
    ("| 5-5-2 | yes | two naturals (seed example) |", "| 5-5-2 | yes | two naturals |", []),
    ("7 (contracts 1–7 only: a short game, the seed's literal \"seven deals\")",
     "7 (contracts 1–7 only: a short game)", []),
    ("one line\n[decision: a whole line.]\nthe next line", "one line\nthe next line",
     ["a whole line."]),
])
def test_strip_annotations(source, expected, notes):
    from meldhall.rules_text.players import _tidy

    text, found = strip_annotations(source)
    assert _tidy(text) == expected
    assert found == notes


def test_find_rule_in_the_players_text():
    one = find_rule("railroad-canasta", "rr-11.1", players=True)
    assert one.startswith("**RR-11.1**") and "RR-11.2" not in one and "[seed" not in one
    assert "[seed:" in find_rule("railroad-canasta", "RR-11.1")       # the spec by default
    section = find_rule("classic-canasta", "CC-13", players=True)
    assert section.startswith("## 13. End of the game") and "CC-13.2" in section
    assert "CC-14.1" not in section
    with pytest.raises(OptionsError, match="no rule CC-99.1"):
        find_rule("classic-canasta", "CC-99.1", players=True)
    with pytest.raises(OptionsError, match="no rules for 'chess'"):
        player_rules("chess")
