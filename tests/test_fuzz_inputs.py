"""Hostile input never crashes a loader: it is refused with meldhall's own error.

``load_position``, ``load_record`` and ``replay`` are fed (1) the inputs a fuzzer once crashed
them with, as explicit examples, and (2) mutations, chosen by hypothesis, of real positions and
records of all three games: a value replaced by a huge integer, an infinity, deep nesting, a
value of the wrong type, a list cut short, a field removed — both as a dict and as JSON text.
Whatever they get, they either load or raise :class:`~meldhall.errors.MeldhallError`; and a
position that loads can be played on (its legal actions applied) for a few steps without any
other exception.

The default run is small (well under 30 s); the soak (``-m soak``) runs many more examples:
``MELDHALL_SOAK_FUZZ`` examples per test (default ``20 * MELDHALL_SOAK_GAMES``, i.e. 2000)::

    MELDHALL_SOAK_FUZZ=5000 uv run pytest tests/test_fuzz_inputs.py -m soak
"""

from __future__ import annotations

import copy
import json
import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meldhall import new_game
from meldhall.errors import MeldhallError, RecordError
from meldhall.record import Record, dump_position, load_position, load_record, replay

GAMES = [("classic-canasta", 2), ("classic-canasta", 4), ("railroad-canasta", 3),
         ("shanghai-rummy", 4)]

QUICK = settings(max_examples=60, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SOAK_EXAMPLES = int(os.environ.get(
    "MELDHALL_SOAK_FUZZ", str(20 * int(os.environ.get("MELDHALL_SOAK_GAMES", "100")))))
SOAK = settings(QUICK, max_examples=SOAK_EXAMPLES, derandomize=False)

BIG = "9" * 5000
DEEP = "[" * 1000 + "]" * 1000


# ------------------------------------------------------------------------------ real documents


def _play(game: str, players: int, seed: int, steps: int):
    """The state after ``steps`` random legal actions (fewer if the game ends)."""
    rng = random.Random(seed)
    s = new_game(game, players=players, seed=seed)
    first = s.dealer
    for _ in range(steps):
        if s.is_terminal:
            break
        s = s.apply(rng.choice(s.legal_actions()))
    DEALERS[id(s)] = first
    return s


def _states():
    out = []
    for game, players in GAMES:
        for seed, steps in ((1, 0), (2, 7), (3, 60), (4, 250)):
            out.append(_play(game, players, seed, steps))
    return out


DEALERS: dict[int, int] = {}
STATES = _states()
POSITIONS = [dump_position(s) for s in STATES]
RECORDS = [Record.from_state(s, DEALERS[id(s)]).to_json() for s in STATES[1::2]]


# ------------------------------------------------------------------------------ the checks


def _play_on(state, steps: int = 4, pick: int = 0) -> None:
    """Apply legal actions for a few steps: meldhall's errors only."""
    for i in range(steps):
        if state.is_terminal:
            return
        legal = state.legal_actions()
        if not legal:
            return
        state = state.apply(legal[(pick + i) % len(legal)] if pick >= 0 else legal[-1])
        state.observation(state.to_act[0] if state.to_act else 0)


def check_position(source, play: bool = True, pick: int = -1) -> None:
    try:
        state = load_position(source)
    except MeldhallError:
        return
    if play:
        try:
            _play_on(state, pick=pick)
        except MeldhallError:
            pass


def check_record(source) -> None:
    try:
        rec = load_record(source)
    except MeldhallError:
        return
    try:
        rec.final_state()
    except MeldhallError:
        pass
    try:
        replay(source)
    except MeldhallError:
        pass


# ------------------------------------------------------------------------------ explicit inputs


def _text_with(doc: dict[str, Any], field: str, raw: str) -> str:
    """``doc`` as JSON text with ``field``'s value written as ``raw`` (any JSON-ish text)."""
    d = dict(doc)
    d[field] = "@@RAW@@"
    return json.dumps(d).replace('"@@RAW@@"', raw)


RAW_NUMBERS = ["Infinity", "-Infinity", "NaN", "1e400", "-1e400", BIG, "-" + BIG, "1.5", "-0.5"]


@pytest.mark.parametrize("raw", RAW_NUMBERS, ids=lambda r: r[:10])
@pytest.mark.parametrize("field", ["seed", "dealer", "hand_no", "turn"])
@pytest.mark.parametrize("index", [0, 4, 8, 12])
def test_position_numbers_refused(index, field, raw):
    text = _text_with(POSITIONS[index], field, raw)
    with pytest.raises(RecordError, match=field):
        load_position(text)


@pytest.mark.parametrize("raw", RAW_NUMBERS, ids=lambda r: r[:10])
@pytest.mark.parametrize("field", ["seed", "players", "dealer"])
def test_record_numbers_refused(field, raw):
    for rec in RECORDS:
        with pytest.raises(RecordError, match=field):
            load_record(_text_with(rec, field, raw))
        with pytest.raises(RecordError, match=field):
            replay(_text_with(rec, field, raw))


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan"), 1e308 * 10,
                                   10**5000, -(10**400)],
                         ids=["inf", "-inf", "nan", "overflow", "5001 digits", "-401 digits"])
