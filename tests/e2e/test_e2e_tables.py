"""End to end: the table page of every game, mid-hand, as one seated player sees it.

For each registered game a table is set up and dealt on the server (players seated, a few legal
moves played, as bots would), then the first player's page is opened: it must show his own
hidden cards and none of the other players' hidden cards (neither in the page nor in any
WebSocket frame), and screenshots of the table are saved in test-artifacts/ at desktop (1366x900)
and phone (390x844) sizes (table-<game>-desktop.png, table-<game>-phone.png), where nothing may
scroll sideways and no seat may overlap another.
"""

import pytest

from games import registry
from tests.e2e.live import (
    STATIC_FILES_WARNING,
    TABLE,
    cards_in,
    dom_cards,
    open_table,
    record_frames,
    resize,
    seat_cards,
    states,
)

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

GAMES = registry.names()
MAX_STEPS = 400
# Three at the tables of puntate, two at the others; at chemin de fer and mazzetti only the banker
# and the punter of a coup hold cards: two players, so the viewer always does.
SEATS = {"chemin": 2, "mazzetti": 2}
# Mazzetti: every card is dealt face up (the viewer holds none of his own; the stock is secret).
VIEWER_WITHOUT_CARDS = {"mazzetti"}
SIZES = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
# Two seats' boxes overlapping on the felt, or the page wider than the screen (a player scrolls sideways).
LAYOUT_FAULTS = """() => {
  const boxes = [...document.querySelectorAll('[data-role=seats] [data-seat]')]
    .map((el) => [el.dataset.seat, el.getBoundingClientRect()]);
  const faults = [];
  for (const [i, [a, ra]] of boxes.entries()) for (const [b, rb] of boxes.slice(i + 1)) {
    const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
    const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
    if (w > 2 && h > 2) faults.push(`seats ${a} and ${b} overlap`);
  }
  if (document.documentElement.scrollWidth > window.innerWidth + 1) faults.push('the page scrolls sideways');
  return faults;
}"""


def _setup(game, names=("Anna", "Bruno", "Carla", "Dario"), **table_fields):
    """Seat the players, deal, and play legal moves until the viewer (seat 1) holds hidden cards
    and another seat holds cards he does not see. Returns (table id, viewer's session cookie).
    ``table_fields`` override the table's settings (a longer ``tempo_giocata``, say)."""
    from django.test import Client

    from games.rng import SeededRng
    from lobby import bots, door
    from lobby.models import Seat, TableRuntime
    from tests.e2e.live import seat_cards as cards_now
    from tests.lobby.helpers import seat_players
    from tests.wallet.factories import funded_player

    engine = registry.get(game)
    seats = SEATS.get(game, engine.min_seats if engine.family == "partite" else 3)
    fields = {"name": f"Tavolo {engine.title}", "game": game, "seats": seats}
    fields.update(min_buy_in=1_000, max_buy_in=50_000, rake_bp=500)
    if engine.family == "partite":
        fields.update(posta_partita=100, posta_unitaria=10, perdita_massima=2_000)
    elif "rake_cap" in engine.table_settings:
        fields.update(rake_cap=500)
    fields.update(table_fields)
    table = door.table_create(**fields)
    users = [funded_player(nickname=names[i]) for i in range(seats)]
    seat_players(table, users, buy_in=20_000)
    rng = SeededRng(7)
    for _step in range(MAX_STEPS):
        rt = TableRuntime.objects.get(pk=table.pk)
        if rt.state is None or engine.is_over(rt.state):
            if engine.family == "partite":
                for user in users:
                    door.table_ready(table_id=table.pk, user=user)
            else:
                assert door.table_start_hand(table_id=table.pk)
            continue
        cards = cards_now(table.pk)
        viewer_ready = 1 in cards["sees"] and (cards["own"][1] or game in VIEWER_WITHOUT_CARDS)
        if viewer_ready and cards["unseen"][1] and _step >= 2:
            break
        seat_no = engine.to_act(rt.state)[0]
        user = Seat.objects.get(table=table, number=seat_no).user
        action = bots.bot_action(registry.get(rt.game or game), rt.state, seat_no, rng)
        door.table_act(table_id=table.pk, user=user, action=action)
    else:
        raise AssertionError(f"{game}: no mid-hand position with hidden cards on both sides")
    client = Client()
    client.force_login(users[0])
    return table.pk, client.cookies["sessionid"].value


@pytest.mark.parametrize("game", GAMES)
def test_the_table_of_each_game_mid_hand(game, asgi_live, new_context, artifacts):
    live = asgi_live
    table_id, session = live.run(_setup, game)
    context = new_context()
    context.add_cookies([{"name": "sessionid", "value": session, "url": live.url}])
    page = context.new_page()
    frames = record_frames(page)
    open_table(page, live.url, table_id)
    cards = live.run(seat_cards, table_id)
    page.wait_for_function(
        "n => Number(document.querySelector('#table').dataset.version) === n", arg=cards["version"]
    )
    assert page.get_attribute(TABLE, "data-game") == game
    assert page.get_attribute(TABLE, "data-over") == "0"

    on_page = set(dom_cards(page))
    mine = cards["own"][1]
    assert mine <= on_page, f"{game}: own cards {mine - on_page} are not shown"
    assert set(dom_cards(page, "[data-role=hand]")) <= mine
    # Covered cards: other players' hands, the stock, the deck; none on the page or in a frame.
    hidden = cards["unseen"][1]
    others = set().union(*(own for s, own in cards["own"].items() if s != 1)) - cards["sees"][1]
    assert hidden and others <= hidden
    assert not hidden & on_page, f"{game}: covered cards {hidden & on_page} are on the page"
    received = set().union(*(cards_in(f) for f in states(frames)))
    assert not hidden & received, f"{game}: covered cards {hidden & received} reached the browser"
    for size, viewport in SIZES.items():
        resize(page, viewport)
        assert page.evaluate(LAYOUT_FAULTS) == [], f"{game} at {size}"
        page.screenshot(path=str(artifacts / f"table-{game}-{size}.png"), full_page=True)
