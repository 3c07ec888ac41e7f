"""What makes a ruling fast without changing it: grounding only the rules and facts a table can
use (relevance.py), grounding concurrent rulings of one game together (batch.py), and grounding
the plays one caller asks for together (plays.py); rename.py renames a program apart per table
for both, and narrow.py renames only what a few differing predicates reach. Each part can be
switched off; the rulings stay the same (README.md says what each buys)."""
