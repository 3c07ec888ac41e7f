"""What the ruling page says beyond the moves themselves, in both languages:

1. A player with no move now reads why (the ruling's `not_yet` reasons, with their sources),
   not only "nothing right now" (FAQ 002-20: Ann's plays wait for Bo's discard).
2. Fluxxnomic: the cards waiting for the next phase are on the table, in the order played,
   each with who played it.
3. Fluxxnomic: a Goal met wins the cycle, which ends (the ruling's wins_cycle / cycle_over), not
   the game; a phase's draws and plays are optional, up to what the phase allows.
4. A damaged game link names its field as the game in the link, not as a page.
"""

from __future__ import annotations

import re

import pytest

from adjudicator.web.pages.forms import encode_state
from tests.web.ui_pages import TABLE, html

# Ann has drawn her 3; Bo must discard to the Hand Limit first
WAITS_FOR_BO = {**TABLE, "turn": {"drawn": 3}}
# Do some more: two draws and two plays this phase; Bo's Rules reset and Ann's Hippyism wait
PHASE = {
    "edition": "fluxxnomic",
    "players": [{"name": "Ann", "hand": ["Gambling", "Book"]}, {"name": "Bo", "hand": ["Peace"]}],
    "active": "Ann", "goals": ["Certainty"], "rules": ["Do some more"],
    "turn": {"drawn": 1, "played": 0},
    "phase": {"number": 2, "players": [{"player": "Bo", "drawn": 1, "played": 1}],
              "waiting": [{"player": "Bo", "card": "Rules reset"},
                          {"player": "Ann", "card": "Hippyism"}]},
}
CYCLE_WON = {
    "edition": "fluxxnomic",
    "players": [{"name": "Ann", "hand": ["Gambling"], "keepers": ["Peace", "Love"]},
                {"name": "Bo", "hand_size": 2}],
    "active": "Ann", "goals": ["Hippyism"],
}


def page(client, state: dict, lang: str) -> str:
    response = client.get("/ruling", query_string={"state": encode_state(state), "lang": lang})
    assert response.status_code == 200, html(response)
    return html(response)


def text(fragment: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", fragment)).strip()


def part(body: str, css_class: str, tag: str = "section") -> str:
    found = re.search(rf'<{tag} class="[^"]*\b{css_class}\b.*?</{tag}>', body, re.S)
    assert found, css_class
    return found.group(0)


@pytest.mark.parametrize(("lang", "nothing", "reason"), [
    ("en", "nothing right now:", "Bo must first discard 1 card to a limit"),
    ("zh", "现在无事可做：", "Bo须先因上限弃掉1张牌"),
])
def test_a_player_with_no_move_reads_why(client, lang, nothing, reason):
    moves = part(page(client, WAITS_FOR_BO, lang), "moves")
    ann = re.search(r"<dt>Ann</dt>\s*<dd>(.*?)</dd>", moves, re.S).group(1)
    assert nothing in text(ann)
    assert reason in text(ann)
    assert 'href="/faq/002-20"' in ann  # the reason's own source
    # each reason once, though it holds back several plays
    assert text(ann).count(reason) == 1


@pytest.mark.parametrize(("lang", "heading", "first", "second"), [
    ("en", "Waiting for the next phase", "played by Bo", "played by Ann"),
    ("zh", "等待下一阶段生效", "由 Bo 打出", "由 Ann 打出"),
])
def test_the_cards_waiting_for_the_next_phase_are_on_the_table(client, lang, heading, first,
                                                               second):
    waiting = part(page(client, PHASE, lang), "zone-waiting", "div")
    words = text(waiting)
    assert heading in words
    assert words.index(first) < words.index(second)
    assert re.findall(r'data-card="([a-z_]+)"', waiting) == ["rules_reset", "hippyism"]


@pytest.mark.parametrize(("lang", "banner", "over", "not_said"), [
    ("en", "Ann wins the cycle.", "The cycle is over", "wins the game"),
    ("zh", "Ann 赢得本周期。", "本周期结束", "赢得了游戏"),
])
def test_a_fluxxnomic_win_is_of_the_cycle(client, lang, banner, over, not_said):
    verdict = text(part(page(client, CYCLE_WON, lang), "verdict"))
    assert banner in verdict and over in verdict
    assert not_said not in verdict and "nobody draws or plays any more" not in verdict
    # the ruling's own finding says the same
    twin = client.get("/ruling", query_string={"state": encode_state(CYCLE_WON),
                                               "format": "json"}).get_json()
    assert "wins the cycle" in " ".join(f["text"]["en"] for f in twin["findings"])


@pytest.mark.parametrize(("lang", "draw", "play"), [
    ("en", "drawing is optional: up to 2 this phase, 1 drawn so far",
     "playing is optional: up to 2 this phase (Keepers not counted), 0 played so far"),
    ("zh", "抓牌可选：本阶段最多 2 张，已抓 1 张",
     "出牌可选：本阶段最多 2 张（所有物不计），已出 0 张"),
])
def test_a_phase_says_what_it_allows_not_zero_in_all(client, lang, draw, play):
    body = page(client, PHASE, lang)
    assert draw in text(part(body, "fact-draw", "div"))
    assert play in text(part(body, "fact-play", "div"))


@pytest.mark.parametrize(("lang", "field"), [("en", "The game in the link"),
                                             ("zh", "链接中的这局游戏")])
def test_a_damaged_game_link_names_the_game(client, lang, field):
    response = client.get("/ruling", query_string={"game": "zzz", "lang": lang})
    assert response.status_code == 400
    body = html(response)
    assert f'<span class="error-field">{field}</span>' in body
    assert "/game</span>" not in body
