"""The rules engine's side of Python: a table state as facts (facts.py), the clingo program, its
solving and time limit (solve.py), answer-set atoms as plain values (terms.py), and what makes a
ruling fast (speed/). The rules themselves are the .lp files of rules_asp/."""
