"""The ``meldhall`` command: simulate, play (scripted through stdin), replay, rules, bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meldhall.cli import app
from meldhall.rules_text import RULE_FILES, rule_ids

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


# --------------------------------------------------------------------------- simulate


def test_simulate_json_fields():
    r = run("simulate", "classic-canasta", "--players", "4", "--games", "3", "--bots", "random",
            "--seed", "11", "--json", "--quiet")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)  # exactly one JSON object on stdout
    assert data["game"] == "classic-canasta"
    assert data["players"] == 4
    assert data["games"] == 3
    assert data["errors"] == 0
    assert data["hands"] >= 3 and data["actions"] > data["hands"]
    assert data["seconds"] >= 0
    assert len(data["wins"]) == 2 and sum(data["wins"]) >= 3
    assert len(data["mean_hand_score"]) == 2
    assert len(data["mean_final_score"]) == 2
    assert data["bots"] == ["random"] * 4
    assert data["win_rate"] == [round(w / 3, 4) for w in data["wins"]]


def test_simulate_bots_cycle_and_two_players():
    r = run("simulate", "classic-canasta", "--players", "2", "--games", "2", "--bots",
            "random,random", "--seed", "3", "--json", "--quiet")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["players"] == 2 and len(data["wins"]) == 2 and data["errors"] == 0


def test_simulate_same_results_with_workers():
    args = ["simulate", "classic-canasta", "--games", "4", "--bots", "random", "--seed", "5",
            "--json", "--quiet"]
    one = json.loads(run(*args).stdout)
    two = json.loads(run(*args, "--workers", "2").stdout)
    for d in (one, two):
        d.pop("seconds")
        d.pop("workers")
    assert one == two


def test_simulate_table_output():
    r = run("simulate", "classic-canasta", "--games", "2", "--bots", "random", "--quiet",
            "--option", "target_score=1500")
    assert r.exit_code == 0, r.output
    assert "Win rate" in r.stdout and "errors: 0" in r.stdout
    assert "target_score=1500" in r.stdout


def test_simulate_json_stdout_is_one_object_in_a_real_process():
    p = subprocess.run(
        [sys.executable, "-m", "meldhall", "simulate", "classic-canasta", "--games", "2",
         "--bots", "random", "--seed", "1", "--json"],
        check=False, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["errors"] == 0
    assert "Traceback" not in p.stderr


# --------------------------------------------------------------------------- play


def test_play_refused_move_shows_rule_then_quit():
    # seed 3: the first decision is seat 0's draw, so a discard is refused by CC-5.2
    script = "help\ndiscard K\nlegal\ntable\nscore\nrules CC-8.5\n999\nnonsense\nquit\n"
    r = run("play", "classic-canasta", "--seed", "3", "--bots", "random", input=script)
    assert r.exit_code == 0, r.output
    out = r.output
    assert re.search(r"Refused \(CC-\d+\.\d+\)", out)
    assert "CC-5.2" in out
    assert "Your hand" in out and "Stock:" in out and "Pile:" in out
    assert "Taking a frozen pile" in out  # the in-game rules command: the players' rule
    rule = out.split("Taking a frozen pile", 1)[1].split("Not understood", 1)[0]
    assert "[decision" not in rule and "[seed" not in rule
    assert "Not understood" in out
    assert "You left the game." in out
    assert "Traceback" not in out


def test_play_end_of_input_exits_cleanly():
    r = run("play", "classic-canasta", "--seed", "3", "--bots", "random", input="draw\n")
    assert r.exit_code == 0, r.output
    assert "You drew" in r.output
    assert "End of input" in r.output


@pytest.mark.parametrize("game", ["classic-canasta", "railroad-canasta"])
def test_play_status_says_what_the_player_may_do(game):
    # seed 3 (both games): seat 0 decides first; the status line says what it may do, as the
    # web table's header does, never the engine's phase name ("(meld)", "(draw)")
    r = run("play", game, "--players", "2", "--seed", "3", "--bots", "random",
            input="draw\nquit\n")
    assert r.exit_code == 0, r.output
    out = r.output
    before, after = out.split("Your move> draw", 1)
    # (seed 3: the pile is out of reach, draw is the only move, and the status says so)
    assert "Your move: Draw (the pile cannot be taken now)" in before
    assert "Your move: Meld or discard" in after
    assert "To act:" not in out and "(meld" not in out and "(draw)" not in out


def test_play_status_names_the_upcard_and_the_buy():
    # Shanghai, three players, seed 1: seat 0 is offered the upcard to buy first; its status
    # says which card and what buying costs
    r = run("play", "shanghai-rummy", "--players", "3", "--seed", "1", "--bots", "random",
            input="quit\n")
    assert r.exit_code == 0, r.output
    assert re.search(r"Your move: Buy (10|[2-9AKQJ])[♠♥♦♣]\? \(\+1 penalty card\)",
                     r.output), r.output
    from meldhall.cli.render import phase_text
    assert phase_text("shanghai-rummy", "buy", True, "7H") == "Buy 7♥? (+1 penalty card)"
    assert phase_text("shanghai-rummy", "buy", False, "7H") == "to buy 7♥ or pass"
    assert phase_text("classic-canasta", "hand_end", True) == \
        "The hand is over: deal the next one"


@pytest.fixture(scope="module")
def played_game(tmp_path_factory):
    """A whole four-player game: the human always picks action 1; the record is saved."""
    path = tmp_path_factory.mktemp("rec") / "game.json"
    r = run("play", "classic-canasta", "--seed", "5", "--bots", "random", "--save", str(path),
            input="1\n" * 20000)
    return r, path


def test_play_full_game_through_stdin(played_game):
    r, path = played_game
    assert r.exit_code == 0, r.output[-3000:]
    out = r.output
    assert "Game over" in out
    assert "Score sheet" in out
    assert re.search(r"CC-12\.\d", out)  # the score breakdown names its rules
    assert "hand score" in out
    assert path.exists()
    rec = json.loads(path.read_text())
    assert rec["format"] == "meldhall-record"
    assert rec["seats"][0] == "human"
    assert rec["result"]["finished"] is True


def test_replay_saved_record(played_game):
    _, path = played_game
    r = run("replay", str(path), "--tables", "hands")
    assert r.exit_code == 0, r.output[-3000:]
    assert "Score sheet" in r.output
    assert "is over" in r.output
    rec = json.loads(path.read_text())
    from meldhall.record import load_record

    final = load_record(path).final_state()
    assert list(final.scores) == rec["result"]["scores"]


def test_replay_from_a_seat_and_step(played_game):
    _, path = played_game
    r = run("replay", str(path), "--seat", "1", "--step", input="\n\nq\n")
    assert r.exit_code == 0, r.output
    assert "Stopped." in r.output
    assert "Your hand" in r.output


def test_replay_step_shows_each_action_and_the_seats_own_moves(tmp_path):
    """Stepping shows the table after every action, and the record's last position (a tester
    stepped through a record of one draw and never saw the table after it); the seat's view
    says what it could do as the play screen does (the pile out of reach: CC-8.3)."""
    path = tmp_path / "one.json"
    r = run("play", "classic-canasta", "--players", "2", "--seed", "7", "--save", str(path),
            input="draw\nquit\n")
    assert r.exit_code == 0, r.output
    assert "Your move: Draw (the pile cannot be taken now)" in r.output
    r = run("replay", str(path), "--seat", "0", "--step", input="\n\n")
    assert r.exit_code == 0, r.output
    text = r.output
    assert "Your move: Draw (the pile cannot be taken now)" in text, text
    after = text[text.index("1. seat 0 (you): drew"):]
    assert "Your move: Discard  ('discard …')" in after, after  # the table after the draw
    assert after.index("Your move: Discard") < after.index("The record ends before the game does")


def test_play_and_save_partial_game(tmp_path):
    path = tmp_path / "partial.json"
    r = run("play", "classic-canasta", "--players", "2", "--seed", "2", "--bots", "random",
            "--save", str(path), input="draw\nquit\n")
    assert r.exit_code == 0, r.output
    rec = json.loads(path.read_text())
    assert rec["players"] == 2 and rec["result"]["finished"] is False
    assert run("replay", str(path), "--tables", "none").exit_code == 0


def _hand_line(text: str) -> str:
    return [ln for ln in text.splitlines() if "Your hand (" in ln][-1]


def test_play_hint_is_meldhall_hint_for_the_seat(tmp_path, monkeypatch):
    # a budget without a time cap, so the in-game hint is reproducible on a busy machine
    from meldhall.cli import play
    from meldhall.cli.render import pretty_notation

    monkeypatch.setattr(play, "HINT_BOT", "ismcts:8")
    path = tmp_path / "now.json"
    r = run("play", "classic-canasta", "--players", "2", "--seed", "2", "--bots", "random",
            input=f"draw\nhint\nsave {path}\nquit\n")
    assert r.exit_code == 0, r.output
    out = r.output.split("Your move> hint", 1)[1]
    assert "Hint for you: " in out and "Why: " in out
    said = out.split("Hint for you: ", 1)[1].split("\n", 1)[0].strip()
    said = said.split("  (a close call", 1)[0]  # the headline may say it is a close call
    assert "to play it" in out
    # the same adviser and seed as 'meldhall hint' on the game so far (the seat's view only)
    h = run("hint", str(path), "--bot", "ismcts:8", "--json")
    assert h.exit_code == 0, h.output
    # the terminal shows suit symbols (issue 15, item 9); the JSON keeps the notation
    assert pretty_notation(json.loads(h.stdout)["action"]) == said


def test_play_sort_toggles_the_hand_by_suit_and_back():
    r = run("play", "classic-canasta", "--players", "2", "--seed", "2", "--bots", "random",
            input="sort\nsort\nquit\n")
    assert r.exit_code == 0, r.output
    first, by_suit, by_rank = r.output.split("Your move> sort")
    assert "shown by suit" in by_suit and "shown by rank" in by_rank
    suit_line, rank_line = _hand_line(by_suit), _hand_line(by_rank)
    assert suit_line != rank_line and rank_line == _hand_line(first)
    # by suit: each group holds one suit of natural cards; the wild cards (2s and jokers) in
    # a group of their own, last (a tester found a wild 2♦ at the head of the diamonds)
    groups = suit_line.split(":", 1)[1].strip(" │").split(" │ ")
    for group in groups:
        cards = group.split()
        wild = [c for c in cards if c in ("Jk", "JK") or c.startswith("2")]
        assert not wild or (wild == cards and group is groups[-1]), suit_line
        suits = {c[-1] for c in cards if c not in ("Jk", "JK")}
        assert len(suits) <= 1 or wild, suit_line
    r = run("play", "shanghai-rummy", "--seed", "2", "--bots", "random", input="sort\nquit\n")
    assert r.exit_code == 0, r.output
    assert "shown by rank" in r.output


def test_play_sort_rank_and_sort_suit_name_the_order():
    r = run("play", "classic-canasta", "--players", "2", "--seed", "2", "--bots", "random",
            input="help\nsort suit\nsort suit\nsort rank\nsort colour\nquit\n")
    assert r.exit_code == 0, r.output
    helped = " ".join(r.output.split("Your move> sort suit", 1)[0].split())
    assert "sort rank / sort suit" in helped  # the help names both
    first, suit1, suit2, rank, bad = r.output.split("Your move> sort ")
    assert "unknown action" not in r.output and "Not understood" not in r.output
    assert "shown by suit" in suit1 and "shown by suit" in suit2  # not a toggle
    assert _hand_line(suit1) == _hand_line(suit2) != _hand_line(rank)
    assert _hand_line(rank) == _hand_line(first)
    assert "'sort rank' or 'sort suit'" in bad


def test_play_save_mid_game_and_play_on(tmp_path):
    path = tmp_path / "mid.json"
    r = run("play", "classic-canasta", "--players", "2", "--seed", "2", "--bots", "random",
            input=f"draw\nsave {path}\nsave {tmp_path}\nlegal\n1\nquit\n")
    assert r.exit_code == 0, r.output
    assert f"saved to {path.resolve()}" in " ".join(r.output.split())
    assert "is a folder" in r.output
    rec = json.loads(path.read_text())
    assert rec["format"] == "meldhall-record" and rec["result"]["finished"] is False
    assert rec["seats"][0] == "human" and len(rec["actions"]) >= 1
    assert run("replay", str(path), "--tables", "none").exit_code == 0
    # the game went on after the save: the move (a staged meld) was played
    assert "withdraw all" in r.output.split("Your move> 1", 1)[1]


def test_play_save_without_a_file_names_where(tmp_path, monkeypatch):
    """A plain 'save' writes into meldhall's saves folder, never into the folder the game was
    started from (a source checkout got an untracked meldhall-classic-canasta-7.json)."""
    here, saves = tmp_path / "here", tmp_path / "saves"
    here.mkdir()
    monkeypatch.chdir(here)
    monkeypatch.setenv("MELDHALL_SAVES", str(saves))
    r = run("play", "railroad-canasta", "--players", "2", "--seed", "4", "--bots", "random",
            input="save\nquit\n")
    assert r.exit_code == 0, r.output
    path = saves / "meldhall-railroad-canasta-4.json"
    assert path.exists() and not list(here.iterdir())
    assert str(path.resolve()) in " ".join(r.output.split())
    # another game of the same seed later does not overwrite it; its own saves update one file
    first = path.read_text()
    r = run("play", "railroad-canasta", "--players", "2", "--seed", "4", "--bots", "random",
            input="save\ndraw\nsave\nquit\n")
    assert r.exit_code == 0, r.output
    second = saves / "meldhall-railroad-canasta-4-2.json"
    assert path.read_text() == first and second.exists()
    assert {p.name for p in saves.iterdir()} == {path.name, second.name}
    assert " ".join(r.output.split()).count(str(second.resolve())) >= 2


def test_saves_folder_defaults_to_the_user_data_folder(monkeypatch):
    from platformdirs import user_data_dir

    from meldhall.cli.play import saves_folder

    monkeypatch.delenv("MELDHALL_SAVES", raising=False)
    assert saves_folder() == Path(user_data_dir("meldhall", appauthor=False)) / "saves"


def test_a_closed_pipe_ends_quietly(tmp_path):
    """'meldhall hint … --json | head' closed the pipe and printed "internal error:
    BrokenPipeError"."""
    import subprocess

    proc = subprocess.run(
        f"{sys.executable} -m meldhall rules classic-canasta --raw | true",
        shell=True, capture_output=True, text=True, timeout=120)
    assert "internal error" not in proc.stderr and "BrokenPipe" not in proc.stderr, proc.stderr


