"""Held lines released or rejected from the queue, and the staff's HELP desk: who may, what changes."""

import pytest
from django.urls import reverse

from moderation import actions, selectors
from moderation.errors import ModerationError
from moderation.models import ChatLine, Notice, Report
from piattaforma import roles
from piattaforma.models import AuditLog
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def held(author, channel="lobby"):
    with pytest.raises(ModerationError) as info:
        actions.chat_screen(author=author, channel=channel, text="facciamo a meta della vincita")
    assert info.value.code == "chat_held"
    return ChatLine.objects.get(author=author, outcome="held", channel=channel)


@pytest.fixture
def people():
    return {
        "player": UserFactory(nickname="giocatore"),
        "other": UserFactory(nickname="altro"),
        "mod": UserFactory(nickname="mod1", role=roles.MODERATORS),
        "staff": UserFactory(nickname="capo", role=roles.STAFF),
    }


def test_a_moderator_releases_a_held_line_audited_and_the_author_is_told(
    people, django_capture_on_commit_callbacks
):
    line = held(people["player"])
    pushed = []
    from piattaforma import hooks

    hooks.on_chat_push(lambda address, payload: pushed.append((address, payload)))
    try:
        with django_capture_on_commit_callbacks(execute=True):
            actions.chat_line_review(line_id=line.pk, moderator=people["mod"], release=True)
    finally:
        hooks._chat_pushers.pop()
    line.refresh_from_db()
    assert (line.outcome, line.shown_text, line.reviewed_by) == ("shown", line.text, people["mod"])
    log = AuditLog.objects.get(action="moderation.release")
    assert log.actor == people["mod"] and log.data["player"] == "giocatore"
    assert Notice.objects.get(user=people["player"]).code == "line_released"
    assert ("lobby", selectors.chat_payload(line)) in pushed  # shown in its chat now
    assert [x["text"] for x in selectors.chat_history(channels=["lobby"])] == [line.text]
    with pytest.raises(ModerationError) as info:  # once only
        actions.chat_line_review(line_id=line.pk, moderator=people["mod"], release=False)
    assert info.value.code == "line_not_held"


def test_a_rejected_line_stays_unseen(people):
    line = held(people["player"])
    actions.chat_line_review(line_id=line.pk, moderator=people["mod"], release=False)
    line.refresh_from_db()
    assert (line.outcome, line.shown_text) == ("rejected", "")
    assert AuditLog.objects.filter(action="moderation.reject").count() == 1
    assert selectors.chat_history(channels=["lobby"]) == []


def test_only_moderators_and_staff_review_and_only_staff_a_help_line(people):
    line, help_line = held(people["player"]), held(people["other"], channel=f"help:{people['other'].pk}")
    for who in ("player", "other"):
        with pytest.raises(ModerationError) as info:
            actions.chat_line_review(line_id=line.pk, moderator=people[who], release=True)
        assert info.value.code == "not_moderator"
    with pytest.raises(ModerationError) as info:
        actions.chat_line_review(line_id=help_line.pk, moderator=people["mod"], release=True)
    assert info.value.code == "line_not_found"
    assert ChatLine.objects.filter(outcome="held").count() == 2  # nothing changed
    assert not AuditLog.objects.filter(action__in=("moderation.release", "moderation.reject")).exists()
    assert [x["id"] for x in selectors.held_lines(user=people["mod"])] == [line.pk]
    assert {x["id"] for x in selectors.held_lines(user=people["staff"])} == {line.pk, help_line.pk}
    actions.chat_line_review(line_id=help_line.pk, moderator=people["staff"], release=False)


def test_the_queue_page_lists_held_lines_and_reviews_them(client, people):
    line = held(people["player"])
    client.force_login(people["mod"])
    page = client.get(reverse("moderation:queue"))
    assert "facciamo a meta della vincita" in page.content.decode()
    url = reverse("moderation:line_review", args=[line.pk])
    assert client.post(url, {"esito": "boh"}).status_code == 302
    line.refresh_from_db()
    assert line.outcome == "held"
    client.post(url, {"esito": "mostra"})
    line.refresh_from_db()
    assert line.outcome == "shown"
    client.force_login(people["player"])
    refused = client.post(reverse("moderation:line_review", args=[line.pk]), {"esito": "rifiuta"})
    assert refused.status_code == 403


