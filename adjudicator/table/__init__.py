"""A table state of the contract and its reading: the state types (state.py), the reader that
turns user input into one and refuses impossible tables (reader.py), and the extension fields and
choice keys of plays (choices.py). Nothing here runs the rules engine."""
