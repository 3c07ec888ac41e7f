"""The bilingual knowledge store: the seeds parsed into FAQ entries, rulebook sections and cards.

- `faq_seed`, `rulebook_seed`: parsers of the seed texts in `faq/sources/` (never edited by hand).
- `annotations`: the project's own titles, topics, card links and translations (`faq/annotations/`).
- `store`: builds the SQLite file (sqlite-utils) and finds it (`default_path`, `ensure`, `open_db`).
- `text`: Chinese segmentation (jieba) and the Chinese -> English query vocabulary.
- `search`: full-text search over every kind of source, English and Chinese.
- `queries`: read functions for the JSON API, the HTML pages and the CLI.
"""
