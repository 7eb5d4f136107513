"""Held lines released or rejected from the queue, and the staff's HELP desk: who may, what changes."""

import pytest
from django.urls import reverse

from moderation import actions, selectors
from moderation.errors import ModerationError
from moderation.models import ChatLine, Notice, Report
from piattaforma import roles
from piattaforma.models import AuditLog
from tests.piattaforma.factories import UserFactory, sign_in

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
    sign_in(client, people["mod"])
    page = client.get(reverse("moderation:queue"))
    assert "facciamo a meta della vincita" in page.content.decode()
    url = reverse("moderation:line_review", args=[line.pk])
    assert client.post(url, {"esito": "boh"}).status_code == 302
    line.refresh_from_db()
    assert line.outcome == "held"
    client.post(url, {"esito": "mostra"})
    line.refresh_from_db()
    assert line.outcome == "shown"
    sign_in(client, people["player"])
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
    sign_in(client, people["mod"])
    assert client.get(reverse("moderation:case", args=[report.pk])).status_code == 404
    actions.report_claim(report_id=report.pk, moderator=people["staff"])
    # the same player then insults someone in the lobby: the case is the moderators' too
    held(player)
    assert [c["id"] for c in selectors.queue(user=people["mod"])] == [report.pk]
    assert client.get(reverse("moderation:case", args=[report.pk])).status_code == 200


@pytest.mark.parametrize("who,status", [(None, 302), ("player", 403), ("mod", 403), ("staff", 200)])
def test_the_help_desk_is_for_staff_only(client, people, who, status):
    if who:
        sign_in(client, people[who])
    for name in ("moderation:help_desk", "moderation:help_threads_api"):
        assert client.get(reverse(name)).status_code == status, name


def test_the_help_desk_lists_conversations_waiting_for_an_answer_first(client, people):
    actions.help_thread_touch(player_id=people["player"].pk, from_staff=True, text="risolto")
    actions.help_thread_touch(player_id=people["other"].pk, from_staff=False, text="aiuto")
    sign_in(client, people["staff"])
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
    from tests.tournaments.factories import make_tournament

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


# --- closing a HELP conversation -------------------------------------------------------------------


def _help_line(user, room_player, text):
    from lobby.chat import room_post
    from moderation import rooms

    return room_post(user=user, room=rooms.parse(f"help:{room_player.pk}"), text=text)


def test_the_staff_closes_a_help_conversation_it_leaves_the_desk_kept_and_the_player_sees_it(
    people, django_capture_on_commit_callbacks
):
    from lobby.chat import room_history
    from moderation import rooms
    from moderation.models import HelpThread
    from piattaforma import hooks

    player, staff = people["player"], people["staff"]
    _help_line(player, player, "non mi hanno accreditato la vincita")
    _help_line(staff, player, "controllato: accreditata ora")
    _help_line(people["other"], people["other"], "una domanda")
    pushed = []
    hooks.on_chat_push(lambda address, payload: pushed.append((address, payload)))
    try:
        with django_capture_on_commit_callbacks(execute=True):
            actions.help_thread_close(actor=staff, player_id=player.pk)
    finally:
        hooks._chat_pushers.pop()
    assert [t["nickname"] for t in selectors.help_threads()] == ["altro"]  # off the desk
    thread = HelpThread.objects.get(player=player)  # kept for the record, with its lines
    assert thread.closed_by == staff and thread.closed_at is not None and not thread.waiting
    assert ChatLine.objects.filter(channel=f"help:{player.pk}").count() == 2
    log = AuditLog.objects.get(action="moderation.help_close")
    assert log.actor == staff and log.data == {"player": "giocatore", "by": "staff"}
    notice = Notice.objects.get(user=player)
    assert notice.code == "help_closed" and "chiuso" in notice.text
    closed = [p for a, p in pushed if a == f"help:{player.pk}"]
    assert [p["type"] for p in closed] == ["help.closed"] and closed[0]["message"] == notice.text
    history = room_history(room=rooms.parse(f"help:{player.pk}"))  # his panel, on (re)connect
    assert history["closed"] == notice.text and len(history["lines"]) == 2
    with pytest.raises(ModerationError) as info:  # once
        actions.help_thread_close(actor=staff, player_id=player.pk)
    assert info.value.code == "help_already_closed"
    # he writes again: the conversation is open and waiting on the desk once more
    _help_line(player, player, "grazie, un'altra domanda")
    thread.refresh_from_db()
    assert thread.closed_at is None and thread.waiting
    assert [t["nickname"] for t in selectors.help_threads()] == ["giocatore", "altro"]
    assert room_history(room=rooms.parse(f"help:{player.pk}"))["closed"] is None


