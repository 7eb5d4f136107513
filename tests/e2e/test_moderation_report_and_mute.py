"""In the browser, three people: a player insults another at a table, the victim reports him, a
moderator claims the report and mutes him for 10 minutes, and the player sees the mute and its end.

Screenshots of each step (laptop 1366x900 and phone 390x844) land in test-artifacts/.
"""

import re

import pytest

from tests.e2e.conftest import artifacts, asgi_live, asgi_server, browser  # noqa: F401  (fixtures)
from tests.e2e.live import STATIC_FILES_WARNING, login
from tests.moderation.conftest import default_watched_list, fresh_watched_list  # noqa: F401  (fixtures)
from tests.piattaforma.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

VIEWPORTS = {"laptop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}


def _setup():
    from moderation import actions, defaults
    from moderation.models import WatchedEntry
    from piattaforma import roles
    from tests.lobby.factories import poker_table
    from tests.piattaforma.factories import UserFactory

    defaults.seed(WatchedEntry)  # a flush after an earlier live test emptied it
    actions.watched_list_reset()
    UserFactory(nickname="bullo")
    UserFactory(nickname="vittima")
    UserFactory(nickname="moderatore", role=roles.MODERATORS)
    return poker_table(name="Tavolo Roma").pk


def _mute_is_over():
    """Ten minutes pass: the mute's end moves into the past (the server compares it with now)."""
    from datetime import timedelta

    from django.utils import timezone

    from moderation.models import Sanction

    Sanction.objects.filter(kind="mute").update(
        starts_at=timezone.now() - timedelta(minutes=10, seconds=5),
        ends_at=timezone.now() - timedelta(seconds=5),
    )


def _beat_tells_the_end():
    from moderation.tasks import sanctions_ended

    return sanctions_ended()


def _open(chromium, url, nickname, viewport, path):
    page = chromium.new_context(locale="it-IT", viewport=VIEWPORTS[viewport]).new_page()
    login(page, url, nickname, PASSWORD)
    page.goto(f"{url}{path}")
    return page


def connected(page):
    page.wait_for_function("() => document.querySelector('#table')?.dataset.connected === '1'")


def open_chat(page):
    """On a narrow screen the table's chat is a drawer behind the "Chat" button: open it."""
    toggle = page.locator("[data-testid=chat-toggle]")
    if toggle.is_visible():
        toggle.click()
    page.wait_for_selector("[data-role=chat-form] input", state="visible")


@pytest.mark.parametrize("viewport", ["laptop", "phone"])
def test_insult_report_claim_mute_and_its_end(browser, asgi_live, artifacts, viewport):  # noqa: F811
    url = asgi_live.url
    table_id = asgi_live.run(_setup)

    def shot(page, name):
        page.screenshot(path=artifacts / f"moderation-{name}-{viewport}.png", full_page=True)

    bully = _open(browser, url, "bullo", viewport, f"/lobby/tavolo/{table_id}/")
    victim = _open(browser, url, "vittima", viewport, f"/lobby/tavolo/{table_id}/")
    connected(bully)
    connected(victim)
    open_chat(bully)
    open_chat(victim)

    # a blocked line: only its author is told why
    bully.fill("[data-role=chat-form] input", "porco dio")
    bully.press("[data-role=chat-form] input", "Enter")
    bully.wait_for_selector("[data-role=chat-status]:has-text('Messaggio non inviato')")
    # an insult: shown censored to everyone
    bully.fill("[data-role=chat-form] input", "sei un cretino")
    bully.press("[data-role=chat-form] input", "Enter")
    line = victim.wait_for_selector("[data-role=chat-log] p[data-line]:has-text('sei un *******')")
    assert "cretino" not in victim.inner_text("[data-role=chat-log]")
    # the nickname leads to the player's public card (rules 004: "cliccando sul nickname")
    assert line.query_selector("a.chat-nick").get_attribute("href") == "/moderazione/giocatori/bullo/"
    assert (
        bully.query_selector("[data-role=chat-log] button[data-report-line]") is None
    )  # not on his own line

    # the victim reports it
    line.query_selector("button[data-report-line]").click()
    form = victim.wait_for_selector("form[data-role=report-form]")
    form.query_selector("select[name=reason]").select_option("insult")
    form.query_selector("textarea[name=note]").fill("mi insulta da inizio partita")
    shot(victim, "1-report-dialog")
    form.query_selector("button[type=submit]").click()
    victim.wait_for_selector("[data-role=report-result][data-ok='1']")
    assert "Grazie" in victim.inner_text("[data-role=report-result]")
    # and reports the player too: it merges into the same case
    victim.wait_for_selector(".report-dialog", state="hidden")
    victim.click("[data-role=report-player]")
    # nobody else is seated, but bullo spoke in the chat: he is offered in the list
    form = victim.wait_for_selector("form[data-role=report-form]:has(select[name=nickname])")
    form.query_selector("select[name=nickname]").select_option("bullo")
    form.query_selector("select[name=reason]").select_option("intimidation")
    form.query_selector("button[type=submit]").click()
    victim.wait_for_selector("[data-role=report-result][data-ok='1']")

    # the moderator finds it at the top of the queue, claims it and mutes him for 10 minutes
    mod = _open(browser, url, "moderatore", viewport, "/moderazione/")
    first = mod.inner_text("[data-testid=moderation-queue] tbody tr:first-child")
    assert first.startswith("bullo") and "Intimidazione" in first
    shot(mod, "2-queue")
    mod.click("[data-testid=moderation-queue] tbody tr:first-child a")
    mod.click("[data-testid=claim]")
    mod.wait_for_selector("[data-testid=decide-form]")
    assert "sei un *******" in mod.inner_text("[data-testid=moderation-case]")
    assert "mi insulta da inizio partita" in mod.inner_text("[data-testid=moderation-case]")
    mod.select_option("#decision", "mute")
    mod.fill("#minutes", "10")
    mod.fill("#reason", "Insulti a un altro giocatore")
    shot(mod, "3-case")
    mod.click("[data-testid=decide-form] button[type=submit]")
    mod.wait_for_selector(".messages li:has-text('Decisione registrata')")
    assert "Nessuna segnalazione aperta" in mod.inner_text("[data-testid=moderation-queue]")

    # the player sees the mute and its end, pushed to the open table (no reload, no poll), and cannot
    # write until then
    notice = bully.wait_for_selector("[data-role=chat-log] .chat-notice[data-code=moderation_mute]")
    assert re.search(r"silenziato in chat fino alle \d\d:\d\d", notice.inner_text())
    bully.fill("[data-role=chat-form] input", "perché?")
    bully.press("[data-role=chat-form] input", "Enter")
    # told under the chat, where he is looking (not a passing notice on the felt)
    status = bully.wait_for_selector("[data-role=chat-status]:has-text('sei silenziato fino alle')")
    assert re.search(r"sei silenziato fino alle \d\d:\d\d", status.inner_text())
    shot(bully, "4-muted")
    victim.wait_for_selector("[data-role=chat-log] .chat-notice[data-code=report_handled]")

    # ten minutes later he may write again
    asgi_live.run(_mute_is_over)
    assert asgi_live.run(_beat_tells_the_end) == 1  # the beat's task: he is told the mute is over
    bully.wait_for_selector("[data-role=chat-log] .chat-notice[data-code=moderation_mute_end]")
    bully.fill("[data-role=chat-form] input", "scusate, buona partita")
    bully.press("[data-role=chat-form] input", "Enter")
    victim.wait_for_selector("[data-role=chat-log] p:has-text('scusate, buona partita')")
    for page in (bully, victim, mod):
        page.context.close()
