"""The table's chat on a phone: a "Chat" button in the header opens it as a drawer, with the count of
the lines that arrived while it was closed; keyboard and screen reader reach it (the button's state
and count, the focus moved into the drawer and back, Escape). On a laptop the chat is the side
panel and the button is not shown. Screenshots: test-artifacts/tavolo-chat-<size>.png."""

from __future__ import annotations

import pytest

from tests.e2e import test_table_client as client
from tests.e2e.live import STATIC_FILES_WARNING
from tests.e2e.test_table_client import has_type, play_until

open_table = client.open_table

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
IN_VIEW = """sel => { const r = document.querySelector(sel).getBoundingClientRect();
  return r.width > 0 && r.left >= -0.5 && r.right <= innerWidth + 0.5
    && r.top >= -0.5 && r.bottom <= innerHeight + 0.5; }"""


def say(t, line: int, nickname: str, text: str) -> None:
    t.push({"type": "chat", "line": line, "nickname": nickname, "text": text, "room": f"tavolo:{t.table.pk}"})
    t.page.locator(f"[data-role=chat-log] [data-line='{line}']").wait_for(state="attached")


def test_on_a_phone_the_chat_is_a_drawer_with_its_unread_count(open_table, artifacts):
    state, seat = play_until("scopa", has_type("gioca"))
    t = open_table("scopa", viewport=PHONE)
    t.show(state, seat)
    page = t.page
    toggle = page.locator("[data-testid=chat-toggle]")
    badge = page.locator("[data-role=chat-unread]")
    assert toggle.is_visible() and page.evaluate(IN_VIEW, "[data-testid=chat-toggle]")
    assert toggle.get_attribute("aria-expanded") == "false" and badge.is_hidden()
    assert page.locator("#table-chat").is_hidden()  # closed: out of sight and of the focus order
    other = t.users[1].nickname
    say(t, 1, other, "ciao a tutti")
    say(t, 2, other, "buona partita")
    say(t, 3, t.users[0].nickname, "grazie")  # his own line is not unread
    assert badge.is_visible() and badge.inner_text().split()[0] == "2"
    assert "2 messaggi non letti" in toggle.inner_text().replace("\n", " ")
    page.screenshot(path=str(artifacts / "tavolo-chat-phone-chiusa.png"))
    # keyboard: the button is reached and pressed, the focus goes to the chat's field
    toggle.focus()
    page.keyboard.press("Enter")
    page.locator("#table-chat").wait_for(state="visible")
    page.wait_for_function("() => document.activeElement?.name === 'text'")
    assert toggle.get_attribute("aria-expanded") == "true" and badge.is_hidden()
    page.wait_for_function(IN_VIEW, arg="#table-chat [data-role=chat-form] input")
    page.wait_for_function(IN_VIEW, arg="#table-chat [data-testid=chat-close]")
    page.screenshot(path=str(artifacts / "tavolo-chat-phone.png"))
    assert "ciao a tutti" in page.inner_text("#table-chat [data-role=chat-log]")
    # a line arriving while it is open is read at once
    say(t, 4, other, "tocca a te")
    assert badge.is_hidden()
    # he writes and sends from the drawer
    page.keyboard.type("ciao")
    page.keyboard.press("Enter")
    t.wait_sent(1)
    sent = next(m for m in t.sent if m.get("type") == "chat")
    assert sent["text"] == "ciao", sent
    # Escape closes it and gives the focus back to the button
    page.keyboard.press("Escape")
    page.locator("#table-chat").wait_for(state="hidden")
    assert toggle.get_attribute("aria-expanded") == "false"
    assert page.evaluate("() => document.activeElement?.dataset.testid") == "chat-toggle"
    # "Chiudi" closes it too
    toggle.click()
    page.locator("#table-chat").wait_for(state="visible")
    page.locator("[data-testid=chat-close]").click()
    page.locator("#table-chat").wait_for(state="hidden")
    assert t.errors == []


def test_on_a_laptop_the_chat_is_the_side_panel(open_table, artifacts):
    state, seat = play_until("scopa", has_type("gioca"))
    t = open_table("scopa", viewport=LAPTOP)
    t.show(state, seat)
    page = t.page
    assert page.locator("[data-testid=chat-toggle]").is_hidden()
    assert page.locator("[data-testid=chat-close]").is_hidden()
    assert page.evaluate(IN_VIEW, "#table-chat [data-role=chat-form] input")
    say(t, 1, t.users[1].nickname, "ciao")
    assert page.locator("[data-role=chat-unread]").is_hidden()
    page.screenshot(path=str(artifacts / "tavolo-chat-laptop.png"))
    assert t.errors == []
