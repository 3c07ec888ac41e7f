"""The referee's answers: a ruling for a table (ruling.py), the shared renderer of findings and
citations (render.py), moves and their outcomes (moves.py) and whole simulated games
(simulate.py)."""
