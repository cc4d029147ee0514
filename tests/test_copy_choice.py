"""Nothing is learned from which copy moved (CC-5.9, RR-5.10, SH-6.4).

The packs hold several copies of each card.  When an action names cards by kind (``discard 5``,
``meld 5 5 5``, ``discard 4H``) the engine chooses the copies, so that choice must tell the other
seats nothing the cards themselves do not:

* no deck index reaches a seat: observations show rank and suit only;
* (a) two states that differ only by which copy of the same card (same rank and suit) is in a
  hand and which in the stock look identical to every other seat, before and after the same
  public action;
* (b) over many hidden seeds the suits a kind-named meld or discard reveals have the
  frequencies of a uniform choice among the held cards (a chi-square test, fixed seeds), and no
  revealed set is impossible for a hand holding a superset of the copies.

Documents of format version 1 replay with the former choice (option ``copy_choice="legacy"``).
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

import pytest
from scipy.stats import chisquare

from meldhall import new_game
from meldhall.errors import OptionsError
from meldhall.record import Record, dump_position, load_position, load_record

# the position builders of each game's rules tests (their folders are not packages)
for _folder in ("rules", "railroad", "shanghai"):
    sys.path.insert(0, str(Path(__file__).parent / _folder))
import cc_position  # noqa: E402
import rr_position  # noqa: E402
import sh_position  # noqa: E402

PHYSICAL = re.compile(r"\b(?:JK|10|[2-9AKQJ])[SHDC]?/\d+\b")
COUNTS = [("classic-canasta", n) for n in (2, 3, 4, 6)] + \
         [("railroad-canasta", n) for n in (2, 3, 4, 6, 8)] + \
         [("shanghai-rummy", n) for n in range(3, 9)]
#: p-value below which a chi-square test rejects uniformity (fixed seeds: no flakiness)
ALPHA = 0.001


def _views(state, seat: int) -> tuple[str, str]:
    obs = state.observation(seat)
    return json.dumps(obs.to_json(), sort_keys=True), obs.to_text()


def _known_names(state, seat: int) -> set[str]:
    known = getattr(state, "known", None)
    if known is None:
        return set()
    return {c.physical for c in state.pack.cards_of(known[seat])}


def twin(state, seat: int, rng: random.Random):
    """A state that differs from ``state`` only in which copy of one card ``seat`` holds: a
    card of its hand (not publicly known) trades places with an identical-looking copy (same
    rank and suit) in the stock.  ``None`` when no card has such a copy there."""
    d = dump_position(state)
    hand, stock = d["hands"][seat], d["stock"]
    known = _known_names(state, seat)
    options = []
    for i, c in enumerate(hand):
        if c in known:
            continue
        name = c.split("/")[0]
        options += [(i, j) for j, t in enumerate(stock) if t.split("/")[0] == name and t != c]
    if not options:
        return None
    i, j = rng.choice(options)
    hand[i], stock[j] = stock[j], hand[i]
    return load_position(d)


def _checkpoints(game: str, players: int, seed: int, count: int):
    """States of uniformly random play (staging included) at random moments."""
    rng = random.Random(seed)
    s = new_game(game, players=players, seed=seed)
    steps = 0
    while not s.is_terminal and count > 0 and steps < 3000:
        steps += 1
        if s.phase not in ("hand_end", "deal_end") and rng.random() < 0.08:
            count -= 1
            yield s
        s = s.apply(rng.choice(s.legal_actions()))


@pytest.mark.parametrize(("game", "players"), COUNTS)
def test_twin_states_look_the_same_to_every_other_seat(game, players):
    """(a): the copy a hand holds is invisible to the others, before and after each action of
    the seat in turn (public or staged), and the twins offer the same actions."""
    rng = random.Random(players * 7919 + len(game))
    twins = actions = 0
    for s in _checkpoints(game, players, seed=players * 101 + 5, count=14):
        actor = s.to_act[0]
        for holder in {actor, rng.randrange(players)}:
            t = twin(s, holder, rng)
            if t is None:
                continue
            twins += 1
            others = [x for x in range(players) if x != holder]
            for x in others:
                assert _views(s, x) == _views(t, x), f"seat {x} tells the twins apart"
            legal = s.legal_actions()
            assert [str(a) for a in legal] == [str(a) for a in t.legal_actions()]
            for a in rng.sample(legal, min(len(legal), 12)):
                a2, b2 = s.apply(a), t.apply(t.parse_action(str(a)))
                actions += 1
                for x in others:
                    va = _views(a2, x)
                    assert va == _views(b2, x), (
                        f"after {a}, seat {x} tells the twins apart")
                    assert not PHYSICAL.search(va[0] + va[1]), "a deck index is shown"
    assert twins >= 5 and actions >= 30, (twins, actions)


# ---------------------------------------------------------------- (b) uniform choice


def _reseeded(state, seeds):
    d = dump_position(state)
    for k in seeds:
        d["seed"] = k
        yield load_position(d, check_rules=False)  # a hand-built scenario


def _revealed(before, after, seat: int) -> Counter:
    """Names of the cards that left ``seat``'s hand (its own view, by rank and suit)."""
    return Counter(before.observation(seat).to_json()["hand"]) - \
        Counter(after.observation(seat).to_json()["hand"])


