"""What the canasta games share: one-rank melds, wild-card limits, the pile, notation."""
