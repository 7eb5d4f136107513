"""Pages staff and moderators meet: the site's 403 page, and a 403 logged as one line."""

import logging
import pathlib
import re
import sys

import django
import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import translation

from piattaforma import roles
from piattaforma.logfilters import ForbiddenWithoutTraceback
from tests.piattaforma.factories import UserFactory, sign_in

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("role", [roles.MODERATORS, roles.PLAYERS])
def test_a_refused_page_is_the_site_s_own_italian_403(client, role):
    sign_in(client, UserFactory(role=role))
    response = client.get(reverse("moderation:signals"))
    assert response.status_code == 403
    html = response.content.decode()
    assert 'data-testid="forbidden"' in html and "Accesso non consentito" in html
    assert 'class="site-header' in html  # the site's layout, not Django's bare "403 Forbidden"
    assert "I segnali di collusione sono riservati allo staff." in html  # why, not only "no"
    # and where this account's own work is: a moderator's queue, a player's home page
    home = reverse("moderation:queue") if role == roles.MODERATORS else reverse("home")
    assert re.search(rf'href="{re.escape(home)}" data-testid="forbidden-home"', html)


def test_staff_open_the_signals_page_the_others_are_refused(client):
    sign_in(client, UserFactory(role=roles.STAFF))
    assert client.get(reverse("moderation:signals")).status_code == 200


def _record(exc: BaseException) -> logging.LogRecord:
    try:
        raise exc
    except BaseException:
        return logging.LogRecord(
            "django.request", logging.WARNING, __file__, 1, "Forbidden: %s", ("/x/",), sys.exc_info()
        )


def test_a_403_is_logged_as_one_warning_line_without_traceback():
    record = _record(PermissionDenied())
    assert ForbiddenWithoutTraceback().filter(record) is True
    assert record.exc_info is None
    line = logging.Formatter().format(record)
    assert line == "Forbidden: /x/" and "Traceback" not in line


def test_other_exceptions_keep_their_traceback():
    record = _record(ValueError("boom"))
    assert ForbiddenWithoutTraceback().filter(record) is True
    assert "Traceback" in logging.Formatter().format(record)


def test_the_console_handler_of_the_settings_uses_the_filter():
    from config.settings import base

    assert "forbidden_one_line" in base.LOGGING["handlers"]["console"]["filters"]


def test_a_403_reaches_the_server_log_once_without_traceback(client, settings):
    """With the site's logging as ``manage.py serve`` runs it (DEBUG on, so Django's own console
    handler of the "django" logger is live), a refused page is one warning line and no traceback."""
    import io
    import logging.config

    from django.utils.log import DEFAULT_LOGGING, configure_logging

    from config.settings import base

    settings.DEBUG = True
    sign_in(client, UserFactory(role=roles.PLAYERS))
    out = io.StringIO()
    try:
        logging.config.dictConfig(DEFAULT_LOGGING)  # as django.setup() does, then the site's LOGGING
        logging.config.dictConfig(base.LOGGING)
        for name in ("", "django", "django.request"):
            for handler in logging.getLogger(name).handlers:
                if type(handler) is logging.StreamHandler:
                    handler.setStream(out)
        assert client.get(reverse("moderation:signals")).status_code == 403
    finally:
        configure_logging(settings.LOGGING_CONFIG, settings.LOGGING)
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    assert lines == ["Forbidden (Permission denied): /moderazione/segnali/"], lines


ADMIN_TEMPLATES = pathlib.Path(django.__file__).parent / "contrib" / "admin" / "templates"
TRANSLATE_TAG = re.compile(r"""{% translate (["'])(.+?)\1""")
BLOCK_TAG = re.compile(r"{% blocktranslate( [^%]*)?%}(.*?){% (?:endblocktranslate|plural) %}", re.S)


def _block_msgid(options: str, body: str) -> str:
    """The msgid of a {% blocktranslate %} body: "{{ name }}" is "%(name)s"; ``trimmed`` joins lines."""
    msgid = re.sub(r"{{ *(\w+)[^}]*}}", r"%(\1)s", body)
    return " ".join(msgid.split()) if "trimmed" in options else msgid


def test_every_string_of_the_admin_templates_is_italian():
    """Django's Italian catalog lacks some admin strings ("Run", the actions' button): locale/it adds them."""
    found = {m[1] for t in ADMIN_TEMPLATES.rglob("*.html") for m in TRANSLATE_TAG.findall(t.read_text())}
    assert "Run" in found and len(found) > 50
    # the blocktranslate ones too (the visually hidden "Search %(name)s", "Pagination %(name)s"),
    # but the plural ones: ngettext finds those under their singular and plural together
    blocks = {
        _block_msgid(options, body)
        for t in ADMIN_TEMPLATES.rglob("*.html")
        for options, body in BLOCK_TAG.findall(t.read_text())
        if "count" not in options
    }
    assert "Search %(name)s" in blocks and "Pagination %(name)s" in blocks
    found |= blocks
    with translation.override("it"):
        missing = sorted(s for s in found if translation.gettext(s) == s)
    assert missing == []


