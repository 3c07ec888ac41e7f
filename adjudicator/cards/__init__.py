"""The cards of every game: the runtime catalog (catalog.py), read from faq/catalogs/*.json, and
the seed parsers that write those files (cards/build/)."""
