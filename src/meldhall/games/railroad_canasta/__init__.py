"""Railroad Canasta for 2 to 8 players (docs/rules/railroad-canasta.md)."""

from meldhall.games.railroad_canasta.options import PRESETS, RailroadCanastaOptions
from meldhall.games.railroad_canasta.state import PHASES as PHASES
from meldhall.games.railroad_canasta.state import RailroadCanastaState, new_game

NAME = "railroad-canasta"
PLAYER_COUNTS = (2, 3, 4, 5, 6, 7, 8)
RULE_PREFIX = "RR"
RULES_FILE = "railroad-canasta.md"
STATE = RailroadCanastaState
Options = RailroadCanastaOptions

__all__ = ["RailroadCanastaOptions", "RailroadCanastaState", "new_game", "PRESETS", "NAME", "PHASES",
           "STATE",
           "PLAYER_COUNTS", "Options"]
