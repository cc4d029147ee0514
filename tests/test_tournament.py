"""``meldhall tournament`` and meldhall.sim.tournament: pairings, determinism across workers
and Ray, statistics, the command's JSON."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from meldhall.cli import app
from meldhall.cli.tournament import normalize_ray_args
from meldhall.errors import OptionsError
from meldhall.sim.tournament import (
    DealResult,
    GameRecord,
    _Spec,
    _summarize,
    bradley_terry_elo,
    confidence_interval,
    deal_seed,
    elo_from_win_fraction,
    pairings,
    run_tournament,
    seat_seed,
    student_t_quantile,
)

runner = CliRunner()

#: Parts of the JSON that depend on the machine or the backend, not on the inputs.
VOLATILE = ("timing", "seconds", "setup_seconds", "workers", "backend")


def stable(d: dict) -> dict:
    return {k: v for k, v in d.items() if k not in VOLATILE}


def raw(result) -> list:
    """The deals' game records (everything played), without the decision times."""
    return [(d.deal, d.seed, d.high_score_wins, d.error, d.games) for d in result.deal_results]


# --------------------------------------------------------------------------- pairings, seeds


def test_pairings_two_bots_four_players():
    assert pairings(["A", "B"], 4) == [["A", "B", "A", "B"], ["B", "A", "B", "A"]]


def test_pairings_two_bots_two_players():
    assert pairings(["A", "B"], 2) == [["A", "B"], ["B", "A"]]


def test_pairings_three_bots_three_players():
    assert pairings(["A", "B", "C"], 3) == [["A", "B", "C"], ["B", "C", "A"],
                                            ["C", "A", "B"]]


def test_pairings_two_bots_three_players():
    rows = pairings(["A", "B"], 3)
    assert rows == [["A", "B", "A"], ["B", "A", "B"]]
    # every bot sits on every seat once over the rotations
    for seat in range(3):
        assert sorted(r[seat] for r in rows) == ["A", "B"]


def test_pairings_refuse_nothing():
    with pytest.raises(OptionsError):
        pairings([], 2)


def test_seeds_are_plain_arithmetic_and_stable():
    assert deal_seed(7, 3) == 7 * 1_000_003 + 3
    # BLAKE2b, not hash(): the same in every process (value computed once and pinned)
    code = "from meldhall.sim.tournament import seat_seed; print(seat_seed(12, 1, 3))"
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env={**os.environ, "PYTHONHASHSEED": "123"})
    assert int(other.stdout) == seat_seed(12, 1, 3)
    assert len({seat_seed(s, r, t) for s in range(3) for r in range(3) for t in range(4)}) == 36


# --------------------------------------------------------------------------- statistics


def test_student_t_quantiles():
    # closed forms: df 1 is Cauchy, df 2 has t = (2p-1) / sqrt(2p(1-p))
    assert student_t_quantile(0.975, 1) == pytest.approx(math.tan(0.475 * math.pi), rel=1e-12)
    assert student_t_quantile(0.975, 2) == pytest.approx(0.95 / math.sqrt(2 * 0.975 * 0.025),
                                                         rel=1e-12)
    # printed tables of t(0.975)
    for df, t in [(3, 3.182446), (4, 2.776445), (9, 2.262157), (10, 2.228139),
                  (29, 2.045230), (100, 1.983972), (1000, 1.962339), (5000, 1.960439)]:
        assert student_t_quantile(0.975, df) == pytest.approx(t, abs=2e-6), df
    assert student_t_quantile(0.025, 9) == pytest.approx(-2.262157, abs=2e-6)
    assert student_t_quantile(0.5, 4) == 0.0
    with pytest.raises(ValueError):
        student_t_quantile(1.0, 3)


