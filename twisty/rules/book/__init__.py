"""Read These Before You Die: the book's topology, its level format and its rules, as plain Python.

See docs/book.md for the level format and every decision taken where the rulebook leaves room.
"""
