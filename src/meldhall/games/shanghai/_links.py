"""What the Shanghai Rummy state needs from the modules layered above it.

:mod:`~meldhall.games.shanghai.state` does not import the observation, action-id or position
modules: they import the state.  Each of them, when imported, sets its link here, and the state
calls through these links; the package ``__init__`` imports all of them, so importing any module
of the package (``meldhall.games.shanghai.state`` included) sets every link.  This module
imports nothing at run time.

Links:

* :data:`observe` — :meth:`ShanghaiObservation.from_state
  <meldhall.games.shanghai.observation.ShanghaiObservation.from_state>` (``state``, ``seat``),
  for ``state.observation(seat)``;
* :data:`action_space` — :func:`meldhall.games.shanghai.action_ids.action_space` (options),
  for ``state.action_id(action)``, ``state.action_from_id(i)`` and
  ``state.num_distinct_actions``;
* :data:`dump_position` — :func:`meldhall.games.shanghai.position.dump_position` (``state``),
  for ``state == other`` (two states are equal when their positions are).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from meldhall.games.shanghai.action_ids import ActionSpace
    from meldhall.games.shanghai.observation import ShanghaiObservation
    from meldhall.games.shanghai.options import ShanghaiOptions
    from meldhall.games.shanghai.state import ShanghaiState

__all__ = ["action_space", "dump_position", "observe"]

#: Set by :mod:`meldhall.games.shanghai.observation`.
observe: Callable[[ShanghaiState, int], ShanghaiObservation]
#: Set by :mod:`meldhall.games.shanghai.action_ids`.
action_space: Callable[[ShanghaiOptions], ActionSpace]
#: Set by :mod:`meldhall.games.shanghai.position`.
dump_position: Callable[[ShanghaiState], dict[str, Any]]