def test_play_refusals_name_the_seats():
    # seed 3, four players: after the draw, asking a seat that is not the partner is refused
    r = run("play", "classic-canasta", "--seed", "3", "--bots", "random",
            input="draw\nask 1\nquit\n")
    assert r.exit_code == 0, r.output
    refusal = r.output.split("Your move> ask 1", 1)[1].split("Read the rule", 1)[0]
    assert "the random bot (seat 2)" in refusal
    from meldhall.cli.play import Session

    s = Session("classic-canasta", 4, 0, 3, ["heuristic", "random"], {}, None)
    assert s.seat_names("it is seat 1's turn to act, not seat 0's (there are no out-of-turn "
                        "plays)") == ("it is the heuristic bot's (seat 1) turn to act, not "
                                      "yours (there are no out-of-turn plays)")
    assert s.seat_names("the upcard is being offered to seat 3; seat 0 may not act now") == \
        "the upcard is being offered to the heuristic bot (seat 3); you may not act now"
    assert s.seat_names("it is seat 0's turn") == "it is your turn"
    # the verb agrees with "you" (it read "you is being offered the upcard")
    assert s.seat_names("seat 0 is being offered the upcard; seat 0 has no buy left") == \
        "you are being offered the upcard; you have no buy left"


def test_play_refusal_names_cards_with_suit_symbols():
    # Shanghai, three players, seed 1: the human (seat 0) is offered the upcard first, so a
    # draw is refused, said to "you"; a refusal naming a card writes it K♥ (SH-6.2)
    r = run("play", "shanghai-rummy", "--players", "3", "--seed", "1", "--bots", "heuristic",
            input="draw\nquit\n")
    assert r.exit_code == 0, r.output
    assert "you are being offered the upcard" in r.output
    from meldhall.cli.play import Session
    from meldhall.errors import IllegalActionError

    import io

    from rich.console import Console

    s = Session("shanghai-rummy", 3, 0, 1, ["heuristic"], {}, None)
    buf = io.StringIO()
    s.console = Console(file=buf, width=100)
    s.refused(IllegalActionError("SH-6.2", "you do not hold KH"))
    assert "Refused (SH-6.2): you do not hold K\u2665" in buf.getvalue()


