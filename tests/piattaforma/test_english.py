"""The English catalog: pages switch to English, and locale/en is complete and compiled."""

import ast
import gettext
import re
from html import unescape
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.piattaforma.factories import UserFactory

pytestmark = pytest.mark.django_db

LC_MESSAGES = Path(settings.BASE_DIR) / "locale" / "en" / "LC_MESSAGES"
# %(name)s / %d / %s and {name} placeholders must survive translation unchanged.
PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|%[sdif]|\{\w*\}")


def page(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 200
    return unescape(response.content.decode())


def switch_to_english(client):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302


def test_login_page_is_in_english(client):
    assert "Hai dimenticato la password?" in page(client, "login")  # Italian is the default
    switch_to_english(client)
    html = page(client, "login")
    assert 'lang="en"' in html
    for english in ("<h1>Log in</h1>", "Sign up", "Forgotten your password?", "Don't have an account?"):
        assert english in html
    for italian in ("Accedi", "Registrati", "Hai dimenticato la password?", "Non hai un conto?"):
        assert italian not in html
    assert "Play responsibly." in html and "Gioca responsabilmente." not in html


def test_home_page_is_in_english(client):
    switch_to_english(client)
    html = page(client, "home")
    for english in ("Traditional Italian card games, played live.", "Open your game account", "The games"):
        assert english in html
    assert "Already have an account? Log in" in html
    italian_texts = (
        "I giochi di carte della tradizione italiana",
        "Apri il tuo conto di gioco",
        "Hai già un conto?",
    )
    for italian in italian_texts:
        assert italian not in html
    # Game names are terms of art and stay Italian.
    assert "Poker all'italiana, Telesina, Scopa, Briscola, Burraco, Scala 40" in html


def test_logged_in_menu_is_in_english(client):
    client.force_login(UserFactory())
    switch_to_english(client)
    html = page(client, "home")
    for english in ("Account", "My profile", "Log out"):
        assert english in html
    for italian in ("Il mio profilo", ">Conto<", ">Esci<"):
        assert italian not in html


def test_training_lobby_is_in_english(client):
    from tests.lobby.factories import scopa_table
    from wallet import actions as wallet_actions

    user = UserFactory()
    wallet_actions.play_money_welcome(user=user)
    scopa_table(name="Scopa Gettoni", realm="play")
    client.force_login(user)
    switch_to_english(client)
    html = page(client, "lobby:training")
    english = (
        "Tables and tournaments just like the money ones, but played with gettoni",
        "Your gettoni",
        "Training tournaments",
        "No training tournament open right now.",
        "Training tables",
        "Scopa Gettoni",
    )
    for text in english:
        assert text in html, text
    italian = ("Tavoli e tornei uguali", "I tuoi gettoni", "Tornei di allenamento", "Tavoli di allenamento")
    for text in italian:
        assert text not in html, text


def po_entries(path):
    """Return {msgid: (msgstr, fuzzy)} for the live entries of a .po file.

    A plural entry's msgstr is its forms joined by "\x00" after the plural msgid (all must be there).
    """
    entries, current, field, fuzzy = {}, {}, None, False
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if line.startswith("#,"):
            fuzzy = "fuzzy" in line
        elif line.startswith(("msgid ", "msgstr ", "msgid_plural ", "msgstr[")):
            field, _, quoted = line.partition(" ")
            current[field] = ast.literal_eval(quoted)
        elif line.startswith('"') and field:
            current[field] += ast.literal_eval(line)
        elif not line.strip() and current:
            if "msgid_plural" in current:
                forms = [current.get("msgstr[0]", ""), current.get("msgstr[1]", "")]
                current["msgstr"] = "\x00".join([current["msgid_plural"], *forms]) if all(forms) else ""
            entries[current["msgid"]] = (current.get("msgstr", ""), fuzzy)
            current, field, fuzzy = {}, None, False
    return entries


def test_catalog_is_complete_and_compiled():
    entries = po_entries(LC_MESSAGES / "django.po")
    header = entries.pop("")
    assert not header[1], "the header is still fuzzy"
    assert len(entries) > 300
    with (LC_MESSAGES / "django.mo").open("rb") as fp:
        compiled = gettext.GNUTranslations(fp)
    for msgid, (msgstr, fuzzy) in entries.items():
        assert msgstr and not fuzzy, f"untranslated or fuzzy: {msgid!r}"
        if "\x00" in msgstr:  # plural: every form has the placeholders, the .mo has both forms
            plural, *forms = msgstr.split("\x00")
            for n, form in zip((1, 2), forms, strict=True):
                source = msgid if n == 1 else plural  # "un torneo" / "%(n)s tornei": each its own
                assert sorted(PLACEHOLDER.findall(form)) == sorted(PLACEHOLDER.findall(source)), msgid
                assert compiled.ngettext(msgid, plural, n) == form, f"django.mo is stale for {msgid!r}"
            continue
        assert sorted(PLACEHOLDER.findall(msgstr)) == sorted(PLACEHOLDER.findall(msgid)), msgid
        # The committed .mo must be compiled from this .po (a fresh machine has no msgfmt).
        assert compiled.gettext(msgid) == msgstr, f"django.mo is stale for {msgid!r}"