def test_the_actions_button_of_a_list_is_italian(client):
    from wallet import actions as wallet_actions

    player = UserFactory()
    wallet_actions.deposit_create(user=player, amount=5_000, idempotency_key="d")
    wallet_actions.withdrawal_request(user=player, amount=1_000, idempotency_key="w")
    sign_in(client, UserFactory(role=roles.STAFF))
    html = client.get(reverse("backoffice:wallet_withdrawal_changelist")).content.decode()
    assert ">Esegui</button>" in html and ">Run<" not in html


def test_the_search_and_pagination_of_a_list_are_italian(client):
    sign_in(client, UserFactory(role=roles.STAFF))
    html = client.get(reverse("backoffice:piattaforma_user_changelist")).content.decode()
    assert 'id="searchbar"' in html
    assert ">Search " not in html and ">Pagination " not in html and 'alt="Search"' not in html
    assert "Cerca tra " in html and 'alt="Cerca"' in html


def test_every_field_the_back_office_shows_has_an_italian_label():
    """A field without a verbose_name is shown by its English name ("USER", "DECIDED BY")."""
    from django.core.exceptions import FieldDoesNotExist

    from piattaforma.backoffice import site

    english = []
    for model, model_admin in site._registry.items():
        shown = {*model_admin.list_display, *model_admin.readonly_fields}
        shown |= {x for x in model_admin.list_filter if isinstance(x, str)}
        for name in shown:
            if not isinstance(name, str) or "__" in name or name in ("id", "nickname", "codice_fiscale"):
                continue
            try:
                field = model._meta.get_field(name)
            except FieldDoesNotExist:
                continue
            if field.verbose_name == field.name.replace("_", " "):
                english.append(f"{model._meta.label}.{name}")
    assert english == []


def test_the_withdrawals_list_has_italian_headers(client):
    from wallet import actions as wallet_actions

    player = UserFactory()
    wallet_actions.deposit_create(user=player, amount=5_000, idempotency_key="d")
    wallet_actions.withdrawal_request(user=player, amount=1_000, idempotency_key="w")
    sign_in(client, UserFactory(role=roles.STAFF))
    html = client.get(reverse("backoffice:wallet_withdrawal_changelist")).content.decode()
    assert "Giocatore" in html and "Deciso da" in html
    assert ">User<" not in html and "Decided by" not in html


def test_the_italian_catalog_is_compiled_from_its_po():
    """locale/it is compiled by hand (msgfmt; no compilemessages at build time): the .mo must match."""
    import gettext

    from django.conf import settings

    from tests.piattaforma.test_english import po_entries

    folder = pathlib.Path(settings.BASE_DIR) / "locale" / "it" / "LC_MESSAGES"
    entries = po_entries(folder / "django.po")
    entries.pop("")
    with (folder / "django.mo").open("rb") as fp:
        compiled = gettext.GNUTranslations(fp)
    assert "Run" in entries
    text = (folder / "django.po").read_text()
    plurals = re.findall(
        r'^msgid "(.*)"\nmsgid_plural "(.*)"\nmsgstr\[0\] "(.*)"\nmsgstr\[1\] "(.*)"$', text, flags=re.M
    )
    for singular, plural, one, many in plurals:  # the entries' reader does not read plural forms
        entries.pop(singular, None)
        assert (compiled.ngettext(singular, plural, 1), compiled.ngettext(singular, plural, 2)) == (one, many)
    in_context = re.findall(r'^msgctxt "(.*)"\nmsgid "(.*)"\nmsgstr "(.*)"$', text, flags=re.M)
    for context, msgid, msgstr in in_context:  # nor contexts ("abbrev. month")
        entries.pop(msgid, None)
        assert compiled.pgettext(context, msgid) == msgstr, f"locale/it django.mo is stale for {msgid!r}"
    for msgid, (msgstr, _fuzzy) in entries.items():
        assert compiled.gettext(msgid) == msgstr, f"locale/it django.mo is stale for {msgid!r}"
    assert plurals, "the catalog's plural entries are checked too"


def test_the_hand_history_list_writes_its_dates_short(client):
    """Two "domenica 06 dicembre 2026 10:50" columns made the back office's Storico mani wider than
    a 1366 px laptop: a date and time reads "6 dic 2026 10:50", as on the site's pages."""
    from django.utils import timezone

    from lobby.models import Hand
    from tests.lobby.factories import PokerTableFactory

    table = PokerTableFactory()
    now = timezone.localtime()
    Hand.objects.create(table=table, number=1, game="poker5", started_at=now, ended_at=now)
    sign_in(client, UserFactory(role=roles.STAFF))
    html = client.get(reverse("backoffice:lobby_hand_changelist")).content.decode()
    short = ("gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic")[
        now.month - 1
    ]
    assert html.count(f"{now.day} {short} {now.year} {now:%H:%M}") == 2, html
    long = ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre")
    long += ("ottobre", "novembre", "dicembre")
    assert not any(f" {month} {now.year}" in html for month in long)
