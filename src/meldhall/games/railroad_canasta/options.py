"""Options of Railroad Canasta: every row of the spec's "Configurable house rules" table.

:class:`RailroadCanastaOptions` is a frozen, keyword-only dataclass validated on construction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from meldhall.errors import OptionsError
from meldhall.options import (
    COPY_CHOICES,
    GameOptions,
    attribute_descriptions,
    check_bools,
    check_choices,
    check_whole,
    score_table,
)

__all__ = ["CHOICES", "CHOICE_LABELS", "DESCRIPTIONS",
           "RailroadCanastaOptions", "PRESETS", "DEFAULT_MINIMUM_TABLE",
           "CANASTA_TYPES"]

#: RR-7.1: (lowest cumulative score of the band, minimum count), highest band first; a score
#: below every threshold (negative) needs 15.
DEFAULT_MINIMUM_TABLE: tuple[tuple[int, int], ...] = (
    (15000, 150), (10000, 120), (5000, 90), (0, 50))
NEGATIVE_MINIMUM = 15
#: The four canasta types of RR-6.9.
CANASTA_TYPES = ("red", "black", "wild", "sevens")
DEFAULT_BONUSES = {"red": 500, "black": 300, "wild": 1000, "sevens": 1500}

#: The options with a fixed set of allowed values: option name -> the values, the spec's
#: default first.  ``__post_init__`` checks against it, and the web lobby shows each as a select
#: box (``choices`` in ``GET /api/games``).  An option not listed here is typed in.
CHOICES = {
    "go_out_requirement": ("all_four", "red_and_black", "any_two", "any_one"),
    "stock_end_take": ("voluntary", "compulsory"),
    "max_wild_in_natural_meld": (3, 2, "wild_le_natural"),
    "sevens_lock": ("every_player", "discarding_player", "never"),
    "tie_rule": ("play_on", "shared"),
}


@dataclass(frozen=True, kw_only=True)
class RailroadCanastaOptions(GameOptions):
    """Railroad Canasta options (defaults = the spec).

    Attributes:
        player_count: players at the table, 2 to the most players allowed (RR-1.2).
        max_players: largest table allowed (RR-1.2).
        target_score: points that end the game (RR-14.1).
        minimum_count_table: the minimum count of a first melding by cumulative score:
            pairs of a score threshold and the minimum count from it, the highest threshold
            first; None = RR-7.1 (RR-7.1).
        go_out_requirement: the canastas a player needs to go out: ``"all_four"`` (one of
            each type), ``"red_and_black"``, ``"any_two"`` or ``"any_one"`` (RR-11.1); the
            types (RR-6.9): red, seven natural cards of a rank other than 7; black, with one
            to three wild cards; wild, seven wild cards; sevens, seven natural sevens.
        canasta_bonuses: points per canasta type (red: seven natural cards, not 7s; black:
            with one to three wild cards; wild: seven wild cards; sevens: seven natural
            sevens); None = red 500, black 300, wild 1,000, sevens 1,500 (RR-13.2).
        going_out_bonus: points for going out (RR-13.4).
        red_three_bonus: points per placed red three (RR-13.3).
        red_three_replacement: drawn and dealt red threes are replaced (RR-5.3, RR-4.9).
        kitty_red_three_replacement: red threes in a taken kitty are replaced (RR-10.4).
        kitty_red_three_penalty: points (≤ 0) for each red three left in an untaken kitty
            (RR-9.3, RR-13.5).
        allow_empty_hand_into_kitty: a last discard may empty the hand into the kitty (RR-5.7).
        must_take_kitty_before_going_out: a player must have taken their kitty before going
            out (RR-11.4, RR-11.7, RR-6.5).
        take_with_natural_and_wild: an unfrozen pile may be taken with a natural and a wild
            card (RR-8.7).
        stock_end_take: with the stock empty, taking the pile is ``"voluntary"`` or
            ``"compulsory"`` (RR-12.2).
        max_wild_in_natural_meld: most wild cards in a natural-rank meld: 3, 2 or
            ``"wild_le_natural"`` (no more than its naturals, at most 3) (RR-6.2).
        sevens_lock: when a 7 may not be discarded: ``"every_player"`` (until every player
            has a sevens canasta), ``"discarding_player"`` or ``"never"`` (RR-9.6, RR-12.4).
        upcard_wild_freezes: a wild upcard freezes the pile (RR-4.8, RR-8.3).
        tie_rule: players tied at the top over the target: ``"play_on"`` (more hands) or
            ``"shared"`` (they share the win) (RR-14.2).
        copy_choice: which identical copy moves when an action names cards by kind:
            ``"uniform"`` (uniformly random among the copies the player may use, keyed to hidden
            state, so it tells the others nothing; CC-5.9, RR-5.10, SH-6.4) or ``"legacy"`` (the
            choice of records and positions written before format version 2, which depended on
            the rest of the hand; only so that those replay unchanged).

    Raises:
        OptionsError: an unknown value or an out-of-range number, with a sentence.
    """

    TITLE = "Railroad Canasta"

    player_count: int = 4
    max_players: int = 8
    target_score: int = 20000
    minimum_count_table: tuple[tuple[int, int], ...] | None = None
    go_out_requirement: str = "all_four"
    canasta_bonuses: dict[str, int] | None = None
    going_out_bonus: int = 100
    red_three_bonus: int = 100
    red_three_replacement: bool = True
    kitty_red_three_replacement: bool = True
    kitty_red_three_penalty: int = 0
    allow_empty_hand_into_kitty: bool = True
    must_take_kitty_before_going_out: bool = False
    take_with_natural_and_wild: bool = False
    stock_end_take: str = "voluntary"
    max_wild_in_natural_meld: Literal[3, 2, "wild_le_natural"] = 3
    sevens_lock: str = "every_player"
    upcard_wild_freezes: bool = True
    tie_rule: str = "play_on"
    copy_choice: str = "uniform"

    @property
    def target(self) -> int:
        """Points that end the game (RR-14.1): ``target_score``, which has no count-dependent
        default in Railroad Canasta."""
        return self.target_score

    def __post_init__(self) -> None:
        if not isinstance(self.max_players, int) or self.max_players < 2:
            raise OptionsError(f"max_players must be a whole number ≥ 2, not {self.max_players!r}")
        if not isinstance(self.player_count, int) or not 2 <= self.player_count <= self.max_players:
            raise OptionsError(
                f"player_count must be 2 to {self.max_players} (RR-1.2), not {self.player_count!r}")
        check_choices(self, CHOICES)
        check_choices(self, {"copy_choice": COPY_CHOICES})
        check_bools(self, ("red_three_replacement", "kitty_red_three_replacement",
                           "allow_empty_hand_into_kitty", "must_take_kitty_before_going_out",
                           "take_with_natural_and_wild", "upcard_wild_freezes"))
        check_whole(self, ("going_out_bonus", "red_three_bonus"))
        if not isinstance(self.kitty_red_three_penalty, int) or isinstance(
                self.kitty_red_three_penalty, bool) or self.kitty_red_three_penalty > 0:
            raise OptionsError("kitty_red_three_penalty must be 0 or a negative number of points "
                               f"(e.g. -100), not {self.kitty_red_three_penalty!r}")
        if not isinstance(self.target_score, int) or isinstance(self.target_score, bool) \
                or self.target_score < 1:
            raise OptionsError(f"target_score must be a positive number of points, "
                               f"not {self.target_score!r}")
        if self.canasta_bonuses is not None:
            b = self.canasta_bonuses
            if not isinstance(b, dict) or set(b) - set(CANASTA_TYPES) or not all(
                    isinstance(v, int) and not isinstance(v, bool) for v in b.values()):
                raise OptionsError("canasta_bonuses must map red/black/wild/sevens to points, "
                                   f"not {b!r}")
            object.__setattr__(self, "canasta_bonuses", {**DEFAULT_BONUSES, **b})
        score_table(self, "minimum_count_table")

    # -- derived values ----------------------------------------------------------------------

    @property
    def decks(self) -> int:
        """Standard decks: two per player (RR-2.1)."""
        return 2 * self.player_count

    @property
    def jokers(self) -> int:
        """Jokers: two per player (RR-2.1)."""
        return 2 * self.player_count

    hand_size = 13  #: RR-4.3
    kitty_size = 11  #: RR-4.4
    stock_draw = 2  #: RR-5.3

    def bonus(self, kind: str) -> int:
        """Canasta bonus of a type (RR-13.2)."""
        return (self.canasta_bonuses or DEFAULT_BONUSES)[kind]

    def minimum_count(self, score: int) -> int:
        """Minimum count for a player's first melding (RR-7.1)."""
        for threshold, minimum in self.minimum_count_table or DEFAULT_MINIMUM_TABLE:
            if score >= threshold:
                return minimum
        return NEGATIVE_MINIMUM

    def wild_limit(self, naturals: int) -> int:
        """Most wild cards a natural-rank meld of ``naturals`` naturals may hold (RR-6.2)."""
        m = self.max_wild_in_natural_meld
        if m == "wild_le_natural":
            return min(3, naturals)
        return m


PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "short": {"target_score": 10000},
}


#: One line per option for players: what it changes and its rule IDs, from the attribute
#: descriptions of the docstring above (``descriptions`` in ``GET /api/games``).
DESCRIPTIONS: dict[str, str] = attribute_descriptions(RailroadCanastaOptions)

#: What going out needs under each ``go_out_requirement`` (RR-11.1), as a sentence's object:
#: "going out needs any two canastas".
GOING_OUT_NEEDS: dict[str, str] = {"all_four": "one canasta of each type",
                                   "red_and_black": "a red and a black canasta",
                                   "any_two": "any two canastas", "any_one": "any one canasta"}

#: The values of :data:`CHOICES` in words, for the web lobby (``choice_labels``).
CHOICE_LABELS: dict[str, dict[Any, str]] = {
    "go_out_requirement": {"all_four": "one canasta of each of the four types",
                           "red_and_black": "a red and a black canasta",
                           "any_two": "any two canastas", "any_one": "any one canasta"},
    "stock_end_take": {"voluntary": "taking the pile is optional",
                       "compulsory": "forced when the top card fits a meld"},
    "max_wild_in_natural_meld": {3: "at most 3", 2: "at most 2",
                                 "wild_le_natural": "wild cards ≤ naturals, at most 3"},
    "sevens_lock": {"every_player": "until every player has a sevens canasta",
                    "discarding_player": "until the discarder has a sevens canasta",
                    "never": "7s may always be discarded"},
    "tie_rule": {"play_on": "play more hands until one player leads",
                 "shared": "the tied players share the win"},
}

