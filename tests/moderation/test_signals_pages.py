"""The staff's signals dashboard and drill-down (staff only), suspension pending review, the public card."""

import pytest
from django.urls import reverse

from moderation import conduct, selectors
from moderation.models import PairSignal
from piattaforma import roles
from piattaforma.models import AuditLog, User
from tests.moderation.test_dumping import settle
from tests.piattaforma.factories import UserFactory, sign_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def dumping_pair():
    dumper, receiver = UserFactory(nickname="dumper"), UserFactory(nickname="receiver")
    for i in range(6):
        settle([(dumper, -4000, "abandon" if i % 2 else "normal"), (receiver, 4000, "normal")])
    return dumper, receiver


def urls(dumper, receiver):
    a, b = sorted((dumper.pk, receiver.pk))
    return [
        reverse("moderation:signals"),
        reverse("moderation:signals_pair", args=[a, b]),
        reverse("moderation:signals_player", args=[dumper.pk]),
    ]


def test_staff_see_the_dashboard_ranked_with_drill_down_to_the_replay(client, dumping_pair):
    dumper, receiver = dumping_pair
    sign_in(client, UserFactory(role=roles.STAFF))
    page = client.get(reverse("moderation:signals"))
    assert page.status_code == 200
    html = page.content.decode()
    assert "dumper</strong> → <strong>receiver" in html and "da verificare" in html
    for url in urls(dumper, receiver)[1:]:
        response = client.get(url)
        assert response.status_code == 200
        hand = selectors.signal_hands(user_id=dumper.pk)[0]["hand_id"]
        assert reverse("backoffice:lobby_hand_replay", args=[hand]) in response.content.decode()


@pytest.mark.parametrize("role", [roles.MODERATORS, roles.PLAYERS])
def test_moderators_and_players_get_403(client, dumping_pair, role):
    sign_in(client, UserFactory(role=role))
    for url in urls(*dumping_pair):
        assert client.get(url).status_code == 403
    dumper = dumping_pair[0]
    response = client.post(
        reverse("moderation:signals_suspend", args=[dumper.pk]), {"reason": "dumping evidente"}
    )
    assert response.status_code == 403
    assert User.objects.get(pk=dumper.pk).status == User.Status.ACTIVE


def test_anonymous_visitors_are_sent_to_log_in(client, dumping_pair):
    for url in urls(*dumping_pair):
        response = client.get(url)
        assert response.status_code == 302 and "/account/accedi/" in response["Location"]


def test_moderators_have_no_back_office_permission_on_the_signals():
    moderator = UserFactory(role=roles.MODERATORS)
    assert not moderator.has_perm("moderation.view_pairsignal")
    assert not moderator.has_perm("moderation.view_playersignal")
    assert moderator.has_perm("moderation.view_report")  # the queue's own models stay visible


def test_wrong_order_or_unknown_pair_is_404(client, dumping_pair):
    sign_in(client, UserFactory(role=roles.STAFF))
    a, b = sorted(u.pk for u in dumping_pair)
    assert client.get(reverse("moderation:signals_pair", args=[b, a])).status_code == 404
    assert client.get(reverse("moderation:signals_pair", args=[a, b + 1000])).status_code == 404
    assert client.get(reverse("moderation:signals_player", args=[10**9])).status_code == 404


def test_staff_suspend_an_account_pending_review_audited(client, dumping_pair):
    dumper = dumping_pair[0]
    staff = UserFactory(role=roles.STAFF)
    sign_in(client, staff)
    url = reverse("moderation:signals_suspend", args=[dumper.pk])
    client.post(url, {"reason": "no"})  # too short: refused, nothing changes
    assert User.objects.get(pk=dumper.pk).status == User.Status.ACTIVE
    assert not AuditLog.objects.filter(action="moderation.suspend_pending_review").exists()
    response = client.post(url, {"reason": "perde sempre verso receiver"})
    assert response.status_code == 302
    assert User.objects.get(pk=dumper.pk).status == User.Status.SUSPENDED
    log = AuditLog.objects.get(action="moderation.suspend_pending_review")
    assert log.actor_id == staff.pk and log.reason == "perde sempre verso receiver"
    assert log.data["top_pair"][2] == PairSignal.objects.get().score
    assert AuditLog.objects.filter(action="user.set_status", target_id=str(dumper.pk)).exists()
    client.post(url, {"reason": "di nuovo sospeso"})  # already suspended: refused
    assert AuditLog.objects.filter(action="moderation.suspend_pending_review").count() == 1


def test_staff_cannot_suspend_another_staff_member(client):
    other = UserFactory(role=roles.STAFF)
    sign_in(client, UserFactory(role=roles.STAFF))
    client.post(reverse("moderation:signals_suspend", args=[other.pk]), {"reason": "prova di abuso"})
    assert User.objects.get(pk=other.pk).status == User.Status.ACTIVE


def test_public_card_shows_the_effective_warnings_to_players(client):
    player = UserFactory(nickname="ritardatario")
    for t in range(1, 4):
        conduct.conduct_record(user_id=player.pk, tournament_id=t, kind="timeout", training=True, turn=1)
    for _ in range(30):
        conduct.turn_completed_record(user_id=player.pk, tournament_id=9)
    url = reverse("moderation:player_card", args=["Ritardatario"])
    assert client.get(url).status_code == 302  # visitors log in first
    sign_in(client, UserFactory())
    html = client.get(url).content.decode()
    assert 'data-testid="effective-warnings">2<' in html  # 3 received − 1 bonus
    assert "dumper" not in html and "@" not in html.split("<main", 1)[1]  # no e-mail on the card
    assert client.get(reverse("moderation:player_card", args=["nessuno"])).status_code == 404


def test_back_office_shows_conduct_to_moderators_but_the_signals_to_staff_only(client, dumping_pair):
    conduct.conduct_record(user_id=dumping_pair[0].pk, tournament_id=1, kind="timeout", training=True, turn=1)
    pairs, events = "/backoffice/moderation/pairsignal/", "/backoffice/moderation/conductevent/"
    sign_in(client, UserFactory(role=roles.STAFF))
    assert client.get(pairs).status_code == 200 and client.get(events).status_code == 200
    a, b = sorted(u.pk for u in dumping_pair)
    assert reverse("moderation:signals_pair", args=[a, b]) in client.get(pairs).content.decode()
    sign_in(client, UserFactory(role=roles.MODERATORS))
    assert client.get(pairs).status_code == 403
    assert client.get(events).status_code == 200
    assert client.post(events + "add/", {}).status_code == 403  # read-only: the hooks write them
