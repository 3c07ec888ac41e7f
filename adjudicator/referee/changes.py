"""What a move changed: the `changes` of an outcome, read off the table before and after it.

Every card of a table is somewhere (a hand, in front of a player, the rules, the Goal, a pile,
a set-aside hand, the Surprise chain); a move's events are the cards that changed place (copies
counted one by one), the cards drawn (known, or as a count), a player seated, the end of the
turn and the extra turns owed, and a winner. This is bookkeeping over two tables the rules
program made, not a rule: which cards go where, and why, is the move program's (its
`play_findings` say why, and each event cites the findings that name its card, else the move's
card).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from ..cards.catalog import Catalog
from ..messages import LANGS, by_lang, catalog, pair
from ..table.choices import PHASE, SUB_HANDS
from ..table.reader import UNKNOWN_CARD
from ..table.state import Player, TableState

Zone = tuple[str, str | None]  # (zone, player or None)

# the order events are told in: the card played first, then where cards went, by destination
_ORDER = ("rules", "goals", "keepers", "creepers", "claimed_goals", "hand", "sub_hand", "pending",
          "waiting", "discard_pile", "draw_pile")


_EMPTY: Counter[str] = Counter()  # a zone one state lacks (never changed)


def _known(cards: list[str] | None) -> Counter[str]:
    """The cards of a zone the table shows ("?" is a card there but unknown: counted apart)."""
    return Counter(c for c in cards or [] if c != UNKNOWN_CARD)


def zones_of(state: TableState) -> dict[Zone, Counter[str]]:
    """The known cards of each zone of `state`, as `changes` compares them (made once for a
    move's several outcomes: `before_zones`)."""
    zones: dict[Zone, Counter[str]] = {}
    for p in state.players:
        zones[("hand", p.name)] = _known(p.hand)
        zones[("keepers", p.name)] = Counter(p.keepers)
        zones[("creepers", p.name)] = Counter(p.creepers)
        zones[("claimed_goals", p.name)] = Counter(p.claimed_goals)
    zones[("rules", None)] = Counter(state.rules)
    zones[("goals", None)] = Counter(state.goals)
    zones[("discard_pile", None)] = Counter(state.discard_pile)
    zones[("draw_pile", None)] = _known(state.draw_pile)
    for frame in state.extra.get(SUB_HANDS) or []:
        zone = ("sub_hand", frame["player"])
        zones[zone] = zones.get(zone, Counter()) + Counter(frame["cards"])
    zones[("pending", None)] = Counter(link.card for link in state.pending)
    for card in (state.extra.get(PHASE) or {}).get("waiting") or []:  # Fluxxnomic
        zone = ("waiting", card["player"])
        zones[zone] = zones.get(zone, Counter()) + Counter([card["card"]])
    return zones


def revealed(state: TableState, game: Catalog, reveal: Any) -> TableState:
    """`state` with the cards the move's `reveal` choice names ({player: card or [cards]}, by
    any name the catalog knows) in place of unknown cards of those hands: the table before the
    move as the move saw it, so that a card revealed is not told as drawn."""
    if not isinstance(reveal, dict) or not reveal:
        return state
    players = []
    for p in state.players:
        named = reveal.get(p.name) or []
        cards = [c.id for c in map(game.resolve, [named] if isinstance(named, str) else named)
                 if c is not None]
        known = [c for c in p.hand or [] if c != UNKNOWN_CARD]
        unknown = p.hand_size - len(known)
        if cards and unknown > 0:
            shown = cards[:unknown]
            p = replace(p, hand=known + shown + [UNKNOWN_CARD] * (unknown - len(shown)))
        players.append(p)
    return replace(state, players=players)


def _unknown_in_sub_hands(state: TableState) -> Counter[str]:
    """The cards the table does not show among the cards each player is to play out."""
    out: Counter[str] = Counter()
    for frame in state.extra.get(SUB_HANDS) or []:
        out[frame["player"]] += frame.get("unknown") or 0
    return out


def _unknown_in_hand(state: TableState) -> dict[str, int]:
    return {p.name: p.hand_size - sum(_known(p.hand).values()) for p in state.players}


def _zone_json(zone: Zone) -> dict[str, str]:
    return {"zone": zone[0], **({"player": zone[1]} if zone[1] else {})}


def _zone_text(zone: Zone) -> dict[str, str]:
    template = catalog("changes")["zones"][zone[0]]
    return {lang: template[lang].format(player=zone[1] or "") for lang in LANGS}


def changes(before: TableState, after: TableState, game: Catalog, move: dict[str, Any],
            findings: list[dict[str, Any]], winner: str | None,
            before_zones: dict[Zone, Counter[str]] | None = None,
            unknown_out: dict[str, int] | None = None,
            gifted: Iterable[str] = (),
            hands_to: dict[str, str] | None = None,
            win_findings: Sequence[dict[str, Any]] = ()) -> list[dict[str, Any]]:
    """The ordered events that lead from `before` to `after` (one outcome of `move`);
    `before_zones`: zones_of(before), where the caller has it; `unknown_out`: how many unknown
    cards left each hand (the move program's count), by player; `gifted`: the players given
    cards another player drew; `hands_to`: whose whole hand went to whom (both the move
    program's); `win_findings`: the outcome ruling's findings about its winner, the sources of
    the `won` event (the Goal met and the rule of winning)."""
    old = before_zones if before_zones is not None else zones_of(before)
    new = zones_of(after)
    gone: dict[str, list[Zone]] = {}
    came: dict[str, list[Zone]] = {}
    for zone in sorted(set(old) | set(new), key=lambda z: (_ORDER.index(z[0]), z[1] or "")):
        was, now = old.get(zone, _EMPTY), new.get(zone, _EMPTY)
        if was == now:  # most zones of most moves
            continue
        for card, n in (was - now).items():
            gone.setdefault(card, []).extend([zone] * n)
        for card, n in (now - was).items():
            came.setdefault(card, []).extend([zone] * n)
    played = move.get("card")
    mover = move.get("player") or before.active
    # a card played from the mover's cards the table did not show came from that hand: its
    # leaving is told by its own event (`told`), not again as an unseen card that left
    unknown_out = unknown_out or {}
    told: dict[str, int] = {}
    # ... or from the cards the mover is to play out (a sub-hand) that the table did not show
    sub_played = (_unknown_in_sub_hands(after)[mover] < _unknown_in_sub_hands(before)[mover])
    events: list[dict[str, Any]] = []
    drawn: dict[str, list[str]] = {}
    for card in sorted(came, key=lambda c: (c != played, c)):
        sources = gone.get(card, [])
        for i, to in enumerate(came[card]):
            frm = sources[i] if i < len(sources) else None
            if (frm is None and card == played and to[0] != "hand"
                    and unknown_out.get(mover, 0) > told.get(mover, 0)):
                frm, told[mover] = ("hand", mover), told.get(mover, 0) + 1
            elif frm is None and card == played and sub_played:
                frm, sub_played = ("sub_hand", mover), False
            # (drawn into a hand, or into the cards a player is to play out: Draw 2 and Use 'Em)
            if (frm is None or frm == ("draw_pile", None)) and to[0] in ("hand", "sub_hand"):
                drawn.setdefault(to[1] or "", []).append(card)
                continue
            events.append(_moved(game, card, frm, to))
    if before.draw_pile:  # the cards drawn as they lay in the pile, the top first
        order = {card: i for i, card in reversed(list(enumerate(before.draw_pile)))}
        for cards in drawn.values():
            cards.sort(key=lambda c: order.get(c, len(order)))
    # cards that left a known place for a place the table does not show card by card
    for card, zones in gone.items():
        for zone in zones[len(came.get(card, [])):]:
            events.append(_moved(game, card, zone, None))
    # a player who was not at the table (Fluxxnomic's join): their cards came with their seat
    seated = {p.name for p in before.players}
    for p in after.players:
        if p.name not in seated:
            events.append(_joined(game, p, drawn.pop(p.name, [])))
    events += _hand_arrivals(before, after, game, drawn, unknown_out, told,
                             set(gifted) - {mover}, hands_to or {})
    if after.active != before.active or move.get("kind") == "end_turn":
        events.append({"event": "turn_ended", "player": before.active, "next": after.active,
                       "text": pair("changes", "turn_ended", player=before.active,
                                    next=after.active)})
    old_extra, new_extra = before.extra.get("extra_turns") or 0, after.extra.get("extra_turns") or 0
    if old_extra != new_extra:
        events.append({"event": "extra_turns", "count": new_extra,
                       "text": pair("changes", "extra_turns", count=new_extra)})
    if winner:
        # Fluxxnomic: "they win the cycle. Then the cycle ends" (seed 003; its finding wins_cycle)
        cycle = any(f.get("key") == "wins_cycle" for f in win_findings)
        won = {"event": "won", "player": winner,
               "text": pair("changes", "won_cycle" if cycle else "won", player=winner)}
        if _distinct(win_findings):
            won["sources"] = _distinct(win_findings)
        events.append(won)
    named, every = _named(findings), _distinct(findings)
    for event in events:
        event.setdefault("sources", _sources(event, named, every, game, played))
    return events


def _hand_arrivals(before: TableState, after: TableState, game: Catalog,
                   arrived: dict[str, list[str]], unknown_out: dict[str, int],
                   told: dict[str, int], given: set[str],
                   hands_to: dict[str, str]) -> list[dict[str, Any]]:
    """The cards that came into hands from no known place (`arrived`: known cards, by player)
    and the hands' unseen cards that came and went. A hand's unseen cards that left it are
    those the move program counts (`unknown_out`), or at least those its new holder is short
    of; those it kept travel with it where the hand goes (`hands_to`: Trade Hands, Rotate
    Hands). What else a holder has that it did not have came in: unseen cards one player lost
    while another gained some went from the one to the other (Taxes: no draw), paired in seat
    order; the rest was drawn, or given to the players `given` (Everybody Gets 1: cards the
    mover drew). `told`: unseen cards whose leaving another event tells (a card played from
    them), by player."""
    old_unknown, new_unknown = _unknown_in_hand(before), _unknown_in_hand(after)
    left = {name: min(unknown_out.get(name, 0), n) for name, n in old_unknown.items()}
    holder = {name: hands_to.get(name, name) for name in old_unknown}
    came: dict[str, int] = {}
    for p in after.players:
        if p.name not in old_unknown:  # joined with this move: told by its `joined` event
            continue
        kept = sum(old_unknown[n] - left[n] for n, h in holder.items() if h == p.name)
        came[p.name] = new_unknown.get(p.name, 0) - kept
        if came[p.name] < 0:  # fewer than the program counts left: the rest left too
            short = next((n for n, h in holder.items() if h == p.name), p.name)
            left[short] -= came[p.name]
            came[p.name] = 0
    events: list[dict[str, Any]] = []
    for name, to in holder.items():  # the unseen cards of the hands that travelled
        n = old_unknown[name] - left[name]
        if to != name and n > 0:
            events.append(_unseen_moved(name, to, n))
    givers = [[name, n - told.get(name, 0)] for name, n in left.items()
              if n - told.get(name, 0) > 0]
    for p in after.players:
        if p.name not in came:
            continue
        cards, unseen = arrived.get(p.name, []), came[p.name]
        for giver in givers:
            if not unseen:
                break
            if giver[0] == p.name or not giver[1]:
                continue
            n = min(unseen, giver[1])
            events.append(_unseen_moved(giver[0], p.name, n))
            unseen -= n
            giver[1] -= n
        count = len(cards) + unseen
        if count:
            kind = "received" if p.name in given else "drawn"
            events.append({"event": kind, "player": p.name, "count": count, "cards": cards,
                           "text": pair("changes", kind, player=p.name, count=count,
                                        cards=_card_list(game, cards))})
    # (told first: what left a hand went before what came, as a discard before its draw)
    return [{"event": "left_unknown", "player": name, "count": n,
             "text": pair("changes", "left_unknown", player=name, count=n)}
            for name, n in givers if n] + events


def _unseen_moved(giver: str, player: str, n: int) -> dict[str, Any]:
    return {"event": "moved_unseen", "player": player, "count": n,
            "from": {"zone": "hand", "player": giver}, "to": {"zone": "hand", "player": player},
            "text": pair("changes", "moved_unseen", count=n, giver=giver, player=player)}


def _joined(game: Catalog, player: Player, cards: list[str]) -> dict[str, Any]:
    """A player seated by the move, with the cards they got (the known ones named): made at
    random where the game makes its cards (Fluxxnomic), else drawn from the draw pile."""
    key = "joined" if game.copies_unlimited else "joined_drawn"
    return {"event": "joined", "player": player.name, "count": player.hand_size, "cards": cards,
            "text": pair("changes", key, player=player.name, count=player.hand_size,
                         cards=_card_list(game, cards))}


def _card_list(game: Catalog, cards: list[str]) -> Any:
    """The known cards named after a count (": Sun, Moon"), in each language; none: nothing."""
    if not cards:
        return by_lang("", "")
    names = [game.get(c) for c in cards]
    shown = pair("changes", "drawn_cards", cards=by_lang(
        ", ".join(n.ref("en") for n in names), "、".join(n.ref("zh") for n in names)))
    return by_lang(shown["en"], shown["zh"])


def _moved(game: Catalog, card: str, frm: Zone | None, to: Zone | None) -> dict[str, Any]:
    unseen = {"zone": "unknown"}
    return {"event": "moved", "card": card,
            "from": _zone_json(frm) if frm else unseen, "to": _zone_json(to) if to else unseen,
            "text": dict(_moved_text(game, card, frm, to))}


# A move's outcomes repeat the same moves (a discard of 20 from 21 cards: 21 outcomes of 20
# moves each, 21 different ones), and a text costs two messages filled in: each is made once.
@lru_cache(maxsize=4096)
def _moved_text(game: Catalog, card: str, frm: Zone | None, to: Zone | None) -> dict[str, str]:
    name = game.get(card)
    unseen_text = {"en": "a place the table does not show", "zh": "未公开的位置"}
    return pair("changes", "moved", card=by_lang(name.ref("en"), name.ref("zh")),
                **{"from": _text_of(_zone_text(frm) if frm else unseen_text),
                   "to": _text_of(_zone_text(to) if to else unseen_text)})


def _text_of(texts: dict[str, str]) -> Any:
    return by_lang(texts["en"], texts["zh"])


def _sources(event: dict[str, Any], named: dict[str, list[dict[str, Any]]],
             every: list[dict[str, Any]], game: Catalog,
             played: str | None) -> list[dict[str, Any]]:
    """The sources of the move's findings that name the event's card or player (`named`:
    `_named`), else those of the card played, else `every` finding's (a list of its own)."""
    wanted = event.get("card") or event.get("player")
    out = _distinct(named.get(wanted, ())) if isinstance(wanted, str) else []
    if not out and played and game.get(played) is not None:
        out = [game.get(played).source()]
    return out or list(every)


def _named(findings: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The findings that name each card or player, in order: as an argument, or as a value of
    an argument that is an object."""
    out: dict[str, list[dict[str, Any]]] = {}
    for finding in findings:
        names: dict[str, None] = {}
        for arg in finding.get("args", []):
            if isinstance(arg, str):
                names[arg] = None
            elif isinstance(arg, dict):
                names.update((v, None) for v in arg.values() if isinstance(v, str))
        for name in names:
            out.setdefault(name, []).append(finding)
    return out


def _distinct(findings: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The sources of `findings`, each once, in order."""
    out: list[dict[str, Any]] = []
    for finding in findings:
        out += [s for s in finding["sources"] if s not in out]
    return out
