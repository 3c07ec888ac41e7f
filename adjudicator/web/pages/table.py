"""Blueprint `ui`: the table editor (`/`), the ruling (`/ruling`), "what if I play this?",
the language switch, and what every response carries (security headers, the CSRF token).

Progressive enhancement: every form here is a plain HTML form the server renders an answer to;
htmx (static/vendor) and static/js/editor.js only make the same requests inline. A ruling's URL
is its permalink: `/ruling?state=<base64url of compact JSON>` reproduces it anywhere. A POSTed
ruling answers with a redirect to that permalink (so reloading never re-posts).
"""

from __future__ import annotations

import hmac
import os
import secrets
from typing import Any
from urllib.parse import urlencode, urlsplit

from flask import (
    Blueprint,
    Response,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from ...cards.catalog import EDITIONS, EXPANSIONS
from ...errors import InputError, error
from ...i18n import (
    COOKIE,
    LANGS,
    current_lang,
    messages,
    pick,
    pointers_as_words,
    t,
    use_game,
    valid_lang,
)
from ..responses import error_response, wants_json
from . import referee
from .choices import choice_fields, posted_move
from .forms import decode_state, encode_state, form_from_state, state_from_form
from .game import Game, decode_game, log_entries, one_table
from .game import field_words as game_field_words
from .share import absolute, qr_code

bp = Blueprint("ui", __name__)

CSRF_FIELD = "csrf_token"
# The editor's JSON twin when it holds no table yet: the contract's input format, empty.
EMPTY_STATE: dict[str, Any] = {
    "edition": "fluxx", "expansions": [], "players": [], "active": None, "rules": [],
    "goals": [], "turn": {}, "discard_pile": [], "pending": [],
}
# No inline script or style anywhere: all JS and CSS are static files of this origin.
CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
])
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    "Cross-Origin-Opener-Policy": "same-origin",
}


@bp.record_once
def _configure(state: Any) -> None:
    app = state.app
    # The CSRF token lives in the signed session cookie: it needs a secret, the same in every
    # worker process (a form rendered by one worker is posted to another): from the
    # environment, else kept in a private file beside the knowledge store.
    if not app.secret_key:
        app.secret_key = (os.environ.get("FLUXX_SECRET_KEY") or os.environ.get("SECRET_KEY")
                          or (secrets.token_hex(32) if app.testing else _machine_secret()))
    if app.config.get("SESSION_COOKIE_SAMESITE") is None:
        app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.jinja_env.globals.update(
        t=t, pick=pick, field_words=game_field_words, pointers_as_words=pointers_as_words,
        type_names=_type_names, csrf_token=csrf_token,
        lang_url=lang_url, source_label=referee.source_label, card_info=referee.card_info,
        card_words=referee.card_words,
        suggestion_words=referee.suggestion_words, remark_words=referee.remark_words,
        ui_keys=messages(),
    )


def _type_names() -> dict[str, str]:
    """Each card type's name in the page's language (the picker says "Milk is a Keeper")."""
    return {key.removeprefix("type."): t(key) for key in messages() if key.startswith("type.")}


def _machine_secret() -> str:
    """A random secret made once per machine and user (mode 0600), shared by all workers."""
    from ...knowledge.store import cache_dir

    try:
        folder = cache_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "secret_key"
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            secret = path.read_text(encoding="ascii").strip()
            if len(secret) >= 32:
                return secret
            raise OSError(f"{path} holds no usable secret") from None
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            secret = secrets.token_hex(32)
            handle.write(secret)
        return secret
    except OSError:
        return secrets.token_hex(32)  # no writable cache: this process's own secret


@bp.app_context_processor
def _page_context() -> dict[str, Any]:
    return {"lang": current_lang(), "langs": LANGS}


@bp.after_app_request
def _headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    chosen = valid_lang(request.args.get("lang"))
    if chosen and request.cookies.get(COOKIE) != chosen:
        response.set_cookie(COOKIE, chosen, max_age=365 * 24 * 3600, samesite="Lax",
                            httponly=True)
    if "text/html" in response.content_type:
        response.vary.add("Cookie")
        response.vary.add("Accept-Language")
    return response


