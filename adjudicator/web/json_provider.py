"""Flask's JSON answers written by orjson: the same bytes as Flask's own provider (keys sorted,
UTF-8 unescaped, compact, a closing newline) in a fraction of the time. A ruling is tens of kB
of JSON, written on every request of the API: the standard library's encoder is a visible part
of a request's Python, orjson's a small one.

Anything orjson writes differently or refuses goes to Flask's provider as before: dates, UUIDs
and dataclasses are passed through to Flask's `default` (which writes dates as HTTP dates),
integers beyond 64 bits and keys that are not strings raise TypeError here and are handed over,
and so do indented answers (debug mode). Reading JSON stays the standard library's: requests
are small, and its errors (too deep, not JSON) are what the API reports.
"""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response
from flask.json.provider import DefaultJSONProvider

_PASSTHROUGH = (orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
                | orjson.OPT_PASSTHROUGH_SUBCLASS)


class OrjsonProvider(DefaultJSONProvider):
    """DefaultJSONProvider with orjson for compact responses (`dumps`, which templates' `tojson`
    uses, stays Flask's: it writes spaces after separators)."""

    def _options(self) -> int | None:
        """orjson's options for this provider's settings, or None where only Flask's own
        provider writes the same (ASCII escapes asked for)."""
        if self.ensure_ascii:
            return None
        return _PASSTHROUGH | (orjson.OPT_SORT_KEYS if self.sort_keys else 0)

    def _orjson(self, obj: Any) -> bytes | None:
        options = self._options()
        if options is None:
            return None
        try:
            return orjson.dumps(obj, default=self.default, option=options)
        except TypeError:
            return None

    def response(self, *args: Any, **kwargs: Any) -> Response:
        if (self.compact is None and self._app.debug) or self.compact is False:
            return super().response(*args, **kwargs)
        written = self._orjson(self._prepare_response_obj(args, kwargs))
        if written is None:
            return super().response(*args, **kwargs)
        return self._app.response_class(written + b"\n", mimetype=self.mimetype)
