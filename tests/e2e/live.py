"""An ASGI live server for the browser tests: Daphne (HTTP + the Channels WebSockets) in a thread.

pytest-django's ``live_server`` speaks WSGI only, and ``ChannelsLiveServerTestCase`` runs Daphne in
a child process, which sees neither SQLite's in-memory test database nor the in-memory channel
layer. Here Daphne's reactor runs in a thread of the test process instead, so:

- the in-memory channel layer lives where the consumers are;
- all the server's synchronous work (views, ``database_sync_to_async``) runs on one thread, asgiref's
  single thread executor (Django's per-request ``ThreadSensitiveContext`` is turned off while the
  server runs), so the SQLite in-memory test connection can be shared with that thread as Django's
  own ``LiveServerThread`` shares it, and requests never use it at the same time;
- the tests set up data and call table actions *through* that thread (``LiveServer.run``): a table
  action broadcasts after commit with ``async_to_sync``, which then runs on the server's own event
  loop, as it does in production.

With ``DATABASE_URL``/``REDIS_URL`` (PostgreSQL + the Redis channel layer) the same code works: the
server thread opens its own connection to the test database, and is told to close it at the end.

The reactor of Twisted runs once per process and cannot be restarted: one server per test process
(``shared_server``), whichever of the ``asgi_server`` fixture's definitions asks first (the
moderation and tournament modules import the browser fixtures, and each import is a definition of
its own), stopped at the end of the session.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
import time
from collections.abc import Callable
from typing import Any

START_TIMEOUT = 20.0
# Django's ASGI handler warns when it streams a static file (WhiteNoise) from a sync iterator.
STATIC_FILES_WARNING = "ignore:StreamingHttpResponse must consume synchronous iterators"

# An init script (``context.add_init_script``): the page's AudioContext reads "suspended" until
# ``resume()``, as a browser whose autoplay policy holds audio until a touch; ``window.resumed``
# counts the resumes. Without it a headless Chromium starts audio on its own, sometimes a moment
# after the page asked (a page that changes while it is measured).
LOCKED_AUDIO = """
(() => {
  const Real = window.AudioContext;
  if (!Real) return;
  window.resumed = 0;
  window.AudioContext = class extends Real {
    constructor(...args) { super(...args); this.locked = true; }
    get state() { return this.locked ? "suspended" : super.state; }
    resume() { this.locked = false; window.resumed += 1; return super.resume(); }
  };
})();
"""


class _NoThreadSensitiveContext(contextlib.AbstractAsyncContextManager):
    """Stands in for asgiref's ThreadSensitiveContext: Django's sync code then runs on one thread."""

    async def __aexit__(self, *exc: object) -> None:
        return None


class LiveServer:
    """Daphne serving ``config.asgi.application`` on 127.0.0.1, in a thread of this process."""

    def __init__(self) -> None:
        self.server: Any = None
        self.thread: threading.Thread | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.port = 0
        self.error: BaseException | None = None
        self._saved_context: Any = None
        self._opened: list[Any] = []  # database connections opened by the server's threads
        # the test thread's in-memory SQLite connections this server shares (each made shareable
        # once at start, once less at stop: exactly these, whatever the test thread holds by then,
        # so that another server sharing them, pytest-django's ``live_server``, keeps its own count)
        self._sharing: dict[str, Any] = {}

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        import django.core.handlers.asgi as django_asgi

        # Import order matters to Twisted: daphne.server installs the asyncio reactor.
        from daphne.endpoints import build_endpoint_description_strings
        from daphne.server import Server
        from django.db.backends.signals import connection_created
        from twisted.internet import reactor

        from config.asgi import application

        if reactor.running:  # a second server would listen on the first one's reactor, and the first
            # one's stop would leave it without a loop: every later call to it would wait in vain
            raise RuntimeError("Twisted's reactor already runs in this process: use shared_server()")
        test_thread = threading.current_thread()

        def remember(sender: Any, connection: Any, **kwargs: Any) -> None:
            if threading.current_thread() is not test_thread:
                self._opened.append(connection)

        connection_created.connect(remember, weak=False, dispatch_uid="asgi-live-server")
        self._saved_context = django_asgi.ThreadSensitiveContext
        django_asgi.ThreadSensitiveContext = _NoThreadSensitiveContext
        self.loop = reactor._asyncioEventloop  # type: ignore[attr-defined]  # Twisted's asyncio reactor keeps its loop private
        self.server = Server(
            application=application,
            endpoints=build_endpoint_description_strings(host="127.0.0.1", port=0),
            signal_handlers=False,
            verbosity=0,
        )

        def serve() -> None:
            try:
                asyncio.set_event_loop(self.loop)
                self.server.run()
            except BaseException as exc:  # reported by start()
                self.error = exc

        self.thread = threading.Thread(target=serve, name="asgi-live-server", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + START_TIMEOUT
        while not self.server.listening_addresses:
            if self.error is not None or not self.thread.is_alive():
                raise RuntimeError(f"Daphne did not start: {self.error!r}")
            if time.monotonic() > deadline:
                raise RuntimeError("Daphne did not start listening")
            time.sleep(0.02)  # start-up only: waiting for the port, no test outcome depends on it
        self.port = self.server.listening_addresses[0][1]
        self._sharing = _in_memory_connections()
        self.run(_share_in_memory_connections, self._sharing)
        return self

    def stop(self) -> None:
        import django.core.handlers.asgi as django_asgi
        from twisted.internet import reactor

        from lobby.runtime.journal import close_journal

        if self.thread is None:
            return
        with contextlib.suppress(Exception):
            self.run(_release_connections)
        with contextlib.suppress(Exception):  # the journal's own connection (PostgreSQL)
            asyncio.run_coroutine_threadsafe(close_journal(), self.loop).result(timeout=10)
        reactor.callFromThread(reactor.stop)
        self.thread.join(timeout=10)
        self.thread = None
        from django.db.backends.signals import connection_created

        connection_created.disconnect(dispatch_uid="asgi-live-server")
        # Sync work also ran on the event loop's default executor: close what any of its threads
        # opened (PostgreSQL refuses to drop the test database while they are connected).
        for conn in self._opened:
            if conn.vendor == "sqlite" and conn.is_in_memory_db():
                continue
            with contextlib.suppress(Exception):
                conn.inc_thread_sharing()
                conn.close()
        self._opened.clear()
        django_asgi.ThreadSensitiveContext = self._saved_context
        for conn in self._sharing.values():
            with contextlib.suppress(Exception):
                conn.dec_thread_sharing()
        self._sharing = {}

    def run(self, fn: Callable[..., Any], /, *args: Any, timeout: float = 60, **kwargs: Any) -> Any:
        """Call ``fn`` on the server's sync thread (as a consumer or a Celery task would) and return.

        On the owner runtime the server's table owners are parked first, from the event loop, each
        with its state written to the row (``TableOwner.park(save=True)``), and ``fn`` runs as
        their caller (``owners.inside``): its table writes go straight to the rows and its reads
        see the tables as they are; once it returns, each owner reads its row back and sends the
        new version. That is what ``ownership.through_owner`` does for a sync caller, but with the
        park taken before ``fn`` holds the server's one sync thread: parked from that thread, an
        owner busy with database work would wait for the very thread that waits for it (SQLite
        here: all the server's sync work runs on that thread). Production serves each request on
        a thread of its own.
        """
        assert self.loop is not None
        future = asyncio.run_coroutine_threadsafe(_owners_parked(fn, *args, **kwargs), self.loop)
        return future.result(timeout=timeout)

    def drop_websockets(self, session_key: str) -> int:
        """Cut the TCP connections of the open WebSockets of one login session (a network failure).

        The browser sees the socket close abnormally (1006), as when a connection drops.
        """
        from django.conf import settings
        from twisted.internet import reactor

        cookie = f"{settings.SESSION_COOKIE_NAME}={session_key}"
        dropped = 0
        for protocol, details in list(self.server.connections.items()):
            request = getattr(protocol, "request", None)
            if details.get("disconnected") or request is None:
                continue
            if cookie in request.headers.get("cookie", ""):
                reactor.callFromThread(protocol.transport.abortConnection)
                dropped += 1
        return dropped

    def idle(self, timeout: float = 60) -> None:
        """Wait until every connection to the server has closed and its application has finished.

        Closing a browser context drops its WebSockets; their ``disconnect`` handlers still write
        to the database (``seat_disconnected``). The test database must not be flushed under them.
        """
        deadline = time.monotonic() + timeout
        while any(_busy(details) for details in list(self.server.connections.values())):
            if time.monotonic() > deadline:
                raise AssertionError("the live server still has open connections")
            time.sleep(0.02)  # teardown only
        self.run(lambda: None)  # and whatever they queued on the sync thread has run
        # the test's table owners stop (state to the row, lease given back) before its data is
        # flushed; the next test's connections start their own
        from lobby import presence

        assert self.loop is not None
        asyncio.run_coroutine_threadsafe(presence.stop_all(), self.loop).result(timeout=timeout)


_shared: LiveServer | None = None


def shared_server() -> LiveServer:
    """This process's one live server, started on first use."""
    global _shared
    if _shared is None:
        _shared = LiveServer().start()
    return _shared


def stop_shared_server() -> None:
    """The end of the session (the first of the fixture's definitions to be torn down stops it)."""
    global _shared
    if _shared is not None:
        server, _shared = _shared, None
        server.stop()


async def _owners_parked(fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """On the server's loop: park this process's table owners, run ``fn`` on the sync thread as
    their caller, release them (``LiveServer.run``). With no owner just ``fn``."""
    from asgiref.sync import sync_to_async

    from lobby import owners

    running = [o for o in owners.local_owners() if owners.local_owner(o.table_id) is o]
    parks = [await owner.park(save=True) for owner in running]

    def as_their_caller() -> Any:
        with contextlib.ExitStack() as stack:
            for owner, (_, epoch) in zip(running, parks, strict=True):
                stack.enter_context(owners.inside(owner.table_id, epoch))
            return fn(*args, **kwargs)

    try:
        return await sync_to_async(as_their_caller, thread_sensitive=True)()
    finally:
        for release, _ in parks:
            if not release.done():
                release.set_result(None)


def _busy(details: dict[str, Any]) -> bool:
    """A Daphne connection still open, or whose application has not finished yet."""
    instance = details.get("application_instance")
    return not details.get("disconnected") or (instance is not None and not instance.done())


def _in_memory_connections() -> dict[str, Any]:
    from django.db import connections

    return {
        conn.alias: conn for conn in connections.all() if conn.vendor == "sqlite" and conn.is_in_memory_db()
    }


def _share_in_memory_connections(shared: dict[str, Any]) -> None:
    """On the server's thread: use the test thread's SQLite in-memory connection (as LiveServerThread)."""
    from django.db import connections

    for alias, conn in shared.items():
        conn.inc_thread_sharing()
        connections[alias] = conn


def _release_connections() -> None:
    """On the server's thread: close its own database connections (PostgreSQL must drop the test DB)."""
    from django.db import connections

    for conn in connections.all(initialized_only=True):
        if not (conn.vendor == "sqlite" and conn.is_in_memory_db()):
            conn.close()


# --- driving the table page through its DOM contract (notes: table-dom.md) -----------------------

CARD_RE = re.compile(r"^(?:[A2-9TJQK][hdcs]|X[1-4])$")
TABLE = "#table"


def login(page: Any, base_url: str, nickname: str, password: str) -> None:
    """Log in through the login page; staff and moderators then type their second factor."""
    page.goto(f"{base_url}/account/accedi/")
    page.fill("#id_username", nickname)
    page.fill("#id_password", password)
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/account/accedi/" not in url)
    if "/account/due-passaggi/" in page.url:
        second_factor(page, nickname)
    page.wait_for_selector("[data-testid=nickname]")


# The staff's phones of this test process: each staff member's authenticator secret, read from the
# enrolment page as a person scans it, and the last time step whose code he typed (a code is good
# once: the next sign-in in the same 30 seconds types the next step's, which is still accepted).
PHONES: dict[str, list[Any]] = {}


def second_factor(page: Any, nickname: str) -> None:
    """Enrol the authenticator (first sign-in) or type its code, as a staff member does."""
    from base64 import b32decode

    from django_otp.oath import TOTP

    submit = "main form:not([action]) button[type=submit]"
    if "/attiva/" in page.url:
        secret = page.inner_text(".twofa__secret code").replace(" ", "")
        PHONES[nickname] = [b32decode(secret + "=" * (-len(secret) % 8)), -1]
    key, last = PHONES[nickname]
    clock = TOTP(key, step=30, t0=0, digits=6)
    clock.time = max(time.time(), (last + 1) * 30)
    PHONES[nickname][1] = clock.t()
    page.fill("#id_code", f"{clock.token():06d}")
    page.click(submit)
    page.wait_for_url(lambda url: "/account/due-passaggi/" not in url or "/attiva/" in url)
    if page.locator(".twofa__codes").count():  # the recovery codes, shown once: "continua"
        page.click("main a.button--gold")


def open_table(page: Any, base_url: str, table_id: int, *, seated: bool = True) -> None:
    """Open a table page and wait for its live table: a seated player's with a version of his,
    anyone else's until the first view of the table has been drawn (as a spectator's)."""
    page.goto(f"{base_url}/lobby/tavolo/{table_id}/")
    if seated:
        wait_connected(page)
    else:
        wait_watching(page)


def wait_watching(page: Any) -> None:
    """Wait until the page has drawn a first view of the table (its seats are counted then).

    A form posted before that may reach the table's owner while it still loads the table: here
    (the live server runs every sync call on one thread, SQLite's in-memory database being one
    connection) the sit-down would wait for the owner, and the owner's load for the thread the
    sit-down holds, until the park runs out (``owner.PARK_SECONDS``) and the sit-down is refused.
    """
    try:
        page.wait_for_selector(f"{TABLE} [data-role=seats][data-count]", state="attached")
    except Exception as exc:
        raise AssertionError(f"no view of the table reached {page.url}, sockets: {socket_log(page)}") from exc


def wait_connected(page: Any) -> None:
    """Wait until the page's WebSocket is open and a table state has been rendered."""
    try:
        page.wait_for_function(
            "() => { const t = document.querySelector('#table');"
            " return t && t.dataset.connected === '1' && Number(t.dataset.version || 0) > 0; }"
        )
    except Exception as exc:
        raise AssertionError(f"the live table did not come up at {page.url}: {table_shown(page)}") from exc


def sit_down(page: Any, seat: int, buy_in_eur: str) -> None:
    """Sit down through the page's form (seat and buy-in in euro), then wait for the live table."""
    page.select_option("select[name=seat]", str(seat))
    page.fill("input[name=buy_in]", buy_in_eur)
    with page.expect_navigation():
        page.click("form[action$='/siediti/'] button[type=submit]")
    wait_connected(page)


def version(page: Any) -> int:
    return int(page.get_attribute(TABLE, "data-version") or 0)


def wait_version(page: Any, at_least: int) -> int:
    """Wait until the page has rendered at least this table version; return the rendered one."""
    try:
        page.wait_for_function(
            "n => Number(document.querySelector('#table')?.dataset.version || 0) >= n", arg=at_least
        )
    except Exception as exc:
        raise AssertionError(f"version {at_least} not rendered at {page.url}: {table_shown(page)}") from exc
    return version(page)


def resize(page: Any, viewport: dict[str, int]) -> None:
    """Give the window a new size and, on a live table, wait until the felt has been drawn for it.

    The table client draws the felt again a moment after the last resize event (a debounce), and
    a drawing replaces the seats: the seat shown before the resize leaves the page then.
    """
    before = page.viewport_size
    drawn = page.evaluate(
        "() => { const t = document.querySelector('#table');"
        " const seat = Number(t?.dataset.version || 0) > 0"
        " ? t.querySelector('[data-role=seats]')?.firstElementChild : null;"
        " window.__seatBeforeResize = seat || null; return !!seat; }"
    )
    page.set_viewport_size(viewport)
    if drawn and before != viewport:
        page.wait_for_function("() => !window.__seatBeforeResize.isConnected")


def table_shown(page: Any) -> str:
    """What a failed wait reports: the table's data attributes, its notice and hand (the page's title
    without a table), the page's script errors and its sockets' last frames."""
    shown = page.evaluate(
        "() => { const t = document.querySelector('#table');"
        " return t ? {data: {...t.dataset}, notice: t.querySelector('[data-role=notice]')?.textContent,"
        " hand: [...t.querySelectorAll('[data-role=hand] [data-card]')].map(c => c.dataset.card)}"
        " : document.title; }"
    )
    errors = getattr(page.context, "page_errors", [])
    return f"{shown}, errors: {errors}, sockets: {socket_log(page)}"


def socket_log(page: Any) -> list[str]:
    """What the page's context's sockets carried last (``new_context``'s log; empty without it)."""
    return list(getattr(page.context, "socket_log", []))


def action_types(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        f"{TABLE} [data-role=actions] button[data-action]", "bs => bs.map(b => b.dataset.action)"
    )


def euro_text(cents: int) -> str:
    """Cents as a person types them in the amount box: 1250 -> "12,50"."""
    return f"{cents // 100},{cents % 100:02d}"


def _confirm_if_asked(page: Any) -> None:
    yes = page.locator(f"{TABLE} [data-role=confirm] button[data-confirm=yes]")
    if yes.count() and yes.first.is_visible():
        yes.first.click()


def click_action(page: Any, action: str, amount: int | None = None) -> None:
    """Press the button of a legal action (typing the amount first when one is asked)."""
    if amount is not None:  # cents, typed in euro as a person does ("12,50")
        page.fill(f"{TABLE} [data-role=amount] input[name=amount]", euro_text(amount))
    before = version(page)
    page.click(f'{TABLE} [data-role=actions] button[data-action="{action}"]')
    _confirm_if_asked(page)
    wait_version(page, before + 1)


def play_card(page: Any, card: str | None = None, choice: int = 0) -> str:
    """Click a playable card of the hand (the first, or ``card``); pick a choice if several apply."""
    selector = f"{TABLE} [data-role=hand] [data-playable]"
    if card is not None:
        selector += f'[data-card="{card}"]'
    target = page.locator(selector).first
    code = target.get_attribute("data-card")
    before = version(page)
    target.click()
    choices = page.locator(f"{TABLE} [data-role=choices] button[data-action]")
    # Either the action went out (a new version comes), or choices / a confirmation opened.
    try:
        page.wait_for_function(
            """n => {
              const t = document.querySelector('#table');
              if (Number(t.dataset.version || 0) > n) return true;
              if (t.querySelector('[data-role=choices] button[data-action]')) return true;
              const c = t.querySelector('[data-role=confirm]');
              return !!(c && !c.hidden && c.querySelector('button[data-confirm=yes]'));
            }""",
            arg=before,
        )
    except Exception as exc:
        raise AssertionError(f"clicking {code} at version {before} did nothing: {table_shown(page)}") from exc
    if version(page) == before and choices.count():
        choices.nth(min(choice, choices.count() - 1)).click()
    _confirm_if_asked(page)
    wait_version(page, before + 1)
    return code


def dom_cards(page: Any, within: str = "") -> list[str]:
    """The face-up card codes of the page (or of a part of it), as data-card attributes."""
    return page.eval_on_selector_all(
        f"{TABLE} {within} [data-card]".replace("  ", " "),
        "els => els.map(e => e.dataset.card).filter(c => c && c !== 'covered')",
    )


def cards_in(value: Any) -> set[str]:
    """Every card code anywhere in a JSON value."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if CARD_RE.match(item):
                found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def record_frames(page: Any) -> list[dict[str, Any]]:
    """Collect every JSON message the page's WebSockets receive (reconnections included)."""
    frames: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        def on_frame(payload: Any) -> None:
            with contextlib.suppress(ValueError, TypeError):
                frames.append(json.loads(payload))

        ws.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    return frames


def states(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [f for f in frames if f.get("type") == "table.state"]


# --- the server's side of the story (call these through LiveServer.run) ----------------------------


def runtime_info(table_id: int) -> dict[str, Any]:
    """The table as the server holds it: version, seats to act, whether the hand is over, state."""
    from games import registry
    from lobby.models import TableRuntime

    rt = TableRuntime.objects.select_related("table").get(pk=table_id)
    engine = registry.get(rt.game or rt.table.game)
    over = rt.state is None or engine.is_over(rt.state)
    return {
        "version": rt.version,
        "hand": rt.hand_no,
        "to_act": [] if over else list(engine.to_act(rt.state)),
        "over": over,
        "state": rt.state,
    }


def snapshot(table_id: int, user_id: int) -> dict[str, Any]:
    """What the server would send this user now (his own projection)."""
    from lobby.selectors import table_snapshot

    return table_snapshot(table_id=table_id, user_id=user_id)


def seat_cards(table_id: int) -> dict[str, Any]:
    """Who may see which card now, from the engine's own views.

    ``own[seat]``: the cards that seat's view shows and a spectator's does not (its hidden cards);
    ``sees[seat]``: every card code in that seat's view; ``unseen[seat]``: the codes of the state
    (hands, stock, deck: everything but the audit log of shuffles) that seat's view does not show;
    ``version``: the runtime's version.
    """
    from games import registry
    from lobby.models import TableRuntime

    rt = TableRuntime.objects.select_related("table").get(pk=table_id)
    engine = registry.get(rt.game or rt.table.game)
    assert rt.state is not None, "no hand at this table"
    public = cards_in(engine.view(rt.state, None))
    seats = sorted({int(s) for s in engine.to_act(rt.state)} | set(_dealt_seats(rt)))
    sees = {seat: cards_in(engine.view(rt.state, seat)) for seat in seats}
    in_state = cards_in({k: v for k, v in rt.state.items() if k != "deck_log"})
    return {
        "version": rt.version,
        "public": public,
        "sees": sees,
        "own": {seat: cards - public for seat, cards in sees.items()},
        "unseen": {seat: in_state - cards for seat, cards in sees.items()},
        "to_act": list(engine.to_act(rt.state)),
    }


def _dealt_seats(rt: Any) -> list[int]:
    from lobby.models import Hand

    hand = Hand.objects.filter(table_id=rt.pk, number=rt.hand_no).only("seats").first()
    return [int(s["seat"]) for s in hand.seats] if hand else []


# --- a whole flow -------------------------------------------------------------------------------------


def take_seat(
    live: LiveServer, context: Any, nickname: str, password: str, table_id: int, seat: int, buy_in_eur: str
) -> tuple[Any, list[dict[str, Any]]]:
    """A player logs in, opens the table and sits down through the form; returns (page, frames)."""
    page = context.new_page()
    frames = record_frames(page)
    login(page, live.url, nickname, password)
    open_table(page, live.url, table_id, seated=False)
    sit_down(page, seat, buy_in_eur)
    return page, frames


def play_turns(
    live: LiveServer,
    table_id: int,
    pages: dict[int, Any],
    turn: Callable[[Any, int], None],
    max_turns: int = 200,
    *,
    until_over: bool = True,
) -> int:
    """Until the hand or match is over: the page of the seat to act plays one turn (``turn``).

    Before each turn the page must have rendered the server's current version and mark its own
    seat as the one to act. Returns the number of turns played; with ``until_over=False`` it
    stops after ``max_turns`` instead of failing.
    """
    import os

    trace = os.environ.get("E2E_TRACE")
    for played in range(max_turns):
        t0 = time.monotonic()
        info = live.run(runtime_info, table_id)
        if info["over"]:
            return played
        seat = info["to_act"][0]
        page = pages[seat]
        t1 = time.monotonic()
        wait_version(page, info["version"])
        page.wait_for_selector(f"{TABLE} [data-role=seats] [data-seat='{seat}'].me.to-act")
        t2 = time.monotonic()
        turn(page, seat)
        if trace:
            print(f"turn {played}: info {t1 - t0:.3f} wait {t2 - t1:.3f} turn {time.monotonic() - t2:.3f}")
    if not until_over:
        return max_turns
    raise AssertionError(f"not over after {max_turns} turns")


def start_match(live: LiveServer, table_id: int, pages: dict[int, Any]) -> None:
    """Giochi a partite: the countdown opens (as the lobby.table_start task would), every player
    presses "Sono pronto per iniziare" on his page, and the match is dealt."""
    from lobby import door

    assert not live.run(door.table_start_hand, table_id=table_id)  # not all ready: the countdown
    for page in pages.values():
        page.click(f"{TABLE} [data-role=ready]")
        page.wait_for_selector(f"{TABLE} [data-role=ready]", state="detached")
    for page in pages.values():  # the match is dealt: each page shows its own cards
        page.wait_for_selector(f"{TABLE} [data-role=hand] [data-card]")


def carla_and_dario_sitgo(name: str, *, max_players: int, turns: int) -> int:
    """Carla and Dario with € 100,00 each and a Scopa Danese sit&go of one smazzata a turn; its id."""
    from piattaforma import roles
    from tests.piattaforma.factories import UserFactory
    from tests.tournaments.factories import make_tournament
    from tests.wallet.factories import funded_player
    from tournaments.models import Tournament

    for nickname in ("Carla", "Dario"):
        funded_player(10_000, nickname=nickname)
    t = make_tournament(
        UserFactory(role=roles.STAFF),
        name=name,
        kind=Tournament.Kind.SITGO,
        format=Tournament.Format.DANESE,
        max_players=max_players,
        turns=turns,
        smazzate=1,
    )
    return t.pk