# --------------------------------------------------------------------------- hint


def test_hint_view_recommendation_first_then_comparable_alternatives():
    from rich.console import Console

    from meldhall import new_game
    from meldhall.cli.hint import hint_view
    from meldhall.hints import Hint

    state = new_game("classic-canasta", players=2, seed=2)
    state = state.apply_text("draw")
    legal = [str(a) for a in state.legal_actions()]
    a = [state.parse_action(x) for x in legal if x.startswith("discard")][:4]
    h = Hint(0, a[0], -195.0, 15,
             [(a[1], 65.0, 1), (a[2], -93.7, 15), (a[3], -68.3, 3)], "ismcts", len(legal),
             [(490.0, None), (101.3, 297.7), (188.3, 152.4)], why="Because.",
             notes=["dropped after 1 deal: others led",
                    "last challenger: short of the gate on every deal",
                    "dropped after 3 deals: others led"])
    console = Console(width=120, record=True)
    for part in hint_view(h, "seat 0"):
        console.print(part)
    text = console.export_text()
    from meldhall.cli.render import pretty_notation as pn

    assert text.index(f"Hint for seat 0: {pn(str(a[0]))}") < text.index("Why: Because.") \
        < text.index(pn(str(a[1])))
    assert "Estimate: −195 points" in text and "15 playouts" in text
    rows = [ln for ln in text.splitlines() if ln.strip().startswith("discard")]
    # measured moves (with a standard error) first: the last challenger, which the decision
    # compared on every deal, before a move dropped after 3 deals however good it looked
    # there (each with how far it got); one playout: nothing to say
    assert [r.split()[:2] for r in rows] == [pn(str(x)).split() for x in (a[2], a[3], a[1])]
    assert "+101 ± 298" in rows[0] and "last challenger" in rows[0]
    assert "+188 ± 152" in rows[1] and "dropped after 3 deals" in rows[1]
    assert "too few playouts to say" in rows[2] and "490" not in rows[2]


