"""In the browser at 1366x900: the moderators' queue announcing a new report, the styled 403, the
card with the mute, and the back office's index with what waits and its lists in euro. Screenshots
land in test-artifacts/staff-*.png."""

import pytest

from tests.e2e.conftest import artifacts, asgi_live, asgi_server, browser  # noqa: F401  (fixtures)
from tests.e2e.live import STATIC_FILES_WARNING, login
from tests.piattaforma.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

LAPTOP = {"width": 1366, "height": 900}


def _setup():
    from piattaforma import roles
    from tests.lobby.factories import poker_table
    from tests.piattaforma.factories import UserFactory
    from wallet import actions as wallet_actions

    UserFactory(nickname="bullo")
    UserFactory(nickname="vittima")
    UserFactory(nickname="moderatore", role=roles.MODERATORS)
    UserFactory(nickname="capo", role=roles.STAFF)
    player = UserFactory(nickname="prelievo")
    wallet_actions.deposit_create(user=player, amount=5_000, idempotency_key="d")
    wallet_actions.withdrawal_request(user=player, amount=1_250, idempotency_key="w")
    table = poker_table(name="Roma Centro")
    table.rake_bp = 250
    table.save(update_fields=["rake_bp"])
    return table.pk


def _report(table_id):
    """'vittima' reports 'bullo' for a line said at the table."""
    from piattaforma.models import User
    from tests.moderation.factories import ReportFactory, say

    bully, victim = User.objects.get(nickname="bullo"), User.objects.get(nickname="vittima")
    return ReportFactory(
        reporter=victim, line=say(bully, "sei un incapace", channel=f"table:{table_id}")
    ).report.pk


def _mute(report_id):
    from moderation import actions
    from piattaforma.models import User

    moderator = User.objects.get(nickname="moderatore")
    actions.report_claim(report_id=report_id, moderator=moderator)
    actions.report_decide(
        report_id=report_id, moderator=moderator, decision="mute", reason="insulti", minutes=10
    )


def _open(browser, url, nickname, path):  # noqa: F811
    page = browser.new_context(locale="it-IT", viewport=LAPTOP).new_page()
    login(page, url, nickname, PASSWORD)
    page.goto(f"{url}{path}")
    return page


def test_moderator_queue_alert_403_and_card(browser, asgi_live, artifacts):  # noqa: F811
    url = asgi_live.url
    table_id = asgi_live.run(_setup)
    mod = _open(browser, url, "moderatore", "/moderazione/")
    mod.wait_for_selector("[data-testid=moderation-queue] td.cell-empty")
    assert mod.is_hidden("[data-role=queue-alert]")
    report_id = asgi_live.run(_report, table_id)
    # the queue checks every 10 s: the banner appears without a reload, the tab's title counts it
    mod.wait_for_selector("[data-role=queue-alert]:has-text('Nuova segnalazione: bullo')", timeout=25_000)
    assert mod.title().startswith("(1) ")
    mod.screenshot(path=artifacts / "staff-1-queue-alert.png", full_page=True)
    mod.click("[data-role=queue-alert] a")
    mod.wait_for_selector(f"tr[data-case='{report_id}']")
    mod.click(f"tr[data-case='{report_id}'] a")
    assert "Roma Centro" in mod.inner_text("[data-testid=moderation-case]")
    mod.screenshot(path=artifacts / "staff-2-case-table-name.png", full_page=True)
    asgi_live.run(_mute, report_id)
    mod.goto(f"{url}/moderazione/giocatori/bullo/")
    assert "Silenziamento" in mod.inner_text("[data-testid=chat-sanctions]")
    mod.screenshot(path=artifacts / "staff-3-card-mute.png", full_page=True)
    response = mod.goto(f"{url}/moderazione/segnali/")
    assert response.status == 403
    assert "Accesso non consentito" in mod.inner_text("[data-testid=forbidden]")
    mod.screenshot(path=artifacts / "staff-4-forbidden.png", full_page=True)
    mod.context.close()


def test_staff_back_office_index_and_lists(browser, asgi_live, artifacts):  # noqa: F811
    url = asgi_live.url
    table_id = asgi_live.run(_setup)
    asgi_live.run(_report, table_id)
    staff = _open(browser, url, "capo", "/backoffice/")
    panel = staff.wait_for_selector("[data-testid=staff-waiting]")
    assert "Prelievi da approvare" in panel.inner_text() and "Segnalazioni aperte" in panel.inner_text()
    staff.screenshot(path=artifacts / "staff-5-backoffice-index.png", full_page=True)
    staff.click("[data-testid=staff-waiting] a:has-text('Prelievi da approvare')")
    staff.wait_for_selector("#result_list")
    assert "€ 12,50" in staff.inner_text("#result_list")
    staff.check("#action-toggle")
    assert "Esegui" in staff.inner_text(".actions")
    staff.screenshot(path=artifacts / "staff-6-withdrawals.png", full_page=True)
    staff.select_option("select[name=action]", "approve")
    staff.click(".actions button[type=submit]")
    message = staff.wait_for_selector(".messagelist li")
    assert message.inner_text() == "Prelievo di € 12,50 a prelievo approvato e pagato."
    staff.goto(f"{url}/backoffice/lobby/table/{table_id}/change/")
    assert staff.input_value("input[name=rake_bp]") == "2,5"
    staff.screenshot(path=artifacts / "staff-7-table-rake-percent.png", full_page=True)
    staff.context.close()