@bp.errorhandler(InputError)
def _input_error(err: InputError):
    """Inline requests (htmx) get the error display alone, to show where the answer would go."""
    if is_htmx() and not wants_json():
        return render_template("partials/errors.html", error=err.to_json(),
                               error_state=None), err.status

    return error_response(err)


# --- helpers -----------------------------------------------------------------------------

def csrf_token() -> str:
    token = session.get(CSRF_FIELD)
    if not token:
        token = session[CSRF_FIELD] = secrets.token_urlsafe(32)
    return token


def check_csrf() -> None:
    sent = request.form.get(CSRF_FIELD) or request.headers.get("X-CSRF-Token") or ""
    expected = session.get(CSRF_FIELD) or ""
    if not (expected and hmac.compare_digest(sent, expected)):
        raise InputError(error("/csrf_token", "csrf_refused"), status=403)


def lang_url(code: str) -> str:
    """This page's URL in the language `code` (GET pages keep their query)."""
    args = request.args.to_dict(flat=False)
    args["lang"] = [code]
    return request.path + "?" + urlencode(args, doseq=True)


def is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


def _editor(values: dict[str, Any], errors: dict[str, Any] | None = None,
            state: dict[str, Any] | None = None, pasted: str = "", status: int = 200,
            json_url: str | None = None):
    return render_template(
        "editor.html", form=values, error=errors, error_state=state, pasted=pasted,
        editions=EDITIONS, expansions=EXPANSIONS, json_url=json_url,
    ), status


def _default_values() -> dict[str, Any]:
    return form_from_state({"edition": "fluxx", "players": [{"name": ""}, {"name": ""}]},
                           current_lang())


# --- routes --------------------------------------------------------------------------------

@bp.get("/")
def editor():
    """The editor, empty or filled from a permalink's state. Its JSON twin is that state."""
    token = request.args.get("state")
    state = decode_state(token) if token else None
    if wants_json():
        return jsonify(state if state is not None else EMPTY_STATE)
    values = form_from_state(state, current_lang()) if state else _default_values()
    return _editor(values, json_url=url_for("ui.editor", state=token, format="json"))


@bp.post("/")
def editor_load():
    """Load a pasted JSON/YAML state into the editor's fields (the "Load" button)."""
    check_csrf()
    pasted = request.form.get("state_text", "")
    try:
        state = state_from_form(request.form)
    except InputError as err:
        if wants_json():
            return error_response(err)
        return _editor(_default_values(), err.to_json(), pasted=pasted, status=err.status)
    return _editor(form_from_state(state, current_lang()))


@bp.get("/ruling")
def ruling_page():
    """The ruling of a table (`?state=`), or of the table shown of a game (`?game=`: the log of
    its moves, with undo and redo: web/pages/game.py). The JSON twin is the ruling."""
    token, game_token = request.args.get("state"), request.args.get("game")
    if not token and not game_token:
        if wants_json():
            # a JSON client cannot follow a redirect to the editor: say what is missing
            raise InputError(error("/state", "ruling_without_state"))
        # to the editor, in the language asked for (?lang= outranks the cookie there too)
        return redirect(url_for("ui.editor", lang=valid_lang(request.args.get("lang"))))
    game = decode_game(game_token) if game_token else one_table(decode_state(token or ""))
    data = game.current
    try:
        table = referee.read_state(data)
    except InputError as err:
        return error_response(err, state=data)  # the error page names the link's players
    ruling = referee.rule(table)
    if wants_json():
        return jsonify(ruling)
    return render_template("ruling.html", **_ruling_context(table, ruling, game))