def _check_uniform(counts: Counter, expected: dict) -> None:
    keys = sorted(expected)
    assert set(counts) <= set(keys), (counts, expected)
    total = sum(counts.values())
    f_exp = [expected[k] * total for k in keys]
    result = chisquare([counts[k] for k in keys], f_exp)
    assert result.pvalue > ALPHA, (counts, expected, result)


def _canasta_case(game: str, players: int):
    # four 5s, two of them hearts: a discard shows hearts half the time; a meld of three of
    # the four leaves out one card uniformly, so H D S is shown half the time
    hand = "5H/0 5H/1 5S/0 5D/1 K Q J 9 8"
    if game == "classic-canasta":
        return cc_position.build(players=players, hands={0: hand, 1: "4 4"},
                                 melds={0: ["A A A"]}, phase="meld")
    return rr_position.build(players=players, hands={0: hand, 1: "4 4"}, melds={0: ["A A A"]},
                             phase="meld", kitties={x: 11 for x in range(1, players)})


@pytest.mark.parametrize(("game", "players"),
                         [c for c in COUNTS if c[0] != "shanghai-rummy"])
def test_kind_named_discard_and_meld_show_uniform_suits(game, players):
    """(b), canasta games, every player count: the suits revealed by ``discard 5`` and
    ``meld 5 5 5`` over 300 hidden seeds have the frequencies of a uniform choice among the
    four 5s held (CC-5.9, RR-5.10)."""
    base = _canasta_case(game, players)
    discards, melds = Counter(), Counter()
    for s in _reseeded(base, range(1000, 1300)):
        discards.update(_revealed(s, s.apply_text("discard 5"), 0))
        shown = _revealed(s, s.apply_text("meld 5 5 5"), 0)
        melds[" ".join(sorted(shown.elements()))] += 1
    _check_uniform(discards, {"5H": 0.5, "5S": 0.25, "5D": 0.25})
    _check_uniform(melds, {"5D 5H 5S": 0.5, "5D 5H 5H": 0.25, "5H 5H 5S": 0.25})


@pytest.mark.parametrize("players", range(3, 9))
def test_shanghai_copy_moved_is_uniform(players):
    """(b), Shanghai Rummy (SH-6.4): cards are named by rank and suit, so the copies of 4H are
    indistinguishable to everyone; the physical copy that moves is still a uniformly random
    one of those held (two decks with 3–4 players, three with 5–8), by hidden seed."""
    decks = 2 if players < 5 else 3
    copies = " ".join(f"4H/{k}" for k in range(decks))
    base = sh_position.build(players=players, hands={0: f"{copies} 9C KD", 1: "5S 6S"},
                             phase="meld")
    moved = Counter()
    for s in _reseeded(base, range(500, 900)):
        after = s.apply_text("discard 4H")
        moved[after.pack.cards[after.pile[-1]].deck] += 1
    _check_uniform(moved, {k: 1 / decks for k in range(decks)})


