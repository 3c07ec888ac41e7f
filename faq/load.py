"""Rebuild the knowledge store from the seeds, annotations and catalogs.

Usage: python faq/load.py [PATH]   (default: the store's cache path, or $FLUXX_STORE)
"""

from __future__ import annotations

import sys

from adjudicator.cli import main

if __name__ == "__main__":
    sys.exit(main(["build-store", *(["--path", sys.argv[1]] if len(sys.argv) > 1 else [])]))