def test_a_player_closes_his_own_help_but_no_one_elses_and_a_moderator_none(people):
    from moderation.models import HelpThread

    player, other = people["player"], people["other"]
    _help_line(player, player, "una domanda")
    _help_line(other, other, "un'altra domanda")
    for who, whose in (("other", player), ("mod", player), ("player", other)):
        with pytest.raises(ModerationError) as info:
            actions.help_thread_close(actor=people[who], player_id=whose.pk)
        assert info.value.code == "not_allowed"
    assert not HelpThread.objects.filter(closed_at__isnull=False).exists()  # nothing changed
    assert not AuditLog.objects.filter(action="moderation.help_close").exists()
    for bad in (0, -1, "1", None):
        with pytest.raises(ModerationError) as info:
            actions.help_thread_close(actor=people["staff"], player_id=bad)
        assert info.value.code == "no_help_thread"
    with pytest.raises(ModerationError) as info:  # the staff, someone who never wrote to HELP
        actions.help_thread_close(actor=people["staff"], player_id=people["mod"].pk)
    assert info.value.code == "no_help_thread"
    actions.help_thread_close(actor=player, player_id=player.pk)
    thread = HelpThread.objects.get(player=player)
    assert thread.closed_by == player
    assert not Notice.objects.filter(user=player).exists()  # he closed it himself: no notice
    assert AuditLog.objects.get(action="moderation.help_close").data["by"] == "player"
    assert selectors.help_closed_text(player_id=player.pk).startswith("Hai chiuso")


@pytest.mark.parametrize(
    "who,closes", [(None, False), ("player", False), ("mod", False), ("staff", True), ("other", True)]
)
def test_the_close_buttons_both_ways(client, people, who, closes):
    """The desk's button closes "altro"'s conversation: the staff may, and he himself; no one else."""
    from moderation.models import HelpThread

    target = people["other"]
    _help_line(target, target, "una domanda")
    if who:
        sign_in(client, people[who])
    url = reverse("moderation:help_close", args=[target.pk])
    assert client.get(url).status_code == (302 if who is None else 405)  # POST only
    response = client.post(url)
    assert (HelpThread.objects.get(player=target).closed_at is not None) == closes
    if who is None:
        assert response.status_code == 302 and "next=" in response["Location"]  # the login page
        own = client.post(reverse("moderation:help_close_own"))
        assert own.status_code == 302 and "next=" in own["Location"]
        return
    if not closes:
        assert response.status_code == 403
    else:
        landing = "moderation:help_desk" if who == "staff" else "lobby:lobby"
        assert (response.status_code, response["Location"]) == (302, reverse(landing))
    # his own conversation, from the lobby's button
    _help_line(people[who], people[who], "anche io")
    response = client.post(reverse("moderation:help_close_own"))
    assert (response.status_code, response["Location"]) == (302, reverse("lobby:lobby"))
    assert HelpThread.objects.get(player=people[who]).closed_by == people[who]


def test_the_lobby_and_the_desk_show_the_close_button(client, people):
    player = people["player"]
    _help_line(player, player, "una domanda")
    sign_in(client, player)
    assert 'data-testid="help-close"' in client.get(reverse("lobby:lobby")).content.decode()
    sign_in(client, people["staff"])
    desk = client.get(reverse("moderation:help_desk"), {"giocatore": player.pk}).content.decode()
    assert reverse("moderation:help_close", args=[player.pk]) in desk
