"""Lights Out, a fifth game added to twisty through the registry alone: these test modules and one registry
entry (entry.GAME, put into twisty.games.GAMES by the tests' monkeypatch). No file of the package names it;
tests/commands/test_toy_game.py runs every command, the API and the page on it.

The game: a board of at most 4 x 4 lights, each lit (#) or dark (.). Pressing a light toggles it and its
orthogonal neighbours; a level is won when every light is dark. Pressing a light twice undoes it, so a
solution is a set of lights to press; the questions are the fewest presses, and whether that set is the
only one of its size.
"""