#: Each option's name for players, for the web lobby (``labels`` in ``GET /api/games``).
LABELS: dict[str, str] = {
    "player_count": "Players",
    "max_players": "Most players",
    "target_score": "Target score",
    "minimum_count_table": "Minimum counts by score",
    "go_out_requirement": "Canastas to go out",
    "canasta_bonuses": "Canasta bonuses",
    "going_out_bonus": "Going-out bonus",
    "red_three_bonus": "Red three bonus",
    "red_three_replacement": "Red threes replaced",
    "kitty_red_three_replacement": "Kitty red threes replaced",
    "kitty_red_three_penalty": "Red three left in a kitty",
    "allow_empty_hand_into_kitty": "Last discard into the kitty",
    "must_take_kitty_before_going_out": "Kitty taken before going out",
    "take_with_natural_and_wild": "Take the pile with a wild card",
    "stock_end_take": "Taking the pile when the stock is empty",
    "max_wild_in_natural_meld": "Wild cards in a meld",
    "sevens_lock": "Sevens may not be discarded",
    "upcard_wild_freezes": "Wild upcard freezes the pile",
    "tie_rule": "Tie at the top",
}

#: How a player types the options whose field takes a list or a mapping (JSON), shown beside
#: the field in the web lobby: the spec's own value of each (RR-7.1, RR-13.2).
EXAMPLES: dict[str, object] = {
    "minimum_count_table": [list(row) for row in DEFAULT_MINIMUM_TABLE],
    "canasta_bonuses": dict(DEFAULT_BONUSES),
}
