"""The games meldhall plays, one package per game."""
