"""Hints: ``meldhall.hints.hint`` and ``meldhall hint POSITION_FILE``."""

from __future__ import annotations

import json
import random
import re

import pytest
from typer.testing import CliRunner

from meldhall import new_game
from meldhall.bots import make_bot
from meldhall.cli import app
from meldhall.errors import OptionsError
from meldhall.hints import hint
from meldhall.record import Record, dump_position, dump_record, load_position

runner = CliRunner()
GAMES = [("classic-canasta", 4), ("railroad-canasta", 2), ("shanghai-rummy", 4)]


def midgame(game: str, players: int, seed: int, decisions: int):
    """A live state after ``decisions`` heuristic choices, waiting for a real choice."""
    policy = make_bot("heuristic", game)
    rng = random.Random(seed)
    state = new_game(game, players=players, seed=seed)
    made = 0
    while True:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            if made == decisions:
                return state
            made += 1
            state = state.apply(policy.choose(state.observation(seat), legal, rng), seat)
        else:
            state = state.apply(legal[0], seat)


@pytest.mark.parametrize("game,players", GAMES)
def test_cli_hint_on_a_position_file_is_a_legal_action(tmp_path, game, players):
    state = midgame(game, players, seed=21, decisions=6)
    path = tmp_path / "position.json"
    path.write_text(json.dumps(dump_position(state)))
    r = runner.invoke(app, ["hint", str(path), "--bot", "ismcts:12", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["game"] == game
    assert data["seat"] == state.to_act[0]
    loaded = load_position(path)
    action = loaded.parse_action(data["action"])
    assert loaded.is_legal(action, data["seat"])
    assert data["legal_count"] == len(loaded.legal_actions(data["seat"]))
    # alternatives (and the plan) are whole choices from before any staging (CC-6.9)
    before = loaded.unstaged()
    if data["plan"] is not None:
        assert before.is_legal(before.parse_action(data["plan"]), data["seat"])
    for alt in data["alternatives"]:
        assert before.is_legal(before.parse_action(alt["action"]), data["seat"])
        assert alt["action"] != data["action"]
        assert set(alt) >= {"value", "samples", "versus_recommended", "stderr"}
    # moves measured on two or more deals (with a standard error) first, those measured on
    # more deals first (the last challenger before the moves dropped early), each best first
    keys = [(a["stderr"] is not None, a["samples"] if a["stderr"] is not None else 0,
             -1e9 if a["versus_recommended"] is None else a["versus_recommended"])
            for a in data["alternatives"]]
    assert keys == sorted(keys, reverse=True)
    assert data["why"]
    assert data["value"] is not None and data["samples"] >= 1


def test_cli_hint_table_output_and_record_files(tmp_path):
    state = midgame("classic-canasta", 4, seed=5, decisions=4)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(dump_position(state)))
    r = runner.invoke(app, ["hint", str(path), "--bot", "ismcts:8"])
    assert r.exit_code == 0, r.output
    assert f"Hint for seat {state.to_act[0]}:" in r.stdout
    # the seat's own view, drawn as 'meldhall play' draws it, and only its own hand
    assert "Your hand (" in r.stdout and "Hand of" not in r.stdout
    # what the seat may do, never a phase name ("turn: seat 0 (meld)")
    # (with the seat's legal moves, as 'meldhall play' says it: "Draw (the pile cannot be
    # taken now)" where only a draw is legal, "Discard" where only discards are, "Stage
    # more, …" with melds staged)
    assert re.search(r"Your move: (Draw or take the pile|Draw \(the pile cannot be taken "
                     r"now\)|Meld or discard|Discard|Stage more)", r.stdout), r.stdout
    assert "turn: seat" not in r.stdout and "(meld)" not in r.stdout
    record = Record.from_state(state, initial_dealer=new_game(
        "classic-canasta", players=4, seed=5).dealer)
    rec_path = tmp_path / "game.json"
    rec_path.write_text(dump_record(record))
    r = runner.invoke(app, ["hint", str(rec_path), "--bot", "ismcts:8", "--json"])
    assert r.exit_code == 0, r.output
    # a record holds public actions only: a melding being staged is not in it (CC-6.9)
    replayed = record.final_state()
    assert replayed.is_legal(replayed.parse_action(json.loads(r.stdout)["action"]))


def test_hint_is_deterministic_and_blind_to_other_hands():
    state = midgame("shanghai-rummy", 4, seed=8, decisions=5)
    seat = state.to_act[0]
    first = hint(state, bot="ismcts:10", seed=3)
    assert hint(state, bot="ismcts:10", seed=3) == first
    other = state.observation(seat).sample_state(random.Random(99))
    assert hint(other, bot="ismcts:10", seed=3) == first


def test_hint_with_the_heuristic_and_forced_moves():
    state = midgame("classic-canasta", 2, seed=3, decisions=2)
    h = hint(state, bot="heuristic")
    assert state.is_legal(h.action, h.seat) and h.value is None and h.alternatives == []
    start = new_game("classic-canasta", players=2, seed=1)
    while len(start.legal_actions()) > 1:
        start = start.apply(start.legal_actions()[0])
    forced = hint(start)
    assert forced.legal_count == 1 and forced.action == start.legal_actions()[0]


def test_hint_refuses_a_seat_without_a_decision(tmp_path):
    state = midgame("classic-canasta", 4, seed=2, decisions=1)
    waiting = state.to_act[0]
    idle = (waiting + 1) % 4
    with pytest.raises(OptionsError, match=f"seat {idle} has no decision"):
        hint(state, idle)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(dump_position(state)))
    r = runner.invoke(app, ["hint", str(path), "--seat", str(idle)])
    assert r.exit_code == 2
    assert "has no decision to make now" in r.output
    r = runner.invoke(app, ["hint", str(tmp_path / "missing.json")])
    assert r.exit_code == 2 and "no such file" in r.output


def _readme_position(tmp_path):
    """The README tour's position: Classic Canasta, two players, seed 7, after 'draw'."""
    state = new_game("classic-canasta", players=2, seed=7).apply_text("draw")
    path = tmp_path / "position.json"
    path.write_text(json.dumps(dump_position(state)))
    return state, path


