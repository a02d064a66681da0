"""Temple Twist: the temple as data, the die under gravity, the six action cards, the round, the challenge
cards modelled, and a replayer that checks a plan turn by turn (docs/temple.md)."""
