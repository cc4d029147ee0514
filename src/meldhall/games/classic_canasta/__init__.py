"""Classic Canasta for 2, 3, 4 and 6 players (docs/rules/classic-canasta.md)."""

from meldhall.games.classic_canasta.observation import ClassicCanastaObservation
from meldhall.games.classic_canasta.options import PRESETS, ClassicCanastaOptions
from meldhall.games.classic_canasta.scoring import score_hand
from meldhall.games.classic_canasta.state import _PHASES as PHASES
from meldhall.games.classic_canasta.state import ClassicCanastaState, new_game

# The state imports none of the modules built on it (observation, scoring, position); the
# package ties in what it calls.  Importing any module of the package runs this first.
ClassicCanastaState._observation_class = ClassicCanastaObservation
ClassicCanastaState._scorer = score_hand

NAME = "classic-canasta"  #: the game's registry name
PLAYER_COUNTS = (2, 3, 4, 6)  #: CC-1.1
RULE_PREFIX = "CC"
RULES_FILE = "classic-canasta.md"
STATE = ClassicCanastaState
Options = ClassicCanastaOptions

__all__ = ["ClassicCanastaOptions", "ClassicCanastaState", "new_game", "PRESETS", "NAME",
           "PHASES", "STATE", "PLAYER_COUNTS", "Options", "RULE_PREFIX", "RULES_FILE"]
