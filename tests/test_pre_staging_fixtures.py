"""Records, positions and stored server tables written before staged melding still load and
replay to the same final state (CC-6.9, RR-6.11, SH-8.1: the one-action meldings they hold are
shorthand for the staged melds and their commit).

The fixtures in ``tests/fixtures/pre_staging/`` were written by the engine at commit 1ac8f79
(``make_fixtures.py`` beside them); these tests only read them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from meldhall.record import dump_position, load_position, load_record

FIXTURES = Path(__file__).parent / "fixtures" / "pre_staging"
RECORDS = sorted(p.name[: -len(".record.json")] for p in FIXTURES.glob("*.record.json"))


def _same(a: dict, b: dict) -> bool:
    """Positions equal but for the staging fields an old position does not have."""
    a, b = json.loads(json.dumps(a)), json.loads(json.dumps(b))
    for d in (a, b):
        # format version 2 writes the copy choice (version 1 documents replay with "legacy")
        d.pop("version", None)
        if isinstance(d.get("options"), dict) and d["options"].get("copy_choice") == "legacy":
            del d["options"]["copy_choice"]
        ts = d.get("turn_state")
        if isinstance(ts, dict):
            for key in ("staged", "staged_upcard", "stages_this_turn"):
                ts.pop(key, None)
        for key in ("staged", "stages_this_turn"):
            d.pop(key, None)
    return a == b


@pytest.mark.parametrize("name", RECORDS)
def test_old_record_replays_to_the_same_final_state(name):
    record = load_record(FIXTURES / f"{name}.record.json")
    final = record.final_state()
    old_final = json.loads((FIXTURES / f"{name}.final.json").read_text())
    assert _same(dump_position(final), old_final)
    assert dump_position(load_position(old_final)) == dump_position(final)


@pytest.mark.parametrize("name", RECORDS)
def test_old_positions_load_and_play_on(name):
    for doc in json.loads((FIXTURES / f"{name}.positions.json").read_text()):
        s = load_position(doc)
        assert _same(dump_position(s), doc)
        legal = s.legal_actions()
        assert legal
        s.apply(legal[0])


def test_old_server_tables_replay_unchanged(tmp_path):
    """The stored tables of a server database written before staging replay to the same
    state (the server rebuilds every table from its stored action log)."""
    from meldhall.server.storage import Storage
    from meldhall.server.tables import LiveTable

    db = tmp_path / "server.sqlite"
    shutil.copy(FIXTURES / "server.sqlite", db)
    expected = json.loads((FIXTURES / "server.final.json").read_text())
    storage = Storage(f"sqlite:///{db}")
    try:
        storage.migrate()
        for table_id, old in expected.items():
            row = storage.load(table_id)
            assert row is not None, table_id
            t = LiveTable(row)
            assert _same(dump_position(t.state), old), table_id
            assert t.version == len(row.actions)
    finally:
        storage.close()