def test_signed_points_use_a_minus_sign():
    from meldhall.hints import signed

    assert (signed(-11), signed(0.4), signed(-0.4), signed(188)) == ("−11", "+0", "+0", "+188")


def test_cli_hint_why_and_json_fields(tmp_path):
    path = tmp_path / "g.json"
    r = run("play", "classic-canasta", "--players", "2", "--seed", "7", "--bots", "random",
            "--save", str(path), input="draw\nquit\n")
    assert r.exit_code == 0, r.output
    r = run("hint", str(path), "--bot", "ismcts:12")
    assert r.exit_code == 0, r.output
    text = " ".join(r.stdout.split())
    assert text.index("Hint for seat 0:") < text.index("Why:") < text.index("Other moves")
    assert "± one standard error" in text
    data = json.loads(run("hint", str(path), "--bot", "ismcts:12", "--json").stdout)
    assert data["why"] and {"action", "value", "samples", "alternatives"} <= set(data)


# --------------------------------------------------------------------------- rules


def test_rules_one_rule():
    r = run("rules", "classic-canasta", "CC-8.5")
    assert r.exit_code == 0, r.output
    assert "CC-8.5" in r.output and "Taking a frozen pile" in r.output
    assert "CC-8.6" not in r.output
    raw = run("rules", "classic-canasta", "8.5", "--raw")
    assert raw.stdout.startswith("**CC-8.5**")


def test_rules_whole_and_section():
    r = run("rules", "classic-canasta")
    assert r.exit_code == 0 and "Classic Canasta" in r.output
    s = run("rules", "classic-canasta", "CC-13")
    assert s.exit_code == 0 and "CC-13.1" in s.output and "CC-12.1" not in s.output


SEED_FILE = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")


def assert_players_text(output: str) -> None:
    """No seed citation, seed file name, decision note or word "seed" (what --annotated adds)."""
    assert "[seed" not in output and "[decision" not in output
    assert not SEED_FILE.search(output)
    assert not re.search(r"\bseeds?\b", output, re.IGNORECASE)


