"""Playwright on Debian's chromium (no browser download): ``executable_path=/usr/bin/chromium``."""

import collections
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser():
    # Module scope: Playwright's sync API keeps an event loop running while it is open, which would
    # break the async tests (Channels) that run after the browser tests.
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (.ci/run installs it: apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread, which makes Django's ORM believe it is
    # called from async code; the ORM calls of these tests are synchronous and safe.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture
def page(browser):
    context = browser.new_context(locale="it-IT", viewport={"width": 1280, "height": 800})
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def asgi_server(django_db_setup, django_db_blocker):
    """Daphne with the Channels router in a thread of this process (see tests/e2e/live.py)."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (.ci/run installs it: apt-get install chromium)")
    from tests.e2e.live import shared_server, stop_shared_server

    with django_db_blocker.unblock():
        server = shared_server()
    yield server
    with django_db_blocker.unblock():
        stop_shared_server()


@pytest.fixture
def asgi_live(browser, asgi_server, transactional_db, monkeypatch):
    """The ASGI live server for one test: its data is flushed after the test, deals are seeded.

    Set-up data and table actions go through ``asgi_live.run`` (the server's own thread). At the
    end every browser context still open is closed and the server let go idle (the sockets'
    disconnect handlers write to the database) before the test's data is flushed.
    """
    import itertools

    from games.rng import RecordingRng, SeededRng

    seeds = itertools.count(2000)
    monkeypatch.setattr("lobby.actions.tablerow.new_rng", lambda: RecordingRng(SeededRng(next(seeds))))
    yield asgi_server
    for context in browser.contexts:
        context.close()
    asgi_server.idle()


def watch_sockets(context: Any, keep: int = 60) -> collections.deque[str]:
    """The last ``keep`` events of the context's WebSockets, one line each: opened, closed, each
    frame's type and table version (sent ``>``, received ``<``), shown when a wait fails."""
    log: collections.deque[str] = collections.deque(maxlen=keep)

    def line(direction: str, payload: Any) -> str:
        try:
            frame = json.loads(payload)
            return f"{direction}{frame.get('type')} v{frame.get('version', '')}"
        except (ValueError, TypeError, AttributeError):
            return f"{direction}?"

    def on_socket(ws: Any) -> None:
        at = time.monotonic()
        log.append(f"open {ws.url}")

        def note(text: str) -> None:
            log.append(f"{time.monotonic() - at:.1f}s {text}")

        ws.on("framereceived", lambda payload: note(line("<", payload)))
        ws.on("framesent", lambda payload: note(line(">", payload)))
        ws.on("close", lambda _ws: note(f"closed {ws.url}"))

    context.on("page", lambda page: page.on("websocket", on_socket))
    return log


@pytest.fixture
def new_context(browser, asgi_live):
    """Open browser contexts (one per player); on teardown close them and let the server go idle."""
    opened = []

    def open_context(**options: Any):
        """A context as the players' (Italian, a laptop's window); ``options`` of Playwright's own."""
        options = {"locale": "it-IT", "viewport": {"width": 1280, "height": 800}, **options}
        context = browser.new_context(**options)
        context.set_default_timeout(30_000)
        context.page_errors = []  # JavaScript errors of its pages, shown when a wait fails
        context.on("weberror", lambda error: context.page_errors.append(str(error.error)))
        context.socket_log = watch_sockets(context)  # and what its sockets carried
        opened.append(context)
        return context

    yield open_context
    for context in opened:
        context.close()
    asgi_live.idle()


# The table page with a mocked WebSocket (test_table_client.py), shared with test_table_gestures.py.
from tests.e2e.test_table_client import open_table  # noqa: E402, F401