def test_dict_numbers_refused(value):
    for doc in (POSITIONS[2], POSITIONS[14]):
        with pytest.raises(RecordError, match="seed"):
            load_position({**doc, "seed": value})
    with pytest.raises(RecordError, match="players"):
        load_record({**RECORDS[0], "players": value})


@pytest.mark.parametrize("depth", [1000, 100_000])
def test_deep_nesting_refused(depth):
    deep = "[" * depth + "]" * depth
    for doc in (POSITIONS[1], RECORDS[0]):
        with pytest.raises(RecordError, match="deep"):
            (load_position if doc is not RECORDS[0] else load_record)(
                _text_with(doc, "options", deep))
    with pytest.raises(RecordError, match="deep"):
        load_record("{" + '"a":{' * depth + "}" * depth + "}")
    nested: Any = []
    for _ in range(depth):
        nested = [nested]
    with pytest.raises(RecordError, match="deep"):
        load_record({**RECORDS[0], "result": nested})


def test_deep_brackets_inside_strings_are_text():
    rec = {**RECORDS[0], "seats": ["[" * 5000, "{" * 5000] + RECORDS[0]["seats"][2:]}
    assert load_record(json.dumps(rec)).seats[0] == "[" * 5000


@pytest.mark.parametrize("where", ["stock", "pile", "hands", "known", "game", "phase"])
def test_object_where_a_card_or_name_goes(where):
    for doc in POSITIONS[1::4]:
        d = copy.deepcopy(doc)
        if where in ("game", "phase"):
            d[where] = {"a": 1}
        elif where in ("hands", "known"):
            d[where][0] = [{"a": 1}] + d[where][0]
        else:
            d[where] = [{"a": 1}] + d[where]
        with pytest.raises(RecordError):
            load_position(d)
        with pytest.raises(RecordError):
            load_position(json.dumps(d))


@pytest.mark.parametrize("field", ["known", "hands", "scores", "buys", "red_threes", "kitties",
                                   "closed", "side_of", "melds"])
@pytest.mark.parametrize("cut", [0, 1])
def test_per_seat_lists_must_be_complete(field, cut):
    if field == "melds" and not cut:
        pytest.skip('"melds": [] is the shorthand for no melds at all')
    tried = 0
    for doc in POSITIONS:
        if field not in doc or not isinstance(doc[field], list) or len(doc[field]) <= cut:
            continue
        if field == "melds" and doc["game"] == "shanghai-rummy":
            continue  # Shanghai's melds are one table list, not per side
        tried += 1
        d = copy.deepcopy(doc)
        d[field] = d[field][:cut] if cut else []
        with pytest.raises(RecordError, match=field):
            load_position(d)
    assert tried


def test_short_known_list_is_refused_not_an_index_error():
    d = dump_position(new_game("classic-canasta", players=2, seed=1).apply_text("draw"))
    d["known"] = []
    with pytest.raises(RecordError, match="known"):
        load_position(d)


def test_bad_paths_and_text():
    for bad in ["no-such-file.json", "a\x00b", "", "   ", "[" * 5000, "{" * 5000, "{", '{"a": 1',
                "{\ud800}"]:
        with pytest.raises(RecordError):
            load_record(bad)
        with pytest.raises(RecordError):
            load_position(bad)


def test_real_documents_still_load():
    for doc, s in zip(POSITIONS, STATES):
        assert load_position(json.dumps(doc)) == s
    for rec in RECORDS:
        replay(json.dumps(rec))


# ------------------------------------------------------------------------------ mutations


class _Raw:
    """A value written into JSON text verbatim (numbers json.dumps cannot write)."""

    def __init__(self, text: str, value: Any):
        self.text = text
        self.value = value


def _deep_list(n: int) -> Any:
    v: Any = []
    for _ in range(n):
        v = [v]
    return v


def _deep_dict(n: int) -> Any:
    v: Any = {}
    for _ in range(n):
        v = {"a": v}
    return v


HOSTILE = st.one_of(
    st.sampled_from([
        _Raw(BIG, 10**5000), _Raw("-" + BIG, -(10**5000)), _Raw("Infinity", float("inf")),
        _Raw("-Infinity", float("-inf")), _Raw("NaN", float("nan")), _Raw("1e400", float("inf")),
        2**64, 2**130, -(2**63), 10**30, 1e300, -1e18,
        _Raw(DEEP, _deep_list(1000)), _deep_list(70), _deep_dict(70), _deep_list(3),
        None, True, False, "", "x", "7H/0", "JK/0=7D", "draw", "meld", "wild", "deal_end",
        {}, [], [[]], [{}], {"a": 1}, [1, 2, 3], ["7H/0"], {"rank": "7", "cards": []},
        -1, 0, 1, 2, 3, 7, 8, 13, 14, 63, 64, 99, 1000, 10**9, 1.5, -0.5,
    ]),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.text(max_size=8),
    st.lists(st.integers(min_value=-3, max_value=20), max_size=4),
)


