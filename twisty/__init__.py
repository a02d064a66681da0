"""twisty: a constraint-solver based verifier and generator for dungeon puzzle games."""

__version__ = "0.1.0"
