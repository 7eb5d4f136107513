"""End to end in headless Chromium: sign up with a codice fiscale, upload an identity document,
staff approve it in the back office, the player withdraws; limits and the reality check.

Screenshots at desktop (1366x900) and phone (390x844) sizes go to $RG_SHOTS (default
test-artifacts/identity/).
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from piattaforma import roles
from piattaforma.models import IdentityDocument, User
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.live import STATIC_FILES_WARNING, login
from tests.piattaforma.factories import PASSWORD, UserFactory
from wallet.models import Account, AccountKind, Payment

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

SHOTS = Path(os.environ.get("RG_SHOTS", ARTIFACTS / "identity"))
SIZES = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def shoot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.screenshot(path=str(SHOTS / f"{name}-{size}.png"), full_page=True)
    page.set_viewport_size(SIZES["desktop"])


def log_in(page, base, nickname, password):
    login(page, base, nickname, password)  # staff: with the second factor


def log_out(page, base):
    page.context.clear_cookies()
    page.goto(f"{base}/")


def test_sign_up_verify_identity_and_withdraw(asgi_live, new_context, tmp_path):
    base = asgi_live.url
    context = new_context(viewport=SIZES["desktop"])
    page = context.new_page()
    page.goto(f"{base}/account/registrati/")
    fields = {
        "#id_first_name": "Giovanna",
        "#id_last_name": "Scopetti",
        "#id_date_of_birth": "1985-03-02",
        "#id_codice_fiscale": "SCPGNN85C42F839A",  # wrong check character first
        "#id_nickname": "Settebello",
        "#id_email": "settebello@example.invalid",
        "#id_password1": "Primiera-Napoli-21",
        "#id_password2": "Primiera-Napoli-21",
    }
    for selector, value in fields.items():
        page.fill(selector, value)
    page.select_option("#id_sex", "F")
    page.check("#id_accetto")
    page.check("input[name=limiti-choice][value=defaults]")  # the deposit limits, asked at sign-up
    page.click("main button[type=submit]")
    error = page.locator(".field.has-error .error").first
    assert "carattere di controllo" in error.inner_text()
    shoot(page, "01-registrazione-errore")
    page.fill("#id_codice_fiscale", "scpgnn85c42f839m")
    page.fill("#id_password1", "Primiera-Napoli-21")
    page.fill("#id_password2", "Primiera-Napoli-21")
    page.click("main button[type=submit]")
    page.wait_for_selector("[data-testid=nickname]")
    player = asgi_live.run(User.objects.get, nickname="Settebello")
    assert player.codice_fiscale == "SCPGNN85C42F839M" and not player.identity_verified

    # a deposit, then the withdrawal page says why it is closed and links to the upload
    page.goto(f"{base}/conto/deposito/")
    page.fill("#id_amount", "50")
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/conto/")  # the deposit's redirect: a goto now would cut the POST short
    page.goto(f"{base}/conto/prelievo/")
    assert page.locator("[data-testid=identity-required]").is_visible()
    shoot(page, "02-prelievo-identita-richiesta")
    page.click("text=Verifica la tua identità")
    page.wait_for_url("**/profilo/identita/")

    # a bad file is refused with a clear message, then the PDF is accepted
    bad = tmp_path / "appunti.txt"
    bad.write_text("non è un documento")
    page.select_option("#id_kind", "carta_identita")
    page.set_input_files("#id_file", str(bad))
    page.click("main button[type=submit]")
    assert "Il file deve essere un PDF" in page.locator(".field.has-error .error").inner_text()
    shoot(page, "03-documento-rifiutato")
    document = tmp_path / "carta-identita.pdf"
    document.write_bytes(PDF)
    page.select_option("#id_kind", "carta_identita")
    page.set_input_files("#id_file", str(document))
    page.click("main button[type=submit]")
    assert "Documento in revisione" in page.locator("[data-testid=identity-state]").inner_text()
    shoot(page, "04-documento-in-revisione")

    # staff approve it from the back office queue
    asgi_live.run(UserFactory, nickname="revisore", role=roles.STAFF)
    log_out(page, base)
    log_in(page, base, "revisore", PASSWORD)
    page.goto(f"{base}/backoffice/piattaforma/identitydocument/")
    assert "Settebello" in page.content()
    shoot(page, "05-backoffice-coda-documenti")
    page.check("input[name=_selected_action]")
    page.select_option("select[name=action]", "approve")
    page.click("button[name=index]")
    page.wait_for_selector(".messagelist")
    assert "Documento approvato" in page.locator(".messagelist").inner_text()
    assert asgi_live.run(IdentityDocument.objects.get).status == IdentityDocument.Status.APPROVED

    # the player withdraws, and sees the pending withdrawal in his statement
    log_out(page, base)
    log_in(page, base, "Settebello", "Primiera-Napoli-21")
    page.goto(f"{base}/profilo/identita/")
    assert "Identità verificata" in page.locator("[data-testid=identity-state]").inner_text()
    page.goto(f"{base}/conto/prelievo/")
    page.fill("#id_amount", "20")
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/conto/")
    assert asgi_live.run(
        Payment.objects.filter(user=player, direction="withdrawal", status="pending", amount=2_000).exists
    )
    page.goto(f"{base}/conto/movimenti/")
    assert page.locator("[data-testid=pending-withdrawal]").count() == 1
    assert "1 movimento" in page.content()
    shoot(page, "06-movimenti-prelievo-in-attesa")

    # loss and time limits, reality check interval
    page.goto(f"{base}/conto/limiti-di-gioco/")
    page.fill("#id_loss_day", "30")
    page.fill("#id_time_day", "90")
    page.select_option("#id_reality_check_minutes", "15")
    page.click("main button[type=submit]")
    page.wait_for_selector(".messages, .message, [role=status], .flash", state="attached")
    shoot(page, "07-limiti-di-gioco")


def seated_for_47_minutes() -> int:
    """A player who asked for a reminder every 15 minutes, seated at a table for 47 (run through
    ``asgi_live.run``, in the server's own thread, as that server's set-ups are)."""
    from tests.lobby.factories import poker_table
    from tests.lobby.helpers import seat_players
    from tests.wallet.factories import funded_player

    player = funded_player(nickname="Primiera")
    User.objects.filter(pk=player.pk).update(reality_check_minutes=15)
    table = poker_table()
    seat_players(table, [player], buy_in=5_000)
    Account.objects.filter(owner=player, kind=AccountKind.TABLE_CREDIT).update(
        created_at=timezone.now() - timedelta(minutes=47)
    )
    return table.pk


def test_reality_check_reminds_a_seated_player(asgi_live, new_context):
    # The table page on the ASGI server, as players get it (its sockets included): on the WSGI
    # live server the page fell back to polling, and two of its requests at once met on the one
    # in-memory SQLite connection that server's threads share ("bad parameter or other API misuse").
    base = asgi_live.url
    table_id = asgi_live.run(seated_for_47_minutes)
    page = new_context().new_page()
    log_in(page, base, "Primiera", PASSWORD)
    page.goto(f"{base}/lobby/tavolo/{table_id}/")
    dialog = page.locator("[data-role=reality-check]")
    dialog.wait_for(state="visible", timeout=15_000)
    assert "Stai giocando da 47 minuti" in dialog.inner_text()
    shoot(page, "08-promemoria-di-gioco")
    # "Continua" posts the acknowledgement: a reload before its answer would cancel it
    with page.expect_response(lambda r: r.url.endswith("/conto/promemoria/continua/")) as answer:
        page.click("[data-role=reality-continue]")
    assert answer.value.ok
    dialog.wait_for(state="hidden")
    # the reloaded page asks for the state at once; the next reminder is one interval later
    with page.expect_response(lambda r: r.url.endswith("/conto/promemoria/")) as polled:
        page.reload()
    assert polled.value.json()["due"] is False
    assert not dialog.is_visible()