def test_a_moderator_sees_neither_help_lines_nor_help_reports_of_a_case(people):
    player = people["player"]
    held(player, channel=f"help:{player.pk}")  # opens a case with the HELP line
    report = Report.objects.get(target=player)
    mod_view = selectors.case_detail(report=report, staff=False)
    staff_view = selectors.case_detail(report=report, staff=True)
    assert (mod_view["entries"], mod_view["lines"], mod_view["help_hidden"]) == ([], [], 1)
    assert len(staff_view["entries"]) == 1 and len(staff_view["lines"]) == 1


def test_a_case_made_only_of_help_reports_is_the_staffs(client, people):
    player = people["player"]
    held(player, channel=f"help:{player.pk}")
    report = Report.objects.get(target=player)
    assert selectors.queue(user=people["mod"]) == []
    assert [c["id"] for c in selectors.queue(user=people["staff"])] == [report.pk]
    with pytest.raises(ModerationError) as info:
        actions.report_claim(report_id=report.pk, moderator=people["mod"])
    assert info.value.code == "report_not_open"
    client.force_login(people["mod"])
    assert client.get(reverse("moderation:case", args=[report.pk])).status_code == 404
    actions.report_claim(report_id=report.pk, moderator=people["staff"])
    # the same player then insults someone in the lobby: the case is the moderators' too
    held(player)
    assert [c["id"] for c in selectors.queue(user=people["mod"])] == [report.pk]
    assert client.get(reverse("moderation:case", args=[report.pk])).status_code == 200


@pytest.mark.parametrize("who,status", [(None, 302), ("player", 403), ("mod", 403), ("staff", 200)])
def test_the_help_desk_is_for_staff_only(client, people, who, status):
    if who:
        client.force_login(people[who])
    for name in ("moderation:help_desk", "moderation:help_threads_api"):
        assert client.get(reverse(name)).status_code == status, name


def test_the_help_desk_lists_conversations_waiting_for_an_answer_first(client, people):
    actions.help_thread_touch(player_id=people["player"].pk, from_staff=True, text="risolto")
    actions.help_thread_touch(player_id=people["other"].pk, from_staff=False, text="aiuto")
    client.force_login(people["staff"])
    threads = client.get(reverse("moderation:help_threads_api")).json()["threads"]
    assert [(t["nickname"], t["waiting"]) for t in threads] == [("altro", True), ("giocatore", False)]
    page = client.get(reverse("moderation:help_desk"), {"giocatore": people["other"].pk}).content.decode()
    assert f'data-player="{people["other"].pk}"' in page


# --- who may write where: every role in every room ------------------------------------------------


@pytest.fixture
def rooms_and_people(people):
    from datetime import timedelta

    from django.utils import timezone

    from moderation.models import Sanction
    from tests.tournaments.conftest import make_tournament

    muted = UserFactory(nickname="zittito")
    Sanction.objects.create(
        user=muted, kind="mute", ends_at=timezone.now() + timedelta(minutes=5), reason="insulti"
    )
    tournament = make_tournament(people["staff"])
    return {**people, "muted": muted}, tournament


@pytest.mark.parametrize(
    "who,room,expected",
    [
        ("player", "lobby", "ok"),
        ("mod", "lobby", "ok"),
        ("staff", "lobby", "ok"),
        ("muted", "lobby", "chat_muted"),
        ("player", "torneo", "ok"),
        ("mod", "torneo", "ok"),
        ("staff", "torneo", "ok"),
        ("muted", "torneo", "chat_muted"),
        ("player", "own help", "ok"),
        ("muted", "own help", "ok"),  # a silenced player can still reach the staff
        ("mod", "player's help", "chat_forbidden"),
        ("other", "player's help", "chat_forbidden"),
        ("staff", "player's help", "ok"),
    ],
)
def test_who_may_write_in_each_room(rooms_and_people, who, room, expected):
    from lobby.chat import room_post
    from moderation import rooms

    everyone, tournament = rooms_and_people
    user = everyone[who]
    name = {
        "lobby": "lobby",
        "torneo": f"torneo:{tournament.pk}",
        "own help": f"help:{user.pk}",
        "player's help": f"help:{everyone['player'].pk}",
    }[room]
    try:
        room_post(user=user, room=rooms.parse(name), text="buonasera, una domanda")
        outcome = "ok"
    except ModerationError as exc:
        outcome = exc.code
    assert outcome == expected
    assert ChatLine.objects.filter(channel=name).exists() == (expected == "ok")


def test_room_names_that_are_not_rooms():
    from moderation import rooms

    for name in (
        "",
        "lobby:1",
        "torneo",
        "torneo:0",
        "torneo:-1",
        "help:abc",
        "table:3",
        "LOBBY",
        "torneo:1 ",
    ):
        assert rooms.parse(name) is None, name
