"""What every bot reads first from its observation."""

from __future__ import annotations

__all__ = ["ObservationView"]


class ObservationView:
    """Facts a bot derives from one observation: the observation, its public part, the
    options, the seat and the number of seats.  Each game's bot extends it."""

    def __init__(self, obs):
        self.obs = obs
        self.p = obs.public
        self.opts = obs.options
        self.seat = obs.seat
        self.n = obs.options.player_count
