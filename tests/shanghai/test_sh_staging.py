"""Staged melding (SH-8.1, amended): the contract is staged one meld at a time, withdrawn the
last one or all, and committed with ``contract done``; the compound ``contract A, B`` is its
shorthand.  Also the fixed integer action space (docs/protocol.md)."""

from __future__ import annotations

import random

import pytest
from sh_position import assert_illegal, build, hand_of, legal_texts, meld_text, play

import meldhall
from meldhall.errors import MeldhallError, NotationError, RecordError
from meldhall.games.shanghai.actions import (
    CONTRACT_DONE,
    WITHDRAW,
    WITHDRAW_ALL,
    Contract,
    Stage,
    Withdraw,
)
from meldhall.games.shanghai.state import STAGE_LIMIT
from meldhall.record import dump_position, load_position

HAND = "7S 7H 7C KS KH KD 2C 3D 4H 5S 9C 10D"


def _deal1():
    return build(hands={0: HAND, 1: "2S 3S", 2: "4S", 3: "5H"})


def _without_counter(state) -> dict:
    doc = dump_position(state)
    doc.pop("stages_this_turn")
    return doc


def test_sh81_stage_two_melds_then_commit():
    """SH-8.1: two staged sets, then ``contract done``: the same table, hand and log as the
    compound action, which the log names (so records replay)."""
    st = _deal1()
    assert "stage 7S 7H 7C" in legal_texts(st) and "contract done" not in legal_texts(st)
    one = play(st, "stage 7S 7H 7C")
    assert one.hands == st.hands and one.staged == (one.parse_action("stage 7S 7H 7C").meld,)
    assert "stage KS KH KD" in legal_texts(one) and "stage 7S 7H 7C" not in legal_texts(one)
    two = play(one, "stage KS KH KD")
    assert "contract done" in legal_texts(two)
    done = play(two, "contract done")
    compound = play(st, "contract 7S 7H 7C, KS KH KD")
    assert done == compound
    assert done.history()[-1] == (0, "contract 7S 7H 7C, KS KH KD")
    assert meld_text(done, 1) == "7S 7H 7C" and meld_text(done, 2) == "KS KH KD"
    assert done.staged == () and done.has_made_contract(0)
    # staging left no log entries
    assert len(two.history()) == len(st.history())


def test_sh81_stage_order_does_not_matter():
    """SH-8.1: melds staged in any order commit to the canonical contract."""
    st = _deal1()
    assert play(st, "stage KS KH KD", "stage 7S 7H 7C", "contract done") == play(
        st, "contract 7S 7H 7C, KS KH KD")


def test_sh81_withdraw_the_last_then_restage():
    """SH-8.1: ``withdraw`` takes back the last staged meld; it can be staged again (a joker
    declared differently is another meld)."""
    st = build(hands={0: "7S 7H JK KS KH KD 2C 3D 4H 5S 9C 10D"})
    a = play(st, "stage KS KH KD", "stage 7S 7H JK=7D")
    b = play(a, "withdraw")
    assert _without_counter(b) == _without_counter(play(st, "stage KS KH KD"))
    c = play(b, "stage 7S 7H JK=7C", "contract done")
    assert meld_text(c, 1) == "7S 7H JK=7C"


def test_sh81_withdraw_all_restores_the_state():
    """SH-8.1: ``withdraw all`` leaves everything as before staging (``==``), except the count
    of stage actions this turn."""
    st = _deal1()
    staged = play(st, "stage 7S 7H 7C", "stage KS KH KD")
    back = play(staged, "withdraw all")
    assert back != st and back.stages == 2
    assert _without_counter(back) == _without_counter(st)
    assert legal_texts(back) == legal_texts(st)
    assert play(play(st, "stage 7S 7H 7C"), "withdraw") .staged == ()


