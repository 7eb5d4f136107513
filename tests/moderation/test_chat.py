"""Table chat through moderation: what is shown, censored, held or refused, and what is kept."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.rng import SeededRng
from lobby import actions as lobby_actions
from lobby.errors import ChatRefused
from lobby.models import ChatMessage
from moderation import actions
from moderation.errors import ModerationError
from moderation.models import ChatLine, Report, Sanction, WatchedEntry
from piattaforma import roles
from piattaforma.models import AuditLog
from tests.lobby.factories import poker_table
from tests.lobby.helpers import play_hand_randomly, seat_players
from tests.piattaforma.factories import UserFactory, sign_in
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    """The chat lines broadcast to the table (after commit)."""
    out = []
    monkeypatch.setattr(
        "lobby.broadcast.chat_posted",
        lambda table_id, nick, text, at, line=None, channel="": out.append((nick, text, line)),
    )
    return out


def post(table, user, text, capture):
    with capture(execute=True):
        return lobby_actions.table_chat_post(table_id=table.pk, user=user, text=text)


def refused(table, user, text, capture):
    with pytest.raises(ModerationError) as info:
        post(table, user, text, capture)
    return info.value


def test_a_clean_line_is_shown_with_its_moderation_id(sent, django_capture_on_commit_callbacks):
    table, user = poker_table(), UserFactory()
    message = post(table, user, "buona partita a tutti", django_capture_on_commit_callbacks)
    line = ChatLine.objects.get()
    assert (line.outcome, line.channel, line.author, line.in_hand) == (
        "shown",
        f"table:{table.pk}",
        user,
        False,
    )
    assert message.text == "buona partita a tutti"
    assert sent == [(user.nickname, "buona partita a tutti", line.pk)]


def test_an_insult_is_shown_censored(sent, django_capture_on_commit_callbacks):
    table, user = poker_table(), UserFactory()
    message = post(table, user, "sei uno str0nz0", django_capture_on_commit_callbacks)
    assert message.text == "sei uno *******"
    assert sent[0][1] == "sei uno *******"
    line = ChatLine.objects.get()
    assert (line.text, line.shown_text, line.outcome) == ("sei uno str0nz0", "sei uno *******", "censored")


def test_a_blocked_line_is_not_shown_but_kept_for_the_moderators(sent, django_capture_on_commit_callbacks):
    table, user = poker_table(), UserFactory()
    error = refused(table, user, "porco d1o", django_capture_on_commit_callbacks)
    assert error.code == "chat_watched" and "bestemmie" in error.message
    assert not sent and not ChatMessage.objects.exists()
    line = ChatLine.objects.get()
    assert (line.outcome, line.shown_text, line.category) == ("blocked", "", "blasphemy")


def test_a_held_line_waits_in_the_queue(sent, django_capture_on_commit_callbacks):
    table, user = poker_table(), UserFactory()
    error = refused(table, user, "ti ammazzo", django_capture_on_commit_callbacks)
    assert error.code == "chat_held" and "moderatore" in error.message
    assert not sent and not ChatMessage.objects.exists()
    report = Report.objects.get()
    entry = report.entries.get()
    assert (report.target, report.status, entry.reporter, entry.category) == (
        user,
        "open",
        None,
        "intimidation",
    )
    assert entry.line.outcome == "held"


def test_a_flagged_line_is_shown_and_queued(sent, django_capture_on_commit_callbacks):
    table, user = poker_table(), UserFactory()
    post(table, user, "questo sito truccato", django_capture_on_commit_callbacks)
    assert sent and Report.objects.get().entries.get().category == "complaint"


@pytest.mark.parametrize(("text", "code"), [("CIAO A TUTTI VOI", "chat_capitals")])
def test_manners_refusals_change_nothing(text, code, sent, django_capture_on_commit_callbacks):
    table, user = poker_table(), UserFactory()
    assert refused(table, user, text, django_capture_on_commit_callbacks).code == code
    assert not sent and not ChatMessage.objects.exists() and not ChatLine.objects.exists()


def test_repeats_and_flooding_at_the_table(sent, django_capture_on_commit_callbacks):
    table, user = poker_table(), UserFactory()
    post(table, user, "dai dai", django_capture_on_commit_callbacks)
    post(table, user, "dai dai", django_capture_on_commit_callbacks)
    assert refused(table, user, "DAI daii", django_capture_on_commit_callbacks).code == "chat_repeated"
    for i in range(3):
        post(table, user, f"riga {i}", django_capture_on_commit_callbacks)
    assert refused(table, user, "e ancora", django_capture_on_commit_callbacks).code == "chat_flood"
    assert len(sent) == 5 and ChatLine.objects.count() == 5


def test_durante_il_gioco_only_for_a_player_dealt_into_the_hand(sent, django_capture_on_commit_callbacks):
    table = poker_table()
    players = [funded_player() for _ in range(2)]
    seat_players(table, players)
    spectator = UserFactory()
    post(table, players[0], "ho tre assi", django_capture_on_commit_callbacks)  # no hand yet
    lobby_actions.table_start_hand(table_id=table.pk)
    error = refused(table, players[1], "ho tre assi", django_capture_on_commit_callbacks)
    assert error.code == "chat_held" and "durante il gioco" in error.message.lower()
    post(table, spectator, "ho tre assi", django_capture_on_commit_callbacks)
    assert [s[0] for s in sent] == [players[0].nickname, spectator.nickname]
    assert ChatLine.objects.get(author=players[1]).in_hand
    # once the hand is over (its showdown still on the felt) the players may talk about it
    play_hand_randomly(table, SeededRng(3))
    post(table, players[1], "avevo tre assi", django_capture_on_commit_callbacks)
    assert sent[-1][:2] == (players[1].nickname, "avevo tre assi")


def test_a_mute_refuses_until_it_ends(sent, django_capture_on_commit_callbacks, monkeypatch):
    table, user = poker_table(), UserFactory()
    start = timezone.now()
    Sanction.objects.create(
        user=user, kind="mute", starts_at=start, ends_at=start + timedelta(minutes=10), reason="x"
    )
    error = refused(table, user, "ciao", django_capture_on_commit_callbacks)
    assert error.code == "chat_muted" and "fino alle" in error.message
    assert error.details["until"] == (start + timedelta(minutes=10)).isoformat()
    assert not ChatLine.objects.exists()
    # ten minutes later the mute is over: compared with now when the line is posted, no job involved
    later = start + timedelta(minutes=10, seconds=1)
    monkeypatch.setattr("django.utils.timezone.now", lambda: later)
    post(table, user, "ciao", django_capture_on_commit_callbacks)
    assert sent[-1][1] == "ciao"


def test_a_chat_suspension_without_end_refuses():
    user = UserFactory()
    Sanction.objects.create(user=user, kind="chat_suspension", ends_at=None, reason="x")
    Sanction.objects.create(user=user, kind="mute", ends_at=timezone.now() + timedelta(minutes=1), reason="x")
    with pytest.raises(ModerationError) as info:
        actions.chat_screen(author=user, channel="table:1", text="ciao")
    assert info.value.code == "chat_suspended"


def test_a_warning_does_not_mute():
    user = UserFactory()
    Sanction.objects.create(user=user, kind="warning", reason="x")
    assert actions.chat_screen(author=user, channel="table:1", text="ciao").text == "ciao"


def test_bad_input_is_refused_before_moderation(sent, django_capture_on_commit_callbacks):
    table, user = poker_table(), UserFactory()
    for text in ("", "   ", "x" * 201):
        with pytest.raises(ChatRefused):
            post(table, user, text, django_capture_on_commit_callbacks)
    assert not ChatLine.objects.exists() and not sent


def test_staff_keep_the_watched_list_in_the_back_office(client):
    staff = UserFactory(role=roles.STAFF)
    sign_in(client, staff)
    url = reverse("backoffice:moderation_watchedentry_add")
    data = {
        "pattern": "pippo*",
        "kind": "word",
        "category": "insult",
        "action": "block",
        "language": "it",
        "active": "on",
    }
    assert client.post(url, data).status_code == 302
    assert AuditLog.objects.filter(action="moderation.watched_add", actor=staff).exists()
    with pytest.raises(ModerationError) as info:
        actions.chat_screen(author=UserFactory(), channel="table:1", text="sei un pippone")
    assert info.value.code == "chat_watched"
    bad = {**data, "pattern": "a(b", "kind": "regex"}
    response = client.post(url, bad)
    assert response.status_code == 200 and "Espressione non valida" in response.content.decode()
    assert not WatchedEntry.objects.filter(pattern="a(b").exists()


def test_moderators_see_the_watched_list_but_cannot_change_it(client):
    sign_in(client, UserFactory(role=roles.MODERATORS))
    assert client.get(reverse("backoffice:moderation_watchedentry_changelist")).status_code == 200
    assert client.get(reverse("backoffice:moderation_watchedentry_add")).status_code == 403
    entry = WatchedEntry.objects.first()
    response = client.post(
        reverse("backoffice:moderation_watchedentry_delete", args=[entry.pk]), {"post": "yes"}
    )
    assert response.status_code == 403 and WatchedEntry.objects.filter(pk=entry.pk).exists()
    sign_in(client, UserFactory())  # a player has no back office at all
    assert client.get(reverse("backoffice:moderation_watchedentry_changelist")).status_code == 302


def test_the_default_list_is_seeded():
    assert WatchedEntry.objects.filter(language="it", category="blasphemy").count() >= 10
    assert set(WatchedEntry.objects.values_list("category", flat=True)) >= {
        "insult",
        "blasphemy",
        "obscenity",
        "racism",
        "intimidation",
        "promotion",
        "game_talk",
    }


def test_screening_a_line_costs_three_queries(django_assert_max_num_queries):
    user = UserFactory()
    actions.watched_list()  # compiled once per process (and every WATCHED_TTL_SECONDS)
    # the mute in force, the author's recent lines, the insert (plus the savepoint around it)
    with django_assert_max_num_queries(5) as captured:
        actions.chat_screen(author=user, channel="table:1", text="ciao a tutti")
    assert len([q for q in captured.captured_queries if "SAVEPOINT" not in q["sql"]]) == 3
