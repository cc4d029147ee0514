"""The players' rules (:func:`meldhall.rules_text.player_rules`): derived from the specification,
with the same rule IDs and sections, and without its seed citations, audit or decision notes."""

from __future__ import annotations

import re

import pytest

from meldhall.errors import OptionsError
from meldhall.rules_text import RULE_FILES, find_rule, player_rules, rule_ids, rules_text
from meldhall.rules_text.players import (
    Rewrite,
    apply_rewrites,
    convention_blocks,
    derive,
    fingerprint,
    house_rules,
    in_players_words,
    overrides,
    rewrites,
    spec_blocks,
    strip_annotations,
)

GAMES = list(RULE_FILES)
SEED_FILE = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")
SECTION = re.compile(r"^## (\d+)\. .*$", re.MULTILINE)


def blocks_of(text: str, kind: str = "rule") -> dict[str, str]:
    return {b.key: b.text for b in spec_blocks(text) if b.kind == kind}


def words(text: str) -> str:
    return " ".join(text.split())


def option_names(game: str) -> list[str]:
    """The game's option names (rows of the spec's house-rules table)."""
    return [r.name for r in house_rules(next(b for b in spec_blocks(rules_text(game))
                                             if b.kind == "house_rules"))]


def said_for_players(game: str, key: str, spec_block: str) -> str:
    """A spec block without its notes, with the game's sentence rewrites for it and its option
    references in the lobby's words (``in_players_words``)."""
    from meldhall.rules_text.players import _tidy, in_players_words

    found = [rw for rw in rewrites(game) if rw.key == key]
    text = apply_rewrites(_tidy(strip_annotations(spec_block)[0]), found)[0]
    return in_players_words(text, game, option_names(game))


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


#: What the specification says to its developers and players never read: each phrase with the
#: reason it is not the players' (a pattern, case ignored).
DEVELOPER_PHRASES = {
    r"\bimplement": "an implementation, what it implements",
    r"\bengines?\b": "the engine and its obligations",
    r"\bdeck index": "deck indices: cards are shown by rank and suit only",
    r"\bjoker index": "joker indices",
    r"\bcard's identity|\bjoker's identity|\ban identity made of|such an identity":
        "a card's identity as data (a joker's declared card is the players')",
    r"\bobjects?\b": "program objects",
    r"\btrack(ed|s|ing)?\b": "tracking cards, in the program's sense",
    r"\bstate machine|\bsub-phase": "the program's states",
    r"\batomic\b": "atomic actions",
    r"\bvalidated\b": "validation",
    r"\bis bounded|\bare bounded|\bcounter\b": "the program's bound and counter",
    r"\bdocumented\b": "the program's documentation",
    r"\bsearch bot\b": "what bots must do with public information",
    r"\bas input\b|\bis supplied\b|\bderived figures\b": "the program's inputs",
    r"must not offer|\bis offered only while|must reject|must not force": "what the program offers",
    r"treated as hidden": "what a display or bot must do",
    r"\b(remains|stays) valid\b": "the program's history",
}


@pytest.mark.parametrize("game", GAMES)
def test_no_developer_voice(game):
    """The players' text says what happens at the table and what meldhall does, never what an
    implementation must do."""
    text = words(player_rules(game))
    for phrase, why in DEVELOPER_PHRASES.items():
        m = re.search(phrase, text, re.IGNORECASE)
        assert m is None, f"{why}: {text[max(0, m.start() - 60):m.end() + 60]!r}"
    # the specification does speak so: the list finds what it is meant to find
    spec = " ".join(strip_annotations(b.text)[0] for b in spec_blocks(rules_text(game))
                    if b.kind in ("rule", "edge_cases"))
    assert sum(bool(re.search(p, spec, re.IGNORECASE)) for p in DEVELOPER_PHRASES) >= 4


