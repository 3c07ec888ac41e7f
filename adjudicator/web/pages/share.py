"""Passing a ruling from one phone to another: the absolute URL of its link and a QR code of it.

The QR code is an SVG made here with segno and put inline in the page: the Content Security
Policy allows no inline style, and segno's SVG carries none (its colours are attributes). A link
that needs a QR code larger than `MAX_VERSION` gets none: the page says so instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import segno
from markupsafe import Markup, escape

# The largest QR code shown: version 25 is 117 modules a side (1,273 bytes at the lowest error
# correction), 2 CSS pixels a module at SIZE_PX, which a phone's camera still reads
# from another phone's screen. A 4-player table's link takes 400 to 600 bytes (version 14 to 17).
MAX_VERSION = 25
MAX_BYTES = 1273  # what a code of MAX_VERSION holds (byte mode, level L): longer is not tried
BORDER = 4  # the quiet zone around the code, in modules (the standard's)
SIZE_PX = 256  # the code's width at most (CSS pixels), before the page narrows it


@dataclass(frozen=True)
class Qr:
    url: str  # what the code encodes
    svg: Markup  # the <svg> element, ready for the page
    version: int


def absolute(host_url: str, link: str) -> str:
    """`link` (a path of this site) made absolute with the request's `host_url`."""
    return host_url.rstrip("/") + "/" + link.lstrip("/")


def qr_code(url: str, label: str) -> Qr | None:
    """The QR code of `url` as an inline SVG named `label` (for screen readers), or None if the
    code would be larger than MAX_VERSION. The <svg> carries the URL in `data-url`."""
    if len(url.encode("utf-8")) > MAX_BYTES:
        return None
    version, side, svg = _drawn(url)
    if version > MAX_VERSION:
        return None
    attrs = (f'<svg role="img" aria-label="{escape(label)}" data-url="{escape(url)}" '
             f'width="{side}" height="{side}" focusable="false" shape-rendering="crispEdges"')
    return Qr(url=url, svg=Markup(svg.replace("<svg", attrs, 1)), version=version)


@lru_cache(maxsize=256)
def _drawn(url: str) -> tuple[int, int, str]:
    """segno's code of `url`: its version, its side in pixels and its <svg>. Choosing the mask
    takes most of the time (some 50 ms for a table's link, 140 ms at version 25): a page shown
    again, or in the other language, reuses it."""
    # the lowest error correction for the smallest code; segno raises it when that fits
    code = segno.make(url, error="l", micro=False, boost_error=True)
    # dark modules on a light square drawn in the SVG itself (a quiet zone of 4 modules), so the
    # code reads the same on any page colour and in print; a whole number of pixels a module
    # (the width and height attributes), so that no seam shows between the rows of modules
    modules = code.symbol_size(scale=1, border=BORDER)[0]
    scale = max(2, SIZE_PX // modules)
    svg = code.svg_inline(scale=scale, border=BORDER, dark="#000", light="#fff",
                          svgclass="qr-code", lineclass="qr-dark", omitsize=True)  # a viewBox
    return code.version, modules * scale, svg