@pytest.mark.parametrize("game", list(RULE_FILES))
def test_rules_are_the_players_rules(game):
    for extra in ((), ("--raw",)):
        r = run("rules", game, *extra)
        assert r.exit_code == 0, r.output
        assert_players_text(r.output)
        assert "House rules" in r.output and "Edge cases" in r.output
    raw = run("rules", game, "--raw").stdout
    assert re.findall(r"^\*\*([A-Z]{2}-\d+\.\d+)\*\*", raw, re.MULTILINE) == rule_ids(game)


@pytest.mark.parametrize("game", list(RULE_FILES))
def test_rules_tables_keep_every_word_at_80_columns(game):
    """The house-rules tables wrap long option names instead of cutting them with "…"
    (it printed ``hidden_canasta_bon…``)."""
    import io

    from rich.console import Console

    from meldhall.cli.render import RulesMarkdown
    from meldhall.rules_text import player_rules

    buf = io.StringIO()
    Console(file=buf, width=80).print(RulesMarkdown(player_rules(game)))
    text = buf.getvalue()
    assert not re.search(r"\w\u2026", text)  # a cell cut short ends in a letter and "…"
    # every option name whole on one line (the four-column table split
    # "single_card_pile_restric / tion" and cropped the Affects column), its rules named beside
    # it, and its choices in words, never true/false
    from meldhall.rules_text.players import house_rules, spec_blocks
    from meldhall.rules_text.spec import rules_text

    lines = [ln.rstrip() for ln in text.splitlines()]
    start = max(i for i, ln in enumerate(lines) if ln.strip() == "House rules")
    end = next((i for i, ln in enumerate(lines) if i > start and ln.strip() == "Edge cases"),
               len(lines))
    first_item = next(i for i in range(start, end) if lines[i].lstrip().startswith("•"))
    section = "\n".join(lines[first_item:end])  # the items, after the introduction
    table = next(b for b in spec_blocks(rules_text(game)) if b.kind == "house_rules")
    for rule in house_rules(table):
        line = next((ln for ln in section.splitlines()
                     if re.search(rf"(?<![\w]){rule.name}(?![\w])", ln)), None)
        assert line is not None, rule.name
        for rule_id in rule.affects:
            assert rule_id in " ".join(section.split()), (rule.name, rule_id)
    assert not re.search(r"\b(true|false)\b", section)


def test_rules_one_rule_without_its_tags():
    # RR-11.1 carries seed citations and a decision note naming its house rule in the spec
    for extra in ((), ("--raw",)):
        r = run("rules", "railroad-canasta", "RR-11.1", *extra)
        assert r.exit_code == 0, r.output
        assert_players_text(r.output)
        assert "RR-11.1" in r.output and "RR-11.2" not in r.output
        assert "go_out_requirement" in r.output and "House rule" in r.output
    sh = run("rules", "shanghai-rummy", "6.5", "--raw").stdout
    assert_players_text(sh)
    assert "`discard_taken_upcard`" in sh


def test_rules_annotated_is_the_specification():
    r = run("rules", "railroad-canasta", "RR-11.1", "--annotated", "--raw")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("**RR-11.1**")
    assert "[seed: 000_25550e1fa00c17eb.txt]" in r.stdout and "[decision:" in r.stdout
    whole = run("rules", "classic-canasta", "--annotated", "--raw").stdout
    assert "## 0. Seed audit" in whole and SEED_FILE.search(whole)
    rendered = run("rules", "classic-canasta", "CC-4.8", "--annotated")
    assert rendered.exit_code == 0 and "[seed" in rendered.output
    assert "--annotated" in run("rules", "--help").output


def test_rules_shipped_copy_matches_docs():
    from importlib import resources

    for name in [*RULE_FILES.values(), "README.md"]:
        shipped = resources.files("meldhall.rules_text").joinpath(name).read_text("utf-8")
        docs = (ROOT / "docs" / "rules" / name).read_text("utf-8")
        assert shipped == docs, f"src/meldhall/rules_text/{name} differs from docs/rules/{name}"
    shipped_md = {p.name for p in (ROOT / "src/meldhall/rules_text").glob("*.md")}
    assert shipped_md == {p.name for p in (ROOT / "docs/rules").glob("*.md")}


# --------------------------------------------------------------------------- bad input


@pytest.fixture
def corrupt_files(tmp_path):
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{ not json")
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"format": "something-else"}')
    illegal = tmp_path / "illegal.json"
    illegal.write_text(json.dumps({
        "format": "meldhall-record", "version": 1, "game": "classic-canasta", "players": 4,
        "seed": 1, "dealer": 0, "options": {}, "seats": [], "actions": ["discard K"],
    }))
    files = {"bad": bad_json, "wrong": wrong, "illegal": illegal, "dir": tmp_path}
    for key, game, players, action in (("sh", "shanghai-rummy", 4, "discard KH"),
                                       ("rr", "railroad-canasta", 3, "kitty")):
        files[key] = tmp_path / f"{key}.json"
        files[key].write_text(json.dumps({
            "format": "meldhall-record", "version": 1, "game": game, "players": players,
            "seed": 1, "dealer": 0, "options": {}, "seats": [], "actions": [action],
        }))
    return files


