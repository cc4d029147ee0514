"""Options of Classic Canasta: every row of the spec's "Configurable house rules" table.

:class:`ClassicCanastaOptions` is a frozen, keyword-only dataclass validated on construction;
``None`` for a count-dependent option means "the spec's default for this player count".
Presets: :data:`PRESETS` (``"standard"``, ``"pagat"``, ``"britannica"``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from meldhall.errors import OptionsError

__all__ = ["ClassicCanastaOptions", "PRESETS", "DEFAULT_MINIMUM_TABLE", "parse_option_value"]

#: CC-7.1: (lowest cumulative score of the band, minimum count), highest band first.
#: A score below every threshold (i.e. negative) needs 15.
DEFAULT_MINIMUM_TABLE: tuple[tuple[int, int], ...] = ((3000, 120), (1500, 90), (0, 50))
NEGATIVE_MINIMUM = 15

_CHOICES = {
    "wild_ratio": ("seed", "pagat"),
    "black_three_upcard": ("cover", "leave"),
    "last_red_three": ("end_immediately", "may_meld_first"),
    "partner_permission": ("optional", "disabled", "compulsory"),
    "tie_rule": ("play_on", "shared"),
    "three_player_mode": ("individual", "cutthroat"),
}


@dataclass(frozen=True, kw_only=True)
class ClassicCanastaOptions:
    """Classic Canasta options (spec table "Configurable house rules"; defaults = the spec).

    Attributes:
        player_count: 2, 3, 4 or 6 (CC-1.1, CC-1.5).
        wild_ratio: ``"seed"`` (≥2 naturals, wild ≤ natural, ≤3 wild) or ``"pagat"``
            (≥2 naturals, ≤3 wild) (CC-6.2).
        hidden_canasta_bonus: points on top of 500/300 for a hidden canasta (CC-6.8, CC-12.3).
        black_three_upcard: ``"cover"`` or ``"leave"`` (CC-4.7).
        red_three_upcard_freezes: a red three turned at the start freezes the pile (CC-4.8).
        unfrozen_take_with_wild: an unfrozen pile may be taken with one natural and one wild
            card (CC-8.6(b)).
        frozen_until_side_melds: the pile is frozen against a side that has not melded (CC-8.4).
        single_card_pile_restriction: one card in hand may not take a one-card pile (CC-8.8).
        last_red_three: ``"end_immediately"`` or ``"may_meld_first"`` (CC-11.2).
        stock_end_forced_take: with the stock empty, a legal take onto a meld is forced (CC-11.3).
        concealed_bonus: going-out bonus when concealed, total points (CC-12.5).
        concealed_exempt_from_minimum: concealed going out needs no minimum count (CC-7.6).
        partner_permission: ``"optional"``, ``"disabled"`` or ``"compulsory"`` (CC-10.5).
        canastas_to_go_out: canastas a side needs to go out; None = 1 (3p, 4p) or 2 (2p, 6p,
            cutthroat) (CC-10.1).
        minimum_count_table: ((score threshold, minimum), …) highest threshold first; a score
            below every threshold needs 15; None = CC-7.1 (CC-7).
        six_player_150_threshold: cumulative score from which a six-player side needs 150
            (CC-7.2).
        target_score: points that end the game; None = 5,000 (10,000 for 6p, 7,500 for
            cutthroat) (CC-13.1).
        tie_rule: ``"play_on"`` (more hands until one side leads alone) or ``"shared"``
            (CC-13.2).
        three_player_mode: ``"individual"`` or ``"cutthroat"`` (CC-14.1).
        two_player_stock_draw: cards drawn from the stock in the two-player game, 2 or 1
            (CC-5.4).

    Raises:
        OptionsError: an unknown value or an out-of-range number, with a sentence.
    """

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

    def __post_init__(self) -> None:
        if self.player_count not in (2, 3, 4, 6):
            raise OptionsError(
                f"player_count must be 2, 3, 4 or 6 (CC-1.1, CC-1.5), not {self.player_count!r}"
            )
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise OptionsError(
                    f"{name} must be one of {', '.join(map(repr, allowed))}, not {value!r}"
                )
        for name in ("red_three_upcard_freezes", "unfrozen_take_with_wild",
                     "frozen_until_side_melds", "single_card_pile_restriction",
                     "stock_end_forced_take", "concealed_exempt_from_minimum"):
            if not isinstance(getattr(self, name), bool):
                raise OptionsError(f"{name} must be true or false, not {getattr(self, name)!r}")
        for name in ("hidden_canasta_bonus", "concealed_bonus", "six_player_150_threshold"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise OptionsError(f"{name} must be a whole number of points ≥ 0, not {v!r}")
        if self.canastas_to_go_out is not None and (
            not isinstance(self.canastas_to_go_out, int) or self.canastas_to_go_out < 1
        ):
            raise OptionsError(
                f"canastas_to_go_out must be a positive whole number, not {self.canastas_to_go_out!r}"
            )
        if self.target_score is not None and (
            not isinstance(self.target_score, int) or self.target_score < 1
        ):
            raise OptionsError(f"target_score must be a positive number of points, not {self.target_score!r}")
        if self.two_player_stock_draw not in (1, 2):
            raise OptionsError(
                f"two_player_stock_draw must be 1 or 2 (CC-5.4), not {self.two_player_stock_draw!r}"
            )
        if self.three_player_mode == "cutthroat" and self.player_count != 3:
            raise OptionsError("three_player_mode='cutthroat' needs player_count=3 (CC-14.1)")
        if self.minimum_count_table is not None:
            table = self.minimum_count_table
            try:
                table = tuple((int(t), int(m)) for t, m in table)
            except (TypeError, ValueError):
                raise OptionsError(
                    "minimum_count_table must be a list of [score threshold, minimum] pairs"
                ) from None
            if not table or any(m < 0 for _, m in table):
                raise OptionsError("minimum_count_table needs at least one band of minimums ≥ 0")
            object.__setattr__(self, "minimum_count_table",
                               tuple(sorted(table, key=lambda b: -b[0])))

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

    def to_json(self) -> dict[str, Any]:
        """Options as a JSON-ready dict (tuples become lists)."""
        d = asdict(self)
        if d["minimum_count_table"] is not None:
            d["minimum_count_table"] = [list(b) for b in d["minimum_count_table"]]
        return d

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ClassicCanastaOptions:
        """Build options from a dict (unknown names raise :class:`OptionsError`)."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise OptionsError(
                f"unknown Classic Canasta option(s): {', '.join(unknown)}; known options: "
                + ", ".join(sorted(known))
            )
        data = dict(data)
        if data.get("minimum_count_table") is not None:
            data["minimum_count_table"] = tuple(tuple(b) for b in data["minimum_count_table"])
        try:
            return cls(**data)
        except TypeError as exc:  # wrong value types reaching comparisons
            raise OptionsError(str(exc)) from None

    def with_values(self, **changes: Any) -> ClassicCanastaOptions:
        """A copy with some options changed (validated)."""
        return replace(self, **changes)


def parse_option_value(text: str) -> Any:
    """Read a command-line option value: ``true``/``false``, integers, ``none``, JSON, or text."""
    import json

    t = text.strip()
    low = t.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null", "default"):
        return None
    try:
        return int(t.replace(",", "").replace("_", ""))
    except ValueError:
        pass
    if t[:1] in "[{":
        try:
            return json.loads(t)
        except json.JSONDecodeError as exc:
            raise OptionsError(f"cannot read option value {text!r}: {exc}") from None
    return t


PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "pagat": {"wild_ratio": "pagat", "hidden_canasta_bonus": 0, "black_three_upcard": "leave"},
    "britannica": {"hidden_canasta_bonus": 0, "last_red_three": "may_meld_first"},
}
