"""Railroad Canasta for 2 to 8 players (docs/rules/railroad-canasta.md)."""

from meldhall.games.railroad_canasta.observation import RailroadCanastaObservation
from meldhall.games.railroad_canasta.options import PRESETS, RailroadCanastaOptions
from meldhall.games.railroad_canasta.scoring import score_hand
from meldhall.games.railroad_canasta.state import PHASES, RailroadCanastaState, new_game

# The state imports none of the modules built on it (observation, scoring, position); the
# package ties in what it calls.  Importing any module of the package runs this first.
RailroadCanastaState._observation_class = RailroadCanastaObservation
RailroadCanastaState._scorer = score_hand

#: The game's registry entry: name, seat counts, rule prefix, rules file, state and options.
NAME, PLAYER_COUNTS = "railroad-canasta", tuple(range(2, 9))
RULE_PREFIX, RULES_FILE = "RR", "railroad-canasta.md"
STATE, Options = RailroadCanastaState, RailroadCanastaOptions

__all__ = [
    "NAME", "PHASES", "PLAYER_COUNTS", "PRESETS", "RULES_FILE", "RULE_PREFIX", "STATE",
    "Options", "RailroadCanastaOptions", "RailroadCanastaState", "new_game",
]
