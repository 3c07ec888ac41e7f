"""What makes a ruling fast without changing it: grounding only the rules a table can fire
(relevance.py, unfired.py with bodies.py) and grounding concurrent rulings of one game together
(batch.py). Each part can be switched off; the rulings stay the same."""
