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

from ...errors import ErrorItem, InputError
from ...knowledge import coverage

bp = Blueprint("coverage", __name__)

# The page's own words (the Chinese is the project's translation).
TEXT: dict[str, dict[str, str]] = {
    "title": {"en": "FAQ coverage", "zh": "FAQ 覆盖情况"},
    "lead": {
        "en": "Every entry of the official Fluxx FAQ (seed 002) and of the Math Fluxx FAQ "
              "(seed 004), with what the referee does with it. An entry counts as adjudicated "
              "only when a scenario test in tests/rules/scenarios cites it; the list is computed "
              "from those files each time.",
        "zh": "官方 Fluxx FAQ（种子 002）和数学 Fluxx FAQ（种子 004）的每一条，以及裁判如何处理它。"
              "只有当 tests/rules/scenarios 中的场景测试引用某条目时，它才算已裁定；"
              "本列表每次都由这些文件计算得出。",
    },
    "status": {"en": "Status", "zh": "状态"},
    "count": {"en": "Entries", "zh": "条目数"},
    "total": {"en": "Total", "zh": "合计"},
    "entry": {"en": "Entry", "zh": "条目"},
    "scenarios": {"en": "Scenarios", "zh": "场景测试"},
    "topics": {"en": "Topics", "zh": "主题"},
    "none": {"en": "No entry has this status.", "zh": "没有处于此状态的条目。"},
    "all": {"en": "All statuses", "zh": "全部状态"},
    "untitled_zh": {"en": "", "zh": "（尚无中文标题）"},
}
STATUS_NAMES: dict[str, dict[str, str]] = {
    "adjudicated": {"en": "Adjudicated", "zh": "已裁定"},
    "other_decks": {"en": "Other decks", "zh": "其他版本"},
    "not_rules": {"en": "Not a rules question", "zh": "非规则问题"},
    "ours_not_adjudicated": {"en": "Ours, not adjudicated", "zh": "适用但未裁定"},
    "unclassified": {"en": "Unclassified", "zh": "未分类"},
}


def _status_filter() -> str | None:
    status = (request.args.get("status") or "").strip() or None
    if status is not None and status not in coverage.STATUSES:
        raise InputError(ErrorItem(
            "/status", f"Unknown status {status!r}: use one of {', '.join(coverage.STATUSES)}.",
            f"未知的状态 {status!r}：请使用 {', '.join(coverage.STATUSES)} 之一。",
            list(coverage.STATUSES)))
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
    if _wants_json():
        return jsonify(report_json(status))
    report = coverage.current()
    groups = [(s, report.by_status(s)) for s in coverage.STATUSES
              if status is None or s == status]
    json_url = "/api/faq/coverage" + (f"?status={status}" if status else "")
    return render_template(
        "coverage.html", counts=report.counts, groups=groups, status=status,
        statuses=coverage.STATUSES, labels=coverage.STATUS_LABELS, names=STATUS_NAMES,
        text=TEXT, topic_names=coverage.topic_names(), json_url=json_url,
    )


def _wants_json() -> bool:
    if request.args.get("format") == "json":
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json"
