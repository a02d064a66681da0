"""Verdicts as people and scripts read them: one public verdict type per game with to_json() (what
`check --json` prints), the one-line summary and the walkthrough text. Above the solvers and the
renderers; below the API and the commands."""