def test_no_revealed_set_is_impossible_for_a_superset_hand():
    """(b): the issue's demonstration.  Holding four 5s or the same four and one more, a
    ``meld 5 5 5`` can show every set of suits the smaller hand can show (with the former
    choice, 5D 5H 5S was possible with four 5s and impossible with five: the watcher learnt how
    many the player held)."""
    shown = {}
    for n, hand in ((4, "5D/1 5H/1 5S/0 5C/0"), (5, "5D/1 5H/1 5S/0 5C/0 5H/0")):
        base = cc_position.build(players=2, hands={0: hand + " K Q J", 1: "4 4"},
                                 melds={0: ["A A A"]}, phase="meld")
        shown[n] = {" ".join(sorted(_revealed(s, s.apply_text("meld 5 5 5"), 0).elements()))
                    for s in _reseeded(base, range(300))}
    assert len(shown[4]) == 4  # every three of the four suits
    assert shown[4] <= shown[5]


def test_the_shanghai_demonstration_no_longer_tells_the_pair_apart():
    """The issue's first demonstration: Shanghai Rummy, 3 players, seed 1, seat 1's first
    discard ``discard 4H``.  Whether seat 1 also holds the other 4H used to show in the copy
    on the pile; now the pile shows 4H either way and the watchers' observations are equal."""
    s = new_game("shanghai-rummy", players=3, seed=1)
    while not (s.to_act == (1,) and any(str(a) == "discard 4H" for a in s.legal_actions())):
        legal = s.legal_actions()
        draw = [a for a in legal if str(a) in ("draw", "pass")]
        s = s.apply(draw[0] if draw else legal[0])
        assert s.hand_no == 0 or not s.is_terminal
    t = twin(s, 1, random.Random(0))
    if t is not None:
        for x in (0, 2):
            assert _views(s, x) == _views(t, x)
            assert _views(s.apply_text("discard 4H"), x) == _views(t.apply_text("discard 4H"), x)
    after = s.apply_text("discard 4H")
    for x in (0, 2):
        assert after.observation(x).to_json()["upcard"] == "4H"
        assert not PHYSICAL.search(json.dumps(after.observation(x).to_json()))


def test_legacy_copy_choice_only_for_old_documents():
    """``copy_choice``: ``"uniform"`` by default; ``"legacy"`` is what a record or position of
    format version 1 loads with (so it replays unchanged), and what it writes back; an
    unknown value is refused."""
    assert new_game("classic-canasta", players=2, seed=3).options.copy_choice == "uniform"
    s = new_game("shanghai-rummy", players=3, seed=3)
    rec = Record.from_state(s, s.dealer).to_json()
    assert rec["version"] == 2 and rec["options"]["copy_choice"] == "uniform"
    old = dict(rec, version=1, options={k: v for k, v in rec["options"].items()
                                        if k != "copy_choice"})
    assert load_record(old).options["copy_choice"] == "legacy"
    assert load_record(rec).options["copy_choice"] == "uniform"
    pos = dump_position(s)
    old_pos = dict(pos, version=1, options={k: v for k, v in pos["options"].items()
                                            if k != "copy_choice"})
    assert load_position(old_pos).options.copy_choice == "legacy"
    assert load_position(pos).options.copy_choice == "uniform"
    # a version-1 document that names the choice keeps it
    assert load_position(dict(old_pos, options=dict(old_pos["options"], copy_choice="uniform"))
                         ).options.copy_choice == "uniform"
    with pytest.raises(OptionsError, match="copy_choice"):
        new_game("railroad-canasta", players=2, options={"copy_choice": "lowest"})
    # the two choices really differ: the legacy one plays the lowest copy in Shanghai
    base = sh_position.build(players=3, hands={0: "4H/0 4H/1 9C KD", 1: "5S 6S"},
                             phase="meld", options={"copy_choice": "legacy"})
    for k in range(20):
        d = dump_position(base)
        d["seed"] = k
        after = load_position(d, check_rules=False).apply_text("discard 4H")
        assert str(after.pack.cards[after.pile[-1]].physical) == "4H/0"
