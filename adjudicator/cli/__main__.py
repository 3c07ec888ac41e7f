"""`python -m adjudicator.cli`: the same command line as `fluxx-adjudicator`."""

import sys

from . import main

sys.exit(main())