def test_confidence_interval_by_hand():
    # mean 3, s = sqrt(2.5), se = sqrt(0.5), t(0.975, 4) = 2.776445 -> half-width 1.963243
    lo, hi = confidence_interval([1, 2, 3, 4, 5])
    assert lo == pytest.approx(3 - 1.963243, abs=1e-5)
    assert hi == pytest.approx(3 + 1.963243, abs=1e-5)
    # n = 2: mean 15, s = 7.0711, se = 5, t(0.975, 1) = 12.7062 -> 15 ± 63.531
    lo, hi = confidence_interval([10.0, 20.0])
    assert (lo, hi) == (pytest.approx(15 - 63.531024, abs=1e-5),
                        pytest.approx(15 + 63.531024, abs=1e-5))
    assert confidence_interval([4.0, 4.0, 4.0]) == (4.0, 4.0)
    assert confidence_interval([1.0]) is None


def test_elo_from_win_fraction_by_hand():
    assert elo_from_win_fraction(0.5) == 0.0
    assert elo_from_win_fraction(0.75) == pytest.approx(190.848501, abs=1e-5)  # 400 log10 3
    assert elo_from_win_fraction(0.25) == pytest.approx(-190.848501, abs=1e-5)
    # a clean sweep of 10 hands is clipped to 9.5 / 10: 400 log10 19
    assert elo_from_win_fraction(1.0, 10) == pytest.approx(511.5014, abs=1e-4)
    assert elo_from_win_fraction(0.0, 10) == pytest.approx(-511.5014, abs=1e-4)
    assert elo_from_win_fraction(1.0, 1) == 0.0


def test_bradley_terry_by_hand():
    # results drawn exactly from strengths 1 : 2 : 4 (30 games per pair): the fit recovers
    # them, i.e. 1500, 1500 + 400 log10 2 = 1620.412, 1500 + 400 log10 4 = 1740.824
    wins = [[0, 10, 6], [20, 0, 10], [24, 20, 0]]
    elo = bradley_terry_elo(wins, prior=0)
    assert elo == [pytest.approx(1500), pytest.approx(1620.412, abs=1e-3),
                   pytest.approx(1740.824, abs=1e-3)]
    # two players: the same as the win fraction (16 of 20 -> 400 log10 4)
    assert bradley_terry_elo([[0, 4], [16, 0]], prior=0)[1] == pytest.approx(1740.824, abs=1e-3)
    # a clean sweep stays finite with the prior; a player that met nobody has no rating
    swept = bradley_terry_elo([[0, 10, 0], [0, 0, 0], [0, 0, 0]])
    assert swept[0] == 1500 and swept[1] < 1000 and swept[2] is None


def _deal(deal: int, high: bool, games: list[GameRecord]) -> DealResult:
    return DealResult(deal=deal, seed=deal, high_score_wins=high, games=games)


def test_summary_by_hand_penalty_points_ties_and_sides():
    spec = _Spec("shanghai-rummy", 2, ("A", "B"), 0, 2, {})
    deals = [
        _deal(0, False, [
            # rotation 0, A on seat 0: hand 1 A 10 vs B 30 (A better), hand 2 a tie at 20
            GameRecord(0, [0, 1], [[((0,), 10), ((1,), 30)], [((0,), 20), ((1,), 20)]]),
            # rotation 1, B on seat 0: B 0 vs A 50; the game ended and side 1 (A) won
            GameRecord(1, [1, 0], [[((0,), 0), ((1,), 50)]], game_over=True, winners=[1]),
        ]),
        _deal(1, False, [
            GameRecord(0, [0, 1], [[((0,), 0), ((1,), 10)]]),
            GameRecord(1, [1, 0], [[((0,), 10), ((1,), 0)]]),
        ]),
    ]
    (a, b), timing = _summarize(spec, deals)
    assert (a.hands, b.hands) == (5, 5)
    assert (a.hands_won, b.hands_won) == (3.5, 1.5)
    assert (a.games, b.games) == (4, 4)
    # deal 0 rotation 0: cumulative -30 vs -50 -> A; rotation 1: the real winner, A
    assert (a.games_won, b.games_won) == (4.0, 0.0)
    # per deal, A's oriented difference: deal 0 mean(+20, 0, -50) = -10; deal 1 mean(10, 10)
    assert a.mean_score_diff == pytest.approx(0.0)
    assert b.mean_score_diff == pytest.approx(0.0)
    assert a.ci95 == (pytest.approx(-127.062047, abs=1e-5), pytest.approx(127.062047, abs=1e-5))
    assert a.mean_score == pytest.approx(-(10 + 20 + 50 + 0 + 0) / 5)
    # Elo from B's hand win fraction 1.5 / 5
    assert b.elo == pytest.approx(1500 + 400 * math.log10(0.3 / 0.7))
    assert timing["A"]["decisions"] == 0 and timing["A"]["median_s"] is None