@pytest.mark.parametrize("game", GAMES)
def test_a_list_ends_before_the_next_paragraph(game):
    """An unindented line right after a list item would be read by Markdown as part of that
    item (CC-6.9 "A commit that fails …", RR-11.7 "\"Go out\" is not offered …"): the players'
    text puts a blank line between."""
    in_list = False
    for n, line in enumerate(player_rules(game).splitlines(), 1):
        if not line.strip():
            in_list = False
        elif re.match(r"\s*([-*] |\d+\. )", line):
            in_list = True
        elif not line.startswith(" "):
            assert not in_list or line.startswith("|"), (n, line)
            in_list = False


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
        expected = words(said_for_players(game, rid, spec))
        got = words(players_rules[rid])
        assert got.startswith(expected.rstrip(".")), rid
        rest = got[len(expected):].strip(" .")
        assert rest == "" or rest.startswith("*House rule"), (rid, rest[:80])
        for row in spec.splitlines():
            if row.startswith("|") and "seed" not in row:
                from meldhall.rules_text.players import in_players_words

                said = in_players_words(row, game, option_names(game))
                assert said in players_rules[rid], (rid, row)
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
    # the lobby's label first, then the name typed with --option
    assert ("*House rule:* *Discard the taken upcard* (`discard_taken_upcard`) changes this rule: "
            "by default off; a table may turn it on") in sh
    assert "by default true" not in player_rules("classic-canasta")  # a switch is on or off
    cc = find_rule("classic-canasta", "CC-4.8", players=True)
    assert "`red_three_upcard_freezes`" in cc
    # named in the rule itself: no second note
    cc47 = find_rule("classic-canasta", "CC-4.7", players=True)
    cc47 = " ".join(cc47.split())
    assert ("Under the house rule *Black three as first upcard* (`black_three_upcard`) set to "
            "“left on top, blocks the first player” (value `leave`) only red threes") in cc47
    assert "*House rule" not in cc47 and " = " not in cc47
    # the cutthroat three-player game of a decision note, explained at CC-14.1
    assert "cutthroat" in find_rule("classic-canasta", "CC-14.1", players=True)
    # several house rules: a list
    sh132 = find_rule("shanghai-rummy", "SH-13.2", players=True)
    assert "*House rules that change this rule*" in sh132
    assert all(f"- *{label}* (`{n}`)" in sh132 for n, label in (
        ("joker_penalty", "Joker left in hand"), ("deuce_penalty", "2 left in hand"),
        ("ace_penalty", "Ace left in hand")))


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
    blocks = {b.key: b for b in spec_blocks(rules_text(game)) + convention_blocks()}
    for key, ov in overrides(game).items():
        assert key in blocks, f"hand_written/{RULE_FILES[game]}: no block {key} in the spec"
        now = blocks[key].fingerprint
        assert ov.spec_fingerprint == now, (
            f"hand_written/{RULE_FILES[game]}: the spec's {key} changed (fingerprint {now}, the "
            f"passage was written from {ov.spec_fingerprint}): read it and write the passage "
            "again")
        if blocks[key].kind == "rule":
            assert ov.text.startswith(f"**{key}**"), key
        # as written, with its option names in the lobby's words (in_players_words)
        options = [r.name for r in house_rules(next(b for b in spec_blocks(rules_text(game))
                                                    if b.kind == "house_rules"))]
        said = " ".join(in_players_words(ov.text, game, options).split())
        assert said in " ".join(player_rules(game).split())  # line breaks may be reflowed


def test_a_stale_passage_gives_way_to_the_derived_text():
    spec = rules_text("shanghai-rummy").replace("any\nturn: they lay down",
                                                "any\nturn: they put down")
    derived = derive(spec, "shanghai-rummy", overrides("shanghai-rummy"))
    sh81 = derived.split("**SH-8.1**", 1)[1].split("**SH-8.2**", 1)[0]
    assert "they put down" in sh81 and "contract done" not in sh81
    assert fingerprint("a\n\n") == fingerprint("a")


# --------------------------------------------------------------------------- sentence rewrites


@pytest.mark.parametrize("game", GAMES)
def test_rewritten_sentences_match_the_current_spec(game):
    """Each rewrite names a sentence of the spec as it reads without its notes; when the spec
    changes that sentence the rewrite no longer applies, and this test says which to write
    again."""
    from meldhall.rules_text.players import _tidy

    blocks = {b.key: b for b in spec_blocks(rules_text(game))}
    found = rewrites(game)
    assert found, f"hand_written/{RULE_FILES[game]} has no sentence rewrites"
    for rw in found:
        assert rw.key in blocks, f"hand_written/{RULE_FILES[game]}: no block {rw.key} in the spec"
        text = _tidy(strip_annotations(blocks[rw.key].text)[0])
        n = len(rw.pattern().findall(text))
        assert n == 1, (f"hand_written/{RULE_FILES[game]}: {rw.key}: the spec sentence "
                        f"{rw.spec[:70]!r}… is found {n} times (once expected): the spec has "
                        "changed; read it and write the rewrite again")


@pytest.mark.parametrize("game", GAMES)
def test_rewritten_rules_keep_their_ids(game):
    """A rule with a rewritten sentence is still that rule, under its ID and in its place; the
    players read the new sentence and not the spec's."""
    players = blocks_of(player_rules(game))
    edge = player_rules(game).split("## Edge cases\n", 1)[1]
    for rw in rewrites(game):
        block = edge if rw.key == "edge_cases" else find_rule(game, rw.key, players=True)
        if rw.key != "edge_cases":
            assert block.startswith(f"**{rw.key}**"), rw.key
            assert block.strip() == players[rw.key].strip()
        from meldhall.rules_text.players import in_players_words

        said = words(in_players_words(rw.players, game, option_names(game)))
        assert said in words(block), (rw.key, rw.players[:60])
        assert rw.spec not in words(block), (rw.key, rw.spec[:60])
    assert rule_ids(game, players=True) == rule_ids(game)


