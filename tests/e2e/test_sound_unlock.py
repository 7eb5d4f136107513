"""The sounds' unlock, in Chromium: a browser keeps audio locked until the player touches the page,
so a player's page asks once, visibly ("Attiva i suoni"); one click unlocks the page's audio and is
remembered on the device. Headless Chromium does not lock audio: an init script makes the page's
AudioContext start suspended until ``resume()``, as a browser's autoplay policy does.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.live import STATIC_FILES_WARNING, login
from tests.piattaforma.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

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
BANNER = "[data-testid=audio-unlock]"
LIVE = "[data-site-notices][data-live=open]"  # the page's module ran past its sound offer


def player_page(live, new_context, nickname: str):
    from tests.wallet.factories import funded_player

    user = live.run(lambda: funded_player(10_000, nickname=nickname))
    context = new_context()
    context.add_init_script(LOCKED_AUDIO)
    page = context.new_page()
    login(page, live.url, user.nickname, PASSWORD)
    return page


def test_the_sounds_are_asked_once_and_one_click_unlocks_them(asgi_live, new_context):
    page = player_page(asgi_live, new_context, "Sara")
    page.goto(f"{asgi_live.url}/lobby/")
    banner = page.locator(BANNER)
    expect(banner).to_be_visible()
    page.screenshot(path="/tmp/replay-sound-unlock.png")  # noqa: S108
    page.get_by_role("button", name="Attiva i suoni").click()
    expect(banner).to_have_count(0)
    assert page.evaluate("() => window.resumed") == 1
    assert page.evaluate("() => localStorage.getItem('tavolo-audio-chiesto')") == "1"
    assert page.evaluate("() => localStorage.getItem('tavolo-audio')") != "off"
    # answered on this device: another page does not ask again (its audio unlocks on a touch)
    page.goto(f"{asgi_live.url}/lobby/")
    page.wait_for_selector(LIVE, state="attached")
    expect(page.locator(BANNER)).to_have_count(0)
    page.mouse.click(5, 5)
    page.wait_for_function("() => window.resumed === 1")


def test_no_sounds_is_an_answer_too_and_a_muted_device_is_never_asked(asgi_live, new_context):
    page = player_page(asgi_live, new_context, "Tino")
    page.goto(f"{asgi_live.url}/lobby/")
    page.get_by_role("button", name="Senza suoni").click()
    expect(page.locator(BANNER)).to_have_count(0)
    assert page.evaluate("() => localStorage.getItem('tavolo-audio')") == "off"
    page.evaluate("() => localStorage.removeItem('tavolo-audio-chiesto')")  # muted, never answered
    page.goto(f"{asgi_live.url}/lobby/")
    page.wait_for_selector(LIVE, state="attached")
    expect(page.locator(BANNER)).to_have_count(0)