def test_summary_partnerships_score_per_side():
    spec = _Spec("classic-canasta", 4, ("A", "B", "C"), 0, 1, {})
    # A, B, C, A: sides (0, 2) and (1, 3); side 0 wins 100 to 40
    g = GameRecord(0, [0, 1, 2, 0], [[((0, 2), 100), ((1, 3), 40)]])
    (a, b, c), _ = _summarize(spec, [_deal(0, True, [g])])
    # the winning side is shared by A (seat 0) and C (seat 2)
    assert (a.hands_won, b.hands_won, c.hands_won) == (0.5, 0.0, 0.5)
    # A's seats score 100 and 40 (mean 70), the others' 40 and 100 (mean 70)
    assert a.mean_score_diff == 0.0
    # B: 40 against seats 0, 2, 3 (100, 100, 40); C: 100 against 100, 40, 40
    assert b.mean_score_diff == pytest.approx(40 - 80)
    assert c.mean_score_diff == pytest.approx(100 - 60)


# --------------------------------------------------------------------------- playing


def test_same_results_with_one_and_two_workers():
    args = dict(game="classic-canasta", players=2, bots=["heuristic", "random"], deals=4,
                seed=3, hands_per_deal=2)
    one = run_tournament(**args, workers=1)
    two = run_tournament(**args, workers=2)
    assert one.workers == 1 and two.workers == 2
    assert stable(one.to_json()) == stable(two.to_json())
    assert raw(one) == raw(two)
    assert one.errors == []
    assert one.to_json()["hands"] == sum(len(g.hands) for d in one.deal_results
                                         for g in d.games)
    assert all(1 <= len(g.hands) <= 2 for d in one.deal_results for g in d.games)
    assert [d.seed for d in one.deal_results] == [deal_seed(3, i) for i in range(4)]


def test_same_results_penalty_game_three_bots():
    args = dict(game="shanghai-rummy", players=3, bots=["random", "heuristic", "random"],
                deals=2, seed=5)
    one = run_tournament(**args, workers=1)
    two = run_tournament(**args, workers=2)
    assert stable(one.to_json()) == stable(two.to_json())
    data = one.to_json()
    assert data["high_score_wins"] is False
    assert [r["label"] for r in data["results"]] == ["random#1", "heuristic", "random#2"]
    assert data["pairings"] == pairings(["random", "heuristic", "random"], 3)
    assert sum(r["hands_won"] for r in data["results"]) == pytest.approx(data["hands"])
    assert data["results"][0]["elo"] == 1500.0


def test_heuristic_beats_random_with_a_real_signal():
    res = run_tournament("classic-canasta", 2, ["heuristic", "random"], 10, 0, workers=1)
    h, r = res.to_json()["results"]
    assert h["deals"] == 10
    assert h["mean_score_diff"] > 0 and h["ci95"][0] > 0
    assert r["mean_score_diff"] == -h["mean_score_diff"]
    assert h["hands_won"] > r["hands_won"] and r["elo"] < h["elo"] == 1500
    timing = res.to_json()["timing"]
    assert timing["heuristic"]["decisions"] > 0
    assert 0 < timing["heuristic"]["median_s"] <= timing["heuristic"]["p95_s"]


def test_run_tournament_refuses_bad_input():
    with pytest.raises(OptionsError, match="two bot names"):
        run_tournament("classic-canasta", 2, ["random"], 1, 0)
    with pytest.raises(OptionsError, match="unknown bot"):
        run_tournament("classic-canasta", 2, ["random", "nobody"], 1, 0)
    with pytest.raises(OptionsError):
        run_tournament("no-such-game", 2, ["random", "random"], 1, 0)
    with pytest.raises(OptionsError, match="deals"):
        run_tournament("classic-canasta", 2, ["random", "random"], 0, 0)


