"""Stages: paired deals dealt mid-game (each Shanghai contract, each canasta minimum-count
band), for measuring bots where players play (``meldhall.sim.stages``)."""

from __future__ import annotations

import pytest

from meldhall.errors import OptionsError
from meldhall.sim.stages import start_state, stage_names
from meldhall.sim.tournament import run_tournament


def test_stage_names_follow_the_rules_tables():
    # CC-7.1: below 0 → 15, 0–1,495 → 50, 1,500–2,995 → 90, 3,000 or more → 120
    assert stage_names("classic-canasta", 4) == [
        "minimum 15", "minimum 50", "minimum 90", "minimum 120"]
    # CC-7.2: a six-player side needs 150 from 7,500
    assert stage_names("classic-canasta", 6)[-1] == "minimum 150"
    # RR-7.1: 15, 50, 90 (from 5,000), 120 (from 10,000), 150 (from 15,000)
    assert stage_names("railroad-canasta", 2) == [
        "minimum 15", "minimum 50", "minimum 90", "minimum 120", "minimum 150"]
    # SH-5: ten deals, one contract each
    assert stage_names("shanghai-rummy", 4) == [f"contract {n}" for n in range(1, 11)]
    assert stage_names("shanghai-rummy", 4, {"deals": 7})[-1] == "contract 7"


@pytest.mark.parametrize("game,players,stage,minimum", [
    ("classic-canasta", 4, "minimum 15", 15), ("classic-canasta", 4, "minimum 90", 90),
    ("classic-canasta", 2, "minimum 120", 120), ("railroad-canasta", 2, "minimum 150", 150),
    ("railroad-canasta", 3, "minimum 90", 90)])
def test_canasta_stage_sets_every_sides_minimum(game, players, stage, minimum):
    state = start_state(game, players, 11, None, stage)
    obs = state.observation(state.to_act[0]).to_json()
    assert set(obs["minimums"]) == {minimum}
    assert state.hand_no == 0 and state.outcome is None


@pytest.mark.parametrize("stage,contract", [
    ("contract 1", "two sets of 3"), ("contract 2", "one set of 3 + one run of 4"),
    ("contract 9", "three sets of 3 + one run of 5"), ("contract 10", "three runs of 5")])
def test_shanghai_stage_plays_that_deals_contract(stage, contract):
    state = start_state("shanghai-rummy", 4, 3, None, stage)
    assert str(state.contract) == contract  # SH-5 table
    assert all(h.bit_count() == 11 for h in state.hands)  # SH-4.3


def test_unknown_stage_is_refused():
    with pytest.raises(OptionsError, match="minimum 90"):
        start_state("classic-canasta", 4, 1, None, "contract 3")
    with pytest.raises(OptionsError, match="no stage"):
        run_tournament("shanghai-rummy", 3, ["heuristic", "random"], 2, 1, workers=1,
                       stages=["minimum 50"])


def test_tournament_by_stage_deals_the_stages_in_turn():
    stages = ["contract 3", "contract 8"]
    res = run_tournament("shanghai-rummy", 3, ["heuristic", "random"], 4, 5, workers=1,
                         stages=stages)
    assert [d.stage for d in res.deal_results] == stages * 2
    doc = res.to_json()
    assert doc["stages"] == stages
    assert set(doc["by_stage"]) == set(stages)
    for st in stages:
        assert [b["deals"] for b in doc["by_stage"][st]] == [2, 2]
    # pooled = every deal; the heuristic beats random on every stage here
    assert [b["deals"] for b in doc["results"]] == [4, 4]
    pooled = doc["results"][0]["mean_score_diff"]
    per = [doc["by_stage"][st][0]["mean_score_diff"] for st in stages]
    assert pooled == pytest.approx(sum(per) / 2, abs=0.01)
    # an extension continues the stage cycle from its first deal
    more = run_tournament("shanghai-rummy", 3, ["heuristic", "random"], 1, 5, workers=1,
                          stages=stages, first_deal=1)
    assert more.deal_results[0].stage == "contract 8"
    full = run_tournament("shanghai-rummy", 3, ["heuristic", "random"], 2, 5, workers=1,
                          stages=stages)
    assert [g.hands for g in more.deal_results[0].games] == [
        g.hands for g in full.deal_results[1].games]