def test_a_stale_rewrite_gives_way_to_the_spec_sentence():
    spec = rules_text("railroad-canasta").replace("An implementation supports 2 to 8 players.",
                                                  "An implementation supports 2 to 9 players.")
    derived = derive(spec, "railroad-canasta", overrides("railroad-canasta"),
                     rewrites("railroad-canasta"))
    rr12 = derived.split("**RR-1.2**", 1)[1].split("**RR-1.3**", 1)[0]
    assert "An implementation supports 2 to 9 players." in rr12     # the spec reaches players
    assert "meldhall plays" not in rr12
    rw = Rewrite("X-1.1", "a b.", "c.")
    assert apply_rewrites("a\n  b. a b.", [rw]) == ("a\n  b. a b.", [rw])   # twice: unused
    assert apply_rewrites("x a\n  b. y", [rw]) == ("x c. y", [])


def test_stage_bound_is_the_games():
    """The players' text names the canasta games' bound on stage actions per turn."""
    from meldhall.games.canasta.engine import STAGE_LIMIT

    cc = find_rule("classic-canasta", "CC-6.9", players=True)
    rr = find_rule("railroad-canasta", "RR-6.11", players=True)
    assert f"at most {STAGE_LIMIT} stage actions in one turn" in words(cc)
    assert f"at most {STAGE_LIMIT} stage actions in one turn" in words(rr)


def test_lettered_item_rewrapped_without_a_hanging_indent():
    from meldhall.rules_text.players import _reflow

    long = "(d) " + "word " * 30
    assert all(not line.startswith(" ") for line in _reflow(long.strip()).splitlines())
    item = "- " + "word " * 30
    assert all(line.startswith("  ") for line in _reflow(item.strip()).splitlines()[1:])


@pytest.mark.parametrize("game", GAMES)
def test_card_notation_is_what_players_type(game):
    """The card notation closing the players' text speaks of how cards are shown and typed, not
    of deck indices, and every action it gives as an example is one the game reads."""
    from meldhall import new_game

    text = player_rules(game)
    notation = text.split("### Card notation\n", 1)[1].split("### Seats", 1)[0]
    assert "deck index" not in notation and "meldhall chooses" in notation
    state = new_game(game, seed=1)
    examples = [t for t in re.findall(r"`([^`]+)`", notation)
                if t.split()[0] in ("meld", "add", "discard", "stage", "take")]
    assert len(examples) >= 1
    for example in examples:
        state.parse_action(example)          # raises NotationError if the game does not read it
    if game == "shanghai-rummy":
        assert str(state.parse_action("stage 7S 7H Jk(7♦)")) == "stage 7S 7H JK=7D"
        assert "`7♥/0`" in notation          # how the rules' examples tell copies apart
    else:
        assert str(state.parse_action("meld 8H 8♥ 8")) == "meld 8 8 8"   # suits ignored


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


@pytest.mark.parametrize("game", GAMES)
def test_no_source_names(game):
    """The players' text names no published source ("(Pagat)", "(Britannica; still no
    discard)" in the house-rules table); what the remark says stays; option values keep their
    names (`"pagat"`)."""
    text = player_rules(game)
    assert not re.search(r"\b(Pagat|Britannica|Hoyle)\b", text)
    if game == "classic-canasta":
        text = " ".join(text.split())  # the house rules are reflowed list items
        assert 'the player may meld first, no discard (value `may_meld_first`)' in text
        # a value the lobby has words for reads in them, the name beside
        assert 'left on top, blocks the first player (value `leave`)' in text
        assert '`pagat`' in text


@pytest.mark.parametrize("game", GAMES)
def test_options_are_named_in_the_lobbys_words(game):
    """Issue 15 (1): the rules read "not under upcard_wild_freezes = false", "when
    must_take_kitty_before_going_out is true", "Under discarder_may_buy = true".  A player
    reads the lobby's label and on/off or the value's words; the option name stays in code
    beside it (it is what --option takes), and every house rule is listed under its label."""
    from meldhall.rules_text.players import option_labels

    text = player_rules(game)
    labels, _ = option_labels(game)
    for name in option_names(game):
        assert not re.search(rf"`{name}\s*=", text), name
        assert not re.search(rf"`{name}` is (true|false)", text), name
        if name in labels:
            assert f"- **{labels[name]}** (`{name}`" in text, name
    assert "earlier default" not in text


@pytest.mark.parametrize("game", GAMES)
def test_option_names_are_never_the_words_of_a_sentence(game):
    """A tester read "under go_out_without_discard a contract may use …", "By default
    next_in_turn (clockwise …)" and "whatever the the house rule …": an option or value name
    stands in code beside the lobby's words, never as the sentence's own word."""
    text = " ".join(player_rules(game).split())
    assert "the the " not in text.lower()
    assert not re.search(r"\b[Uu]nder `", text)
    assert not re.search(r"By default `[a-z_]+` \(", text)
    if game == "shanghai-rummy":
        assert "clockwise from the player in turn (value `next_in_turn`)" in text
        assert "With the house rule *Go out without a discard* (`go_out_without_discard`) on," \
            in text
        assert "set to on, the discarder may buy too" in text