BAD = [
    ["play", "chess"],
    ["simulate", "chess", "--bots", "random"],
    ["play", "classic-canasta", "--option", "no_such_option=1"],
    ["simulate", "classic-canasta", "--bots", "random", "--option", "no_such_option=1"],
    ["simulate", "classic-canasta", "--bots", "random", "--option", "target_score=-5"],
    ["simulate", "classic-canasta", "--bots", "random", "--option", "wild_ratio=strange"],
    ["simulate", "classic-canasta", "--bots", "random", "--option", "target_score"],
    ["simulate", "classic-canasta", "--bots", "random", "--option", "=3"],
    ["simulate", "classic-canasta", "--bots", "random", "--players", "5"],
    ["simulate", "classic-canasta", "--bots", "random", "--games", "0"],
    ["simulate", "classic-canasta", "--bots", "random", "--workers", "0"],
    ["simulate", "classic-canasta", "--bots", "nobody"],
    ["simulate", "classic-canasta", "--bots", "random", "--preset", "nope"],
    ["play", "classic-canasta", "--seat", "4"],
    ["play", "classic-canasta", "--players", "7"],
    ["play", "classic-canasta", "--bots", "nobody"],
    ["rules", "classic-canasta", "CC-99.1"],
    ["rules", "classic-canasta", "nonsense"],
    ["rules", "chess"],
    ["replay", "{dir}/missing.json"],
    ["replay", "{dir}"],
    ["replay", "{bad}"],
    ["replay", "{wrong}"],
    ["replay", "{illegal}"],
    ["play", "classic-canasta", "--save", "{dir}/no/such/folder/x.json"],
    ["play", "shanghai-rummy", "--players", "2"],
    ["play", "railroad-canasta", "--players", "9"],
    ["play", "shanghai-rummy", "--seat", "4"],
    ["play", "railroad-canasta", "--option", "no_such_option=1"],
    ["play", "shanghai-rummy", "--option", "deals=3"],
    ["play", "railroad-canasta", "--bots", "nobody"],
    ["play", "shanghai-rummy", "--preset", "nope"],
    ["replay", "{sh}"],
    ["replay", "{rr}"],
    ["replay", "{sh}", "--seat", "7"],
]


@pytest.mark.parametrize("args", BAD, ids=[" ".join(a) for a in BAD])
def test_bad_input_is_a_message_not_a_traceback(args, corrupt_files):
    args = [a.format(**corrupt_files) for a in args]
    r = run(*args, input="")
    assert r.exit_code != 0, r.output
    assert "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "error" in r.output.lower()


@pytest.mark.parametrize("key,rule", [("illegal", "CC-5.2"), ("sh", "SH-"), ("rr", "RR-")])
def test_corrupt_record_names_the_action(corrupt_files, key, rule):
    r = run("replay", str(corrupt_files[key]), "--tables", "none")
    assert r.exit_code != 0
    assert "action 1" in r.output and rule in r.output


# --------------------------------------------------------------------------- help


@pytest.mark.parametrize("cmd", [[], ["play"], ["simulate"], ["replay"], ["rules"]])
def test_help(cmd):
    r = run(*cmd, "--help")
    assert r.exit_code == 0
    assert "Usage" in r.output
    assert len(r.output) > 300


def test_play_names_the_house_rules_in_effect():
    """The game's opening lines say which house rules --preset and --option changed."""
    r = run("play", "classic-canasta", "--players", "2", "--seed", "1", "--preset", "pagat",
            "--option", "target_score=3000", input="quit\n")
    assert r.exit_code == 0, r.output
    line = " ".join(r.output.split("House rules:", 1)[1].split("(the rules", 1)[0].split())
    assert "wild_ratio=pagat" in line and "target_score=3000" in line
    plain = run("play", "classic-canasta", "--players", "2", "--seed", "1", input="quit\n")
    assert "House rules:" not in plain.output


def test_terminal_move_list_uses_suit_symbols():
    """Issue 15 (9): the numbered list said "discard 2S" while the table and log said 2♣."""
    r = run("play", "shanghai-rummy", "--players", "3", "--seed", "3", "--bots", "heuristic",
            input="draw\nlegal\nquit\n")
    assert r.exit_code == 0, r.output
    listed = [ln for ln in r.output.splitlines() if re.search(r"\d\) discard", ln)]
    assert listed and all("♠" in ln or "♥" in ln or "♦" in ln or "♣" in ln for ln in listed)
    assert not any(re.search(r"\d\) discard (?:10|[2-9AJQK])[SHDC]\b", ln) for ln in listed)


def test_your_own_log_lines_read_in_the_second_person():
    """"You: draws from the stock (8♦)" read wrong: the player's own lines say what they did."""
    from meldhall.cli.play import _you

    assert _you("draws from the stock (8♦)") == "drew from the stock (8♦)"
    assert _you("does not buy", "pass") == "did not buy"
    assert _you("buys 5♥ with a penalty card", "buy") == "buys 5♥ with a penalty card"
    r = run("play", "shanghai-rummy", "--players", "3", "--seed", "3", "--bots", "heuristic",
            input="draw\nquit\n")
    assert "You: drew from the stock" in r.output and "You: draws" not in r.output
    # the other players' lines read alike ("seat 3: draw — declines 2♦" beside "You: draw —
    # declined" read as two different things)
    others = [ln for ln in r.output.splitlines() if re.match(r"\s*\W?\s*seat \d", ln)]
    assert others and not any(re.search(r"— (draws|declines|takes|passes) ", ln) or
                              re.search(r": (draws|declines|takes) ", ln) for ln in others)