@pytest.mark.parametrize("staged,rule", [
    (["stage 3H 4H 5H 6H", "stage 7H 8H 9H 10H"], "SH-8.3"),  # touching runs
    (["stage 3H 4H 5H 6H"], "SH-8.1"),                         # one run short
])
def test_sh81_refused_commit_leaves_the_melds_staged(staged, rule):
    """SH-8.1, SH-8.3: a commit the contract's shape refuses names the rule and leaves the
    melds staged (the state unchanged)."""
    st = build(hand_no=2, hands={0: "3H 4H 5H 6H 7H 8H 9H 10H KS 2C 2D 3C"})
    s = play(st, *staged)
    assert "contract done" not in legal_texts(s)
    assert_illegal(s, "contract done", rule)
    assert len(s.staged) == len(staged)
    assert {"withdraw", "withdraw all"} <= set(legal_texts(s))


def test_sh82_oversized_meld_refused_when_staged():
    """SH-8.2: a set of four is refused at staging (exact sizes); the compound names the same
    rule."""
    st = build(hands={0: "7S 7H 7D 7C KH KD KC 2S 3D 4H 5S 9C"})
    assert_illegal(st, "stage 7S 7H 7D 7C", "SH-8.2")
    assert_illegal(st, "contract 7S 7H 7D 7C, KH KD KC", "SH-8.2")


@pytest.mark.parametrize("text,rule", [
    ("stage 7S 7H", "SH-7.1"),                # too short for a set
    ("stage 7S JK=7H JK=7D", "SH-7.5"),       # two jokers in a set
    ("stage 2C 3D 4H 5S", "SH-7.2"),          # mixed suits
    ("stage 5S 6S 7S 8S", "SH-8.1"),          # contract 1 has no runs
    ("stage 7D 7H 7C", "SH-8.1"),             # no 7D in hand
])
def test_sh81_stage_checks_the_meld(text, rule):
    """SH-8.1: each staged meld is checked when staged (SH-7.1–SH-7.5, and the contract's room
    and the cards in hand)."""
    st = _deal1()
    with pytest.raises(MeldhallError) as info:
        st.apply(st.parse_action(text))
    assert getattr(info.value, "rule_id", None) == rule


def test_sh81_staged_cards_are_not_available_again():
    """SH-8.1: the cards of the staged melds are the hand's, but cannot be staged twice."""
    st = _deal1()
    s = play(st, "stage 7S 7H 7C")
    assert not any("7S" in t for t in legal_texts(s) if t.startswith("stage"))
    assert_illegal(s, "stage 7S 7H 7C", "SH-8.1")


def test_sh81_discard_while_staged_is_refused():
    """SH-8.1: nothing is discarded while melds are staged; discards are listed only when
    nothing is."""
    st = play(_deal1(), "stage 7S 7H 7C")
    assert not [t for t in legal_texts(st) if t.startswith("discard")]
    assert_illegal(st, "discard 2C", "SH-8.1")
    assert "discard 2C" in legal_texts(play(st, "withdraw"))


def test_sh81_no_staging_in_a_buy_window_or_before_the_draw():
    """SH-8.1: melds are staged only in the player's own meld phase: never in a buy window
    (neither by the player offered the card nor by the player in turn), nor before the draw."""
    st = build(phase="upcard", pile="4D 7D", upcard_from=3, hands={0: HAND, 1: "9D 9C"})
    assert_illegal(st, "stage 7S 7H 7C", "SH-8.1")
    window = play(st, "draw")
    assert window.phase == "buy"
    assert_illegal(window, "stage 7S 7H 7C", "SH-8.1")
    assert_illegal(window, "stage 7S 7H 7C", "SH-8.1", seat=0)
    asked = window.to_act[0]
    assert_illegal(window, "withdraw", "SH-8.1", seat=asked)
    assert_illegal(window, "contract done", "SH-8.1", seat=asked)
    # another seat during the player's meld phase
    meld = build(hands={0: HAND, 1: "7S 7H 7C 2D"})
    assert_illegal(meld, "stage 7S 7H 7C", "SH-8.1", seat=1)


