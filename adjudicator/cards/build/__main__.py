"""`python -m adjudicator.cards.build [NAME ...]`: rewrite the catalog files from the seeds."""

import sys

from . import main

sys.exit(main(sys.argv[1:]))