def test_hint_alternatives_agree_with_the_decision(tmp_path):
    # ismcts:48 is the normal level without its time cap (reproducible).  The search drops
    # moves after a few deals and gates only its last challenger: its own figures showed a
    # dropped move "+188 ± 152" on 3 deals beside a recommendation measured on 15 (issue 15,
    # item 7).  A hint plays the recommendation and every listed move out again on the same
    # deals: no listed move beats the recommendation by the gate.
    state, path = _readme_position(tmp_path)
    r = runner.invoke(app, ["hint", str(path), "--bot", "ismcts:48", "--top", "8", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    alts = data["alternatives"]
    # the rule that decided is the hint's own (the best mean on its deals), not the search
    # bot's gate, which a tester read beside a recommendation that did not meet it
    assert data["gate"] == (f"The hint recommends the move that did best on its "
                            f"{data['measured_deals']} sampled deals.")
    assert data["measured_deals"] == data["samples"] >= 2
    for alt in alts:
        assert alt["samples"] == data["measured_deals"]  # the same deals as the recommendation
        assert alt["stderr"] is not None
        assert alt["versus_recommended"] <= alt["stderr"] + 1, alt  # gate 1 SE, whole points
        for k in ("value", "versus_recommended", "stderr"):  # one precision in the list
            assert alt[k] is None or alt[k] == round(alt[k]), alt
    vs = [alt["versus_recommended"] for alt in alts]
    assert vs == sorted(vs, reverse=True)
    r = runner.invoke(app, ["hint", str(path), "--bot", "ismcts:48", "--top", "8"])
    text = " ".join(r.stdout.split())
    assert "compare move with move" in text and "Only that comparison decides" not in text


def test_hint_speaks_of_its_own_games_gate_only():
    from meldhall.bots.ismcts import parse_level
    from meldhall.hints import gate_rule

    for game, players in GAMES:
        h = hint(midgame(game, players, seed=4, decisions=3), bot="ismcts:24", seed=1)
        level = parse_level("24", game)  # the normal level's gate, 24 playouts
        text = h.why + " " + h.gate + " " + h.footnote()
        assert "Shanghai" not in text
        if h.measured:
            assert h.gate.startswith("The hint recommends the move that did best"), h.gate
            # one margin in every game where the hint measured the moves itself
            assert h.gate_z == 1.0 and "1.64" not in text, text
        else:
            assert h.gate == gate_rule(level)
        if level.gate_z == 1.0:
            assert "1.64" not in text and "fresh" not in text, text
        elif not h.measured:
            assert f"{level.gate_z:g} standard errors" in h.gate and "fresh" in h.gate
    # the search's own rule, per game, for the hints it gives unmeasured (gate_rule)
    for game, _players in GAMES:
        level = parse_level("24", game)
        rule = gate_rule(level)
        assert ("1.64 standard errors" in rule and "fresh" in rule) if level.gate_z != 1.0 \
            else ("one standard error" in rule and "fresh" not in rule), rule


def test_shanghai_hint_speaks_of_players_and_penalty_points(tmp_path):
    from rich.console import Console

    from meldhall.cli.hint import hint_view

    h = hint(midgame("shanghai-rummy", 4, seed=8, decisions=5), bot="ismcts:24", seed=3)
    assert h.penalty and h.value is not None
    console = Console(width=100, record=True)
    for part in hint_view(h, "seat 0"):
        console.print(part)
    text = " ".join(console.export_text().split())
    assert "side" not in text, text
    assert "penalty points" in text and "other players' mean" in text
    # said in words ("3 penalty points more than …"), no signed figure beside "fewer"/"more"
    # with its uncertainty apart: "8 penalty points more (± 7) than …"
    assert re.search(r"Estimate: (\d+ penalty points? (fewer|more)|as many penalty points) "
                     r"\(± \d+\) than", text), text
    classic = hint(midgame("classic-canasta", 4, seed=5, decisions=4), bot="ismcts:8")
    assert not classic.penalty


def test_why_says_no_better_for_a_zero_difference():
    from meldhall.bots.ismcts import LEVELS, ActionValue
    from meldhall.hints import _why

    state = new_game("classic-canasta", players=2, seed=7).apply_text("draw")
    a, b = [x for x in state.legal_actions() if str(x).startswith("discard")][:2]
    ranked = [ActionValue(a, 7, -20.0, True), ActionValue(b, 7, -20.0, False, 0.0, 0.0)]
    why = _why(ranked, LEVELS["classic-canasta"]["normal"])
    assert "did no better: +0 ± 0 points over 7 deals" in why and "worse" not in why
    ranked[1] = ActionValue(b, 7, -30.0, False, -10.0, 4.0)
    assert "did worse: −10 ± 4 points" in _why(ranked, LEVELS["classic-canasta"]["normal"])
    # Shanghai: the sign is said in penalty points
    ranked[1] = ActionValue(b, 7, -10.0, False, 6.0, 9.0)
    why = _why(ranked, LEVELS["shanghai-rummy"]["normal"], penalty=True)
    assert "+6 ± 9, fewer penalty points" in why and "side" not in why
    # a difference that rounds to nothing is "+0", never "-0", and brackets do not nest
    ranked[1] = ActionValue(b, 19, -10.0, False, -0.3, 6.0)
    why = _why(ranked, LEVELS["shanghai-rummy"]["normal"], penalty=True)
    assert "did no better: +0 ± 6, as many penalty points over 19 deals" in why


def test_moves_after_withdrawing_say_so():
    """With melds staged that no commit can use, a hint's discards are played after
    withdrawing them: the hint says so beside the figure (they read as better moves that could
    not be played)."""
    import random

    from meldhall import new_game
    from meldhall.bots import make_bot

    s = new_game("shanghai-rummy", players=4, seed=0)
    bot, rng = make_bot("heuristic", "shanghai-rummy"), random.Random(0)
    while True:
        seat = s.to_act[0]
        legal = s.legal_actions(seat)
        stages = [a for a in legal if str(a).startswith("stage")]
        if stages and seat == 0:
            s = s.apply(stages[0], seat)
            break
        s = s.apply(bot.choose(s.observation(seat), legal, rng), seat)
    h = hint(s, 0, bot="ismcts:24", seed=1).to_json()
    legal = [str(a) for a in s.legal_actions(0)]
    later = [alt for alt in h["alternatives"]
             if alt["action"] not in legal and alt["action"].startswith("discard")]
    assert later, h
    assert all(alt["note"].startswith("after withdrawing the staged melds") for alt in later)


def test_a_hint_keeps_what_it_staged_unless_beaten():
    """A hint that says "stage …" and, once that is staged, says "withdraw all" flip-flops
    (a tester saw it in the browser): with melds staged the hint's reference is going on with
    them, and another move must beat that by the gate, which the why then says."""
    from meldhall import new_game

    for seed in range(40):
        s = new_game("classic-canasta", players=2, seed=seed).apply_text("draw")
        first = hint(s, bot="ismcts:24", seed=2)
        step = first.next if first.next is not None else first.action
        if not str(step).startswith("stage"):
            continue
        s = s.apply(step)
        again = hint(s, bot="ismcts:24", seed=3)
        now = str(again.next if again.next is not None else again.action)
        if now.startswith("withdraw"):
            # only for a move that beat the reference on the hint's deals, which it names
            assert " better by " in again.why, again.why
        else:
            assert "staged" in again.why or again.measured == 0, again.why
        return
    pytest.skip("no seed in 0..39 whose hint stages a meld")


def test_following_a_hint_step_by_step_keeps_it():
    """A hint that says "stage J J J JK" (its melding ``meld J J J JK, 7 7 2``) says, once
    that is staged and asked again with the same seed, the same melding with the same figures
    and its next step, never "withdraw all": the search plans from the whole hand and its
    deals do not depend on what is staged (a tester saw the hint change its mind after being
    followed, Classic Canasta 2 players)."""
    from meldhall import new_game

    followed = 0
    for seed in range(40):
        s = new_game("classic-canasta", players=2, seed=seed).apply_text("draw")
        first = hint(s, bot="ismcts:24", seed=5)
        if first.next is None or not str(first.next).startswith("stage"):
            continue
        staged = s.apply(first.next)
        again = hint(staged, bot="ismcts:24", seed=5)
        assert str(again.plan) == str(first.action), (seed, again.why)
        assert not str(again.next).startswith("withdraw"), (seed, again.why)
        assert again.value == first.value and again.measured == first.measured
        assert [str(a) for a, _, _ in again.alternatives] == \
            [str(a) for a, _, _ in first.alternatives]
        followed += 1
        if followed == 3:
            return
    assert followed, "no seed in 0..39 whose hint stages a meld"


def test_web_hint_seed_ignores_staging():
    """The web table seeds a seat's hint by its table, seat and public actions only: staging
    (private, CC-6.9) leaves the seed as it was, another public action changes it."""
    from meldhall import new_game
    from meldhall.server.tables import hint_seed

    s = new_game("classic-canasta", players=2, seed=2)
    while not any(str(a).startswith("stage") for a in s.legal_actions()):
        s = s.apply(s.legal_actions()[0])
    seat = s.to_act[0]
    stage = next(a for a in s.legal_actions() if str(a).startswith("stage"))
    staged = s.apply(stage)
    assert staged.observation(seat).staged
    assert hint_seed("t1", seat, len(s.history())) == hint_seed("t1", seat,
                                                                 len(staged.history()))
    moved = s.apply(next(a for a in s.legal_actions() if str(a).startswith("discard")))
    assert hint_seed("t1", seat, len(moved.history())) != hint_seed("t1", seat,
                                                                    len(s.history()))
    assert hint_seed("t1", seat, 7) != hint_seed("t2", seat, 7) != hint_seed("t1", seat + 1, 7)


def _hint_with(comparisons, penalty=False, measured=8, players=4, partnership=True,
               staged=False):
    from meldhall.hints import Hint

    s = new_game("classic-canasta", players=2, seed=7).apply_text("draw")
    moves = [a for a in s.legal_actions() if str(a).startswith("discard")]
    alts = [(moves[i + 1], -10.0, measured) for i in range(len(comparisons))]
    return Hint(0, moves[0], -20.0, measured, alts, comparisons=comparisons, measured=measured,
                penalty=penalty, players=players, partnership=partnership, staged=staged)


def test_the_footnote_says_only_what_fits_the_figures():
    """A tester read "a positive figure smaller than its ± is noise" under a list of negative
    figures only, and "A negative difference: worse …" under figures all +0 ± 0: the footnote
    speaks of the signs the list has."""
    worse = _hint_with([(-30.0, 12.0), (-5.0, 4.0)]).footnote()
    assert worse.startswith("A negative difference: worse") and "noise" not in worse
    assert "same 8 sampled deals" in worse
    zero = _hint_with([(0.2, 0.0), (-0.3, 0.0)]).footnote()
    assert zero.startswith("+0: the same result") and "negative" not in zero
    assert "noise" not in zero
    # a positive figure only where staged melds are kept against a better-looking withdrawal
    mixed = _hint_with([(14.0, 20.0), (-8.0, 5.0)], staged=True).footnote()
    assert "negative" in mixed and "positive" in mixed and "noise" in mixed
    assert "staged" in mixed and "staged" not in worse
    # in penalty points the figures say "more" or "fewer" themselves ("9 more (± 7)"): no
    # sentence on signs (a tester read "+ means fewer" the wrong way round)
    sh = _hint_with([(-3.0, 2.0)], penalty=True).footnote()
    assert sh.startswith("Every move here") and "noise" not in sh and "positive" not in sh
    from meldhall.cli.hint import _versus

    assert _versus(-9.0, 7.0, None, 18, penalty=True) == "9 more (± 7)"
    assert _versus(4.0, 3.0, None, 18, penalty=True) == "4 fewer (± 3)"
    assert _versus(-9.0, 7.0, None, 18) == "−9 ± 7" or _versus(-9.0, 7.0, None, 18) == "-9 ± 7"
    # the web shows the same sentence (JSON "footnote")
    assert _hint_with([(-30.0, 12.0)]).to_json()["footnote"] == \
        _hint_with([(-30.0, 12.0)]).footnote()


def test_estimates_name_whom_they_are_measured_against():
    """"the other players' mean" with one opponent read wrong: two players, the other
    player's; partnerships, the other side's."""
    assert _hint_with([], players=2, partnership=False).others() == "the other player's"
    assert _hint_with([], players=3, partnership=False).others() == \
        "the other players' mean"
    assert _hint_with([], players=4).others() == "the other side's"
    assert _hint_with([], players=2, partnership=False).to_json()["players"] == 2


def test_a_difference_of_nothing_on_every_deal_is_said_in_words():
    from meldhall.hints import _same

    assert _same(0.2, 0.3) == "exactly as well on every deal"
    assert _same(0.0, 4.0) == "" and _same(3.0, 0.0) == "" and _same(None, None) == ""


@pytest.mark.parametrize("game,players,seed", [("classic-canasta", 2, 11),
                                               ("railroad-canasta", 2, 4),
                                               ("shanghai-rummy", 4, 8)])
def test_no_other_move_reads_better_than_the_recommendation(game, players, seed):
    """A tester read "discard 8  +12 ± 182" under the recommendation "discard A": with nothing
    staged the hint recommends the move that did best on its own deals, so every other figure
    is at most +0, the estimate carries its ± and the why speaks only of figures shown."""
    h = hint(midgame(game, players, seed=seed, decisions=6), bot="ismcts:16", seed=1)
    assert h.measured and not h.staged, h.why
    assert all(adv is not None and round(adv) <= 0 for adv, _ in h.comparisons), h.comparisons
    assert h.value_stderr is not None and h.to_json()["value_stderr"] is not None
    # a tie (two meldings the playouts finish alike) is said as a tie
    assert ("did best of the" in h.why or "did as well as any of the" in h.why) \
        and "first preferred" not in h.why, h.why


def test_the_why_opens_with_what_the_move_does_at_the_table():
    """Testers read every why as a sentence about the search: it now opens with the move's
    side at the table — a first melding's count against the minimum (CC-7.1: K K K counts
    30, a joker 50, a two 20), what a discard gives the next player (CC-8.3, CC-8.6, CC-8.10),
    a Shanghai buy's two cards (SH-10.4)."""
    from meldhall.games.canasta.actions import Discard, Meld, MeldSpec
    from meldhall.hints import game_reason

    s = new_game("classic-canasta", players=2, seed=0).apply_text("draw")
    obs = s.observation(s.to_act[0])
    assert game_reason("classic-canasta", obs, Meld((MeldSpec(13, 3), MeldSpec(9, 2, 1, 0),
                                                     MeldSpec(5, 2, 0, 1)))) == (
        "it melds 9 cards for a count of 130, the first melding needing 50 (CC-7.1)")  # 30+40+60
    assert "freezes the pile" in game_reason("classic-canasta", obs, Discard(2))
    assert "CC-8.10" in game_reason("classic-canasta", obs, Discard(3))
    held = [k for k in range(4, 14) if (obs.hand & obs.pack.rank_mask[k]).bit_count() == 1]
    if held:
        assert game_reason("classic-canasta", obs, Discard(held[0])).startswith("your only ")
    assert "no meld of" in game_reason("classic-canasta", obs, Discard(held[0] if held else 13))
    # Shanghai's contract and lay-off say what they do (a tester found such whys statistics
    # only): SH-9.1 lay-offs from the next turn, SH-8.6 no other meld this deal
    sh = new_game("shanghai-rummy", players=3, seed=1)
    sobs = sh.observation(0)
    said = game_reason("shanghai-rummy", sobs, sh.parse_action("contract done"))
    assert "lay off on any meld" in said and "SH-9.1" in said and "SH-8.6" in said, said
    said = game_reason("shanghai-rummy", sobs, sh.parse_action("layoff 9H -> 2"))
    assert said.startswith("it lays off a card") and "SH-9.1" in said, said
    h = hint(midgame("shanghai-rummy", 4, seed=8, decisions=5), bot="ismcts:24", seed=3)
    if str(h.action) == "buy":
        assert h.why.startswith("Buying adds the upcard and a penalty card"), h.why


def test_a_hint_that_withdraws_a_players_own_melding_shows_it():
    """A player stages a melding of their own choice that reaches the minimum (CC-6.9,
    CC-7.1); a hint that says "withdraw all" lists the melding staged beside its figure, so
    the footnote's "the melds you have staged are kept unless …" refers to a row shown (a
    tester saw "withdraw all" with no row for the melds staged, and that footnote)."""
    from meldhall import new_game
    from meldhall.bots.staging import planning_actions

    seen = 0
    for seed in range(30):
        s = new_game("classic-canasta", players=2, seed=seed).apply_text("draw")
        obs, legal = s.observation(s.to_act[0]), s.legal_actions()
        plans = [p for p in planning_actions(obs, legal)
                 if str(p).startswith("meld") and "," in str(p)]
        if not plans:
            continue
        steps = s._expand(plans[-1])  # the last of the listed meldings: seldom the bot's
        for a in steps:
            if not getattr(type(a), "PRIVATE", False):
                break
            s = s.apply(a)
        h = hint(s, bot="ismcts:24", seed=1)
        now = str(h.next if h.next is not None else h.action)
        notes = " | ".join(h.notes)
        if now.startswith("withdraw") and h.measured:
            assert "goes on with the melds you have staged" in notes, (now, notes)
        if "staged are kept" in h.footnote():
            assert "goes on with the melds you have staged" in notes or not \
                now.startswith("withdraw"), (now, notes)
        seen += 1
        if seen >= 4:
            return
    assert seen, "no seed in 0..29 with a two-meld first melding"


def _heuristic_play(game: str, players: int, seeds: range, limit: int):
    """Every state of the first hand of each seed's game, the heuristic bot playing every
    seat (seeded by the seed): ``(state, seat to act)``, before its move."""
    import random

    from meldhall import new_game
    from meldhall.bots.heuristic import heuristic_bot

    bot = heuristic_bot(game)
    for seed in seeds:
        s, rng = new_game(game, players=players, seed=seed), random.Random(seed)
        for _ in range(limit):
            if s.outcome is not None:
                break
            seat = s.to_act[0]
            yield s, seat
            s = s.apply(bot.choose(s.observation(seat), s.legal_actions(), rng))


def test_an_add_says_how_far_the_meld_gets():
    """A hint's why for an add says what it does at the table (a tester saw "add 8 -> 8"
    recommended with no reason): how many cards the meld then holds, against the seven of a
    canasta (CC-6.6)."""
    from meldhall.hints import game_reason

    for s, seat in _heuristic_play("classic-canasta", 2, range(40), 400):
        adds = [a for a in s.legal_actions() if str(a).startswith("add ")]
        if adds:
            reason = game_reason("classic-canasta", s.observation(seat), adds[0])
            assert re.search(r"your (meld|canasta) of \S+", reason), reason
            assert "canasta" in reason and ("CC-6.6" in reason or "adds to" in reason)
            return
    pytest.fail("no add in 40 seeds")


def test_a_shanghai_discard_says_why_at_the_table():
    """A Shanghai discard's why says whether the contract needs the card (or, once made,
    whether it fits a table meld), not only its cost (a tester read "5♦ would count 5 penalty
    points" beside a 10 and an ace as a reason against it; SH-8, SH-9.3, SH-13.2)."""
    import random

    from meldhall.bots.heuristic import heuristic_bot
    from meldhall.bots.shanghai_heuristic import _counts, _View
    from meldhall.games.shanghai.rules import card_points
    from meldhall.hints import game_reason

    bot, rng = heuristic_bot("shanghai-rummy"), random.Random(0)
    said = ties = 0
    for s, seat in _heuristic_play("shanghai-rummy", 4, range(6), 300):
        obs = s.observation(seat)
        a = bot.choose(obs, s.legal_actions(), rng)
        if str(a).startswith("discard") and not getattr(obs, "staged", ()):
            reason = game_reason("shanghai-rummy", obs, a)
            if reason:
                assert ("your hand is as near the contract as with it" in reason
                        or "fits no meld on the table" in reason), reason
                # its cost is said only where it is the dearest card held (beside dearer
                # ones, its points argued for discarding those: a tester)
                pts = card_points(a.kind, obs.options)
                v = _View(obs)
                dearest = all(card_points(k, obs.options) <= pts
                              for k, n in enumerate(_counts(obs.hand, v.n52)) if n)
                assert ("SH-13.2" in reason) == dearest, reason
                held = [k for k, n in enumerate(_counts(obs.hand, v.n52)) if n]
                # "the dearest" only with no other kind held as dear (a tester held an ace,
                # 20 points, beside a recommended 2: SH-13.2)
                tied = any(card_points(k, obs.options) == pts for k in held if k != a.kind)
                if dearest and tied:
                    assert "no card you hold costs more" in reason, reason
                    ties += 1
                elif dearest:
                    assert "it is the dearest kind of card you hold" in reason, reason
                said += 1
    assert said >= 10
    assert ties >= 1  # the tie is met in these deals


def test_a_footnote_under_a_better_looking_move_does_not_say_did_best():
    """A listed move with a positive figure (better on these deals, by less than the margin)
    and a footnote that said "The recommendation is the move that did best on them" read as a
    contradiction (a tester): the footnote says the recommendation is one no move beat by more
    than the margin, and that a smaller positive figure is noise."""
    from meldhall.hints import Hint

    state = new_game("shanghai-rummy", players=3, seed=1)
    legal = state.legal_actions()
    h = Hint(state.to_act[0], legal[0], -3.0, 12, [(legal[1], -1.0, 12)], "ismcts",
             len(legal), [(11.0, 8.0)], penalty=True, measured=12, gate_z=1.64)
    foot = h.footnote()
    assert "or one that no move beat by more than 1.64 standard errors" in foot, foot
    assert "a positive figure smaller than 1.64 times its ± is noise" in foot, foot
    assert "did best on them." not in foot, foot
    # with nothing better listed, it did best, and says so
    h2 = Hint(state.to_act[0], legal[0], -3.0, 12, [(legal[1], -1.0, 12)], "ismcts",
              len(legal), [(-11.0, 8.0)], penalty=True, measured=12, gate_z=1.64)
    assert "The recommendation is the move that did best on them." in h2.footnote()
    # few deals: said, as the figures' ± are then wide (a tester met a harder hint that ranked
    # two close moves the other way round); enough deals: not said
    assert "12 deals are few: moves within about twice their ± of each other may change " \
        "places in another hint." in h2.footnote()
    h3 = Hint(state.to_act[0], legal[0], -3.0, 40, [(legal[1], -1.0, 40)], "ismcts",
              len(legal), [(-11.0, 8.0)], penalty=True, measured=40)
    assert "are few" not in h3.footnote()


def _canasta_states(game: str, players: int, seeds: range):
    """Random-play states of a canasta game (the heuristic for every seat), in order."""
    bot = make_bot("heuristic", game)
    for seed in seeds:
        st = new_game(game, players=players, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal and st.phase != "hand_end":
            yield st
            seat = st.to_act[0]
            st = st.apply(bot.choose(st.observation(seat), st.legal_actions(seat), rng), seat)


def test_canasta_draw_and_take_reasons_say_what_they_do_at_the_table():
    """A draw's why says why not the pile (the cards a take shows, CC-5.9), and a take with a
    wild card beside natural ones held says what it keeps (a tester found both whys
    statistics only)."""
    from meldhall.hints import game_reason

    st = new_game("classic-canasta", players=2, seed=7)
    obs = st.observation(st.to_act[0])
    draw = next(a for a in st.legal_actions() if str(a) == "draw")
    assert game_reason("classic-canasta", obs, draw) == (
        "the pile holds only 1 card, and taking it would show the others the cards you meld "
        "with it and every card it gives you (CC-5.9)")
    seen = False
    for st in _canasta_states("classic-canasta", 2, range(40)):
        if st.phase != "draw":
            continue
        obs = st.observation(st.to_act[0])
        for a in st.legal_actions():
            if str(a).startswith("take ") and not a.extra and a.twos + a.jokers == 1:
                held = (obs.hand & obs.pack.rank_mask[a.rank]).bit_count()
                reason = game_reason("classic-canasta", obs, a)
                assert reason.startswith("it takes the whole pile, "), reason
                if held > a.naturals:
                    left = held - a.naturals
                    assert f"; using the wild card keeps {left} " in reason, reason
                    assert reason.endswith("in your hand for later"), reason
                    seen = True
                else:
                    assert "keeps" not in reason, reason
        if seen:
            break
    assert seen, "no take with a wild card beside a natural still held"


def test_a_hint_measures_the_move_that_makes_a_canasta():
    """An addition that makes a canasta is among the moves a hint measures even where the
    search drew no playout of it (a tester asked why the hint never spoke of one): the one
    with the fewest wild cards per meld (CC-6.6)."""
    from meldhall.hints import _obvious

    found = 0
    for st in _canasta_states("classic-canasta", 2, range(30)):
        if st.phase != "meld":
            continue
        obs = st.observation(st.to_act[0])
        legal = st.legal_actions()
        side = obs.public["side_of"][obs.seat]
        sizes = {m.rank: m.naturals + m.twos + m.jokers for m in obs.public["melds"][side]
                 if m is not None}
        makes = [a for a in legal if str(a).startswith("add ") and a.rank in sizes
                 and sizes[a.rank] < 7 <= sizes[a.rank] + a.size]
        got = [a for a in _obvious("classic-canasta", obs, legal)
               # the natural meld and the lone cards' discards: their own tests
               if not str(a).startswith(("meld ", "discard"))]
        assert set(got) <= set(makes)
        assert bool(got) == bool(makes)
        for a in got:
            assert a.twos + a.jokers == min(b.twos + b.jokers for b in makes if b.rank == a.rank)
        found += bool(got)
        if found >= 3:
            break
    assert found >= 3
    assert _obvious("shanghai-rummy", new_game("shanghai-rummy", players=3).observation(0),
                    []) == []


def test_a_meld_that_lets_the_player_go_out_says_so():
    """A canasta meld or addition that leaves one card whose discard goes out says so in its
    why (CC-10.1, RR-11.1; a tester read such a hint explained by statistics only); one that
    leaves more cards, or one that cannot go out, does not."""
    from meldhall.hints import game_reason

    said = 0
    for game, players in (("classic-canasta", 2), ("railroad-canasta", 2)):
        before = said
        for st in _canasta_states(game, players, range(12)):
            if said > before:
                break  # one such meld a game, and the others checked on the way
            if st.phase != "meld":
                continue
            seat = st.to_act[0]
            obs = st.observation(seat)
            for a in st.legal_actions(seat):
                if str(a).split(" ", 1)[0] not in ("meld", "add"):
                    continue
                after = st.apply(a, seat)
                outs = [d for d in after.legal_actions(seat) if str(d).startswith("discard ")
                        and after.apply(d, seat).hands[seat] == 0] \
                    if after.hands[seat].bit_count() == 1 and seat in after.to_act else []
                reason = game_reason(game, obs, a)
                if outs:
                    assert reason.startswith("it leaves you one card, "), reason
                    assert "discarding it goes out this turn" in reason, reason
                    said += 1
                else:
                    assert "goes out this turn" not in reason, reason
        assert said > before, game


def test_a_notes_words_agree_with_its_figure():
    """A tester read "the same result as the recommendation on every deal … on these 13 deals
    the recommendation did better" in one line (a meld staged below the minimum, Classic
    Canasta): a note says "did better" only beside a worse figure, and a tie as a tie."""
    from meldhall.hints import _compared

    assert _compared(-12.0, 8.0, 1.0) == "the recommendation did better"
    assert _compared(0.0, 0.0, 1.0) == "the recommendation did exactly as well"
    assert "not a clear difference (under its ±)" in _compared(5.0, 9.0, 1.0)

    from meldhall import new_game

    checked = 0
    for seed in range(12):
        s = new_game("classic-canasta", players=2, seed=seed).apply_text("draw")
        stages = [a for a in s.legal_actions() if str(a).startswith("stage")]
        if not stages:
            continue
        s = s.apply(stages[0])
        h = hint(s, bot="ismcts:24", seed=3).to_json()
        for alt in h["alternatives"]:
            vs, note = alt["versus_recommended"], alt["note"]
            assert "computer player" not in note, note
            if "did better" in note and "this move" not in note:
                assert vs is not None and round(vs) < 0, alt
            if "came out the same" in note:
                assert "recommendation did better" not in note, alt
            checked += 1
    assert checked


def test_a_reason_against_the_move_says_why_it_is_still_recommended():
    """A tester read "One of your 2 5s, though the next player has a meld of 5s to take the
    pile with (RR-8.5): on 8 sampled deals, it did best" as a reason given with no reason to
    play the move anyway: the figures then follow "even so"."""
    from meldhall.hints import _with_reason

    why = "On 30 sampled deals, it did best of the 4 moves tried."
    against = "one of your 2 5s, though the next player has a meld of 5s to take the pile with"
    assert _with_reason(why, against) == (
        "One of your 2 5s, though the next player has a meld of 5s to take the pile with; "
        "even so, on 30 sampled deals, it did best of the 4 moves tried.")
    assert _with_reason(why, "it melds 3 cards").startswith("It melds 3 cards: on 30 sampled")


def test_a_close_call_is_said():
    """Two levels gave opposite discards on the README's position, each "not a clear
    difference" (testers): a hint whose next move is within the margin says it is a close
    call, in its JSON, the terminal headline and the footnote; a tie of identical results is
    not a call."""
    from meldhall import new_game
    from meldhall.hints import Hint

    a, b, c = new_game("classic-canasta", players=2, seed=7).apply_text("draw") \
        .legal_actions()[-3:]
    close = Hint(0, a, 10.0, 30, [(b, 0.0, 30)], comparisons=[(-40.0, 90.0)], measured=30,
                 legal_count=2)
    clear = Hint(0, a, 10.0, 30, [(b, 0.0, 30)], comparisons=[(-400.0, 90.0)], measured=30,
                 legal_count=2)
    tie_then_clear = Hint(0, a, 10.0, 30, [(b, 0.0, 30), (c, 0.0, 30)],
                          comparisons=[(0.0, 0.0), (-400.0, 90.0)], measured=30, legal_count=3)
    assert close.close_call and close.to_json()["close_call"]
    assert "This is a close call" in close.footnote()
    assert not clear.close_call and "close call" not in clear.footnote()
    assert not tie_then_clear.close_call
    assert not Hint(0, a, None, 0).close_call

    from meldhall.cli.hint import hint_view
    from rich.console import Console

    console = Console(width=200, record=True)
    for part in hint_view(close, "you"):
        console.print(part)
    assert "(a close call: the next move did about as well)" in console.export_text()


def test_a_hint_measures_a_new_natural_meld():
    """A tester held A A A and asked why "meld A A A" was never among the moves a Railroad
    hint compared: the largest new meld of natural cards is always measured."""
    import random

    from meldhall import new_game
    from meldhall.bots import make_bot
    from meldhall.hints import _obvious

    s = new_game("railroad-canasta", players=2, seed=1)
    bot, rng = make_bot("heuristic", "railroad-canasta"), random.Random(0)
    while True:
        seat = s.to_act[0]
        legal = s.legal_actions(seat)
        melds = [str(a) for a in _obvious("railroad-canasta", s.observation(seat), legal)
                 if str(a).startswith("meld ")]
        if melds:
            break
        s = s.apply(bot.choose(s.observation(seat), legal, rng), seat)
    assert melds == ["meld K K K"]
    h = hint(s, seat, bot="ismcts:8", seed=1).to_json()
    shown = [h["action"], h["plan"]] + [a["action"] for a in h["alternatives"]]
    assert "meld K K K" in shown, shown


def _canasta_position():
    """Classic Canasta 4 players, seed 3, the heuristic playing: seat 0's meld phase with an
    addition that makes its side's meld of 9s a canasta (add 9 9 2 2 -> 9, CC-6.6)."""
    for s, seat in _heuristic_play("classic-canasta", 4, range(3, 4), 40):
        if seat == 0 and s.phase == "meld" and "add 9 9 2 2 -> 9" in map(str, s.legal_actions()):
            return s
    pytest.fail("the position was not reached")


def test_a_discard_against_meldings_says_it_melds_nothing_more_and_names_the_canasta():
    """A tester read a discard listed against additions as if both could not be made in one
    turn, and met "discard 8" recommended over the addition that made the side's first
    canasta with no word of it: the hint says the discard means melding nothing more this
    turn (``melds_nothing_more``), and the why names the canasta-making addition behind it
    with its figure."""
    from meldhall.hints import Hint, _canasta_clause

    s = _canasta_position()
    h = hint(s, 0, seed=1)
    j = h.to_json()
    if str(h.action).startswith("discard"):
        assert h.melds_nothing_more and j["melds_nothing_more"] is True
        assert "which makes a canasta" in h.why or "making the canasta now" in h.why, h.why
    else:
        assert not h.melds_nothing_more
    # the rule by itself: a discard over a listed addition, and over discards only
    add = next(a for a in s.legal_actions() if str(a) == "add 9 9 2 2 -> 9")
    disc = next(a for a in s.legal_actions() if str(a).startswith("discard"))
    assert Hint(0, disc, 1.0, 30, [(add, 0.0, 30)]).melds_nothing_more
    assert not Hint(0, disc, 1.0, 30, [(disc, 0.0, 30)]).melds_nothing_more
    why = "On 30 sampled deals, it did best of the 3 moves tried; the next, discard 4, did 5 ± 9 points worse."
    assert _canasta_clause(why, disc, [(add, None, 30)], [(-199.0, 73.0)], [add], False) \
        == why[:-1] + "; making the canasta now, add 9 9 2 2 -> 9, did 199 ± 73 points worse."
    named = f"On 30 deals, it did best; the next, {add}, did 199 ± 73 points worse."
    assert "the next, add 9 9 2 2 -> 9, which makes a canasta, did" in _canasta_clause(
        named, disc, [(add, None, 30)], [(-199.0, 73.0)], [add], False)
    # the recommendation makes the canasta itself: nothing to add
    assert _canasta_clause(why, add, [(disc, None, 30)], [(-5.0, 9.0)], [add], False) == why


def test_a_move_level_with_the_recommendation_is_not_said_twice():
    """A tester read "the same result as the recommendation on every deal (30 deals) — came
    out the same as discard 2♠ on every deal" (discard 2♠ the recommendation): beside a move
    with the recommendation's result on every deal, the note gives only why."""
    checked = 0
    for seed in range(3, 13):
        for s, seat in _heuristic_play("classic-canasta", 4, range(seed, seed + 1), 120):
            if seat != 0 or s.phase != "meld" or len(s.legal_actions()) < 3:
                continue
            h = hint(s, 0, bot="ismcts:24", seed=1)
            for (a, _v, _n), (adv, se), note in zip(h.alternatives, h.comparisons, h.notes):
                if adv is not None and se is not None and round(adv) == 0 and round(se) == 0 \
                        and "the same way" in note:
                    assert f"came out the same as {h.action}" not in note, note
                    assert "after either move" in note, note
                    checked += 1
            if checked >= 2:
                return
    assert checked, "no move came out level with the recommendation"


def test_a_shorthand_melding_listed_names_its_first_step():
    """A tester met "take A A" in a Railroad hint beside the move list's "stage A A +
    upcard": an alternative that is a whole melding written as shorthand names the legal step
    that begins it (``next`` in the JSON); a move legal by itself has none."""
    from meldhall import new_game

    seen = 0
    for seed in range(30):
        s = new_game("railroad-canasta", players=2, seed=seed)
        legal = s.legal_actions()
        if not any(str(a).startswith("stage") and "upcard" in str(a) for a in legal):
            continue
        h = hint(s, bot="ismcts:8", seed=1)
        for alt in h.to_json()["alternatives"]:
            if alt["action"] in map(str, legal):
                assert alt["next"] is None, alt
            else:
                assert alt["next"] in map(str, legal), alt
                if alt["action"].startswith("take"):
                    assert alt["next"].startswith("stage") and "upcard" in alt["next"], alt
                    seen += 1
        if seen:
            return
    pytest.fail("no take listed as shorthand in 30 deals")


def test_joker_suit_twins_take_no_place_among_the_alternatives():
    """A tester found ``contract 7♥ 7♣ 7♣, A♠ A♣ Jk=A♠`` listed beside the recommended ``…
    Jk=A♣``: moves that differ only in the suit a set's joker stands for (SH-9.4) are listed
    once."""
    from meldhall.bots.ismcts import ActionValue
    from meldhall.hints import _distinct

    def av(text):
        return ActionValue(text, 4, 0.0, False)

    best = av("contract 7H 7C 7C, AS AC JK=AC")
    rest = [av("contract 7H 7C 7C, AS AC JK=AS"), av("discard 9S"), av("discard 9S"),
            av("contract 7H 7C 7C, AS AC JK=AD"), av("stage 5S 6S JK=7S 8S")]
    assert [a.action for a in _distinct(rest, best)] == ["discard 9S", "stage 5S 6S JK=7S 8S"]


def test_a_shanghai_take_of_a_card_that_fits_nothing_says_so_as_a_reason_against():
    """A tester read "Why: The upcard 4♥ fits no meld on the table" beside a recommended take:
    the reason is said as one against the move, with what speaks for it, and the figures follow
    "even so" (SH-9.3, SH-10.2)."""
    from meldhall.hints import _with_reason, game_reason

    for s, seat in _heuristic_play("shanghai-rummy", 4, range(10), 400):
        obs = s.observation(seat)
        if s.phase != "upcard" or not getattr(obs, "public", None):
            continue
        take = next((a for a in s.legal_actions() if str(a) == "take"), None)
        reason = game_reason("shanghai-rummy", obs, take) if take is not None else ""
        if "fits no meld" in reason:
            assert ", though " in reason, reason
            why = _with_reason("On 30 sampled deals, it did best.", reason)
            assert "; even so, on 30 sampled deals" in why, why
            return
    pytest.fail("no take of a card fitting no table meld in 10 deals")


def test_a_new_meld_of_a_side_that_has_melded_says_what_it_does():
    """A tester met a Railroad why of figures only for ``meld 9 9 9``: a new meld of a side that
    has melded says that its cards count for the side on the table rather than against it in
    hand (CC-12.1, CC-12.6; RR-13.1, RR-13.5)."""
    from meldhall.hints import game_reason

    for game, rules in (("classic-canasta", "CC-12.1, CC-12.6"),
                        ("railroad-canasta", "RR-13.1, RR-13.5")):
        for s, seat in _heuristic_play(game, 2, range(20), 400):
            obs = s.observation(seat)
            side = obs.public["side_of"][seat]
            if not [m for m in obs.public["melds"][side] if m is not None]:
                continue
            meld = next((a for a in s.legal_actions() if str(a).startswith("meld ")), None)
            if meld is None:
                continue
            reason = game_reason(game, obs, meld)
            if "leaves you one card" in reason:
                continue  # going out next is said instead
            assert rules in reason and "on the table" in reason, (str(meld), reason)
            break
        else:
            pytest.fail(f"no new meld of a melded side in {game}")


def test_shanghai_buy_and_pass_say_what_the_card_does_for_the_contract():
    """A tester met a pass recommended on a card that completed contract 1 with only the buy's
    cost said, and a buy explained by its cost alone: both say what the card does for the
    contract (SH-8, SH-10.4); a pass then says it "though"."""
    from meldhall.hints import _shanghai_contract_gain, game_reason

    said = 0
    for s, seat in _heuristic_play("shanghai-rummy", 4, range(12), 300):
        if s.phase != "buy":
            continue
        obs = s.observation(seat)
        toward = _shanghai_contract_gain(obs)
        legal = {str(a): a for a in s.legal_actions(seat)}
        if not toward or "buy" not in legal or "pass" not in legal:
            continue
        assert "would complete your contract" in toward or "closer" in toward, toward
        buy = game_reason("shanghai-rummy", obs, legal["buy"])
        pas = game_reason("shanghai-rummy", obs, legal["pass"])
        assert buy.startswith("buying ") and toward in buy and "SH-10.4" in buy, buy
        assert pas.endswith(f", though buying {toward}") and "SH-10.4" in pas, pas
        said += 1
    assert said >= 2


def test_a_shanghai_discard_from_a_hand_holding_its_contract_says_so():
    """A tester read "without 9♠ your hand is as near the contract as with it" of a hand that
    held its whole contract: the reason says the hand holds it without the card (SH-8.1)."""
    from meldhall.bots.shanghai_heuristic import _View
    from meldhall.hints import game_reason

    for s, seat in _heuristic_play("shanghai-rummy", 4, range(20), 400):
        if s.phase != "meld":
            continue
        obs = s.observation(seat)
        v = _View(obs)
        if v.made or v.deficiency(v.counts) != 0:
            continue
        for a in s.legal_actions(seat):
            if not str(a).startswith("discard"):
                continue
            counts = list(v.counts)
            counts[a.kind] -= 1
            if v.deficiency(counts) == 0:
                reason = game_reason("shanghai-rummy", obs, a)
                assert reason.startswith("you hold your whole contract without"), reason
                assert "as near the contract" not in reason
                return
    pytest.fail("no hand holding its whole contract in 20 deals")


def test_lone_cards_are_among_the_discards_a_hint_measures():
    """A tester found "discard 5" of three 5s recommended while the lone J and 8 were never
    measured (Classic Canasta 4 players, seed 11, seat 0's first meld phase; on 200 deals the
    J did 68 ± 42 better than the 5): a hint measures up to two discards of a lone natural
    card, the next player's side's ranks last."""
    import random

    from meldhall.bots.heuristic import heuristic_bot
    from meldhall.hints import _lone_discards

    s = new_game("classic-canasta", players=4, seed=11)
    bot, rng = heuristic_bot("classic-canasta"), random.Random(0)
    while s.to_act != (0,) or s.phase != "meld":
        seat = s.to_act[0]
        s = (s.apply_text("draw", 0) if seat == 0 else
             s.apply(bot.choose(s.observation(seat), s.legal_actions(seat), rng), seat))
    assert sorted(map(str, _lone_discards(s.observation(0), s.legal_actions(0)))) == \
        ["discard 8", "discard J"]
    h = hint(s, 0, seed=0)
    listed = {str(a): note for (a, _v, _n), note in zip(h.alternatives, h.notes)}
    for d in ("discard 8", "discard J"):
        if d != str(h.action):
            assert d in listed and "a card you hold only one of" in listed[d], listed
