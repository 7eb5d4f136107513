"""The Content-Security-Policy in a real browser: every page carries it and nothing on them breaks it.

Players' pages, a live table (the table client's ES modules, its WebSocket and the SVG cards), the
back office (with a hand replay) and the card demo page are visited in Chromium through Daphne. A
watcher installed in every page collects ``securitypolicyviolation`` events and console errors;
the test first checks that the watcher does see a violation when one happens.
"""

import pytest

from tests.e2e.live import STATIC_FILES_WARNING, TABLE, second_factor, start_match, take_seat
from tests.piattaforma.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

WATCHER = """
document.addEventListener("securitypolicyviolation", (e) =>
  window.reportViolation(`${location.pathname}: ${e.violatedDirective} blocked ${e.blockedURI || "inline"}`)
    .then(() => { const html = document.documentElement;
                  html.dataset.reported = String(Number(html.dataset.reported || 0) + 1); }));
"""


def watch(context):
    """Collect the CSP violations and console errors of every page of ``context``."""
    found = []
    context.expose_function("reportViolation", lambda line: found.append(line))
    context.add_init_script(WATCHER)

    def on_console(message):
        if message.type == "error":
            found.append(f"console: {message.text}")

    context.on("console", on_console)
    context.on("weberror", lambda error: found.append(f"error: {error.error}"))
    return found


def visit(page, url, policies):
    """Open ``url`` (its scripts have run at the load event) and remember the policy it came with."""
    response = page.goto(url)
    assert response is not None and response.status == 200, url
    policies[url] = response.headers.get("content-security-policy")


def setup():
    from piattaforma import roles
    from tests.lobby.factories import poker_table, scopa_table
    from tests.piattaforma.factories import UserFactory
    from tests.wallet.factories import funded_player

    carla = funded_player(20_000, nickname="Carla")
    dario = funded_player(20_000, nickname="Dario")
    UserFactory(nickname="Ufficio", role=roles.STAFF)
    table = scopa_table(config={"mode": "smazzate", "deals": 1})
    poker_table(name="Tavolo Roma")  # two games: the lobby shows its filter
    return carla, dario, table


def first_hand(table_id):
    from lobby.models import Hand

    return Hand.objects.get(table_id=table_id, number=1).pk


def test_pages_and_the_live_table_run_under_the_policy(asgi_live, new_context, artifacts):
    live = asgi_live
    carla, dario, table = live.run(setup)
    policies: dict[str, str | None] = {}
    contexts = {seat: new_context() for seat in (1, 2)}
    found = watch(contexts[1])
    watch(contexts[2])

    # The watcher works: an inline handler on a page under the policy is reported, not run.
    probe = contexts[1].new_page()
    visit(probe, f"{live.url}/", policies)
    probe.evaluate(
        "() => { const b = document.createElement('button'); b.id = 'probe';"
        " b.setAttribute('onclick', 'document.body.dataset.pwned = 1'); document.body.append(b); }"
    )
    probe.click("#probe")
    # the report has come back through Playwright's binding (the page counts the answered ones)
    probe.wait_for_function("() => Number(document.documentElement.dataset.reported || 0) > 0")
    assert probe.evaluate("document.body.dataset.pwned") is None
    assert any("script-src" in line for line in found), found
    found.clear()
    probe.close()

    # Two players sit down through the pages and play: modules, WebSocket and SVG cards.
    pages = {}
    for seat, user in ((1, carla), (2, dario)):
        pages[seat], _frames = take_seat(
            live, contexts[seat], user.nickname, PASSWORD, table.pk, seat, "50,00"
        )
    start_match(live, table.pk, pages)
    page = pages[1]
    hand = page.locator(f"{TABLE} [data-role=hand] svg[data-card]")
    assert hand.count() >= 3 and hand.first.is_visible()
    assert page.locator(f"{TABLE} [data-role=seats] [data-seat]").count() == 2
    # a seat's nickname leads to the player's public card, in a new tab (rules 004: "cliccando sul nickname")
    card = page.locator(f"{TABLE} [data-role=seats] [data-seat='2'] .seat-name a.card-link")
    assert card.get_attribute("href") == f"/moderazione/giocatori/{dario.nickname}/"
    assert card.get_attribute("target") == "_blank"
    page.screenshot(path=str(artifacts / "csp-table.png"), full_page=True)

    # The player's other pages: their behaviour comes from script files, none inline.
    other = contexts[1].new_page()
    for path in ("/", "/lobby/", "/conto/", "/conto/movimenti/", "/profilo/", "/account/password/"):
        visit(other, f"{live.url}{path}", policies)
    visit(other, f"{live.url}/lobby/", policies)
    other.click("[data-role=game-filter] button[data-game=scopa]")  # lobby.js
    visit(other, f"{live.url}/conto/deposito/", policies)
    other.click("[data-role=quick-amounts] button[data-amount='20,00']")  # site.js
    assert other.input_value("#id_amount") == "20,00"
    with other.expect_navigation():
        other.select_option("select[name=language]", "en")  # site.js submits the language form
    assert other.locator("html").get_attribute("lang") == "en"
    visit(other, f"{live.url}/static/cards-demo.html", policies)
    other.wait_for_selector("body[data-ready='3']")
    assert other.locator("#stile-napoletane svg").count() > 40

    # The back office, a staff member's view, including a hand's replay.
    staff = new_context()
    found_staff = watch(staff)
    office = staff.new_page()
    office.goto(f"{live.url}/backoffice/login/")
    office.fill("#id_username", "Ufficio")
    office.fill("#id_password", PASSWORD)
    office.click("input[type=submit]")
    office.wait_for_url(lambda url: "/backoffice/login/" not in url)
    second_factor(office, "Ufficio")  # the two-factor pages run under the policy too
    office.wait_for_url(f"{live.url}/backoffice/")
    hand_id = live.run(first_hand, table.pk)
    for path in (
        "/backoffice/",
        "/backoffice/piattaforma/user/",
        f"/backoffice/piattaforma/user/{carla.pk}/change/",
        "/backoffice/lobby/table/",
        f"/backoffice/lobby/table/{table.pk}/change/",
        f"/backoffice/lobby/hand/{hand_id}/replay/?step=1",
        "/backoffice/wallet/transaction/",
    ):
        visit(office, f"{live.url}{path}", policies)
    office.screenshot(path=str(artifacts / "csp-backoffice-replay.png"), full_page=True)

    assert found == [] and found_staff == []
    missing = [url for url, policy in policies.items() if not policy or "script-src 'self'" not in policy]
    assert missing == []
