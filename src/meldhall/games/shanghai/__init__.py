"""Shanghai Rummy for 3 to 8 players (docs/rules/shanghai-rummy.md)."""

from meldhall.games.shanghai.options import PRESETS, ShanghaiOptions
from meldhall.games.shanghai.state import ShanghaiState, new_game

# The modules layered above the state set its links (``_links``) when imported: importing any
# module of the package runs this file first, so ``state.observation(seat)``,
# ``state.action_id(a)`` and ``state == other`` always work.
import meldhall.games.shanghai.action_ids as action_ids  # noqa: F401
import meldhall.games.shanghai.observation as observation  # noqa: F401
import meldhall.games.shanghai.position as position  # noqa: F401

NAME = "shanghai-rummy"
PLAYER_COUNTS = (3, 4, 5, 6, 7, 8)
RULE_PREFIX = "SH"
RULES_FILE = "shanghai-rummy.md"
Options = ShanghaiOptions

__all__ = [
           "NAME",
           "PLAYER_COUNTS",
           "PRESETS",
           "RULES_FILE",
           "RULE_PREFIX",
           "Options",
           "ShanghaiOptions",
           "ShanghaiState",
           "new_game",
]
