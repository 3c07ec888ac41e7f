"""Players' names as the referee compares them (docs/FORMATS.md, "Players").

A name is data: it never reaches the rules program (engine/facts.py writes seats), and two names
are the same player when they read the same. So a name is kept in Unicode's composed form ("Zoë"
typed as e + combining diaeresis is the same name as "Zoë" typed as one character), every
reference to a player (`active`, a link's or a sub-hand's `player`, a play's player, the choices)
is compared in that form, and a name may hold no character that shows nothing or breaks a line:
control characters, format characters (zero-width space and joiners, direction marks, the byte
order mark), line and paragraph separators, lone surrogates, private-use and unassigned code
points, and the few letters and marks that draw nothing (Hangul fillers, variation selectors, the
blank Braille pattern), nor be made of combining marks alone.

Names that read the same at a table are one name, wherever a player is named: a name is kept in
Unicode's compatibility form (NFKC: full-width letters as plain ones, "Ａnn" is "Ann"), and with
its spaces of every width (no-break, ideographic, em) as one plain space between words, none at
either end ("Ann " and "Ann" are one name).
"""

from __future__ import annotations

import unicodedata
from typing import Any

# Unicode general categories a name may not hold: Cc control, Cf format, Cs surrogate, Co private
# use, Cn unassigned, Zl line separator, Zp paragraph separator.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# Default-ignorable code points of other categories: they draw nothing either.
_BLANK = frozenset([0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0,
                    *range(0x180B, 0x1810), *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)])


def invisible(name: str) -> tuple[int, str] | None:
    """The first character of `name` that a name may not hold, as (its position from 1, "U+XXXX"),
    or None."""
    if name.isascii() and name.isprintable():  # the common case, at C speed
        return None
    for i, char in enumerate(name, start=1):
        if ord(char) in _BLANK or unicodedata.category(char) in REFUSED_CATEGORIES:
            return i, f"U+{ord(char):04X}"
    if name and all(unicodedata.category(c).startswith("M") for c in name):
        # marks alone draw on nothing: a name of them shows no letter
        return 1, f"U+{ord(name[0]):04X}"
    return None


def canonical(name: Any) -> Any:
    """A name in the form the referee keeps and compares (NFKC, spaces as one plain space
    between words); anything else as given."""
    if not isinstance(name, str):
        return name
    if not name.isascii():
        name = unicodedata.normalize("NFKC", name)
        name = "".join(" " if unicodedata.category(c) == "Zs" else c for c in name)
    return name if name.strip(" ") == name and "  " not in name else " ".join(
        part for part in name.split(" ") if part)