def test_a_wrapped_hand_never_ends_or_starts_a_line_with_a_separator():
    """A tester saw "5♥ 5♦ │ │" at the end of a wrapped hand (the group separator beside the
    panel's border): the hand wraps between groups and leaves the separator out there."""
    from rich.console import Console

    from meldhall.cards import parse_cards
    from rich.text import Text

    from meldhall.cli.render import HandLine, hand_text

    cards = hand_text(parse_cards("2C AS KD 10H 10C 9D 7H 7D 6S 4S 4C 3C 3C QH QD JS 8H 5H"))
    for width in range(30, 90, 3):
        c = Console(width=width, record=True)
        c.print(HandLine(Text("Your hand (18): ", style="bold"), cards))
        lines = [ln.rstrip() for ln in c.export_text().splitlines() if ln.strip()]
        assert all(not ln.endswith("│") and not ln.lstrip().startswith("│") for ln in lines), \
            (width, lines)
        # every card is still there, each group whole on one line
        assert "".join(lines).count("10♥ 10♣") == 1, lines


def test_ask_without_a_partner_is_refused_by_its_rule():
    """"Not understood: … you have no partner to ask": 'ask' is understood; CC-10.5 refuses it
    in a game without partnerships."""
    r = run("play", "classic-canasta", "--players", "2", "--seed", "2", "--bots", "heuristic",
            input="draw\nask\nquit\n")
    assert "Refused (CC-10.5): you have no partner to ask" in r.output
    assert "Not understood" not in r.output


def test_staged_melds_write_the_joker_as_the_hand_does():
    """The staged row read "J J J JK" under a hand and melds that write "Jk"."""
    r = run("play", "classic-canasta", "--players", "2", "--seed", "2", "--bots", "heuristic",
            input="draw\nstage J J J Jk\nquit\n")
    staged = [ln for ln in r.output.splitlines() if "Staged (only you see them)" in ln]
    assert staged and "J J J Jk" in staged[-1] and "JK" not in staged[-1], staged


def test_score_lines_read_as_the_table_does():
    """"mixed canasta 4×8" (cards) read beside the table's "4×5 2 Jk Jk" (naturals), and the
    cards left in a hand came in card-number order ("KC QC 8S 8D 6C 3S JK")."""
    from meldhall.cli.render import score_label

    assert score_label("mixed canasta 4×8: 4 4 4 4 4 2 JK JK") == \
        "mixed canasta of 8 cards: 4 4 4 4 4 2 JK JK"
    assert score_label("seat 0 hand KC QC 8S 8D 6C 3S JK 2H") == \
        "seat 0 hand JK 2H KC QC 8S 8D 6C 3S"
    assert score_label("seat 1 kitty AS 3D KH") == "seat 1 kitty AS KH 3D"
    assert score_label("going out") == "going out"
    assert score_label("seat 2 went out") == "seat 2 went out"


def test_short_melds_are_written_out():
    """"8 8 8" beside a counted "4×4" read oddly: the naturals are counted only in a canasta."""
    from meldhall.cli.canasta_tables import meld_body

    assert meld_body({"spec": "8 8 2", "rank": "8"}) == "8 8 2"
    assert meld_body({"spec": "K K K JK", "rank": "K"}) == "K K K Jk"
    assert meld_body({"spec": "5 5 5 5 2", "rank": "5"}) == "5 5 5 5 2"
    assert meld_body({"spec": "4 4 4 4", "rank": "4"}) == "4 4 4 4"
    assert meld_body({"spec": "5 5 5 5 5 2 JK", "rank": "5"}) == "5×5 2 Jk"
    assert meld_body({"spec": "K K K K K K K", "rank": "K"}) == "K×7"
    assert meld_body({"spec": "2 2 JK", "rank": "wild"}) == "wild 2 2 Jk"


def test_a_partners_melding_is_the_sides():
    """'meld done' after a partner's first melding was refused with "you have melded this
    hand": in a partnership the side has (CC-6.9)."""
    from meldhall import new_game
    from meldhall.errors import IllegalActionError

    s = new_game("classic-canasta", players=4, seed=1)
    while True:  # play until seat 0's side has melded and seat 2 is to meld
        seat = s.to_act[0]
        legal = s.legal_actions(seat)
        if seat == 2 and s.observation(2).to_json()["melds"][0] and \
                any(str(a).startswith("discard") for a in legal):
            break
        melds = [a for a in legal if str(a).startswith(("meld", "stage", "take"))]
        pick = melds[0] if melds else legal[0]
        if seat == 2 and melds:
            pick = next((a for a in legal if str(a).startswith(("discard", "draw"))), legal[0])
        s = s.apply(pick, seat)
    with pytest.raises(IllegalActionError) as e:
        s.apply_text("meld done", 2)
    assert "your side has melded this hand" in str(e.value)


