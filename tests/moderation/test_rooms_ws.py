"""Lobby, tournament and HELP chats over the wire: who may read and write, history, filters, no leaks.

Every test talks to the real ASGI application through Channels' WebsocketCommunicator, as a
browser would: session cookie, origin, JSON frames.
"""

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from config.asgi import application
from moderation import actions
from moderation.models import ChatLine, HelpThread, Report, Sanction
from piattaforma import roles
from piattaforma.consumers import CLOSE_FORBIDDEN, CLOSE_NOT_FOUND, CLOSE_UNAUTHENTICATED
from tests.piattaforma.factories import UserFactory
from tests.piattaforma.test_plumbing import ORIGIN, session_cookie
from tests.tournaments.factories import make_tournament
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


class People:
    """A player, another player, a muted player, a moderator and a staff member, with their cookies."""

    def __init__(self):
        self.anna, self.bruno, self.muto = (UserFactory(nickname=n) for n in ("anna", "bruno", "muto"))
        self.mod = UserFactory(nickname="moderatrice", role=roles.MODERATORS)
        self.staff = UserFactory(nickname="assistenza", role=roles.STAFF)
        Sanction.objects.create(
            user=self.muto,
            kind=Sanction.Kind.MUTE,
            ends_at=timezone.now() + timedelta(minutes=10),
            reason="insulti",
            by=self.mod,
        )
        self.t1 = make_tournament(self.staff, name="Uno")
        self.t2 = make_tournament(self.staff, name="Due")
        self.cookie = {u.nickname: session_cookie(u) for u in self.users}

    @property
    def users(self):
        return [self.anna, self.bruno, self.muto, self.mod, self.staff]


@sync_to_async
def people():
    actions.watched_list_reset()
    return People()


async def open_ws(path, cookie=None):
    """Connect; return (communicator, None) with the history read, or (None, close code) if refused."""
    headers = [ORIGIN] + ([(b"cookie", cookie)] if cookie else [])
    ws = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await ws.connect(timeout=10)
    if not connected:
        return None, code
    first = await ws.receive_output(timeout=5)  # the handshake is accepted before the room is checked
    if first["type"] == "websocket.close":
        return None, first["code"]
    history = json.loads(first["text"])
    assert history["type"] == "chat.history"
    ws.history = history["lines"]
    ws.closed = history.get("closed")  # HELP: why the conversation shows closed, or None
    return ws, None


async def joined(path, cookie):
    ws, code = await open_ws(path, cookie)
    assert ws is not None, f"{path} refused with {code}"
    return ws


async def say(ws, text):
    await ws.send_json_to({"type": "chat", "text": text})


async def close_all(*sockets):
    for ws in sockets:
        await ws.disconnect()


PATHS = ["/ws/chat/lobby/", "/ws/chat/help/"]


async def test_anonymous_visitors_may_not_open_any_chat():
    p = await people()
    for path in [*PATHS, f"/ws/chat/torneo/{p.t1.pk}/", f"/ws/chat/help/{p.anna.pk}/"]:
        ws, code = await open_ws(path)
        assert ws is None and code == CLOSE_UNAUTHENTICATED, path


async def test_lobby_chat_live_for_everyone_with_history_on_reconnect():
    p = await people()
    anna = await joined("/ws/chat/lobby/", p.cookie["anna"])
    bruno = await joined("/ws/chat/lobby/", p.cookie["bruno"])
    mod = await joined("/ws/chat/lobby/", p.cookie["moderatrice"])
    await say(anna, "ciao a tutti, buona serata")
    for ws in (anna, bruno, mod):
        msg = await ws.receive_json_from(timeout=5)
        assert (msg["type"], msg["room"], msg["nickname"], msg["text"]) == (
            "chat",
            "lobby",
            "anna",
            "ciao a tutti, buona serata",
        )
        assert isinstance(msg["line"], int)
    await bruno.disconnect()
    bruno = await joined("/ws/chat/lobby/", p.cookie["bruno"])  # reconnect: the chat so far
    assert [(x["nickname"], x["text"]) for x in bruno.history] == [("anna", "ciao a tutti, buona serata")]
    await close_all(anna, bruno, mod)


