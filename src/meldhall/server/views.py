"""What the server sends: a seat's view, a spectator's view, prompts.

Security rule of the whole server: a message to a seat is built ONLY from
``state.observation(seat).to_json()``, ``state.legal_actions(seat)`` and public facts (the
action history in notation, outcomes, seat names).  A spectator gets :func:`public_view`: the
observation with everything that differs between seats removed.  Never the state, the stock
or the seed.
"""

from __future__ import annotations

from typing import Any

from meldhall.game import State

__all__ = [
    "PRIVATE_FIELDS", "REMOVED_FIELDS", "prompt_for", "public_view", "recent_actions", "seat_view",
]

#: Observation fields that belong to the observing seat only, per the games' observation
#: docs: the public view has ``hand`` emptied, ``seat`` ``None`` and the others (Railroad's
#: ``my_kitty``) removed.  Any other field that differs between two seats' observations is
#: dropped from the public view too.
PRIVATE_FIELDS: dict[str, Any] = {"hand": [], "seat": None, "staged": [],
                                   "staged_upcard": False}
REMOVED_FIELDS: frozenset[str] = frozenset({"my_kitty"})
#: Fields that the seat in turn sees with values of its own while it stages (CC-6.9, RR-6.11,
#: SH-8.1) and every other seat sees at their resting value: the public view always shows the
#: resting value, so that a spectator's view never changes, nor loses a field, while a player
#: stages or withdraws.
STAGING_FIELDS: tuple[str, ...] = ("staged_count", "stages_left")

#: How many of the last actions (in notation) each message carries.
RECENT = 16
#: How many of the last log entries a message carries (the log covers the whole game; the
#: score sheet covers earlier hands).  ``log_total`` says how long the whole log is.
LOG_TAIL = 80


def trim_log(obs: dict[str, Any]) -> dict[str, Any]:
    log = obs.get("log")
    if isinstance(log, list):
        obs["log_total"] = len(log)
        if len(log) > LOG_TAIL:
            obs["log"] = log[-LOG_TAIL:]
    return obs


def recent_actions(state: State, n: int = RECENT) -> list[dict[str, Any]]:
    """The last ``n`` actions as ``{"seat", "action"}`` (notation is public)."""
    hist = state.history()
    out: list[dict[str, Any]] = []
    for seat, text in reversed(hist):
        if text:
            out.append({"seat": seat, "action": text})
            if len(out) >= n:
                break
    out.reverse()
    return out


def seat_view(state: State, seat: int, obs: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game part of a seat's message: its observation, its legal actions, its prompt.

    ``obs`` is ``state.observation(seat).to_json()`` when the caller already has it.
    """
    if obs is None:
        obs = state.observation(seat).to_json()
    obs = trim_log(dict(obs))
    legal = [str(a) for a in state.legal_actions(seat)] if seat in state.to_act else []
    view: dict[str, Any] = {
        "observation": obs,
        "legal": legal,
        "prompt": prompt_for(state, seat, obs) if legal else None,
    }
    if legal == ["draw"] and state.phase == "draw":
        # why the pile is out of reach, from the seat's observation alone (a tester held
        # J J J with a J upcard and was told only "the pile cannot be taken now")
        why = getattr(state.observation(seat), "why_no_take", None)
        e = why() if why is not None else None
        if e is not None:
            view["take_refused"] = {"rule": e.rule_id, "text": e.reason}
    return view


def public_view(state: State, observations: list[dict[str, Any]] | None = None
                ) -> dict[str, Any]:
    """The observation a spectator may see: only what every seat sees.

    Built from the observations of the seats: the private fields are emptied, any other field
    on which two seats' observations differ is left out, and each log entry is taken as the
    seats other than its actor saw it (an actor's own drawn card, say, is not public); an
    entry those seats saw differently loses its note.
    """
    n = state.players
    views = observations or [state.observation(s).to_json() for s in range(n)]
    base = dict(views[0])
    for key, empty in PRIVATE_FIELDS.items():
        if key in base:
            base[key] = empty
    for key in REMOVED_FIELDS:
        base.pop(key, None)
    resting = [v for s, v in enumerate(views) if s not in state.to_act] or views
    for key in STAGING_FIELDS:
        if key in base:
            base[key] = resting[0].get(key)
    for key in list(base):
        if key in PRIVATE_FIELDS or key in STAGING_FIELDS or key == "log":
            continue
        if any(v.get(key) != base[key] for v in views[1:]):
            del base[key]
    if "log" in base:
        logs = [v.get("log") or [] for v in views]
        total = min(len(lg) for lg in logs)
        base["log"] = _public_log([lg[:total][-LOG_TAIL:] for lg in logs])
        base["log_total"] = total
    base["seat"] = None
    return base


def _public_log(logs: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    n = len(logs)
    length = min(len(lg) for lg in logs)
    out: list[dict[str, Any]] = []
    for i in range(length):
        entries = [lg[i] for lg in logs]
        first = entries[0]
        if all(e == first for e in entries[1:]):
            out.append(first)
            continue
        actor = first.get("seat", -1)
        others = [entries[s] for s in range(n) if s != actor]
        if others and all(e == others[0] for e in others[1:]):
            out.append(others[0])
        else:
            out.append({"seat": actor, "action": first.get("action", ""), "note": ""})
    return out


SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def card_symbols(card: str) -> str:
    """A card as the table page shows it: ``"4H"`` (or ``"4H/1"``) -> ``"4♥"``, ``"JK"`` ->
    ``"Joker"``."""
    base = card.split("/")[0]
    if base == "JK":
        return "Joker"
    if base[-1:] in SUIT_SYMBOLS:
        return base[:-1] + SUIT_SYMBOLS[base[-1]]
    return base


def prompt_for(state: State, seat: int, obs: dict[str, Any]) -> dict[str, Any] | None:
    """What to ask ``seat`` when the decision is its own (a sentence for the table page).

    Out-of-turn decisions — a Shanghai buy, a Classic partner's "may I go out?" — are prompts
    to the seat whose decision it is.
    """
    phase = state.phase
    if phase == "consent":
        asker = obs.get("turn")
        return {"kind": "consent", "from": asker,
                "text": f"Seat {asker}, your partner, asks: \"may I go out?\" Answer yes or no."}
    if phase == "buy":
        card = obs.get("upcard")
        buys, limit = obs.get("buys"), obs.get("buy_limit")
        used = buys[seat] if isinstance(buys, list) else None
        if used is None:
            count = ""
        elif limit is None:
            count = f" (buy {used + 1}; no limit this deal)"
        else:
            count = f" (buy {used + 1} of {limit})"
        # SH-10.4: the buyer takes the upcard and the top stock card as a penalty card
        return {"kind": "buy", "card": card,
                "text": f"Buy {card_symbols(card) if card else 'the upcard'}? You also take a "
                        f"penalty card from the stock{count}."}
    if phase in ("hand_end", "deal_end"):
        what = "deal" if phase == "deal_end" else "hand"
        return {"kind": "deal", "text": f"The {what} is over: deal the next one."}
    if phase == "kitty":
        return {"kind": "kitty", "text": "You may take your kitty into your hand (its cards "
                "can be played from your next turn), or pass: it stays waiting, and you may "
                "take it after a later discard (RR-10.3)."}
    return None
