"""Fluxx Adjudicator: a rules referee for Fluxx.

The package by role: `table` (a table state and its reading), `cards` (the catalogs), `engine`
(facts and clingo), `referee` (rulings and moves), `knowledge` (the FAQ and rulebook store), `web`
(the Flask app: `adjudicator.web.create_app`), `cli` (the command line) and `messages` (texts).
"""

__version__ = "0.1.0"
