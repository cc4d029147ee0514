"""Railroad Canasta for 2 to 8 players (docs/rules/railroad-canasta.md)."""

from meldhall.games.railroad_canasta.options import PRESETS, RailroadCanastaOptions
from meldhall.games.railroad_canasta.state import PHASES, RailroadCanastaState, new_game

#: The game's registry entry: name, seat counts, rule prefix, rules file, state and options.
NAME, PLAYER_COUNTS = "railroad-canasta", tuple(range(2, 9))
RULE_PREFIX, RULES_FILE = "RR", "railroad-canasta.md"
STATE, Options = RailroadCanastaState, RailroadCanastaOptions

__all__ = [
    "NAME", "PHASES", "PLAYER_COUNTS", "PRESETS", "RULES_FILE", "RULE_PREFIX", "STATE",
    "Options", "RailroadCanastaOptions", "RailroadCanastaState", "new_game",
]
