"""Options of Classic Canasta: every row of the spec's "Configurable house rules" table.

:class:`ClassicCanastaOptions` is a frozen, keyword-only dataclass validated on construction;
``None`` for a count-dependent option means "the spec's default for this player count".
Presets: :data:`PRESETS` (``"standard"``, ``"pagat"``, ``"britannica"``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meldhall.errors import OptionsError
from meldhall.options import (
    COPY_CHOICES,
    GameOptions,
    attribute_descriptions,
    check_bools,
    check_choices,
    check_whole,
    parse_option_value,
    score_table,
)

__all__ = ["CHOICES", "CHOICE_LABELS", "DESCRIPTIONS",
           "ClassicCanastaOptions", "PRESETS", "DEFAULT_MINIMUM_TABLE",
           "parse_option_value"]

#: CC-7.1: (lowest cumulative score of the band, minimum count), highest band first.
#: A score below every threshold (i.e. negative) needs 15.
DEFAULT_MINIMUM_TABLE: tuple[tuple[int, int], ...] = ((3000, 120), (1500, 90), (0, 50))
NEGATIVE_MINIMUM = 15

#: The options with a fixed set of allowed values: option name -> the values, the spec's
#: default first.  ``__post_init__`` checks against it, and the web lobby shows each as a select
#: box (``choices`` in ``GET /api/games``).  An option not listed here is typed in.
CHOICES = {
    "wild_ratio": ("seed", "pagat"),
    "black_three_upcard": ("cover", "leave"),
    "last_red_three": ("end_immediately", "may_meld_first"),
    "partner_permission": ("optional", "disabled", "compulsory"),
    "tie_rule": ("play_on", "shared"),
    "three_player_mode": ("individual", "cutthroat"),
}


@dataclass(frozen=True, kw_only=True)
class ClassicCanastaOptions(GameOptions):
    """Classic Canasta options (spec table "Configurable house rules"; defaults = the spec).

    Attributes:
        player_count: players at the table, 2, 3, 4 or 6 (CC-1.1, CC-1.5).
        wild_ratio: how many wild cards a meld may hold: ``"seed"`` (≥2 naturals, wild ≤
            natural, ≤3 wild) or ``"pagat"`` (≥2 naturals, ≤3 wild) (CC-6.2).
        hidden_canasta_bonus: points on top of 500/300 for a hidden canasta (CC-6.8, CC-12.3).
        black_three_upcard: a black three turned as the first upcard: ``"cover"`` (covered by
            another card) or ``"leave"`` (stays on top and blocks the first player) (CC-4.7).
        red_three_upcard_freezes: a red three turned at the start freezes the pile (CC-4.8).
        unfrozen_take_with_wild: an unfrozen pile may be taken with one natural and one wild
            card (CC-8.6(b)).
        frozen_until_side_melds: the pile is frozen against a side that has not melded (CC-8.4).
        single_card_pile_restriction: one card in hand may not take a one-card pile (CC-8.8).
        last_red_three: a red three drawn as the last stock card: ``"end_immediately"`` (the
            hand ends) or ``"may_meld_first"`` (the player may still meld, not discard)
            (CC-11.2).
        stock_end_forced_take: with the stock empty, a legal take onto a meld is forced (CC-11.3).
        concealed_bonus: going-out bonus when concealed, total points (CC-12.5).
        concealed_exempt_from_minimum: concealed going out needs no minimum count (CC-7.6).
        partner_permission: asking the partner "may I go out?": ``"optional"`` (the answer
            binds), ``"disabled"`` or ``"compulsory"`` (must ask before going out) (CC-10.5).
        canastas_to_go_out: canastas a side needs to go out; None = 1 (3p, 4p) or 2 (2p, 6p,
            cutthroat) (CC-10.1).
        minimum_count_table: pairs of a score threshold and the minimum count from it, the
            highest threshold first; a score below every threshold needs 15; None = CC-7.1
            (CC-7).
        six_player_150_threshold: cumulative score from which a six-player side needs 150
            (CC-7.2).
        target_score: points that end the game; None = 5,000 (10,000 for 6p, 7,500 for
            cutthroat) (CC-13.1).
        tie_rule: sides tied at the top over the target: ``"play_on"`` (more hands until one
            side leads alone) or ``"shared"`` (they share the win) (CC-13.2).
        three_player_mode: the three-player game: ``"individual"`` (each plays alone) or
            ``"cutthroat"`` (draw two; the first to take the pile plays alone against the other
            two as partners) (CC-14.1).
        two_player_stock_draw: cards drawn from the stock in the two-player game, 2 or 1
            (CC-5.4).
        copy_choice: which identical copy moves when an action names cards by kind:
            ``"uniform"`` (uniformly random among the copies the player may use, keyed to hidden
            state, so it tells the others nothing; CC-5.9, RR-5.10, SH-6.4) or ``"legacy"`` (the
            choice of records and positions written before format version 2, which depended on
            the rest of the hand; only so that those replay unchanged).

    Raises:
        OptionsError: an unknown value or an out-of-range number, with a sentence.
    """

    TITLE = "Classic Canasta"

    player_count: int = 4
    wild_ratio: str = "seed"
    hidden_canasta_bonus: int = 100
    black_three_upcard: str = "cover"
    red_three_upcard_freezes: bool = True
    unfrozen_take_with_wild: bool = True
    frozen_until_side_melds: bool = True
    single_card_pile_restriction: bool = True
    last_red_three: str = "end_immediately"
    stock_end_forced_take: bool = True
    concealed_bonus: int = 200
    concealed_exempt_from_minimum: bool = True
    partner_permission: str = "optional"
    canastas_to_go_out: int | None = None
    minimum_count_table: tuple[tuple[int, int], ...] | None = None
    six_player_150_threshold: int = 7500
    target_score: int | None = None
    tie_rule: str = "play_on"
    three_player_mode: str = "individual"
    two_player_stock_draw: int = 2
    copy_choice: str = "uniform"

    def __post_init__(self) -> None:
        if self.player_count not in (2, 3, 4, 6):
            raise OptionsError(
                f"player_count must be 2, 3, 4 or 6 (CC-1.1, CC-1.5), not {self.player_count!r}"
            )
        check_choices(self, CHOICES)
        check_choices(self, {"copy_choice": COPY_CHOICES})
        check_bools(self, ("red_three_upcard_freezes", "unfrozen_take_with_wild",
                           "frozen_until_side_melds", "single_card_pile_restriction",
                           "stock_end_forced_take", "concealed_exempt_from_minimum"))
        check_whole(self, ("hidden_canasta_bonus", "concealed_bonus",
                           "six_player_150_threshold"), minimum=0)
        if self.canastas_to_go_out is not None and (
            not isinstance(self.canastas_to_go_out, int) or self.canastas_to_go_out < 1
        ):
            raise OptionsError("canastas_to_go_out must be a positive whole number, "
                               f"not {self.canastas_to_go_out!r}")
        if self.target_score is not None and (
            not isinstance(self.target_score, int) or self.target_score < 1
        ):
            raise OptionsError("target_score must be a positive number of points, "
                               f"not {self.target_score!r}")
        if self.two_player_stock_draw not in (1, 2):
            raise OptionsError(
                f"two_player_stock_draw must be 1 or 2 (CC-5.4), not {self.two_player_stock_draw!r}"
            )
        if self.three_player_mode == "cutthroat" and self.player_count != 3:
            raise OptionsError("three_player_mode='cutthroat' needs player_count=3 (CC-14.1)")
        score_table(self, "minimum_count_table")

    # -- derived values ----------------------------------------------------------------------

    @property
    def cutthroat(self) -> bool:
        """True for the three-player cutthroat game (CC-14.1)."""
        return self.three_player_mode == "cutthroat"

    @property
    def required_canastas(self) -> int:
        """Canastas a side needs to go out (CC-10.1, CC-14.1)."""
        if self.canastas_to_go_out is not None:
            return self.canastas_to_go_out
        return 2 if self.player_count in (2, 6) or self.cutthroat else 1

    @property
    def target(self) -> int:
        """Target score (CC-13.1, CC-14.1)."""
        if self.target_score is not None:
            return self.target_score
        if self.player_count == 6:
            return 10000
        return 7500 if self.cutthroat else 5000

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player (CC-4.4)."""
        return {2: 15, 3: 13, 4: 11, 6: 13}[self.player_count]

    @property
    def stock_draw(self) -> int:
        """Cards taken by a stock draw (CC-5.3, CC-5.4, CC-14.1)."""
        if self.player_count == 2:
            return self.two_player_stock_draw
        return 2 if self.cutthroat else 1

    @property
    def decks(self) -> int:
        """Standard decks in the pack (CC-2.1, CC-2.2)."""
        return 3 if self.player_count == 6 else 2

    @property
    def jokers(self) -> int:
        """Jokers in the pack (CC-2.1, CC-2.2)."""
        return 6 if self.player_count == 6 else 4

    def minimum_count(self, score: int) -> int:
        """Minimum count for a side's first melding given its cumulative score (CC-7.1, CC-7.2)."""
        if self.player_count == 6 and score >= self.six_player_150_threshold and (
            self.minimum_count_table is None
        ):
            return 150
        table = self.minimum_count_table or DEFAULT_MINIMUM_TABLE
        for threshold, minimum in table:
            if score >= threshold:
                return minimum
        return NEGATIVE_MINIMUM


PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "pagat": {"wild_ratio": "pagat", "hidden_canasta_bonus": 0, "black_three_upcard": "leave"},
    "britannica": {"hidden_canasta_bonus": 0, "last_red_three": "may_meld_first"},
}


#: One line per option for players: what it changes and its rule IDs, from the attribute
#: descriptions of the docstring above (``descriptions`` in ``GET /api/games``).
DESCRIPTIONS: dict[str, str] = attribute_descriptions(ClassicCanastaOptions)

#: The values of :data:`CHOICES` in words, for the web lobby (``choice_labels``).
CHOICE_LABELS: dict[str, dict[Any, str]] = {
    "wild_ratio": {"seed": "wild cards ≤ naturals, at most 3",
                   "pagat": "at most 3 wild cards"},
    "black_three_upcard": {"cover": "covered by another card",
                           "leave": "left on top, blocks the first player"},
    "last_red_three": {"end_immediately": "the hand ends at once",
                       "may_meld_first": "the player may meld first, no discard"},
    "partner_permission": {"optional": "may ask; the answer binds", "disabled": "never asked",
                           "compulsory": "must ask before going out"},
    "tie_rule": {"play_on": "play more hands until one side leads",
                 "shared": "the tied sides share the win"},
    "three_player_mode": {"individual": "each plays alone",
                          "cutthroat": "cutthroat: lone hand against two partners"},
}

