"""Records and positions written before staged melding (SH-8.1, amended) still replay and load.

The fixtures in ``tests/fixtures/pre_staging`` were written by the engine of commit 1ac8f79,
when a contract was one compound action (``contract 7S 7H JK=7D, …``).  That text is now the
shorthand for staging each meld and committing, and the commit picks the same physical copies,
so every record replays to the same final state; positions without ``staged`` fields load with
nothing staged.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meldhall.record import dump_position, load_position, load_record

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "pre_staging"
NAMES = sorted(p.name.removesuffix(".record.json")
               for p in FIXTURES.glob("shanghai-rummy-*.record.json"))


def test_fixtures_present():
    assert NAMES == ["shanghai-rummy-3p", "shanghai-rummy-5p", "shanghai-rummy-8p"]


@pytest.mark.parametrize("name", NAMES)
def test_sh81_old_record_replays_to_its_final_position(name):
    """SH-8.1: the old compound contracts replay as shorthand to the identical final state."""
    rec = load_record((FIXTURES / f"{name}.record.json").read_text())
    assert any(a.startswith("contract ") for a in rec.actions)
    final = load_position(json.loads((FIXTURES / f"{name}.final.json").read_text()))
    replayed = rec.final_state()
    assert replayed == final
    assert [t for _, t in replayed.history()] == rec.actions


@pytest.mark.parametrize("name", NAMES)
def test_sh81_old_positions_load_with_nothing_staged(name):
    """Every old mid-game position loads, with nothing staged, and round-trips."""
    docs = json.loads((FIXTURES / f"{name}.positions.json").read_text())
    assert docs
    for doc in docs:
        assert "staged" not in doc
        st = load_position(doc)
        assert st.staged == () and st.stages == 0
        assert st.legal_actions()
        again = dump_position(st)
        assert load_position(again) == st
        # format version 2 names the copy choice the old position was played with
        assert again["version"] == 2 and again["options"]["copy_choice"] == "legacy"
        again["options"].pop("copy_choice")
        assert {k: v for k, v in again.items()
                if k not in ("staged", "stages_this_turn", "version")} \
            == {k: v for k, v in doc.items() if k != "version"}
