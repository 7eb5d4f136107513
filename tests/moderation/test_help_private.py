"""HELP is the player's and the staff's: a moderator finds no HELP line in any list, search or case
page (``selectors.lines_visible``), whatever channel a report names."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from moderation import actions
from moderation.models import ChatLine, Report, ReportEntry
from piattaforma import roles
from tests.moderation.factories import say
from tests.piattaforma.factories import UserFactory, sign_in

pytestmark = pytest.mark.django_db

SECRET = "ho un problema col conto, aiutatemi"


@pytest.fixture
def people():
    player = UserFactory(nickname="giocatore")
    return {
        "player": player,
        "reporter": UserFactory(nickname="segnalatore"),
        "mod": UserFactory(nickname="mod1", role=roles.MODERATORS),
        "staff": UserFactory(nickname="capo", role=roles.STAFF),
        "help_line": say(player, SECRET, channel=f"help:{player.pk}"),
        "table_line": say(player, "buona partita a tutti"),
    }


@pytest.mark.parametrize("query", ["help", "aiutatemi", "giocatore", ""])
def test_the_back_office_chat_list_and_its_search_hide_help_from_moderators(client, people, query):
    url = "/backoffice/moderation/chatline/"
    sign_in(client, people["mod"])
    page = client.get(url, {"q": query} if query else {})
    assert page.status_code == 200 and SECRET not in page.content.decode()
    detail = client.get(f"{url}{people['help_line'].pk}/change/", follow=True)
    assert SECRET not in detail.content.decode()
    if query in ("", "giocatore"):
        assert "buona partita a tutti" in page.content.decode()  # the rest he sees
    sign_in(client, people["staff"])
    page = client.get(url, {"q": query} if query else {})
    assert SECRET in page.content.decode()  # staff answer HELP: they find it
    assert SECRET in client.get(f"{url}{people['help_line'].pk}/change/").content.decode()


def test_a_report_naming_no_chat_does_not_bring_help_lines_into_the_case(client, people):
    sign_in(client, people["reporter"])
    response = client.post(
        reverse("moderation:report_api"),
        json.dumps({"nickname": "giocatore", "channel": "", "reason": "insult"}),
        content_type="application/json",
    )
    assert response.status_code == 201
    entry = ReportEntry.objects.get()
    assert SECRET not in json.dumps(entry.context) and "buona partita a tutti" in json.dumps(entry.context)
    sign_in(client, people["mod"])
    page = client.get(reverse("moderation:case", args=[entry.report_id]))
    assert page.status_code == 200 and SECRET not in page.content.decode()


def test_a_context_captured_with_help_lines_is_shown_to_moderators_without_them(client, people):
    """A case whose context holds HELP lines (captured before they were left out) still hides them."""
    entry, _ = actions.report_file(reporter=people["reporter"], nickname="giocatore", reason="insult")
    line = people["help_line"]
    leaked = {"id": line.pk, "nickname": "giocatore", "text": SECRET, "written": "", "outcome": "shown"}
    ReportEntry.objects.filter(pk=entry.pk).update(
        context=[*entry.context, {**leaked, "at": line.created_at.isoformat(), "reported": False}]
    )
    sign_in(client, people["mod"])
    page = client.get(reverse("moderation:case", args=[entry.report_id])).content.decode()
    assert SECRET not in page and "buona partita a tutti" in page
    sign_in(client, people["staff"])
    assert SECRET in client.get(reverse("moderation:case", args=[entry.report_id])).content.decode()


def test_a_case_made_only_of_help_reports_is_not_in_the_moderators_back_office_list(client, people):
    entry, _ = actions.report_file(reporter=people["staff"], line_id=people["help_line"].pk, reason="insult")
    assert entry.channel.startswith("help:")
    sign_in(client, people["mod"])
    page = client.get("/backoffice/moderation/report/").content.decode()
    assert reverse("moderation:case", args=[entry.report_id]) not in page and "giocatore" not in page
    sign_in(client, people["staff"])
    assert "giocatore" in client.get("/backoffice/moderation/report/").content.decode()
    assert Report.objects.count() == 1 and ChatLine.objects.count() == 2
