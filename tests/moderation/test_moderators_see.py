"""What moderators see after deciding: the mute on the player's card, the table by its name."""

import pytest
from django.urls import reverse

from moderation import actions, rooms
from piattaforma import roles
from tests.lobby.factories import poker_table
from tests.moderation.factories import ReportFactory, say
from tests.piattaforma.factories import UserFactory, sign_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def muted():
    bully, victim = UserFactory(nickname="bullo"), UserFactory(nickname="vittima")
    report = ReportFactory(reporter=victim, line=say(bully, "sei un incapace")).report
    moderator = UserFactory(nickname="mod1", role=roles.MODERATORS)
    actions.report_claim(report_id=report.pk, moderator=moderator)
    actions.report_decide(
        report_id=report.pk, moderator=moderator, decision="mute", reason="insulti ripetuti", minutes=10
    )
    return bully


@pytest.mark.parametrize("role", [roles.MODERATORS, roles.STAFF])
def test_the_card_lists_the_mute_just_given_to_moderators_and_staff(client, muted, role):
    sign_in(client, UserFactory(role=role))
    html = client.get(reverse("moderation:player_card", args=["bullo"])).content.decode()
    assert 'data-testid="chat-sanctions"' in html
    listed = html.split('data-testid="chat-sanctions"')[1].split("</ul>")[0]
    assert "Silenziamento" in listed and "in corso" in listed and "insulti ripetuti" in listed


def test_players_see_the_card_without_the_chat_sanctions(client, muted):
    sign_in(client, UserFactory())
    html = client.get(reverse("moderation:player_card", args=["bullo"])).content.decode()
    assert "bullo" in html and "chat-sanctions" not in html and "insulti ripetuti" not in html


def test_a_line_said_at_a_table_is_placed_by_the_table_s_name():
    table = poker_table()
    table.name = "Roma Centro"
    table.save(update_fields=["name"])
    assert rooms.channel_label(f"table:{table.pk}") == "Tavolo «Roma Centro»"
    assert rooms.channel_label(f"spettatori:{table.pk}") == "Spettatori del tavolo «Roma Centro»"
    assert rooms.channel_label("table:999999") == "Tavolo 999999"  # gone: its number
    table.name = "Tavolo Bari"
    table.save(update_fields=["name"])
    assert rooms.channel_label(f"table:{table.pk}") == "Tavolo Bari"  # not "Tavolo «Tavolo Bari»"


def test_the_case_page_names_the_table(client):
    table = poker_table()
    table.name = "Roma Centro"
    table.save(update_fields=["name"])
    bully, victim = UserFactory(nickname="bullo"), UserFactory(nickname="vittima")
    line = say(bully, "sei un incapace", channel=f"table:{table.pk}")
    report = ReportFactory(reporter=victim, line=line).report
    sign_in(client, UserFactory(role=roles.MODERATORS))
    html = client.get(reverse("moderation:case", args=[report.pk])).content.decode()
    assert "Tavolo «Roma Centro»" in html and f"Tavolo {table.pk}<" not in html


def test_the_queue_api_lists_the_open_cases_for_moderators_and_staff_only(client):
    bully, victim = UserFactory(nickname="bullo"), UserFactory(nickname="vittima")
    report = ReportFactory(reporter=victim, line=say(bully, "sei un incapace")).report
    url = reverse("moderation:queue_api")
    for role in (roles.MODERATORS, roles.STAFF):
        sign_in(client, UserFactory(role=role))
        body = client.get(url).json()
        assert body["cases"] == [{"id": report.pk, "nickname": "bullo"}] and body["held"] == 0
    sign_in(client, UserFactory())
    assert client.get(url).status_code == 403
    client.logout()
    assert client.get(url).status_code == 302


def test_the_queue_page_carries_what_its_script_needs(client):
    sign_in(client, UserFactory(role=roles.MODERATORS))
    html = client.get(reverse("moderation:queue")).content.decode()
    assert f'data-queue-api="{reverse("moderation:queue_api")}"' in html
    assert 'data-role="queue-alert"' in html and "js/moderation-queue.js" in html


def test_the_pairs_list_of_the_back_office_shows_euro(client):
    from tests.moderation.test_dumping import settle

    dumper, receiver = UserFactory(nickname="dumper"), UserFactory(nickname="receiver")
    for _ in range(3):
        settle([(dumper, -4000, "normal"), (receiver, 4000, "normal")])  # folded in at once
    sign_in(client, UserFactory(role=roles.STAFF))
    html = client.get(reverse("backoffice:moderation_pairsignal_changelist")).content.decode()
    assert "€ 120,00" in html and ">12000<" not in html


def test_a_line_said_in_a_tournament_chat_is_placed_by_the_tournament_s_name():
    from tests.tournaments.factories import make_tournament

    tournament = make_tournament(UserFactory(role=roles.STAFF), name="Coppa d'inverno")
    assert rooms.channel_label(f"torneo:{tournament.pk}") == "Chat del torneo «Coppa d'inverno»"
    assert rooms.channel_label("torneo:999999") == "Chat del torneo 999999"