#: Each option's name for players, for the web lobby (``labels`` in ``GET /api/games``).
LABELS: dict[str, str] = {
    "player_count": "Players",
    "wild_ratio": "Wild cards in a meld",
    "hidden_canasta_bonus": "Hidden canasta bonus",
    "black_three_upcard": "Black three as first upcard",
    "red_three_upcard_freezes": "Red three upcard freezes the pile",
    "unfrozen_take_with_wild": "Take an unfrozen pile with a wild card",
    "frozen_until_side_melds": "Pile frozen until a side melds",
    "single_card_pile_restriction": "No one-card pile with one card in hand",
    "last_red_three": "Red three as the last stock card",
    "stock_end_forced_take": "Forced take when the stock is empty",
    "concealed_bonus": "Concealed going-out bonus",
    "concealed_exempt_from_minimum": "Concealed going out: no minimum",
    "partner_permission": "Asking the partner to go out",
    "canastas_to_go_out": "Canastas to go out",
    "minimum_count_table": "Minimum counts by score",
    "six_player_150_threshold": "Six players: 150 from",
    "target_score": "Target score",
    "tie_rule": "Tie at the top",
    "three_player_mode": "Three players",
    "two_player_stock_draw": "Two players: cards drawn",
}

#: How a player types the options whose field takes a list (JSON), shown beside the field in
#: the web lobby: the spec's own value of each (CC-7.1).
EXAMPLES: dict[str, object] = {
    "minimum_count_table": [list(row) for row in DEFAULT_MINIMUM_TABLE],
}
