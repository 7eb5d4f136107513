"""End to end in headless Chromium: a visitor signs up and logs in through the real pages."""

import pytest

from piattaforma.models import User
from tests.e2e.live import STATIC_FILES_WARNING
from tests.piattaforma.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]


def test_sign_up_then_log_in(asgi_live, new_context, artifacts):
    page = new_context().new_page()
    page.goto(f"{asgi_live.url}/account/registrati/")
    page.fill("#id_nickname", "Settebello")
    page.fill("#id_email", "settebello@example.invalid")
    page.fill("#id_date_of_birth", "1980-07-15")
    page.fill("#id_first_name", "Carlo")
    page.fill("#id_last_name", "Settembrini")
    page.select_option("#id_sex", "M")
    page.fill("#id_codice_fiscale", "STTCRL80L15L219L")
    page.fill("#id_password1", "Primiera-Napoli-21")
    page.fill("#id_password2", "Primiera-Napoli-21")
    page.check("#id_accetto")
    page.check("input[name=limiti-choice][value=own]")
    page.fill("#id_limiti-week", "80")
    page.screenshot(path=str(artifacts / "signup-form.png"), full_page=True)
    page.click("main button[type=submit]")
    page.wait_for_selector("[data-testid=nickname]")
    assert page.inner_text("[data-testid=nickname]") == "Settebello"
    user = asgi_live.run(User.objects.get, nickname="Settebello")
    limits = asgi_live.run(lambda: dict(user.deposit_limits.values_list("period", "amount")))
    assert limits == {"week": 80_00}
    page.screenshot(path=str(artifacts / "signup-home.png"), full_page=True)


def test_the_own_limits_are_editable_only_when_chosen(asgi_live, new_context):
    page = new_context().new_page()
    page.goto(f"{asgi_live.url}/account/registrati/")
    day = page.locator("#id_limiti-day")
    assert day.is_disabled()  # nothing chosen yet
    page.check("input[name=limiti-choice][value=own]")
    assert day.is_enabled()
    day.fill("40")
    page.check("input[name=limiti-choice][value=defaults]")
    assert day.is_disabled()


def test_login_page_in_italian_and_wrong_password(asgi_live, new_context, artifacts):
    asgi_live.run(UserFactory, nickname="Mazziere")
    page = new_context().new_page()
    page.goto(f"{asgi_live.url}/account/accedi/")
    assert page.get_attribute("html", "lang") == "it"
    page.fill("#id_username", "Mazziere")
    page.fill("#id_password", "sbagliata")
    page.click("main button[type=submit]")
    assert "non corretti" in page.inner_text(".errors")
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_selector("[data-testid=nickname]")
    page.screenshot(path=str(artifacts / "login.png"), full_page=True)
