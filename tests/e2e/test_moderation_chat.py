"""The chat surfaces in the browser: lobby chat, tournament chat and HELP between a player and staff.

Screenshots (laptop 1366x900 and phone 390x844) land in test-artifacts/ and, when SHOTS_DIR is set,
there too (e.g. SHOTS_DIR=/tmp/shots-mc).
"""

import os
from pathlib import Path

import pytest

from tests.e2e.conftest import artifacts, asgi_live, asgi_server, browser  # noqa: F401  (fixtures)
from tests.e2e.live import STATIC_FILES_WARNING, login
from tests.moderation.conftest import default_watched_list, fresh_watched_list  # noqa: F401  (fixtures)
from tests.piattaforma.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

VIEWPORTS = {"laptop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}


def _people(*nicknames, staff=()):
    from moderation import actions, defaults
    from moderation.models import WatchedEntry
    from piattaforma import roles
    from tests.piattaforma.factories import UserFactory

    defaults.seed(WatchedEntry)  # a flush after an earlier live test emptied it
    actions.watched_list_reset()
    for n in nicknames:
        UserFactory(nickname=n)
    for n in staff:
        UserFactory(nickname=n, role=roles.STAFF)


def _two_tournaments():
    from piattaforma.models import User
    from tests.tournaments.factories import make_tournament

    _people("iscritto", "osservatore", "altrove", staff=("organizzatore",))
    organiser = User.objects.get(nickname="organizzatore")
    return make_tournament(organiser, name="Scopa del giovedì").pk, make_tournament(
        organiser, name="Altro"
    ).pk


def _open(chromium, url, nickname, viewport, path):
    page = chromium.new_context(locale="it-IT", viewport=VIEWPORTS[viewport]).new_page()
    page.set_default_timeout(20_000)
    login(page, url, nickname, PASSWORD)
    page.goto(f"{url}{path}")
    return page


def _shooter(artifacts, viewport):  # noqa: F811
    extra = Path(os.environ["SHOTS_DIR"]) if os.environ.get("SHOTS_DIR") else None
    if extra:
        extra.mkdir(parents=True, exist_ok=True)

    def shot(page, name):
        page.evaluate(
            "window.scrollTo(0, 0)"
        )  # a full-page shot of a scrolled page repeats the sticky header
        for folder in filter(None, (artifacts, extra)):
            page.screenshot(path=folder / f"chat-{name}-{viewport}.png", full_page=True)

    return shot


def _ready(page, testid):
    page.wait_for_selector(f"[data-testid=chat-{testid}][data-connected='1']")
    return f"[data-testid=chat-{testid}]"


def _say(page, panel, text):
    page.fill(f"{panel} [data-role=chat-form] input", text)
    page.press(f"{panel} [data-role=chat-form] input", "Enter")


@pytest.mark.parametrize("viewport", ["laptop", "phone"])
def test_lobby_chat_rules_report_and_history(browser, asgi_live, artifacts, viewport):  # noqa: F811
    url, shot = asgi_live.url, _shooter(artifacts, viewport)
    asgi_live.run(_people, "rosa", "dario")
    rosa = _open(browser, url, "rosa", viewport, "/lobby/")
    dario = _open(browser, url, "dario", viewport, "/lobby/")
    panel = _ready(rosa, "lobby")
    _ready(dario, "lobby")

    _say(rosa, panel, "buonasera a tutti, chi gioca a scopa?")
    dario.wait_for_selector(f"{panel} p[data-line]:has-text('chi gioca a scopa?')")
    _say(dario, panel, "IO GIOCO SUBITO")  # capitals: refused, and he is told why
    dario.wait_for_selector(f"{panel} [data-role=chat-status]:has-text('non scrivere in maiuscolo')")
    shot(dario, "lobby-refused")
    _say(dario, panel, "sei una cretina")  # shown censored
    line = rosa.wait_for_selector(f"{panel} p[data-line]:has-text('sei una *******')")
    assert "cretina" not in rosa.inner_text(f"{panel} [data-role=chat-log]")

    # "Segnala" on the line, from the lobby chat
    line.query_selector("button[data-report-line]").click()
    form = rosa.wait_for_selector(f"{panel} form[data-role=report-form]")
    form.query_selector("select[name=reason]").select_option("insult")
    form.query_selector("button[type=submit]").click()
    rosa.wait_for_selector(f"{panel} [data-role=report-result][data-ok='1']")
    shot(rosa, "lobby-report")

    def captured():
        from moderation.models import ReportEntry

        entry = ReportEntry.objects.get()
        return entry.channel, [x["text"] for x in entry.context]

    assert asgi_live.run(captured) == (
        "lobby",
        ["buonasera a tutti, chi gioca a scopa?", "sei una *******"],
    )
    dario.reload()  # history on reconnect
    _ready(dario, "lobby")
    dario.wait_for_selector(f"{panel} p[data-line]:has-text('chi gioca a scopa?')")
    assert dario.locator(f"{panel} p[data-line]").count() == 2
    shot(dario, "lobby-history")
    for page in (rosa, dario):
        page.context.close()


@pytest.mark.parametrize("viewport", ["laptop", "phone"])
def test_tournament_chat_for_entrants_and_watchers_only_of_that_tournament(
    browser,  # noqa: F811
    asgi_live,  # noqa: F811
    artifacts,  # noqa: F811
    viewport,
):
    url, shot = asgi_live.url, _shooter(artifacts, viewport)
    first, other = asgi_live.run(_two_tournaments)
    entrant = _open(browser, url, "iscritto", viewport, f"/tornei/{first}/")
    watcher = _open(browser, url, "osservatore", viewport, f"/tornei/{first}/")
    elsewhere = _open(browser, url, "altrove", viewport, f"/tornei/{other}/")
    panel = _ready(entrant, "tournament")
    _ready(watcher, "tournament")
    _ready(elsewhere, "tournament")

    _say(entrant, panel, "in bocca al lupo a tutti!")
    watcher.wait_for_selector(f"{panel} p[data-line]:has-text('in bocca al lupo')")
    _say(watcher, panel, "crepi! seguo da qui")
    entrant.wait_for_selector(f"{panel} p[data-line]:has-text('seguo da qui')")
    _say(watcher, panel, "venite a giocare su www.altrosito.it")
    watcher.wait_for_selector(f"{panel} [data-role=chat-status]:has-text('Messaggio non inviato')")
    shot(watcher, "tournament-refused")
    # the room's lines reach a socket in order: once a later line is there, the refused one would be
    _say(watcher, panel, "niente link, scusate")
    entrant.wait_for_selector(f"{panel} p[data-line]:has-text('niente link')")
    assert "altrosito" not in entrant.inner_text(f"{panel} [data-role=chat-log]")
    assert elsewhere.locator(f"{panel} p[data-line]").count() == 0  # another tournament's chat
    shot(entrant, "tournament")
    for page in (entrant, watcher, elsewhere):
        page.context.close()


@pytest.mark.parametrize("viewport", ["laptop", "phone"])
def test_help_between_a_player_and_staff(browser, asgi_live, artifacts, viewport):  # noqa: F811
    url, shot = asgi_live.url, _shooter(artifacts, viewport)
    asgi_live.run(_people, "chiara", "curioso", staff=("assistenza",))
    player = _open(browser, url, "chiara", viewport, "/lobby/")
    player.click("[data-testid=help-panel] summary")
    panel = _ready(player, "help")
    assert player.locator("[data-testid=help-close]").is_hidden()  # nothing to close yet
    _say(player, panel, "secondo me il gioco è truccato, ho perso 5 mani")  # complaints belong here
    player.wait_for_selector(f"{panel} p[data-line]:has-text('truccato')")
    player.wait_for_selector("[data-testid=help-close]", state="visible")  # now he may close it

    def player_id():
        from piattaforma.models import User

        return User.objects.get(nickname="chiara").pk

    staff = _open(browser, url, "assistenza", viewport, "/moderazione/help/")
    staff.click("[data-help-threads] li[data-player] a")
    reply = _ready(staff, "help-reply")
    staff.wait_for_selector(f"{reply} p[data-line]:has-text('truccato')")
    assert "da rispondere" in staff.inner_text("[data-help-threads]")
    _say(staff, reply, "Ciao chiara, le carte sono mescolate a caso: ti mando il dettaglio.")
    player.wait_for_selector(f"{panel} p.chat-staff:has-text('mescolate a caso')")
    shot(staff, "help-staff")
    shot(player, "help-player")

    # the staff closes it: off the desk, and the player's open panel says so at once
    with staff.expect_navigation():
        staff.click("[data-testid=help-close]")
    assert staff.locator("[data-help-threads] li[data-player]").count() == 0
    player.wait_for_selector(f"{panel} [data-role=chat-status]:has-text('Lo staff ha chiuso')")
    player.wait_for_selector("[data-testid=help-close]", state="hidden")  # closed: nothing left to close
    shot(player, "help-closed")

    # another player opening chiara's HELP is refused; moderators and players get no desk
    other = _open(
        browser, url, "curioso", viewport, f"/moderazione/help/?giocatore={asgi_live.run(player_id)}"
    )
    assert "403" in other.title() or other.locator("[data-testid=help-desk]").count() == 0
    other.goto(f"{url}/lobby/")
    other.click("[data-testid=help-panel] summary")
    _ready(other, "help")
    assert other.locator(f"{panel} p[data-line]").count() == 0
    for page in (player, staff, other):
        page.context.close()


@pytest.mark.parametrize("viewport", ["laptop", "phone"])
def test_a_moderator_publishes_a_held_lobby_line_and_the_lobby_sees_it(
    browser,  # noqa: F811
    asgi_live,  # noqa: F811
    artifacts,  # noqa: F811
    viewport,
):
    url, shot = asgi_live.url, _shooter(artifacts, viewport)
    asgi_live.run(_people, "furbo", "onesto")

    def make_moderator():
        from piattaforma import roles
        from tests.piattaforma.factories import UserFactory

        UserFactory(nickname="moderatore", role=roles.MODERATORS)

    asgi_live.run(make_moderator)
    author = _open(browser, url, "furbo", viewport, "/lobby/")
    reader = _open(browser, url, "onesto", viewport, "/lobby/")
    panel = _ready(author, "lobby")
    _ready(reader, "lobby")
    _say(author, panel, "dividiamo la vincita dopo il torneo")  # collusion: held for review
    author.wait_for_selector(f"{panel} [data-role=chat-status]:has-text('trattenuto')")

    mod = _open(browser, url, "moderatore", viewport, "/moderazione/")
    held = mod.wait_for_selector("[data-testid=held-lines] li[data-held]:has-text('dividiamo la vincita')")
    shot(mod, "held-queue")
    held.query_selector("button[value=mostra]").click()
    mod.wait_for_selector(".messages li:has-text('Messaggio pubblicato')")
    assert "Nessun messaggio in attesa" in mod.inner_text("[data-testid=held-lines]")
    reader.wait_for_selector(f"{panel} p[data-line]:has-text('dividiamo la vincita')")  # live, no reload
    author.wait_for_selector(f"{panel} .chat-notice[data-code=line_released]")
    shot(author, "held-released")
    for page in (author, reader, mod):
        page.context.close()
