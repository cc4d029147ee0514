"""Shanghai Rummy for 3 to 8 players (docs/rules/shanghai-rummy.md)."""

from meldhall.games.shanghai.options import PRESETS, ShanghaiOptions
from meldhall.games.shanghai.state import ShanghaiState, new_game

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