def test_staging_and_withdrawing_are_said():
    """Staging leaves no log line; the screen only redrew, so a player could not tell what
    'undo' had done: the terminal says it."""
    r = run("play", "classic-canasta", "--players", "2", "--seed", "2", "--bots", "heuristic",
            input="draw\nstage J J J Jk\nundo\nstage J J J Jk\nwithdraw all\nquit\n")
    out = r.output
    assert out.count("You staged J J J Jk (only you see it).") == 2
    assert "You withdrew the last staged meld." in out
    assert "You withdrew every staged meld." in out


def test_score_lines_name_whose_hand():
    """"seat 0 hand A♥" in the breakdown: "your hand A♥", another seat by its label."""
    from meldhall.cli.render import _whose

    names = ["you", "heuristic"]
    assert _whose("seat 0 hand AH", names) == "your hand AH"
    assert _whose("seat 1 kitty 5S", names) == "kitty of seat 1 (heuristic) 5S"
    assert _whose("going out", names) == "going out"


def test_a_shanghai_deal_end_names_whose_totals_they_are():
    """"totals 30, 0, 5, 5" (SH-13) did not say whose total was whose: each is named."""
    from meldhall.cli.render import named_note

    note = "deal 1 ended: seat 1 went out; totals 30, 0, 5, 5"
    assert named_note(note, ["you", "heuristic", "heuristic", "search"]) == (
        "deal 1 ended: seat 1 (heuristic) went out; totals: seat 0 (you) 30, "
        "seat 1 (heuristic) 0, "
        "seat 2 (heuristic) 5, seat 3 (search) 5")
    assert named_note("deal 2 ends: the stock is exhausted; nobody went out; totals -5, 12; "
                        "game over", None) == (
        "deal 2 ends: the stock is exhausted; nobody went out; totals: seat 0 -5, seat 1 12; "
        "game over")
    assert named_note("took the pile (2 cards)", None) == "took the pile (2 cards)"


def test_rules_by_a_rule_id_alone():
    """``meldhall rules RR-6.9``: the prefix names the game (a new user typed it, as the
    in-game help's ``rules CC-8.5``), the same text as with the game named."""
    alone = run("rules", "RR-6.9")
    named = run("rules", "railroad-canasta", "RR-6.9")
    assert alone.exit_code == 0, alone.output
    assert alone.output == named.output and "RR-6.9" in alone.output
    whole = run("rules", "shanghai-rummy")
    assert whole.exit_code == 0 and "SH-13.2" in whole.output  # still the whole game


def test_a_hint_whose_action_is_a_step_names_the_move_first():
    """A hint that must first withdraw the staged melds (its action ``withdraw all``, its
    move ``discard 3``) names the move in its headline and the step after it, as the web
    does (a tester read "Hint for you: withdraw all" above a table compared with discard 3)."""
    from rich.console import Console

    from meldhall import new_game
    from meldhall.cli.hint import hint_view
    from meldhall.hints import Hint

    state = new_game("classic-canasta", players=2, seed=2).apply_text("draw")
    stage = next(a for a in state.legal_actions() if str(a).startswith("stage"))
    staged = state.apply(stage)
    withdraw = next(a for a in staged.legal_actions() if str(a) in ("withdraw all", "withdraw"))
    move = next(a for a in state.legal_actions() if str(a).startswith("discard"))
    h = Hint(0, withdraw, 12.0, 10, [], "ismcts", 5, plan=move, next=withdraw,
             why="Because.")
    console = Console(width=120, record=True)
    for part in hint_view(h, "you"):
        console.print(part)
    text = console.export_text()
    from meldhall.cli.render import pretty_notation as pn

    assert f"Hint for you: {pn(str(move))}" in text, text
    assert (f"Its next step: '{pn(str(withdraw))}' (what you have staged is not part of "
            "it).") in text, text
    assert "This is the next step of" not in text


def test_hint_table_says_the_pile_cannot_be_taken_as_play_does(tmp_path):
    """A tester read "Your move: Draw or take the pile" above a hint that draw was the only
    legal move: ``meldhall hint`` draws the table with the seat's legal moves, so its status
    line says "Draw (the pile cannot be taken now)" and why, as ``meldhall play`` does."""
    import random

    from meldhall import new_game
    from meldhall.bots.heuristic import heuristic_bot
    from meldhall.record import dump_position

    bot = heuristic_bot("classic-canasta")
    for seed in range(10):
        s, rng = new_game("classic-canasta", players=2, seed=seed), random.Random(seed)
        for _ in range(200):
            if s.outcome is not None:
                break
            seat = s.to_act[0]
            if s.phase == "draw" and [str(a) for a in s.legal_actions(seat)] == ["draw"]:
                path = tmp_path / "pos.json"
                path.write_text(json.dumps(dump_position(s)))
                r = run("hint", str(path))
                assert r.exit_code == 0, r.output
                flat = " ".join(r.output.split())
                assert "Draw (the pile cannot be taken now)" in flat, r.output
                assert "Draw or take the pile" not in flat and "Why: " in flat, r.output
                return
            s = s.apply(bot.choose(s.observation(seat), s.legal_actions(seat), rng), seat)
    pytest.fail("no draw-only position in 10 games")