async def test_a_muted_player_reads_but_may_not_write_and_writes_again_when_the_mute_ends():
    p = await people()
    muto = await joined("/ws/chat/lobby/", p.cookie["muto"])
    anna = await joined("/ws/chat/lobby/", p.cookie["anna"])
    await say(muto, "perché non posso scrivere?")
    error = await muto.receive_json_from(timeout=5)
    assert error["type"] == "error" and error["code"] == "chat_muted"
    assert "silenziato fino alle" in error["message"] and error["details"]["until"]
    assert await anna.receive_nothing(timeout=0.3)
    await say(anna, "muto ci legge?")
    assert (await muto.receive_json_from(timeout=5))["text"] == "muto ci legge?"  # he still reads
    await anna.receive_json_from(timeout=5)

    @sync_to_async
    def ten_minutes_pass():
        Sanction.objects.filter(user=p.muto).update(
            starts_at=timezone.now() - timedelta(minutes=10), ends_at=timezone.now() - timedelta(seconds=1)
        )
        return actions.sanctions_notify_ended()

    assert await ten_minutes_pass() == 1
    notice = await muto.receive_json_from(timeout=5)  # pushed live, no poll
    assert (notice["type"], notice["code"]) == ("notice", "moderation_mute_end")
    assert await sync_to_async(actions.sanctions_notify_ended)() == 0  # told once
    await say(muto, "scusate, eccomi")
    for ws in (muto, anna):
        assert (await ws.receive_json_from(timeout=5))["text"] == "scusate, eccomi"
    await close_all(muto, anna)


async def test_every_filter_applies_in_the_lobby_and_the_socket_stays_open():
    p = await people()
    anna = await joined("/ws/chat/lobby/", p.cookie["anna"])
    bruno = await joined("/ws/chat/lobby/", p.cookie["bruno"])
    for text, code in [
        ("SMETTETELA TUTTI QUANTI", "chat_capitals"),
        ("porco dio", "chat_watched"),
        ("venite su www.altrosito.com", "chat_watched"),
    ]:
        await say(anna, text)
        error = await anna.receive_json_from(timeout=5)
        assert (error["type"], error["code"]) == ("error", code), text
        assert error["message"].startswith("Messaggio non inviato")
    await say(anna, "sei un cretino")  # censored, shown
    for ws in (anna, bruno):
        assert (await ws.receive_json_from(timeout=5))["text"] == "sei un *******"
    for _ in range(2):
        await say(anna, "ciao")
        await anna.receive_json_from(timeout=5)
        await bruno.receive_json_from(timeout=5)
    await say(anna, "ciaooo!")  # the sixth line in 15 seconds (refused ones count: he keeps trying)
    assert (await anna.receive_json_from(timeout=5))["code"] == "chat_flood"
    assert await bruno.receive_nothing(timeout=0.3)
    await close_all(anna, bruno)


async def test_bad_input_is_refused_without_closing_the_socket():
    p = await people()
    anna = await joined("/ws/chat/lobby/", p.cookie["anna"])
    for frame, code in [
        ({"type": "chat", "text": 5}, "bad_message"),
        ({"type": "chat"}, "bad_message"),
        ({"type": "chat", "text": "   "}, "chat_refused"),
        ({"type": "chat", "text": "x" * 201}, "chat_refused"),
        ({"type": "balla"}, "unknown_type"),
        ({"text": "ciao"}, "bad_message"),
    ]:
        await anna.send_json_to(frame)
        error = await anna.receive_json_from(timeout=5)
        assert (error["type"], error["code"]) == ("error", code), frame
    await anna.send_to(text_data="{non è json")
    assert (await anna.receive_json_from(timeout=5))["type"] == "error"
    await anna.send_json_to({"type": "history"})
    assert (await anna.receive_json_from(timeout=5))["type"] == "chat.history"
    assert not await sync_to_async(ChatLine.objects.exists)()
    await say(anna, "tutto a posto")
    assert (await anna.receive_json_from(timeout=5))["text"] == "tutto a posto"
    await anna.disconnect()


