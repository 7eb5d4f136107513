"""The hand and the actions are in view without scrolling, on a laptop and on a phone.

At 1366 × 900 (a laptop) and 390 × 844 (a phone) the page is opened at its top, a Burraco or
Scala 40 turn shown (hand and buttons), poker's PASSO asked to confirm: the bounding boxes of the
hand, of its every card, of the action buttons and of the confirmation lie inside the viewport,
the page never scrolled. Screenshots go to test-artifacts/ (tavolo-schermo-<game>-<size>.png).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e import test_table_client as client
from tests.e2e.live import STATIC_FILES_WARNING
from tests.e2e.test_table_client import action_button, burraco_with_meld, has_type, play_until

open_table = client.open_table  # the fixture: a table page whose socket the test plays

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
SIZES = {"laptop": LAPTOP, "phone": PHONE}


def inside(page, selector: str) -> list[str]:
    """What of ``selector``'s visible elements lies outside the viewport (empty: all in view)."""
    return page.evaluate(
        """sel => {
          const out = [];
          const els = [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length);
          if (!els.length) out.push(`${sel}: nothing visible`);
          for (const e of els) {
            const r = e.getBoundingClientRect();
            if (r.top < -0.5 || r.left < -0.5 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5)
              out.push(`${sel} ${e.dataset.card || e.dataset.action || e.className}: ` +
                `${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`);
          }
          return out;
        }""",
        selector,
    )


def at_top(page) -> None:
    """The test scrolled nothing: a laptop's page is at its top; a phone's is too, but for the
    scroll the page makes itself as the player's turn begins (his seat above the dock: render.js)."""
    if page.evaluate("innerWidth") >= 700:
        assert page.evaluate("window.scrollY") == 0
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), "sideways scroll"


def burraco_turn() -> tuple[dict[str, Any], int]:
    state, seat, _laid = burraco_with_meld()
    return state, seat


def scala40_turn() -> tuple[dict[str, Any], int]:
    return play_until("scala40", has_type("apri"))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    ("game", "turn", "buttons"),
    [
        ("burraco", burraco_turn, ("cala", "scarta")),
        ("scala40", scala40_turn, ("apri", "scarta")),
    ],
)
def test_rummy_hand_and_actions_are_in_view(open_table, artifacts, game, turn, buttons, size):
    state, seat = turn()
    t = open_table(game, viewport=SIZES[size])
    t.show(state, seat)
    page = t.page
    page.locator("[data-role=hand] [data-card]").first.wait_for()
    at_top(page)
    problems = inside(page, "#table [data-role=hand] [data-card]")
    for kind in buttons:
        assert action_button(page, kind).count() >= 1, kind
        problems += inside(page, f"#table [data-role=actions] button[data-action='{kind}']")
    page.screenshot(path=str(artifacts / f"tavolo-schermo-{game}-{size}.png"))
    assert problems == [], problems
    assert t.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_poker_confirmation_is_in_view(open_table, artifacts, size):
    state, seat = play_until(
        "poker5", lambda s, n, legal: any(a["type"] == "passo" and a.get("confirm") for a in legal)
    )
    t = open_table("poker5", viewport=SIZES[size])
    t.show(state, seat)
    page = t.page
    at_top(page)
    problems = inside(page, "#table [data-role=actions] button[data-action]")
    action_button(page, "passo").click()
    confirm = page.locator("[data-role=confirm]")
    confirm.wait_for()
    problems += inside(page, "#table [data-role=confirm]")
    problems += inside(page, "#table [data-role=confirm] button")
    page.screenshot(path=str(artifacts / f"tavolo-schermo-poker-{size}.png"))
    assert problems == [], problems
    confirm.locator("[data-confirm=no]").click()
    assert confirm.is_hidden()
    assert t.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_scopa_hand_is_in_view(open_table, artifacts, size):
    state, seat = play_until("scopa", has_type("gioca"))
    t = open_table("scopa", viewport=SIZES[size])
    t.show(state, seat)
    page = t.page
    at_top(page)
    problems = inside(page, "#table [data-role=hand] [data-card]")
    page.screenshot(path=str(artifacts / f"tavolo-schermo-scopa-{size}.png"))
    assert problems == [], problems
    assert t.errors == []