def _paths(doc: Any, path: tuple = ()) -> list[tuple]:
    out = [path] if path else []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.extend(_paths(v, path + (k,)))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out.extend(_paths(v, path + (i,)))
    return out


PATHS = [_paths(d) for d in POSITIONS]
RECORD_PATHS = [_paths(d) for d in RECORDS]


@st.composite
def mutations(draw, docs, paths):
    i = draw(st.integers(0, len(docs) - 1))
    doc = copy.deepcopy(docs[i])
    raws: dict[str, str] = {}
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths[i]))
        parent = doc
        try:
            for p in path[:-1]:
                parent = parent[p]
            old = parent[path[-1]]
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation changed the shape
        how = draw(st.sampled_from(["replace", "replace", "truncate", "delete"]))
        if how == "truncate" and isinstance(old, list | str):
            parent[path[-1]] = old[:draw(st.integers(0, max(0, len(old) - 1)))]
        elif how == "delete" and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            v = draw(HOSTILE)
            if isinstance(v, _Raw):
                key = f"@@RAW{len(raws)}@@"
                raws[key] = v.text
                parent[path[-1]] = key
            else:
                parent[path[-1]] = v
    text = json.dumps(doc)
    for key, raw in raws.items():
        text = text.replace(f'"{key}"', raw)
    return text


def _python_reads(text: str):
    import sys

    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return json.loads(text)
    except RecursionError:
        return None
    finally:
        sys.set_int_max_str_digits(old)


def _mutated_positions(text: str, pick: int) -> None:
    check_position(text, pick=pick)
    d = _python_reads(text)
    if d is not None:
        check_position(d, pick=pick)


def _mutated_records(text: str) -> None:
    check_record(text)
    d = _python_reads(text)
    if d is not None:
        check_record(d)


@QUICK
@given(mutations(POSITIONS, PATHS), st.integers(-1, 5))
def test_mutated_positions(m, pick):
    _mutated_positions(m, pick)


@QUICK
@given(mutations(RECORDS, RECORD_PATHS))
def test_mutated_records(m):
    _mutated_records(m)


@pytest.mark.soak
@SOAK
@given(mutations(POSITIONS, PATHS), st.integers(-1, 5))
def test_soak_mutated_positions(m, pick):
    _mutated_positions(m, pick)


@pytest.mark.soak
@SOAK
@given(mutations(RECORDS, RECORD_PATHS))
def test_soak_mutated_records(m):
    _mutated_records(m)


# ------------------------------------------------------------------------------ the command


def _bad_files() -> dict[str, str]:
    rec, pos = RECORDS[0], POSITIONS[1]
    short_known = dump_position(new_game("classic-canasta", players=2, seed=1).apply_text("draw"))
    short_known["known"] = []
    return {
        "record-seed-5000-digits": _text_with(rec, "seed", BIG),
        "record-seed-infinity": _text_with(rec, "seed", "Infinity"),
        "record-players-1e400": _text_with(rec, "players", "1e400"),
        "record-deep": _text_with(rec, "result", DEEP),
        "record-result-list": json.dumps({**rec, "result": [1]}),
        "position-seed-5000-digits": _text_with(pos, "seed", BIG),
        "position-deep": _text_with(pos, "options", DEEP),
        "position-card-object": json.dumps({**pos, "pile": [{"a": 1}]}),
        "position-short-known": json.dumps(short_known),
        "not-json": "{\"format\": ",
    }


@pytest.mark.parametrize("command", ["replay", "hint"])
@pytest.mark.parametrize("name", list(_bad_files()))
def test_cli_refuses_bad_files(tmp_path, command, name):
    from typer.testing import CliRunner

    from meldhall.cli import app

    path = tmp_path / f"{name}.json"
    path.write_text(_bad_files()[name], encoding="utf-8")
    r = CliRunner().invoke(app, [command, str(path), *(["--bot", "heuristic"]
                                                       if command == "hint" else [])],
                           env={"COLUMNS": "400"})  # so that rich does not wrap the line
    assert r.exit_code == 2, (r.exit_code, r.output)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    assert "internal error" not in r.stderr and "Traceback" not in r.output
    assert len(lines[0]) < 300


def test_cli_replay_in_a_real_process(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "big.json"
    path.write_text(_bad_files()["record-seed-5000-digits"], encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "meldhall", "replay", str(path)], check=False,
                       capture_output=True, text=True, timeout=120,
                       env={**os.environ, "COLUMNS": "400"})
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr and p.stdout == ""
    assert p.stderr.strip().splitlines() == [p.stderr.strip()]
    assert "seed" in p.stderr