async def test_tournament_chats_do_not_leak_into_each_other_nor_into_the_lobby():
    p = await people()
    t1a = await joined(f"/ws/chat/torneo/{p.t1.pk}/", p.cookie["anna"])
    t1b = await joined(f"/ws/chat/torneo/{p.t1.pk}/", p.cookie["bruno"])
    t2 = await joined(f"/ws/chat/torneo/{p.t2.pk}/", p.cookie["moderatrice"])
    lobby = await joined("/ws/chat/lobby/", p.cookie["assistenza"])
    await say(t1a, "in bocca al lupo a tutti")
    for ws in (t1a, t1b):
        msg = await ws.receive_json_from(timeout=5)
        assert (msg["room"], msg["text"]) == (f"torneo:{p.t1.pk}", "in bocca al lupo a tutti")
    assert await t2.receive_nothing(timeout=0.3)
    assert await lobby.receive_nothing(timeout=0.1)
    await say(t1b, "VAFFANCULO A TUTTI")  # capitals first, then the watched list
    assert (await t1b.receive_json_from(timeout=5))["code"] == "chat_capitals"
    await say(t1b, "porco dio")
    assert (await t1b.receive_json_from(timeout=5))["code"] == "chat_watched"
    assert await t1a.receive_nothing(timeout=0.3)
    await t2.disconnect()
    t2 = await joined(f"/ws/chat/torneo/{p.t2.pk}/", p.cookie["moderatrice"])
    assert t2.history == []
    t1c = await joined(f"/ws/chat/torneo/{p.t1.pk}/", p.cookie["muto"])  # a watcher reads it
    assert [x["text"] for x in t1c.history] == ["in bocca al lupo a tutti"]
    await close_all(t1a, t1b, t2, lobby, t1c)


async def test_a_missing_tournament_has_no_chat():
    p = await people()
    ws, code = await open_ws("/ws/chat/torneo/999999/", p.cookie["anna"])
    assert ws is None and code == CLOSE_NOT_FOUND
    ws, code = await open_ws("/ws/chat/torneo/1234567890123456/", p.cookie["anna"])  # beyond any id
    assert ws is None and code == CLOSE_NOT_FOUND


async def test_while_the_tournament_runs_its_entrants_may_not_reveal_their_cards():
    p = await people()

    @sync_to_async
    def running_with_anna():
        Registration.objects.create(
            tournament=p.t1, user=p.anna, state=Registration.State.ADMITTED, idempotency_key="r-anna"
        )
        Tournament.objects.filter(pk=p.t1.pk).update(state=Tournament.State.RUNNING)

    await running_with_anna()
    anna = await joined(f"/ws/chat/torneo/{p.t1.pk}/", p.cookie["anna"])
    bruno = await joined(f"/ws/chat/torneo/{p.t1.pk}/", p.cookie["bruno"])
    await say(anna, "ho tre assi in mano")
    error = await anna.receive_json_from(timeout=5)
    assert (error["code"], "durante il gioco" in error["message"]) == ("chat_held", True)
    assert await bruno.receive_nothing(timeout=0.3)
    await say(bruno, "ho tre assi in mano")  # a watcher holds no cards: the in-game rule is not his
    for ws in (anna, bruno):
        assert (await ws.receive_json_from(timeout=5))["text"] == "ho tre assi in mano"
    await close_all(anna, bruno)


async def test_help_is_one_to_one_between_the_player_and_staff():
    p = await people()
    anna = await joined("/ws/chat/help/", p.cookie["anna"])
    bruno = await joined("/ws/chat/help/", p.cookie["bruno"])
    await say(anna, "il gioco è truccato, ho perso tre mani di fila")  # complaints belong in HELP
    assert (await anna.receive_json_from(timeout=5))["staff"] is False
    assert await bruno.receive_nothing(timeout=0.3)
    assert not await sync_to_async(Report.objects.exists)()  # not flagged here, unlike elsewhere

    # moderators and other players may not open anna's HELP; staff may, with its history
    for who in ("moderatrice", "bruno"):
        ws, code = await open_ws(f"/ws/chat/help/{p.anna.pk}/", p.cookie[who])
        assert ws is None and code == CLOSE_FORBIDDEN, who
    staff = await joined(f"/ws/chat/help/{p.anna.pk}/", p.cookie["assistenza"])
    assert [x["nickname"] for x in staff.history] == ["anna"]
    thread = await sync_to_async(HelpThread.objects.get)(player=p.anna)
    assert thread.waiting
    await say(staff, "Ciao anna, controlliamo subito la mano.")
    for ws in (anna, staff):
        msg = await ws.receive_json_from(timeout=5)
        assert (msg["room"], msg["staff"], msg["nickname"]) == (f"help:{p.anna.pk}", True, "assistenza")
    assert await bruno.receive_nothing(timeout=0.3)
    await thread.arefresh_from_db()
    assert not thread.waiting
    await bruno.disconnect()
    bruno = await joined("/ws/chat/help/", p.cookie["bruno"])
    assert bruno.history == []
    await anna.disconnect()
    anna = await joined("/ws/chat/help/", p.cookie["anna"])  # her history: who is staff is marked
    assert [(x["nickname"], x["staff"]) for x in anna.history] == [("anna", False), ("assistenza", True)]
    await say(anna, "porco dio")  # the filters still apply
    assert (await anna.receive_json_from(timeout=5))["code"] == "chat_watched"
    await say(anna, "RISPONDETEMI SUBITO")
    assert (await anna.receive_json_from(timeout=5))["code"] == "chat_capitals"
    await close_all(anna, bruno, staff)


