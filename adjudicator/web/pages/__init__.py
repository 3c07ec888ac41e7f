"""The HTML pages: the table editor and its ruling (table.py, with forms.py and referee.py), the
knowledge pages (knowledge.py) and the FAQ coverage page (coverage.py)."""
