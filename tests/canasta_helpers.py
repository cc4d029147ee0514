"""Checks both canasta games' property tests share: staged melding (CC-6.9, RR-6.11)."""

from __future__ import annotations

import pytest

from meldhall.errors import IllegalActionError
from meldhall.games.canasta.actions import Stage
from meldhall.record import dump_position


def _public_views(s, but: int) -> list:
    return [(s.observation(x).to_json(), s.observation(x).to_text())
            for x in range(s.players) if x != but]


def _unbounded(s) -> dict:
    """A state's position without the per-turn stage counter (CC-6.9 (d))."""
    d = dump_position(s)
    d["turn_state"].pop("stages_this_turn", None)
    return d


def check_staging(prev, a, t, tracker) -> None:
    """CC-6.9 (a), (b): staging and withdrawing change nothing another seat sees, keep the
    hand, and a withdrawal returns to the state before the staging."""
    seat = prev.to_act[0]
    assert _public_views(prev, seat) == _public_views(t, seat), (
        f"CC-6.9: {a} changed what another seat sees")
    assert t.hands == prev.hands and t.log is prev.log and t.phase == prev.phase
    if isinstance(a, Stage):
        tracker.stack.append(prev)
        assert t.stages == prev.stages + 1
        return
    if not tracker.stack:
        return  # staged before this check began
    target = tracker.stack[0] if a.all else tracker.stack[-1]
    del tracker.stack[0 if a.all else -1:]
    assert _unbounded(t) == _unbounded(target), f"CC-6.9 (b): {a} did not restore the state"


def check_shorthand(s, a, seq, check_illegal) -> None:
    """A one-action melding (CC-6.9 shorthand) is legal exactly when its staged steps are, each
    offered by legal_actions() in turn, and it makes the same state."""
    t = s
    ok = True
    for step in seq:
        if step not in t.legal_actions():
            ok = False
            break
        t = t.apply(step)
    if ok and s.is_legal(a):
        assert dump_position(s.apply(a)) == dump_position(t)
        return
    if ok:  # every step offered, but the one-action form refused: only by its whole check
        with pytest.raises(IllegalActionError):
            s.apply(a)
        return
    check_illegal(s, a)


def offered_steps(s, a) -> bool:
    """Whether ``a`` — or each step of the staged sequence it is shorthand for (CC-6.9) — is
    offered by legal_actions() in turn."""
    seq = s._expand(a) or [a]
    for step in seq:
        if step not in s.legal_actions():
            return False
        s = s.apply(step)
    return True


class StageStack:
    """The states before each staged meld of the current turn (for :func:`check_staging`)."""

    def __init__(self):
        self.stack: list = []
