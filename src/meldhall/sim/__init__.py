"""Matches between bots: single games, batches, summaries."""
