"""End to end: a player's connection drops in the middle of a Scopa match, and he comes back.

The browser goes offline and the server's side of his WebSocket is cut (as a network failure
would). His page says "Tentativo di riconnessione in corso" while the other player moves; back
online it reconnects by itself, shows the server's version, his own cards and whose turn it is,
and the match is played on to its end from both pages.
"""

import asyncio

import pytest

from tests.e2e.live import (
    STATIC_FILES_WARNING,
    TABLE,
    dom_cards,
    play_card,
    play_turns,
    runtime_info,
    seat_cards,
    start_match,
    take_seat,
    version,
    wait_version,
)
from tests.e2e.test_e2e_scopa import setup_match
from tests.piattaforma.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

RECONNECTING = "Tentativo di riconnessione in corso"


def _session_key(context):
    return next(c["value"] for c in context.cookies() if c["name"] == "sessionid")


def _assert_consistent(live, table_id, page, seat):
    """The page shows the server's state: its version, the seat's own cards, whose turn it is."""
    cards = live.run(seat_cards, table_id)
    assert page.get_attribute(TABLE, "data-version") == str(cards["version"])
    assert set(dom_cards(page, "[data-role=hand]")) == cards["own"][seat]
    hidden = set().union(*(own for s, own in cards["own"].items() if s != seat)) - cards["sees"][seat]
    assert hidden, "the other player holds no hidden card: nothing to check"
    assert not hidden & set(dom_cards(page)), "another player's hidden card is on the page"
    to_act = page.locator(f"{TABLE} [data-role=seats] [data-seat='{seat}'].me.to-act").count() == 1
    assert to_act == (seat in cards["to_act"])


def test_a_player_reconnects_mid_match_and_sees_a_consistent_table(asgi_live, new_context, artifacts):
    live = asgi_live
    carla, dario, table = live.run(setup_match)
    contexts, pages = {}, {}
    for seat, user in ((1, carla), (2, dario)):
        contexts[seat] = new_context()
        pages[seat], _frames = take_seat(
            live, contexts[seat], user.nickname, PASSWORD, table.pk, seat, "50,00"
        )
    start_match(live, table.pk, pages)
    play_turns(live, table.pk, pages, lambda page, seat: play_card(page), max_turns=3, until_over=False)

    info = live.run(runtime_info, table.pk)
    mover = info["to_act"][0]
    lost = 3 - mover  # the player who is not to move loses his connection
    page = pages[lost]
    wait_version(page, info["version"])
    _assert_consistent(live, table.pk, page, lost)

    contexts[lost].set_offline(True)
    # the network drops both of the page's sockets: the table's and the site notices' (/ws/avvisi/)
    assert live.drop_websockets(_session_key(contexts[lost])) == 2
    page.wait_for_selector(f'{TABLE}[data-connected="0"]', state="attached")
    notice = page.locator(f"{TABLE} [data-role=notice]")
    assert RECONNECTING in notice.inner_text()
    assert notice.is_visible()
    page.screenshot(path=str(artifacts / "e2e-reconnect-offline.png"), full_page=True)

    # Meanwhile the other player moves: the offline page cannot know.
    before = version(page)
    wait_version(pages[mover], info["version"])
    play_card(pages[mover])
    moved = live.run(runtime_info, table.pk)
    assert moved["version"] > before
    assert page.get_attribute(TABLE, "data-connected") == "0"
    assert version(page) == before

    # Back online: the page reconnects by itself and catches up with the server.
    contexts[lost].set_offline(False)
    page.wait_for_selector(f'{TABLE}[data-connected="1"]', state="attached")
    wait_version(page, moved["version"])
    _assert_consistent(live, table.pk, page, lost)
    assert RECONNECTING not in (notice.inner_text() if notice.is_visible() else "")
    page.screenshot(path=str(artifacts / "e2e-reconnect-back.png"), full_page=True)

    # ...and the match goes on from both pages, the reconnected player first.
    play_turns(live, table.pk, pages, lambda page, seat: play_card(page), max_turns=4, until_over=False)
    after = live.run(runtime_info, table.pk)
    assert after["version"] > moved["version"]
    for seat, each in pages.items():
        wait_version(each, after["version"])
        _assert_consistent(live, table.pk, each, seat)


RECONNECTED = "Connessione ristabilita"


async def _owner_moves_away(table_id):
    """The table's owner loses its lease (another process took the table over): it closes its
    sockets with 4409, and the next connection reaches the table's new owner."""
    from lobby import owners

    owner = owners.local_owner(table_id)
    assert owner is not None
    await owner.abandon()


def test_a_socket_closed_with_4409_reconnects_at_once_without_a_notice(asgi_live, new_context):
    """4409: the table's owner is in another server process now. Both pages reconnect by
    themselves, resync and play on, and the players are never told the connection was lost
    (before: "Tentativo di riconnessione in corso" and, a second later, "Connessione ristabilita").
    Each page's sockets' closes are recorded: a failure names them."""
    live = asgi_live
    carla, dario, table = live.run(setup_match)
    pages = {}
    for seat, user in ((1, carla), (2, dario)):
        pages[seat], _frames = take_seat(
            live, new_context(), user.nickname, PASSWORD, table.pk, seat, "50,00"
        )
    start_match(live, table.pk, pages)
    play_turns(live, table.pk, pages, lambda page, seat: play_card(page), max_turns=2, until_over=False)
    info = live.run(runtime_info, table.pk)
    for page in pages.values():
        wait_version(page, info["version"])
        page.evaluate(
            """() => {
              const el = document.querySelector('#table [data-role=notice]');
              window.noticesShown = [];
              window.socketCloses = [];
              const Native = window.WebSocket;
              window.WebSocket = class extends Native {
                constructor(url) {
                  super(url);
                  const opened = performance.now();
                  this.addEventListener('close', (e) => window.socketCloses.push(
                    [e.code, Math.round(performance.now() - opened)]));
                }
              };
              new MutationObserver(() => { if (!el.hidden) window.noticesShown.push(el.textContent); })
                .observe(el, { childList: true, characterData: true, subtree: true, attributes: true });
            }"""
        )

    table_socket = {"predicate": lambda ws: "/ws/table/" in ws.url, "timeout": 30_000}
    with pages[1].expect_websocket(**table_socket), pages[2].expect_websocket(**table_socket):
        asyncio.run_coroutine_threadsafe(_owner_moves_away(table.pk), live.loop).result(timeout=30)

    for page in pages.values():  # reconnected, each showing the table as it is
        page.wait_for_function(
            f"() => document.querySelector('{TABLE}').dataset.connected === '1'"
            f" && Number(document.querySelector('{TABLE}').dataset.version) >= {info['version']}"
        )
    play_turns(live, table.pk, pages, lambda page, seat: play_card(page), max_turns=2, until_over=False)
    after = live.run(runtime_info, table.pk)
    assert after["version"] > info["version"]
    for page in pages.values():
        wait_version(page, after["version"])
        shown, closes = page.evaluate("() => [window.noticesShown, window.socketCloses]")
        assert not [text for text in shown if RECONNECTING in text or RECONNECTED in text], (shown, closes)
