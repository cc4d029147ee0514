"""Options of Shanghai Rummy: every row of the spec's "Configurable house rules" table.

:class:`ShanghaiOptions` is a frozen, keyword-only dataclass validated on construction
(:class:`~meldhall.errors.OptionsError` with a sentence naming the option).  ``None`` for a
count-dependent option means "the spec's default for this player count".  docs/options-shanghai.md
lists every option with its default, alternatives and rule IDs.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from meldhall.errors import OptionsError
from meldhall.options import COPY_CHOICES, attribute_descriptions, check_choices

__all__ = ["CHOICES", "CHOICE_LABELS", "DESCRIPTIONS",
           "DEFAULT_BUY_LIMITS", "PRESETS", "UNLIMITED", "ShanghaiOptions"]

#: SH-10.6: buys allowed per player and deal, for contracts 1 to 10.
DEFAULT_BUY_LIMITS: tuple[int, ...] = (3, 3, 3, 3, 3, 3, 3, 3, 4, 4)
#: The value meaning "no limit" for ``buy_limits`` and ``max_stock_rebuilds``.
UNLIMITED = "unlimited"

#: The options with a fixed set of allowed values: option name -> the values, the spec's
#: default first.  ``__post_init__`` checks against it, and the web lobby shows each as a select
#: box (``choices`` in ``GET /api/games``).  An option not listed here is typed in.
CHOICES = {
    "deals": (10, 7),
    "buy_priority": ("next_in_turn", "dealer_left"),
    "tie_rule": ("shared", "fewest_deals_scored", "extra_deal"),
}
_BOOLS = (
    "contract_min_sizes", "discarder_may_buy", "blind_bonus", "go_out_without_discard",
    "discard_taken_upcard", "layoff_on_contract_turn", "exchange_on_contract_turn",
    "distinct_set_ranks", "ace_both_ends",
)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass(frozen=True, kw_only=True)
class ShanghaiOptions:
    """Shanghai Rummy options (spec table "Configurable house rules"; defaults = the spec).

    Attributes:
        player_count: players at the table, 3 to 8 (SH-1.1).
        deals: deals in a game: 10 (contracts 1–10) or 7 (contracts 1–7) (SH-5.1, SH-14.1).
        contract_min_sizes: contract melds may be longer than stated (sets ≥ 3, runs ≥ the
            stated length; joker limit by actual length) (SH-8.2, SH-11.4).
        buy_priority: who buys first: ``"next_in_turn"`` (clockwise from the player in turn) or
            ``"dealer_left"`` (clockwise from the dealer's left) (SH-10.3).
        buy_limits: buys per player and deal: ``None`` = SH-10.6 (3 in deals 1–8, 4 in deals
            9–10); a whole number for every deal; a list of ten numbers (one per contract);
            or ``"unlimited"`` (SH-10.6).
        discarder_may_buy: the discarder may buy too, offered last (SH-10.3).
        joker_penalty: points for a joker left in hand (SH-13.2).
        deuce_penalty: points for a 2 left in hand (SH-13.2).
        ace_penalty: points for an ace left in hand (SH-13.2).
        blind_bonus: when on, going out blind earns 25, or 50 without a joker; off for no
            bonus (SH-11.3).
        go_out_without_discard: a player may go out by laying down or laying off every card
            (SH-6.2, SH-8.7, SH-9.6, SH-11.1).
        discard_taken_upcard: the upcard taken as the draw may be discarded at once (SH-6.5).
        layoff_on_contract_turn: lay-offs are allowed on the turn the contract is made (SH-8.5).
        exchange_on_contract_turn: joker exchanges are allowed on the contract turn (SH-8.5,
            SH-9.4).
        distinct_set_ranks: sets in one contract must be of different ranks (SH-8.4).
        ace_both_ends: a run of 14, A-2-…-K-A, is allowed (SH-7.3, SH-9.3).
        jokers_in_pack: jokers in the pack; ``None`` = 1 (3–4 players) or 2 (5–8)
            (SH-2.1, SH-2.2, SH-7.5).
        decks: standard decks; ``None`` = 2 (3–4 players) or 3 (5–8); at least 2 (SH-2.1,
            SH-2.2, SH-2.3).
        max_stock_rebuilds: stock rebuilds allowed per deal (penalty-card rebuilds included),
            or ``"unlimited"`` (SH-12.3, SH-10.8).
        tie_rule: players tied for the lowest total: ``"shared"`` (they share the win),
            ``"fewest_deals_scored"`` or ``"extra_deal"`` (SH-14.2).
        copy_choice: which identical copy moves when an action names cards by kind:
            ``"uniform"`` (uniformly random among the copies the player may use, keyed to hidden
            state, so it tells the others nothing; SH-6.4) or ``"legacy"`` (the lowest-index
            copy, as records and positions of format version 1 were written; only so that those
            replay unchanged).

    Raises:
        OptionsError: an unknown value or an out-of-range number, with a sentence.
    """

    player_count: int = 4
    deals: int = 10
    contract_min_sizes: bool = False
    buy_priority: str = "next_in_turn"
    buy_limits: Any = None
    discarder_may_buy: bool = False
    joker_penalty: int = 50
    deuce_penalty: int = 20
    ace_penalty: int = 20
    blind_bonus: bool = True
    go_out_without_discard: bool = False
    discard_taken_upcard: bool = False
    layoff_on_contract_turn: bool = False
    exchange_on_contract_turn: bool = False
    distinct_set_ranks: bool = False
    ace_both_ends: bool = False
    jokers_in_pack: int | None = None
    decks: int | None = None
    max_stock_rebuilds: Any = 10
    tie_rule: str = "shared"
    copy_choice: str = "uniform"

    def __post_init__(self) -> None:
        n = self.player_count
        if not _is_int(n) or not 3 <= n <= 8:
            raise OptionsError(f"player_count must be 3 to 8 (SH-1.1), not {n!r}")
        if self.deals not in (7, 10) or isinstance(self.deals, bool):
            raise OptionsError(f"deals must be 10 or 7 (SH-5.1), not {self.deals!r}")
        check_choices(self, {**CHOICES, "copy_choice": COPY_CHOICES})
        if self.blind_bonus == 0 and not isinstance(self.blind_bonus, bool):
            object.__setattr__(self, "blind_bonus", False)  # the table's alternative "0"
        for name in _BOOLS:
            if not isinstance(getattr(self, name), bool):
                raise OptionsError(f"{name} must be true or false, not {getattr(self, name)!r}")
        for name in ("joker_penalty", "deuce_penalty", "ace_penalty"):
            v = getattr(self, name)
            if not _is_int(v) or v < 0:
                raise OptionsError(f"{name} must be a whole number of points ≥ 0 (SH-13.2), "
                                   f"not {v!r}")
        if self.jokers_in_pack is not None and (not _is_int(self.jokers_in_pack)
                                                or not 0 <= self.jokers_in_pack <= 64):
            raise OptionsError(f"jokers_in_pack must be a whole number 0..64 (SH-2.3), not "
                               f"{self.jokers_in_pack!r}")
        if self.decks is not None and (not _is_int(self.decks) or not 2 <= self.decks <= 16):
            raise OptionsError(f"decks must be a whole number from 2 to 16 (SH-2.2), not "
                               f"{self.decks!r}")
        r = self.max_stock_rebuilds
        if r is None:  # "none"/"default" on the command line: the spec's default
            object.__setattr__(self, "max_stock_rebuilds", 10)
        elif r != UNLIMITED and (not _is_int(r) or r < 0):
            raise OptionsError(f"max_stock_rebuilds must be a whole number ≥ 0 or "
                               f"'unlimited' (SH-12.3), not {r!r}")
        b = self.buy_limits
        if b is None or b == UNLIMITED:
            pass
        elif _is_int(b):
            if b < 0:
                raise OptionsError(f"buy_limits must be ≥ 0 (SH-10.6), not {b!r}")
            object.__setattr__(self, "buy_limits", (b,) * 10)
        elif isinstance(b, (list, tuple)):
            if len(b) != 10 or not all(_is_int(x) and x >= 0 for x in b):
                raise OptionsError("buy_limits as a table needs ten whole numbers ≥ 0, one "
                                   f"per contract 1..10 (SH-10.6), not {b!r}")
            object.__setattr__(self, "buy_limits", tuple(b))
        else:
            raise OptionsError("buy_limits must be a whole number, a list of ten numbers, "
                               f"'unlimited' or null (SH-10.6), not {b!r}")

    # -- derived values ----------------------------------------------------------------------

    @property
    def num_decks(self) -> int:
        """Standard decks in the pack (SH-2.1, SH-2.2)."""
        if self.decks is not None:
            return self.decks
        return 2 if self.player_count <= 4 else 3

    @property
    def num_jokers(self) -> int:
        """Jokers in the pack (SH-2.1, SH-2.2)."""
        if self.jokers_in_pack is not None:
            return self.jokers_in_pack
        return 1 if self.player_count <= 4 else 2

    def buy_limit(self, contract: int) -> int | None:
        """Buys a player may make in a deal played with ``contract`` (1..10); ``None`` = no
        limit (SH-10.6)."""
        b = self.buy_limits
        if b == UNLIMITED:
            return None
        table = DEFAULT_BUY_LIMITS if b is None else b
        return table[contract - 1]

    @property
    def rebuild_limit(self) -> int | None:
        """Stock rebuilds allowed per deal, ``None`` = no limit (SH-12.3)."""
        r = self.max_stock_rebuilds
        return None if r == UNLIMITED else r

    def to_json(self) -> dict[str, Any]:
        """Options as a JSON-ready dict (tuples become lists)."""
        d = asdict(self)
        if isinstance(d["buy_limits"], tuple):
            d["buy_limits"] = list(d["buy_limits"])
        return d

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ShanghaiOptions:
        """Build options from a dict (unknown names raise :class:`OptionsError`)."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise OptionsError(
                f"unknown Shanghai Rummy option(s): {', '.join(unknown)}; known options: "
                + ", ".join(sorted(known)))
        try:
            return cls(**data)
        except TypeError as exc:
            raise OptionsError(str(exc)) from None

    def with_values(self, **changes: Any) -> ShanghaiOptions:
        """A copy with some options changed (validated)."""
        return replace(self, **changes)


PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "short": {"deals": 7},
    "quick_rebuilds": {"max_stock_rebuilds": 3},
}


#: One line per option for players: what it changes and its rule IDs, from the attribute
#: descriptions of the docstring above (``descriptions`` in ``GET /api/games``).
DESCRIPTIONS: dict[str, str] = attribute_descriptions(ShanghaiOptions)

#: The values of :data:`CHOICES` in words, for the web lobby (``choice_labels``).
CHOICE_LABELS: dict[str, dict[Any, str]] = {
    "deals": {10: "10 deals (contracts 1–10)", 7: "7 deals (contracts 1–7)"},
    "buy_priority": {"next_in_turn": "clockwise from the player in turn",
                     "dealer_left": "clockwise from the dealer's left"},
    "tie_rule": {"shared": "the tied players share the win",
                 "fewest_deals_scored": "fewest deals with points wins",
                 "extra_deal": "play an extra deal"},
}

#: Each option's name for players, for the web lobby (``labels`` in ``GET /api/games``).
LABELS: dict[str, str] = {
    "player_count": "Players",
    "deals": "Deals",
    "contract_min_sizes": "Longer contract melds",
    "buy_priority": "Who buys first",
    "buy_limits": "Buys per deal",
    "discarder_may_buy": "The discarder may buy",
    "joker_penalty": "Joker left in hand",
    "deuce_penalty": "2 left in hand",
    "ace_penalty": "Ace left in hand",
    "blind_bonus": "Going-out-blind bonus",
    "go_out_without_discard": "Go out without a discard",
    "discard_taken_upcard": "Discard the taken upcard",
    "layoff_on_contract_turn": "Lay off on the contract turn",
    "exchange_on_contract_turn": "Joker exchange on the contract turn",
    "distinct_set_ranks": "Sets of different ranks",
    "ace_both_ends": "Ace at both ends of a run",
    "jokers_in_pack": "Jokers",
    "decks": "Decks",
    "max_stock_rebuilds": "Stock rebuilds",
    "tie_rule": "Tie for the lowest",
}

#: How a player types the options whose field takes a list (JSON), shown beside the field in
#: the web lobby: the spec's own value of each (SH-10.6).
EXAMPLES: dict[str, object] = {
    "buy_limits": list(DEFAULT_BUY_LIMITS),
}