def test_sh81_withdraw_or_commit_with_nothing_staged():
    """SH-8.1: ``withdraw`` and ``contract done`` need something staged."""
    st = _deal1()
    assert_illegal(st, "withdraw", "SH-8.1")
    assert_illegal(st, "withdraw all", "SH-8.1")
    assert_illegal(st, "contract done", "SH-8.1")
    made = play(st, "contract 7S 7H 7C, KS KH KD")
    assert_illegal(made, "contract done", "SH-8.6")
    assert_illegal(made, "stage 2C 2C 2C", "SH-8.6")


def test_sh81_stage_actions_are_bounded():
    """SH-8.1: at most STAGE_LIMIT stage actions per turn; withdraw and withdraw all stay legal
    at the bound, and the count starts again next turn."""
    st = _deal1()
    for _ in range(STAGE_LIMIT):
        st = play(st, "stage 7S 7H 7C", "withdraw")
    assert st.stages == STAGE_LIMIT
    assert not [t for t in legal_texts(st) if t.startswith("stage")]
    assert_illegal(st, "stage 7S 7H 7C", "SH-8.1")
    assert_illegal(st, "contract 7S 7H 7C, KS KH KD", "SH-8.1")
    assert legal_texts(st)[0].startswith("discard")
    # at the bound with a meld staged: only withdrawing
    st2 = _deal1()
    for _ in range(STAGE_LIMIT - 1):
        st2 = play(st2, "stage 7S 7H 7C", "withdraw")
    st2 = play(st2, "stage KS KH KD")
    assert st2.stages == STAGE_LIMIT
    assert legal_texts(st2) == ["withdraw", "withdraw all"]
    nxt = play(st2, "withdraw all", "discard 2C")
    assert nxt.stages == 0 and nxt.turn == 1


def test_sh81_compound_shorthand_is_accepted_not_listed():
    """SH-8.1: ``contract A, B`` is accepted (stage each, then commit) and never listed."""
    st = _deal1()
    assert not [t for t in legal_texts(st) if t.startswith("contract")]
    assert st.is_legal(st.parse_action("contract KS KH KD, 7S 7H 7C"))
    assert isinstance(st.parse_action("contract KS KH KD, 7S 7H 7C"), Contract)
    # on top of a staged meld, the shorthand adds its own
    staged = play(st, "stage 7S 7H 7C")
    assert play(staged, "contract KS KH KD") == play(st, "contract 7S 7H 7C, KS KH KD")


def test_sh81_notation_round_trips():
    """The staging actions have one canonical text each, parsed back (docs)."""
    st = _deal1()
    for text in ("stage 7S 7H 7C", "stage 7H 7C JK=7H", "stage 5D JK=6D 7D 8D", "withdraw",
                 "withdraw all", "contract done"):
        assert str(st.parse_action(text)) == text
    assert st.parse_action("stage 7c 7s 7h") == st.parse_action("stage 7S 7H 7C")
    assert str(st.parse_action("stage 5D JK 7D 8D")) == "stage 5D JK=6D 7D 8D"
    assert st.parse_action("withdraw") is WITHDRAW
    assert st.parse_action("WITHDRAW ALL") is WITHDRAW_ALL
    assert st.parse_action("contract done") is CONTRACT_DONE
    assert st.legal_actions()[0] is st.parse_action(str(st.legal_actions()[0]))
    for bad in ("stage", "stage 7S 7H 7C, KS KH KD", "withdraw some"):
        with pytest.raises(NotationError):
            st.parse_action(bad)


def test_sh81_observation_private_to_the_stager():
    """SH-8.1, SH-6.4: the stager's observation shows its staged melds (JSON key ``staged``
    and text); no other seat's observation changes; a sampled state keeps them."""
    st = _deal1()
    s = play(st, "stage 7S 7H 7C")
    j = s.observation(0).to_json()
    assert j["staged"] == ["7S 7H 7C"] and "7S 7H 7C" in s.observation(0).to_text()
    assert st.observation(0).to_json()["staged"] == []
    for seat in (1, 2, 3):
        assert s.observation(seat).to_json() == st.observation(seat).to_json()
        assert s.observation(seat).to_text() == st.observation(seat).to_text()
    sampled = s.observation(0).sample_state(random.Random(1))
    assert sampled.staged == s.staged and hand_of(sampled, 0) == hand_of(s, 0)
    assert "stage KS KH KD" in legal_texts(sampled)


