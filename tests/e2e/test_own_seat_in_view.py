"""The player's own seat is never under the dock (his hand and buttons, stuck to the bottom of the
screen): at 1366 × 900 and 390 × 844, in every game, on a position where he has a decision to take,
his seat lies whole in the viewport and clear of the dock, the page at its top (a laptop) or
scrolled down to the dock (a phone: the dock covers the felt's foot while the page is at its top;
scrolled, it rests in its own place below the felt and his seat shows above it). Screenshots go to
test-artifacts/ (tavolo-posto-<game>-<size>.png)."""

from __future__ import annotations

import pytest

from tests.e2e import test_table_client as client
from tests.e2e.live import STATIC_FILES_WARNING
from tests.e2e.test_table_client import GAMES, interesting, play_until

open_table = client.open_table

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

SIZES = {"laptop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}

SEAT_AND_DOCK = """() => {
  const me = document.querySelector('#table [data-role=seats] .seat.me');
  const dock = document.querySelector('#table [data-role=dock]');
  if (!me || !dock) return 'no seat or no dock';
  const s = me.getBoundingClientRect(), d = dock.getBoundingClientRect();
  const r = Math.round;
  const where = `seat ${r(s.top)}-${r(s.bottom)}, dock ${r(d.top)}-${r(d.bottom)}, view ${innerHeight}`;
  if (s.top < 0 || s.bottom > innerHeight + 0.5) return 'seat off screen: ' + where;
  if (d.height && s.bottom > d.top + 0.5) return 'seat under the dock: ' + where;
  return '';
}"""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_the_own_seat_is_clear_of_the_dock(open_table, artifacts, game, size):
    state, seat = interesting(game)
    t = open_table(game, viewport=SIZES[size])
    t.show(state, seat)
    page = t.page
    page.locator("#table [data-role=seats] .seat.me").wait_for()
    assert_clear(page, size, artifacts / f"tavolo-posto-{game}-{size}.png")
    assert t.errors == []


def assert_clear(page, size: str, shot) -> None:
    if size == "phone":  # the felt first, the dock over its foot: scrolled down past the dock (to the
        # toggles below it), the dock rests in its own place and his seat shows right above it
        page.evaluate("document.querySelector('#table [data-role=toggles]').scrollIntoView({block: 'end'})")
    else:
        assert page.evaluate("window.scrollY") == 0
    problem = page.evaluate(SEAT_AND_DOCK)
    page.screenshot(path=str(shot))
    assert problem == "", f"{size}: {problem}"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("players", [3, 5])
def test_a_poker_players_seat_is_clear_of_the_amount_box(open_table, artifacts, size, players):
    """Poker at its tallest: five seats round the felt, the dock with the amount box and its bets."""
    state, seat = play_until(
        "poker5", lambda s, n, legal: any(a["type"] == "punto" for a in legal), seats=players
    )
    t = open_table("poker5", viewport=SIZES[size], players=players)
    t.show(state, seat)
    page = t.page
    page.locator("#table [data-role=amount]").wait_for()
    assert_clear(page, size, artifacts / f"tavolo-posto-poker{players}-{size}.png")
    assert t.errors == []


@pytest.mark.parametrize("game", ["poker5", "burraco", "scala40", "telesina"])
def test_on_a_phone_the_turn_brings_the_own_seat_above_the_dock(open_table, artifacts, game):
    """The page at its top, the dock over the felt's foot: as his turn begins the page scrolls just
    enough for his seat to show whole above his hand, with no scrolling of his own."""
    state, seat = interesting(game)
    t = open_table(game, viewport=SIZES["phone"])
    t.show(state, seat)
    page = t.page
    page.locator("#table [data-role=seats] .seat.me.to-act").wait_for()
    problem = page.evaluate(SEAT_AND_DOCK)
    page.screenshot(path=str(artifacts / f"tavolo-turno-{game}-phone.png"))
    assert problem == "", problem
    assert t.errors == []
