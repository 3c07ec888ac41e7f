"""Blueprint `coverage`: how much of the official FAQ the referee adjudicates.

`GET /api/faq/coverage` -> {"counts": {...}, "statuses": {...}, "entries": [{"id", "title",
"status", "scope", "url", "scenarios", "topics", "cards"}]} (optional `?status=` filter), and its
HTML twin `/faq/coverage` in English or Chinese. Both read `adjudicator.knowledge.coverage`, which
counts an entry as adjudicated only when a scenario test cites it, so the page cannot claim more
than the test suite checks.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, render_template, request

from ...errors import InputError, error
from ...i18n import current_lang
from ...knowledge import coverage
from ...messages import catalog, fill
from ..responses import wants_json

bp = Blueprint("coverage", __name__)

# The page's own words and the statuses' short names (messages/coverage.yaml).
TEXT: dict[str, dict[str, str]] = catalog("coverage")["page"]
STATUS_NAMES: dict[str, dict[str, str]] = catalog("coverage")["status_names"]


def say(key: str, **fields: Any) -> str:
    """The page's words `key` (coverage.yaml, `page`) in the request's language, filled in."""
    lang = current_lang()
    return fill(TEXT[key][lang], lang, **fields)


def _status_filter() -> str | None:
    status = (request.args.get("status") or "").strip() or None
    if status is not None and status not in coverage.STATUSES:
        raise InputError(error("/status", "unknown_status", list(coverage.STATUSES),
                               status=status, statuses=", ".join(coverage.STATUSES)))
    return status


def report_json(status: str | None = None) -> dict[str, Any]:
    """The coverage report as JSON; `status` keeps only the entries of that status."""
    report = coverage.current().to_json()
    if status is not None:
        report["entries"] = [e for e in report["entries"] if e["status"] == status]
    return report


@bp.get("/api/faq/coverage")
def coverage_api():
    return jsonify(report_json(_status_filter()))


@bp.get("/faq/coverage")
def coverage_page():
    status = _status_filter()
    if wants_json():
        return jsonify(report_json(status))
    report = coverage.current()
    groups = [(s, report.by_status(s)) for s in coverage.STATUSES
              if status is None or s == status]
    json_url = "/api/faq/coverage" + (f"?status={status}" if status else "")
    return render_template(
        "coverage.html", counts=report.counts, groups=groups, status=status,
        statuses=coverage.STATUSES, labels=coverage.STATUS_LABELS, names=STATUS_NAMES,
        text=TEXT, say=say, topic_names=coverage.topic_names(), json_url=json_url,
    )

