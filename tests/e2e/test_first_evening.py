"""End to end in headless Chromium: a new player's first evening, on a laptop and on a phone. He
signs up (an Italian password message, then his deposit limits), uploads an identity document and
reads his conto (the document in review, his limits) and his statement (the table it came from)."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from piattaforma import actions
from piattaforma.models import User
from tests.e2e.live import STATIC_FILES_WARNING
from tests.lobby.factories import scopa_table
from wallet import actions as wallet_actions

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
VIEWPORTS = {"laptop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
PEOPLE = {  # one person per device: a codice fiscale opens one account
    "laptop": ("Carlo", "Settembrini", "M", "1980-07-15", "STTCRL80L15L219L"),
    "phone": ("Giovanna", "Scopetti", "F", "1985-03-02", "SCPGNN85C42F839M"),
}


def first_evening(nickname: str) -> None:
    """What happens off the pages: a deposit, a document uploaded, a sit at a table and back."""
    user = User.objects.get(nickname=nickname)
    wallet_actions.deposit_create(user=user, amount=60_00, idempotency_key=f"dep-{nickname}")
    actions.identity_document_upload(
        user=user, kind="passaporto", upload=SimpleUploadedFile("p.pdf", PDF, content_type="application/pdf")
    )
    table = scopa_table(name="Tavolo Golfo")
    session = f"{table.pk}-1-{nickname.lower()[:12]}"
    wallet_actions.table_buy_in(
        user=user,
        table_session_ref=session,
        amount=20_00,
        min_amount=1_00,
        max_amount=50_00,
        idempotency_key=f"buy-{nickname}",
    )
    wallet_actions.table_cash_out(table_session_ref=session, idempotency_key=f"out-{nickname}")


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_sign_up_and_read_the_conto(asgi_live, new_context, artifacts, device):
    nickname = f"Primo{device.capitalize()}"
    page = new_context(viewport=VIEWPORTS[device]).new_page()
    page.goto(f"{asgi_live.url}/account/registrati/")
    page.fill("#id_nickname", nickname)
    page.fill("#id_email", f"{nickname.lower()}@example.invalid")
    first, last, sex, born, code = PEOPLE[device]
    page.fill("#id_date_of_birth", born)
    page.fill("#id_first_name", first)
    page.fill("#id_last_name", last)
    page.select_option("#id_sex", sex)
    page.fill("#id_codice_fiscale", code)
    page.fill("#id_password1", "Corta-1")
    page.fill("#id_password2", "Corta-1")
    page.check("#id_accetto")
    page.click("main button[type=submit]")  # no limits chosen, a short password
    page.wait_for_selector(".field.has-error")
    text = page.inner_text("main")
    assert "Questa password è troppo corta. Deve contenere almeno 10 caratteri." in text
    assert "Scegli i tuoi limiti di deposito o accetta quelli predefiniti." in text
    page.screenshot(path=str(artifacts / f"first-evening-signup-errors-{device}.png"), full_page=True)
    page.fill("#id_password1", "Primiera-Napoli-21")
    page.fill("#id_password2", "Primiera-Napoli-21")
    page.check("input[name=limiti-choice][value=defaults]")
    page.click("main button[type=submit]")
    page.wait_for_selector("[data-testid=nickname]")

    asgi_live.run(first_evening, nickname)
    page.goto(f"{asgi_live.url}/conto/")
    state = page.inner_text("[data-testid=identity-state]")
    assert "in revisione" in state and "non verificata" not in state
    facts = page.inner_text("main")
    assert "€ 100,00" in facts and "€ 250,00" in facts and "€ 500,00" in facts  # the defaults accepted
    page.screenshot(path=str(artifacts / f"first-evening-conto-{device}.png"), full_page=True)
    page.goto(f"{asgi_live.url}/conto/movimenti/")
    sources = page.locator("[data-testid=movement-source] a").all_inner_texts()
    assert sources == ["Tavolo Golfo", "Tavolo Golfo"]  # the cash-out and the buy-in
    page.screenshot(path=str(artifacts / f"first-evening-statement-{device}.png"), full_page=True)