async def test_the_staff_closes_a_help_conversation_and_the_player_sees_it_closed_live():
    p = await people()
    anna = await joined("/ws/chat/help/", p.cookie["anna"])
    assert anna.closed is None
    bruno = await joined("/ws/chat/help/", p.cookie["bruno"])
    await say(anna, "quando arriva il bonus?")
    await anna.receive_json_from(timeout=5)
    staff = await joined(f"/ws/chat/help/{p.anna.pk}/", p.cookie["assistenza"])
    await sync_to_async(actions.help_thread_close)(actor=p.staff, player_id=p.anna.pk)
    got = [await anna.receive_json_from(timeout=5) for _ in range(2)]
    closed = next(m for m in got if m["type"] == "help.closed")
    assert closed["by"] == "staff" and "chiuso" in closed["message"]
    assert any(m["type"] == "notice" and m["code"] == "help_closed" for m in got)
    assert (await staff.receive_json_from(timeout=5))["type"] == "help.closed"  # the desk's panel too
    assert await bruno.receive_nothing(timeout=0.3)  # another player's HELP: nothing of it
    await anna.disconnect()
    anna = await joined("/ws/chat/help/", p.cookie["anna"])  # on reconnect: shown closed, lines kept
    assert anna.closed == closed["message"] and [x["text"] for x in anna.history] == [
        "quando arriva il bonus?"
    ]
    await say(anna, "scusate, ancora una cosa")  # writing again reopens it
    await anna.receive_json_from(timeout=5)
    await anna.disconnect()
    anna = await joined("/ws/chat/help/", p.cookie["anna"])
    assert anna.closed is None
    await close_all(anna, bruno, staff)


async def test_a_player_is_told_live_of_a_mute_and_the_reporter_that_it_was_handled():
    p = await people()
    anna = await joined("/ws/chat/lobby/", p.cookie["anna"])
    bruno = await joined("/ws/chat/lobby/", p.cookie["bruno"])
    await say(bruno, "sei un cretino")
    line = (await anna.receive_json_from(timeout=5))["line"]
    await bruno.receive_json_from(timeout=5)

    @sync_to_async
    def report_and_mute():
        entry, _ = actions.report_file(reporter=p.anna, reason="insult", line_id=line)
        assert [x["text"] for x in entry.context] == ["sei un *******"]  # the conversation captured
        assert entry.channel == "lobby"
        actions.report_claim(report_id=entry.report_id, moderator=p.mod)
        actions.report_decide(
            report_id=entry.report_id, moderator=p.mod, decision="mute", reason="insulti", minutes=10
        )

    await report_and_mute()
    notice = await bruno.receive_json_from(timeout=5)
    assert (notice["type"], notice["code"]) == ("notice", "moderation_mute")
    assert "silenziato in chat fino alle" in notice["text"]
    notice = await anna.receive_json_from(timeout=5)
    assert (notice["type"], notice["code"]) == ("notice", "report_handled")
    await close_all(anna, bruno)


async def test_a_held_line_released_by_a_moderator_reaches_its_chat_and_only_it():
    p = await people()
    anna = await joined("/ws/chat/lobby/", p.cookie["anna"])
    bruno = await joined("/ws/chat/lobby/", p.cookie["bruno"])
    other = await joined(f"/ws/chat/torneo/{p.t1.pk}/", p.cookie["assistenza"])
    await say(anna, "facciamo a meta della vincita")  # collusion: held for review
    assert (await anna.receive_json_from(timeout=5))["code"] == "chat_held"
    assert await bruno.receive_nothing(timeout=0.3)
    held = await sync_to_async(ChatLine.objects.get)(outcome="held")
    await sync_to_async(actions.chat_line_review)(line_id=held.pk, moderator=p.mod, release=True)
    for ws in (anna, bruno):
        msg = await ws.receive_json_from(timeout=5)
        if msg["type"] == "notice":  # the author is told too
            assert msg["code"] == "line_released"
            msg = await ws.receive_json_from(timeout=5)
        assert (msg["type"], msg["text"], msg["line"]) == ("chat", "facciamo a meta della vincita", held.pk)
    assert await other.receive_nothing(timeout=0.3)
    await close_all(anna, bruno, other)
