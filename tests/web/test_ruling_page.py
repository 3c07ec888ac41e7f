"""The ruling page read at a glance: the deciding findings under the verdict, every finding
folded under its topic once (web/pages/referee.py, findings_view)."""

from __future__ import annotations

import re
from html import unescape

from adjudicator.referee.ruling import ruling_for
from adjudicator.table.reader import parse_state
from adjudicator.web.pages.forms import encode_state
from adjudicator.web.pages.referee import findings_view
from tests.web.ui_pages import html

WON = {"players": [{"name": "Ann", "hand": ["Jackpot!"], "keepers": ["Bread", "Toaster"]},
                   {"name": "Bo", "hand": ["Love"]}],
       "active": "Ann", "goals": ["Toast"], "turn": {"drawn": 1, "played": 1}, "draw_pile": 10}
OVER_LIMIT = {"players": [{"name": "Ann", "hand": ["Love", "Milk"]},
                          {"name": "Bo", "hand": ["Peace", "Sun", "Moon", "Time"]}],
              "active": "Ann", "rules": ["Hand Limit 2"], "turn": {"drawn": 1, "played": 0},
              "draw_pile": 10}


def text(fragment: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", fragment))).strip()


def test_the_winner_is_the_deciding_finding():
    view = findings_view(ruling_for(parse_state(WON)))
    assert view["deciding"][0]["about"] == "winner"
    assert "Ann wins at once" in view["deciding"][0]["text"]["en"]


def test_a_discard_owed_now_decides_before_the_counts():
    ruling = ruling_for(parse_state(OVER_LIMIT))
    view = findings_view(ruling)
    assert [f["about"] for f in view["deciding"]] == ["discards", "draw"]
    # folded: every finding once, under its topic
    folded = [f for topic in view["topics"] for f in topic["findings"]]
    assert sorted(map(repr, folded)) == sorted(map(repr, ruling["findings"]))


def test_the_page_shows_the_deciding_findings_first_and_folds_the_rest(client):
    page = html(client.get("/ruling", query_string={"state": encode_state(OVER_LIMIT)}))
    deciding = re.search(r'<ul class="deciding".*?</ul>', page, re.S).group(0)
    assert "Bo" in text(deciding) and "discard" in text(deciding)
    assert page.index('class="deciding"') < page.index("fact-limits")
    folds = re.findall(r'<details class="topic topic-([a-z_]+)">', page)
    assert folds[:2] == ["discards", "draw"] and len(folds) == len(set(folds))
    section = re.search(r'<section class="findings">.*?</section>', page, re.S).group(0)
    ruling = client.get("/ruling", query_string={"state": encode_state(OVER_LIMIT),
                                                 "format": "json"}).get_json()
    assert section.count('class="finding-text"') == len(ruling["findings"])


def test_a_math_goal_card_says_which_number_the_referee_uses(client):
    yin = text(html(client.get("/cards/yin_yang?edition=math")))
    assert "The number the referee uses" in yin and "goal_numbers" in yin
    assert "25, as the sources print it." in text(html(client.get(
        "/cards/silver_jubilee?edition=math")))
    assert "the project's reading of the card's name" in text(html(client.get(
        "/cards/the_speed_of_time_travel?edition=math")))
    # every Math Fluxx Goal's page says it, whatever the number's source
    from adjudicator.cards.catalog import catalog_for

    for card in catalog_for("math"):
        if card.type == "goal":
            page = client.get(f"/cards/{card.id}?edition=math")
            assert page.status_code == 200 and "The number the referee uses" in html(page)
