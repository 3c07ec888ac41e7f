"""What makes a ruling fast without changing it: grounding only the rules and facts a table can
use (relevance.py) and grounding concurrent rulings of one game together (batch.py). Each part can
be switched off; the rulings stay the same (README.md says what each buys)."""
