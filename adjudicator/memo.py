"""A bounded memo: what the engine has worked out once per process (parsed fact lines, the
readings of clingo symbols, ...), kept until there are `limit` entries, then dropped all at once.

Every key of these memos names its value for the life of the process (a line's text, clingo's
handle of an interned symbol: terms.handle), so a memo is never stale, only full; starting
afresh costs one re-reading of what recurs, and no bookkeeping per lookup.
"""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(dict[K, V]):
    """A dict that empties itself before it would hold more than `limit` entries."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def keep(self, key: K, value: V) -> V:
        """Stores `value` under `key` and returns it."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value