def test_ray_missing_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    monkeypatch.setenv("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")
    with pytest.raises(OptionsError, match=r"meldhall\[ray\]"):
        run_tournament("classic-canasta", 2, ["random", "random"], 1, 0, use_ray=True)
    r = runner.invoke(app, ["tournament", "classic-canasta", "-n", "2", "--deals", "1",
                            "--bots", "random,random", "--quiet", "--ray"])
    assert r.exit_code == 2
    assert "meldhall[ray]" in r.output


def test_ray_is_not_imported_without_ray():
    code = ("import sys; from meldhall.cli import app; "
            "from meldhall.sim.tournament import run_tournament; "
            "run_tournament('classic-canasta', 2, ['random', 'heuristic'], 2, 0, workers=2); "
            "print('ray' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"


# --------------------------------------------------------------------------- the command


def test_normalize_ray_args():
    n = normalize_ray_args
    assert n(["g", "--ray"]) == ["g", "--ray"]
    assert n(["g", "--ray", "--json"]) == ["g", "--ray", "--json"]
    assert n(["g", "--ray", "auto", "--json"]) == ["g", "--ray", "--ray-address", "auto",
                                                   "--json"]
    assert n(["g", "--ray=ray://h:10001"]) == ["g", "--ray", "--ray-address", "ray://h:10001"]
    # a game name after --ray is the GAME argument, not an address
    assert n(["--ray", "classic-canasta"]) == ["--ray", "classic-canasta"]
    assert n(["g", "--", "--ray", "x"]) == ["g", "--", "--ray", "x"]


def test_cli_json_fields():
    r = runner.invoke(app, ["tournament", "classic-canasta", "--players", "2", "--bots",
                            "heuristic,random", "--deals", "3", "--seed", "2", "--workers",
                            "1", "--hands", "2", "--option", "target_score=3000", "--json",
                            "--quiet"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)  # exactly one JSON object on stdout
    for key in ("game", "players", "bots", "deals", "hands_per_deal", "seed", "options",
                "results", "timing", "seconds", "workers", "backend"):
        assert key in data, key
    assert data["game"] == "classic-canasta" and data["players"] == 2
    assert data["bots"] == ["heuristic", "random"]
    assert (data["deals"], data["hands_per_deal"], data["seed"]) == (3, 2, 2)
    assert data["options"] == {"target_score": 3000, "player_count": 2}
    assert data["workers"] == 1 and data["backend"] == "local" and data["seconds"] >= 0
    assert [r["bot"] for r in data["results"]] == ["heuristic", "random"]
    for res in data["results"]:
        for key in ("bot", "hands", "hands_won", "games", "games_won", "mean_score_diff",
                    "ci95", "elo"):
            assert key in res, key
        assert len(res["ci95"]) == 2 and res["ci95"][0] <= res["mean_score_diff"]
        assert res["games"] == 6
    assert set(data["timing"]) == {"heuristic", "random"}
    for t in data["timing"].values():
        assert set(t) >= {"decisions", "median_s", "p95_s"}
    api = run_tournament("classic-canasta", 2, ["heuristic", "random"], 3, 2,
                         hands_per_deal=2, options={"target_score": 3000}, workers=2)
    assert data["results"] == api.to_json()["results"]


def test_cli_table_and_bad_input():
    r = runner.invoke(app, ["tournament", "railroad-canasta", "-n", "2", "-b", "heuristic,random",
                            "-d", "2", "-w", "1", "--quiet"])
    assert r.exit_code == 0, r.output
    assert "heuristic" in r.stdout and "Elo" in r.stdout and "Time per decision" in r.stdout
    r = runner.invoke(app, ["tournament", "classic-canasta", "--bots", "random", "--quiet"])
    assert r.exit_code == 2 and "two bot names" in r.output
    r = runner.invoke(app, ["tournament", "classic-canasta", "--deals", "0", "--quiet"])
    assert r.exit_code == 2


# --------------------------------------------------------------------------- Ray (last: forks
# of this process are best made before Ray starts its threads)


@pytest.fixture(scope="module")
def local_ray():
    os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")  # workers share this venv
    import ray

    ray.init(num_cpus=2, include_dashboard=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def test_ray_results_equal_local(local_ray):
    args = dict(game="classic-canasta", players=2, bots=["random", "heuristic"], deals=4,
                seed=9)
    local = run_tournament(**args, workers=1)
    on_ray = run_tournament(**args, use_ray=True)
    assert on_ray.backend == "ray" and on_ray.workers == 2
    assert stable(on_ray.to_json()) == stable(local.to_json())
    assert raw(on_ray) == raw(local)
    assert local_ray.is_initialized()  # an instance it did not start is left running


def test_cli_ray_flag_without_address(local_ray):
    base = ["tournament", "classic-canasta", "-n", "2", "--bots", "random,heuristic",
            "--deals", "2", "--seed", "4", "--quiet"]
    local = runner.invoke(app, [*base, "--json", "--workers", "1"])
    last = runner.invoke(app, [*base, "--json", "--ray"])  # --ray as the last argument
    before = runner.invoke(app, [*base, "--ray", "--json"])  # --ray before another option
    for r in (local, last, before):
        assert r.exit_code == 0, r.output
    a, b, c = (json.loads(r.stdout) for r in (local, last, before))
    assert b["backend"] == c["backend"] == "ray"
    assert stable(a) == stable(b) == stable(c)


def test_search_bot_results_equal_across_workers_and_ray(local_ray):
    """The ISMCTS bot with a playout budget and no time cap is reproducible everywhere."""
    args = dict(game="classic-canasta", players=2, bots=["ismcts:6", "heuristic"], deals=2,
                seed=13)
    one = run_tournament(**args, workers=1)
    two = run_tournament(**args, workers=2)
    on_ray = run_tournament(**args, use_ray=True)
    assert one.errors == []
    assert stable(one.to_json()) == stable(two.to_json()) == stable(on_ray.to_json())
    assert raw(one) == raw(two) == raw(on_ray)


def test_first_deal_extends_a_tournament_with_the_next_deals():
    whole = run_tournament("classic-canasta", 2, ["heuristic", "random"], 4, 7, workers=1)
    tail = run_tournament("classic-canasta", 2, ["heuristic", "random"], 2, 7, workers=1,
                          first_deal=2)
    assert [d.seed for d in tail.deal_results] == [deal_seed(7, 2), deal_seed(7, 3)]
    assert [g.hands for d in tail.deal_results for g in d.games] == \
        [g.hands for d in whole.deal_results[2:] for g in d.games]
    assert tail.to_json()["first_deal"] == 2


def test_table_keeps_its_figures_beside_a_long_bot_name(capsys, monkeypatch):
    """A plug-in bot named by its module path ("meldhall.rl.policy_bot:maskable_ppo:runs/…")
    took the table's whole width at 80 columns and every figure read "…": the name folds."""
    from meldhall.cli.tournament import _print_result

    r = runner.invoke(app, ["tournament", "classic-canasta", "--players", "2", "--bots",
                            "heuristic,random", "--deals", "2", "--seed", "2", "--workers",
                            "1", "--hands", "1", "--json", "--quiet"])
    data = json.loads(r.stdout)
    long = "meldhall.rl.policy_bot:maskable_ppo:runs/ppo-classic-2p/final.zip"
    data["results"][0]["label"] = long
    data["timing"] = {long: v for v in data["timing"].values()}
    monkeypatch.setenv("COLUMNS", "80")
    _print_result(data)
    text = capsys.readouterr().out
    from meldhall.cli.tournament import _points

    res = data["results"][0]
    lo, hi = res["ci95"]
    assert _points(res["mean_score_diff"]) in text, text
    assert f"{_points(lo)}…{_points(hi)}" in text, text  # the interval whole, not cut
    assert "final.zip" in text  # and the name folded, not cut