def test_sh81_positions_carry_the_staging():
    """Positions write ``staged`` and ``stages_this_turn``, load them back, and refuse staged
    melds that are not legal or not in hand (RecordError)."""
    s = play(_deal1(), "stage 7S 7H 7C", "withdraw", "stage 7S 7H 7C")
    doc = dump_position(s)
    assert doc["staged"] == ["7S 7H 7C"] and doc["stages_this_turn"] == 2
    assert load_position(doc) == s
    old = dict(doc)
    del old["staged"], old["stages_this_turn"]
    assert load_position(old).staged == () and load_position(old).stages == 0
    for bad in (["7D 7H 7C"], ["7S 7H"], ["7S 7H 7C", "7S 7H 7C"], ["5S 6S 7S 8S"], "7S"):
        with pytest.raises(RecordError):
            load_position({**doc, "staged": bad})
    with pytest.raises(RecordError):
        load_position({**doc, "stages_this_turn": STAGE_LIMIT + 1})
    with pytest.raises(RecordError):
        load_position({**doc, "phase": "upcard"})


# --------------------------------------------------------------------------- action ids
@pytest.mark.parametrize("players", [3, 4, 5, 8])
def test_action_space_fixed_and_round_trips(players):
    """docs/protocol.md: ``num_distinct_actions`` is a constant of the options and player
    count, every id maps to an action whose id it is, and ids out of range are refused."""
    st = meldhall.new_game("shanghai-rummy", players=players, seed=1)
    n = st.num_distinct_actions
    assert n < 10_000
    for i in range(n):
        a = st.action_from_id(i)
        assert st.action_id(st.parse_action(str(a))) == i
    for bad in (-1, n, "3"):
        with pytest.raises(MeldhallError):
            st.action_from_id(bad)  # type: ignore[arg-type]
    with pytest.raises(MeldhallError):
        st.action_id(st.parse_action("contract 7S 7H 7C, KS KH KD"))
    with pytest.raises(MeldhallError):
        st.action_id(st.parse_action("discard 9C/1"))


# --------------------------------------------------------------------------- random play
def _stager(state, legal, rng):
    """A random player that loves staging and withdrawing (SH-8.1's bound must end its turn)."""
    stages = [a for a in legal if type(a) is Stage]
    withdraws = [a for a in legal if type(a) is Withdraw]
    r = rng.random()
    if stages and r < 0.7:
        return rng.choice(stages)
    if withdraws and r < 0.97:
        return rng.choice(withdraws)
    return rng.choice(legal)


@pytest.mark.parametrize("players,seed", [(3, 5), (8, 6)])
def test_sh81_random_staging_play_properties(players, seed):
    """Seeded random play by seats that keep staging and withdrawing, two deals: after every
    action the cards are conserved; stage and withdraw change no other seat's observation;
    every legal action's id round-trips; every turn ends within the stage bound."""
    from test_sh_properties import check_cards, check_private_staging

    rng = random.Random(seed)
    st = meldhall.new_game("shanghai-rummy", players=players, seed=seed,
                           options={"buy_limits": "unlimited"})
    n_ids = st.num_distinct_actions
    turn_actions = 0
    while st.hand_no < 2 and not st.is_terminal:
        legal = st.legal_actions()
        for a in legal:
            assert str(st.action_from_id(st.action_id(a))) == str(a)
        a = _stager(st, legal, rng) if st.phase == "meld" else rng.choice(legal)
        seat = st.to_act[0]
        prev, st = st, st.apply(a)
        check_cards(st)
        assert st.num_distinct_actions == n_ids
        if type(a) in (Stage, Withdraw):
            check_private_staging(prev, st, seat)
            turn_actions += 1
            assert turn_actions <= 2 * STAGE_LIMIT, "a turn did not end"
        else:
            turn_actions = 0
