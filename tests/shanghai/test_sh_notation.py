"""Shanghai Rummy notation (docs/notation-shanghai.md): canonical texts, accepted variants,
and errors."""

from __future__ import annotations

import pytest
from sh_position import build, legal_texts

from meldhall.errors import IllegalActionError, NotationError
from meldhall.games.shanghai.actions import parse_shanghai_action

CANONICAL = [
    "take", "draw", "buy", "pass", "deal", "discard KH", "discard JK", "discard 10S",
    "discard 9C/1", "contract 7S 7H JK=7D, 5S 6S 7S 8S", "contract AS 2S 3S 4S, JH QH KH AH",
    "contract 8S 8D 8C, QS QH QH, 5D 6D JK=7D 8D 9D", "contract JK=AS 2S 3S 4S, 9H 10H JH QH",
    "layoff 9H -> 2", "layoff JK=4D -> 3", "layoff AS -> 3 low", "layoff JK=AS -> 1 high",
    "swap 7D -> 2",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_texts_round_trip(text):
    """Every canonical text parses back to itself; repr pastes back."""
    a = parse_shanghai_action(text)
    assert str(a) == text
    assert repr(a) == f"parse_action({text!r})"


@pytest.mark.parametrize("text,canonical", [
    ("TAKE", "take"),
    ("discard kh", "discard KH"),
    ("discard K♥", "discard KH"),
    ("discard TS", "discard 10S"),
    ("contract 5s 6s 7s 8s, 7h 7s jk=7d", "contract 7S 7H JK=7D, 5S 6S 7S 8S"),
    ("contract 5S JK 7S 8S, 9C 9D 9H", "contract 9H 9D 9C, 5S JK=6S 7S 8S"),
    ("contract Q♥ K♥ A♥ J♥, 2S 2S 2C", "contract 2S 2S 2C, QH KH AH JH"),
])
def test_accepted_variants(text, canonical):
    """Lower case, T, suit symbols, melds in any order, bare jokers inside runs."""
    if canonical == "contract 2S 2S 2C, QH KH AH JH":
        # cards out of order are not a run: runs are written low to high
        with pytest.raises(IllegalActionError):
            parse_shanghai_action(text)
        return
    assert str(parse_shanghai_action(text)) == canonical


def test_layoff_forms_made_canonical_against_the_table():
    """A bare joker with its end gets its declared card; a redundant end is dropped."""
    st = build(hands={0: "JK 9D AS 2C"}, made=[0, 1],
               melds=[(1, "5D 6D 7D 8D"), (1, "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")])
    assert str(st.parse_action("layoff JK -> 1 high")) == "layoff JK=9D -> 1"
    assert str(st.parse_action("layoff JK -> 1 low")) == "layoff JK=4D -> 1"
    assert str(st.parse_action("layoff 9D -> 1 high")) == "layoff 9D -> 1"
    assert str(st.parse_action("layoff AS -> 2 low")) == "layoff AS -> 2 low"
    texts = legal_texts(st)
    assert {"layoff AS -> 2 low", "layoff AS -> 2 high", "layoff JK=AS -> 2 low",
            "layoff JK=AS -> 2 high"} <= set(texts)
    for t in texts:
        assert str(st.parse_action(t)) == t


@pytest.mark.parametrize("text", [
    "", "jump", "take 7H", "discard", "discard 7", "discard 7H 8H", "contract",
    "contract 7S 7H, , 5S 6S 7S 8S", "layoff 9H", "layoff 9H -> x", "layoff 9H -> 2 middle",
    "swap JK -> 2", "swap 7D/1 -> 2", "contract 7S/1 7H 7D, KS KH KD", "contract 7S 7H JK, 5S 6S",
    "contract JK=JK 7S 7H", "layoff 9H 8H -> 2",
])
def test_notation_errors(text):
    """Texts that are not actions raise NotationError saying what was expected."""
    with pytest.raises(NotationError):
        parse_shanghai_action(text)


@pytest.mark.parametrize("text,rule", [
    ("contract KS AS 2S 3S, 7H 7C 7D", "SH-7.3"),
    ("contract QS KS AS JK=2S, 7H 7C 7D", "SH-7.3"),
    ("contract 5D 6D 7S 8D, 7H 7C 7D", "SH-7.2"),
    ("contract 5D 6D 8D 9D, 7H 7C 7D", "SH-7.2"),
    ("contract 7H 7C 8D", "SH-7.2"),
    ("contract 5D JK=6S 7D 8D, 7H 7C 7D", "SH-7.4"),
    ("contract JK=7H JK=7C", "SH-7.6"),
])
def test_melds_no_rule_allows_are_refused_while_parsing(text, rule):
    """A meld that is neither a set nor a run is refused with its rule ID."""
    with pytest.raises(IllegalActionError) as info:
        parse_shanghai_action(text)
    assert info.value.rule_id == rule


def test_every_legal_action_round_trips_in_a_game():
    """str(parse_action(str(a))) == str(a) for the legal actions of a few hundred states."""
    import random

    import meldhall

    rng = random.Random(4)
    st = meldhall.new_game("shanghai-rummy", players=4, seed=4)
    for _ in range(400):
        legal = st.legal_actions()
        for a in legal:
            assert str(st.parse_action(str(a))) == str(a)
        contracts = [a for a in legal if str(a).startswith("contract")]
        st = st.apply(rng.choice(contracts) if contracts else rng.choice(legal))
        if st.is_terminal:
            break


def test_the_rules_joker_notation_is_read():
    """The rules write a declared joker Jk(7♦) (SH-7.4 examples); it reads as JK=7D."""
    import meldhall

    st = meldhall.new_game("shanghai-rummy", players=3, seed=1)
    assert st.parse_action("stage 7S 7H Jk(7D)") == st.parse_action("stage 7S 7H JK=7D")
    assert str(st.parse_action("stage 5♦ Jk(6♦) 7♦ 8♦")) == "stage 5D JK=6D 7D 8D"
    with pytest.raises(NotationError, match="only a joker"):
        st.parse_action("stage 7S 7H 7C(7D)")