@bp.post("/ruling")
def ruling_post():
    check_csrf()
    data: dict[str, Any] | None = None
    try:
        data = state_from_form(request.form)
        table = referee.read_state(data)
        ruling = referee.rule(table)
    except InputError as err:
        if wants_json():  # the page's JSON twin: the error in the contract's shape
            return error_response(err, state=data)
        if is_htmx():
            return render_template("partials/errors.html", error=err.to_json(),
                                   error_state=data), err.status
        values = form_from_state(data, current_lang()) if data else _default_values()
        return _editor(values, err.to_json(), state=data,
                       pasted=request.form.get("state_text", ""), status=err.status)
    token = encode_state(table.to_json())
    permalink = url_for("ui.ruling_page", state=token)
    if is_htmx():
        # the address bar gets the permalink (Back/forward and reloading keep the table), and
        # the page's language switch is swapped (out of band) for links that keep it too
        lang_links = {code: url_for("ui.ruling_page", state=token, lang=code) for code in LANGS}
        response = Response(render_template("partials/ruling_result.html",
                                            **_ruling_context(table, ruling),
                                            lang_links=lang_links), mimetype="text/html")
        response.headers["HX-Push-Url"] = permalink
        # the editor's own history entry is kept as the editor holding this table (app.js), so
        # that Back from the ruling returns to the table, not to an empty editor
        response.headers["X-Editor-Url"] = url_for("ui.editor", state=token)
        return response
    return redirect(permalink, code=303)


@bp.post("/ruling/play")
def play_post():
    """ "What if?": the outcomes of one move from the ruling's table, each with "Play this" (the
    game's link with that outcome added). The move is a listed move's `play` object (`play`,
    JSON), or a card of a hand (`kind`, `card`, `player`)."""
    check_csrf()
    game_token = request.form.get("game")
    game = (decode_game(game_token) if game_token
            else one_table(decode_state(request.form.get("state", ""))))
    table = referee.read_state(game.current)
    use_game(table.edition)
    # the open choices of an earlier answer, stated in its form, go with the move
    play = posted_move(request.form, _posted_play(table))
    kind = play.get("kind") or "play"
    card = play.get("card") or ""
    # a join names who becomes a player: none yet is a newcomer, not the active player
    player = play.get("player") or (None if play.get("kind") == "join" else table.active)
    answer = referee.play_move(table, play)
    if wants_json():
        return jsonify(answer)
    if kind == "resolve" and table.pending:
        card = table.pending[0].card
    token = encode_state(table.to_json())
    context = {
        "answer": answer, "card": card, "player": player, "kind": kind,
        # what the open choices' form posts again: this move, this table, this game
        "posted_play": play, "state_token": token, "game_token": game_token or "",
        "choice_fields": choice_fields(answer.get("open_choices") or [], table.edition,
                                       table.expansions),
        "outcomes": [_outcome_context(o, game, play) for o in answer.get("outcomes", [])],
        "groups": answer.get("groups") or [],
        "permalink": url_for("ui.ruling_page", state=token),
        "edition": table.edition, "expansions": list(table.expansions),
    }
    if is_htmx():
        return render_template("partials/play_result.html", **context)
    # this page answers a POST: its language links lead to the ruling it came from (a GET)
    lang_links = {code: url_for("ui.ruling_page", state=token, lang=code) for code in LANGS}
    return render_template("play.html", **context, lang_links=lang_links)


@bp.get("/lang/<code>")
def switch_lang(code: str):
    """Switch language and go back (for links that cannot carry ?lang=)."""
    response = redirect(local_path(request.args.get("next", "/")))
    if valid_lang(code):
        response.set_cookie(COOKIE, code, max_age=365 * 24 * 3600, samesite="Lax",
                            httponly=True)
    return response


def local_path(target: str) -> str:
    """`target` if it is a path of this site, else "/": no open redirect.

    Browsers drop tabs and line breaks from a URL and read a backslash as a slash, so
    "/\t/evil.com" is "//evil.com" to them, another site: a target with any control character,
    space or backslash is refused, and what is left must be a path with no scheme and no host."""
    if (not target.startswith("/") or "\\" in target
            or any(ch <= " " or ch == "\x7f" for ch in target)):
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or target.startswith("//"):
        return "/"
    return target


def _posted_play(table: Any) -> dict[str, Any]:
    """The move a What-if button posts: a listed move's `play` object (JSON: the reader of
    POST /api/play checks it), else a card of a hand, a Surprise answering the open chain, or
    closing the chain (`kind`, `card`, `player`: docs/PLAYS.md)."""
    import json

    if request.form.get("play"):
        try:
            play = json.loads(request.form["play"])
        except ValueError:
            raise InputError(error("/play", "move_not_json")) from None
        if not isinstance(play, dict):
            raise InputError(error("/play", "move_not_object"))
        return play
    kind = request.form.get("kind") or "play"
    play = {"kind": kind, "player": request.form.get("player") or table.active}
    if kind != "resolve":
        play["card"] = request.form.get("card", "")
    return play


