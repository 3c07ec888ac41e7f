"""A bounded memo: what the engine has worked out once per process (parsed fact lines, the
readings of clingo symbols, ...), kept until there are `limit` entries, then dropped all at once.

Every key of these memos names its value for the life of the process (a line's text, clingo's
handle of an interned symbol: terms.handle), so a memo is never stale, only full; starting
afresh costs one re-reading of what recurs, and no bookkeeping per lookup.

`FLUXX_MEMO=0` turns every memo off (each value is worked out anew), for comparing: the memos
buy little for one ruling alone and much under a threaded server's load
(adjudicator/engine/speed/README.md).
"""

from __future__ import annotations

import os
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")

MEMO_ENV = "FLUXX_MEMO"


def memos_on() -> bool:
    """False when FLUXX_MEMO=0: no memo stores anything."""
    return os.environ.get(MEMO_ENV, "1") != "0"


class Memo(dict[K, V]):
    """A dict that empties itself before it would hold more than `limit` entries; with
    `switchable` (the default), it stores nothing when FLUXX_MEMO=0."""

    def __init__(self, limit: int, *, switchable: bool = True) -> None:
        super().__init__()
        self.limit = limit
        self.storing = memos_on() or not switchable

    def keep(self, key: K, value: V) -> V:
        """Stores `value` under `key` and returns it."""
        if not self.storing:
            return value
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value
