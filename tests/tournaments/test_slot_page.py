"""The slot tournament for its players: the start call to each person's machine, the machine's
page (entrants only), the tournament list, info panel and lobby showing a slot tournament as such,
and the demo's bots that fill a slot sit&go and play at their machines."""

from __future__ import annotations

import json
import random
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.slot import table
from tests.tournaments.conftest import FUNDS, authorise_all
from tests.tournaments.factories import enter
from tests.tournaments.test_slot import slot_tournament
from tests.wallet.factories import funded_player
from tournaments import calls, demo, running, selectors, slot
from tournaments.models import SlotSession, Tournament

pytestmark = pytest.mark.django_db


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def text(response) -> str:
    return text_of(response.content.decode())


def person_and_bots(staff, monkeypatch, django_capture_on_commit_callbacks):
    """A slot sit&go of 4 (3 minutes, 100,000 chips): a person enters, the demo's bots fill it, it
    starts. Returns the tournament, the person and the calls sent after the commits."""
    sent: list[tuple[int, dict]] = []
    monkeypatch.setattr("piattaforma.playercalls.calls_send", lambda c: sent.extend(c))
    t = slot_tournament(staff, starting_chips=100_000, slot_minutes=3)
    person = funded_player(FUNDS, nickname="Carla")
    enter(t, person)
    authorise_all(t)
    assert demo.sitgo_fill_with_bots(tournament_id=t.pk, now=timezone.now() + timedelta(seconds=11)) == 3
    with django_capture_on_commit_callbacks(execute=True):
        assert running.tournament_start(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.state == Tournament.State.RUNNING
    return t, person, sent


def test_the_start_calls_each_person_to_his_slot_and_a_page_that_connects_later_too(
    staff, monkeypatch, django_capture_on_commit_callbacks
):
    t, person, sent = person_and_bots(staff, monkeypatch, django_capture_on_commit_callbacks)
    url = reverse("tournaments:slot", args=[t.pk])
    assert [uid for uid, _call in sent] == [person.pk]  # bots have no page to call
    call = sent[0][1]
    assert call["kind"] == "match" and call["url"] == url and call["tournament_id"] == t.pk
    assert call["title"] == f"Il torneo {t.name} è iniziato" and "3 minuti" in call["text"]
    assert calls.player_calls(user_id=person.pk) == [call]  # a page that connects now finds it
    # the extra minute calls only the players tied for first
    t.progress["extra"] = {"players": ["0"], "ends_at": timezone.now().isoformat(), "credits": None}
    t.save(update_fields=["progress"])
    assert calls.player_calls(user_id=person.pk) == []


def test_the_slot_page_is_the_entrants_own_and_carries_the_machine(
    staff, client, monkeypatch, django_capture_on_commit_callbacks
):
    t, person, _sent = person_and_bots(staff, monkeypatch, django_capture_on_commit_callbacks)
    url = reverse("tournaments:slot", args=[t.pk])
    assert client.get(url).status_code == 302  # logged out: to the login page
    stranger = funded_player(FUNDS)
    client.force_login(stranger)
    response = client.get(url)
    assert response.status_code == 302 and response["Location"] == reverse("tournaments:lobby", args=[t.pk])
    client.force_login(person)
    response = client.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    found = re.search(r'id="slot-machine" type="application/json">(.*?)</script>', page)
    machine = json.loads(found.group(1))
    assert machine["paylines"] == [list(line) for line in table.PAYLINES]
    assert machine["pays"]["C"] == [45, 180, 750] and machine["names"]["W"] == "Bomba"
    assert machine["bonus"]["multipliers"] == [5, 10, 20, 40, 100, 250]
    body = text(response)
    for words in ("Tenta la Fortuna", "Puntata Massima", "Auto Start", "GIRA", "Tabella pagamenti", "Regole"):
        assert words in body, words
    assert f'data-tournament="{t.pk}"' in page and "js/slot.js" in page
    # not a slot tournament: no page
    other = slot_tournament(staff, name="Altro")
    other.format = Tournament.Format.KO
    other.save(update_fields=["format"])
    assert client.get(reverse("tournaments:slot", args=[other.pk])).status_code == 404


def test_the_list_the_info_panel_and_the_lobby_show_a_slot_tournament(
    staff, client, monkeypatch, django_capture_on_commit_callbacks
):
    waiting = slot_tournament(staff, name="Slot in attesa", starting_chips=100_000, slot_minutes=5)
    row = next(r for r in selectors.tournament_list(kind="sitgo", user_id=None) if r["id"] == waiting.pk)
    shown = (row["code"], row["format"], row["table"], row["duration"])
    assert shown == (waiting.code, "Slot", "1 gioc", "5 min")
    assert row["colour"] == ""  # a money sit&go: the list's plain colour
    assert "5 minuti di gioco per tutti" in row["duration_title"]
    listed = client.get(f"/tornei/?tipo=sitgo&t={waiting.pk}").content.decode()
    assert waiting.code in listed and "Slot in attesa" in listed
    info = text_of(listed[listed.index('data-testid="tournament-info"') :].split("</section>")[0])
    assert "5 minuti, uguali per tutti" in info and "100.000 chips" in info and "ognuno alla sua slot" in info
    assert "Tempo partita" not in info and "testa a testa" not in info and "Tempo giocata" not in info
    lobby = text(client.get(reverse("tournaments:lobby", args=[waiting.pk])))
    assert "Slot: 5 minuti, 100.000 chips iniziali" in lobby and "Girone danese" not in lobby
    freeroll = slot_tournament(staff, name="Slot gratis", pool_quota=0, fee=0, guaranteed=1000)
    assert selectors.colour(freeroll) == "freeroll"

    t, person, _sent = person_and_bots(staff, monkeypatch, django_capture_on_commit_callbacks)
    client.force_login(person)
    lobby = client.get(reverse("tournaments:lobby", args=[t.pk]))
    body = text(lobby)
    assert "Classifica in corso" in body and "Vai alla tua slot" in body and "Carla" in body
    assert reverse("tournaments:slot", args=[t.pk]) in lobby.content.decode()
    assert "100.000" in body and "Giocatori in gara 4" in body


def test_demo_bots_play_their_slot_sessions_and_the_page_s_standings_follow(
    staff, client, monkeypatch, django_capture_on_commit_callbacks
):
    t, person, _sent = person_and_bots(staff, monkeypatch, django_capture_on_commit_callbacks)
    stamp, live = selectors.lobby_stamp(tournament=t), selectors.lobby_live_stamp(tournament=t)
    rng = random.Random(7)
    played = sum(demo.slot_bots_play(tournament_id=t.pk, rng=rng) for _ in range(5))
    assert played >= 15  # three bots, three actions a sweep (a choice is an action)
    # the open lobby draws the standings again in place: the spins move its live stamp, not the
    # phase's (which would reload the page every few seconds)
    assert selectors.lobby_stamp(tournament=t) == stamp and selectors.lobby_live_stamp(tournament=t) != live
    client.force_login(person)
    play = client.get(reverse("tournaments:level_live", args=[t.pk]))
    assert play["X-Live"] == selectors.lobby_live_stamp(tournament=t)
    drawn = text(play)
    assert "Classifica in corso" in drawn and "Vai alla tua slot" in drawn and "Carla" in drawn
    lobby = client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
    assert f'data-level-live="{reverse("tournaments:level_live", args=[t.pk])}"' in lobby
    bots = SlotSession.objects.filter(tournament=t, user__is_bot=True)
    assert all(s.state["spins"] > 0 and s.credit >= 0 for s in bots)
    mine = SlotSession.objects.get(tournament=t, user=person)
    assert mine.version == 0 and mine.credit == 100_000  # nobody plays for the person
    board = slot.snapshot(tournament_id=t.pk, user_id=person.pk)["standings"]
    assert board["entrants"] == 4 and board["result"] is None and "user_id" not in board["best"][0]
    # the sweep of the demo plays them too; after the end of time nothing more is accepted
    assert demo.demo_bots_sweep() == 0
    later = timezone.now() + timedelta(minutes=4)
    assert demo.slot_bots_play(tournament_id=t.pk, now=later) == 0
    running.tournament_advance(tournament_id=t.pk, now=later)
    t.refresh_from_db()
    if t.state == Tournament.State.RUNNING:  # a tie for first: the extra minute
        running.tournament_advance(tournament_id=t.pk, now=later + timedelta(minutes=2))
        t.refresh_from_db()
    assert t.state == Tournament.State.FINISHED
    result = slot.snapshot(tournament_id=t.pk, user_id=person.pk)["standings"]["result"]
    assert result["entrants"] == 4 and 1 <= result["position"] <= 4 and result["paid"] is False
    running.tournament_pay(tournament_id=t.pk)
    t.refresh_from_db()
    result = slot.snapshot(tournament_id=t.pk, user_id=person.pk)["standings"]["result"]
    assert result["paid"] is True
    assert (result["prize"] != "") == (t.registrations.get(user=person).prize > 0)