# --- view models ---------------------------------------------------------------------------

def _ruling_context(table: Any, ruling: dict[str, Any], game: Game | None = None
                    ) -> dict[str, Any]:
    state = table.to_json()
    use_game(table.edition)
    token = encode_state(state)
    game = game or one_table(state)
    game_token = game.token() if len(game.states) > 1 else ""
    # a game's link carries its log; a lone table's is its permalink
    link = (url_for("ui.ruling_page", game=game_token) if game_token
            else url_for("ui.ruling_page", state=token))
    table_link = url_for("ui.ruling_page", state=token)
    return {
        "table": state,
        "ruling": ruling,
        "state_token": token,
        "game_token": game_token,
        "permalink": link,
        "table_link": table_link,
        **_share_context(link, table_link),
        "edit_url": url_for("ui.editor", state=token),
        "json_url": url_for("ui.ruling_page", state=token, format="json"),
        "moves": referee.moves_by_player(state, ruling),
        "active_hand": referee.active_hand(state),
        "whatif": referee.whatif_moves(state, ruling),
        "game_over": referee.game_over(ruling),
        "findings_view": referee.findings_view(ruling),
        "log": log_entries(game, referee.read_state) if game.moves else [],
        "log_at": game.at,
        "log_dropped": game.dropped,
        "undo_url": _game_url(game, game.at - 1) if game.at > 0 else None,
        "redo_url": _game_url(game, game.at + 1) if game.at < len(game.moves) else None,
        "log_urls": [_game_url(game, i) for i in range(len(game.states))],
    }


def _share_context(link: str, table_link: str) -> dict[str, Any]:
    """The absolute URL of the page's link ("Copy the link") and where its QR code is made: the
    code costs some 50 ms (share.py), so it is made only when "Show QR code" is opened."""
    return {"share_url": absolute(request.host_url, link),
            "qr_url": url_for("ui.qr_fragment", link=link, table=table_link)}


@bp.get("/ruling/qr")
def qr_fragment():
    """The QR code of a ruling's link (`link`, a path of this site); a game's link too long for
    a QR code falls back to the code of the table shown (`table`, without the game's log). The
    fragment "Show QR code" loads (htmx), or a page of its own without JavaScript."""
    link = local_path(request.args.get("link", "/"))
    table_link = local_path(request.args.get("table", link))
    share_url = absolute(request.host_url, link)
    label = t("ruling.qr_label")
    qr = qr_code(share_url, label)
    qr_table_only = False
    if qr is None and table_link != link:
        qr = qr_code(absolute(request.host_url, table_link), label)
        qr_table_only = qr is not None
    context = {"share_url": share_url, "qr": qr, "qr_table_only": qr_table_only}
    if wants_json():
        return jsonify({"ok": True, "url": qr.url if qr else None,
                        "table_only": qr_table_only, "version": qr.version if qr else None})
    if is_htmx():
        return render_template("partials/qr.html", **context)
    return render_template("qr.html", **context)


def _game_url(game: Game, at: int) -> str:
    return url_for("ui.ruling_page", game=game.go(at).token())


def _outcome_context(outcome: dict[str, Any], game: Game | None = None,
                     play: dict[str, Any] | None = None) -> dict[str, Any]:
    state = outcome.get("state") or {}
    token = encode_state(state) if state else ""
    ruling = outcome.get("ruling") or {}
    # what the play itself did (a rule placed, an action resolved...): the findings the new
    # table's ruling does not already state
    stated = {f.get("key") for f in ruling.get("findings", [])}
    choices = outcome.get("choices") or {}
    apply_url = None
    if state and game is not None and play is not None:
        apply_url = url_for("ui.ruling_page", game=game.then(play, choices, state).token())
    return {
        "state": state,
        "ruling": ruling,
        "wins": outcome.get("wins"),
        "changes": outcome.get("changes") or [],
        "probability": outcome.get("probability"),
        "choices": choices,
        "play_findings": [f for f in outcome.get("play_findings") or []
                          if f.get("key") not in stated],
        "permalink": url_for("ui.ruling_page", state=token) if token else None,
        "apply_url": apply_url,
    }
