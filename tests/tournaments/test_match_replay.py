"""One turn match played again for a fault of the platform (rules 004, "Rimborsi per
disconnessioni"): only while its turn is open, for a connection the network or the platform cut
during the match; the result voided, the same players seated at a new table, audited, once per
fault; a closed turn points to the entry's refund."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.rng import SeededRng
from lobby.models import ConnectionRecord, Hand, Seat, Table
from piattaforma import roles
from piattaforma.models import AuditLog
from tests.lobby.helpers import play_hand_randomly
from tests.piattaforma.factories import UserFactory, sign_in
from tests.tournaments.running_helpers import full_tournament, open_tables, play_turn
from tournaments import actions, errors, running
from tournaments.models import Tournament, TournamentMatch

pytestmark = pytest.mark.django_db
EndedBy = ConnectionRecord.EndedBy


def record(m: TournamentMatch, user, ended_by, *, during=True):
    end = m.ended_at or m.started_at + timedelta(minutes=5)
    at = m.started_at + (end - m.started_at) / 2 if during else end + timedelta(minutes=1)
    return ConnectionRecord.objects.create(
        table_id=m.table_id,
        user=user,
        seat_number=1,
        socket_id=ConnectionRecord.objects.count() + 8000,
        process="daphne-a",
        opened_at=m.started_at,
        closed_at=at,
        hand_at_open=1,
        hand_at_close=1,
        ended_by=ended_by,
    )


@pytest.fixture
def one_ended(staff):
    """A running 4-player turn tournament whose first match of turn 1 has ended, the other not."""
    t, players = full_tournament(staff, 4)
    first = open_tables(t)[0]
    play_hand_randomly(first, SeededRng(3), max_steps=3000)
    m = TournamentMatch.objects.get(tournament=t, table_id=first.pk)
    assert m.ended_at is not None and m.result
    seated = list(Seat.objects.filter(table=first).order_by("number").values_list("user_id", flat=True))
    player = next(p for p in players if p.pk == seated[0])
    return t, players, m, seated, player


def state(m: TournamentMatch):
    m.refresh_from_db()
    return (m.table_id, m.result, m.ended_at, m.replays, Table.objects.count(), AuditLog.objects.count())


def test_a_platform_cut_replays_the_match_with_the_same_players(staff, one_ended):
    t, _players, m, seated, player = one_ended
    cut = record(m, player, EndedBy.PLATFORM)
    preview = actions.match_replay_preview(match_id=m.pk)
    assert preview["refusal"] == "" and [(r["id"], r["during"]) for r in preview["records"]] == [
        (cut.pk, True)
    ]
    old_table, old_result = m.table_id, m.result
    out = actions.match_replay(
        match_id=m.pk, record_id=cut.pk, reason="Processo daphne-a caduto", actor=staff
    )
    m.refresh_from_db()
    assert out["table_id"] == m.table_id != old_table
    assert m.result is None and m.ended_at is None
    assert [(r["table"], r["result"], r["record"], r["by"]) for r in m.replays] == [
        (old_table, old_result, cut.pk, staff.pk)
    ]
    assert not Table.objects.get(pk=old_table).is_open
    new = Table.objects.get(pk=m.table_id)
    assert new.is_open and new.tournament_id == t.pk
    assert list(Seat.objects.filter(table=new).order_by("number").values_list("user_id", flat=True)) == seated
    assert Hand.objects.get(table=new, number=1).ended_at is None  # the fresh match is dealt
    assert AuditLog.objects.filter(action="tournament.match_replay", actor=staff).count() == 1
    before = state(m)
    with pytest.raises(errors.MatchReplayRefused) as again:  # the same fault: once
        actions.match_replay(match_id=m.pk, record_id=cut.pk, reason="Processo daphne-a caduto", actor=staff)
    assert again.value.code == "match_replay_refused" and state(m) == before
    # the fresh match's result is the one the turn uses
    play_hand_randomly(new, SeededRng(5), max_steps=3000)
    for table in open_tables(t):
        play_hand_randomly(table, SeededRng(7), max_steps=3000)
    m.refresh_from_db()
    assert m.result and m.ended_at is not None
    assert running.tournament_advance(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.turn == 2 or t.state == Tournament.State.FINISHED


def test_a_closed_turn_is_refused_and_points_to_the_entry_refund(staff):
    t, players = full_tournament(staff, 4)
    play_turn(t, SeededRng(3))
    m = TournamentMatch.objects.filter(tournament=t, turn=1).first()
    uid = t.progress["lines"][m.line_a][0]
    cut = record(m, next(p for p in players if p.pk == uid), EndedBy.PLATFORM)
    refusal = actions.match_replay_preview(match_id=m.pk)["refusal"]
    assert "turno di questa partita è chiuso" in refusal and "Verifica e rimborsa" in refusal
    before = state(m)
    with pytest.raises(errors.MatchReplayRefused):
        actions.match_replay(match_id=m.pk, record_id=cut.pk, reason="Guasto di rete", actor=staff)
    assert state(m) == before


@pytest.mark.parametrize("ended_by", [EndedBy.PLAYER, EndedBy.SERVER])
def test_a_connection_the_player_or_the_server_closed_is_refused(staff, one_ended, ended_by):
    _t, _players, m, _seated, player = one_ended
    own = record(m, player, ended_by)
    assert "Nessuna connessione" in actions.match_replay_preview(match_id=m.pk)["refusal"]
    before = state(m)
    with pytest.raises(errors.MatchReplayRefused):
        actions.match_replay(match_id=m.pk, record_id=own.pk, reason="Guasto di rete", actor=staff)
    assert state(m) == before


def test_a_cut_outside_the_match_a_short_reason_and_a_match_in_progress_are_refused(staff, one_ended):
    t, _players, m, _seated, player = one_ended
    later = record(m, player, EndedBy.PLATFORM, during=False)
    assert "Nessuna connessione" in actions.match_replay_preview(match_id=m.pk)["refusal"]
    cut = record(m, player, EndedBy.NETWORK)
    before = state(m)
    for record_id, reason, words in (
        (later.pk, "Guasto di rete", "durante la partita"),
        (cut.pk, "ab", "motivazione"),
    ):
        with pytest.raises(errors.MatchReplayRefused) as refused:
            actions.match_replay(match_id=m.pk, record_id=record_id, reason=reason, actor=staff)
        assert words in refused.value.message
    assert state(m) == before
    playing = TournamentMatch.objects.get(tournament=t, turn=1, ended_at__isnull=True)
    record(playing, Seat.objects.filter(table_id=playing.table_id).first().user, EndedBy.PLATFORM)
    assert "in corso" in actions.match_replay_preview(match_id=playing.pk)["refusal"]


def test_a_player_or_a_moderator_may_not_order_a_replay(one_ended):
    _t, players, m, _seated, player = one_ended
    cut = record(m, player, EndedBy.PLATFORM)
    before = state(m)
    for actor in (players[1], UserFactory(role=roles.MODERATORS)):
        with pytest.raises(errors.NotPermitted):
            actions.match_replay(match_id=m.pk, record_id=cut.pk, reason="Guasto di rete", actor=actor)
    assert state(m) == before


def test_the_back_office_shows_the_evidence_then_replays(client, staff, one_ended):
    _t, _players, m, _seated, player = one_ended
    cut = record(m, player, EndedBy.PLATFORM)
    own = record(m, player, EndedBy.PLAYER)
    url = reverse("backoffice:tournaments_tournamentmatch_fault_replay", args=[m.pk])
    sign_in(client, UserFactory(role=roles.MODERATORS))
    assert client.get(url).status_code in (302, 403)
    sign_in(client, staff)
    listing = client.get(
        reverse("backoffice:tournaments_tournamentmatch_change", args=[m.pk])
    ).content.decode()
    assert url in listing
    page = client.get(url)
    html = page.content.decode()
    assert page.status_code == 200 and 'data-testid="fault-form"' in html
    assert "Persa dalla piattaforma" in html and "Chiusa dal giocatore" in html
    assert [v for v, _label in page.context["form"].fields["record"].choices] == [cut.pk]
    before = state(m)
    assert client.post(url, {"record": own.pk, "reason": "Guasto"}).status_code == 200 and state(m) == before
    done = client.post(url, {"record": cut.pk, "reason": "Processo daphne-a caduto"})
    assert done.status_code == 302
    m.refresh_from_db()
    assert len(m.replays) == 1 and m.ended_at is None
    again = client.get(url).content.decode()
    assert 'data-testid="fault-refusal"' in again and 'data-testid="fault-form"' not in again


def test_a_replay_takes_back_what_the_voided_end_recorded_with_moderation(
    staff, one_ended, django_capture_on_commit_callbacks
):
    """The voided match's offences are withdrawn (warnings, the freeroll ban they gave, the event
    itself so the match played again records its own) and a completed turn is uncounted."""
    from moderation import conduct
    from moderation.models import ConductEvent, ConductMeasure, ConductRecord, Notice

    t, _players, m, seated, player = one_ended
    other = next(uid for uid in seated if uid != player.pk)
    ConductRecord.objects.create(user=player, received=9, completed_turns=4)
    # what the voided match's end recorded: his no-show (2 warnings: the 10th crossed, a freeroll
    # ban)...
    absent = {"user_id": player.pk, "tournament_id": t.pk, "kind": "absent", "training": True, "turn": m.turn}
    event = conduct.conduct_record(**absent)
    ban = ConductMeasure.objects.get(event=event, kind=ConductMeasure.Kind.FREEROLL_BAN)
    assert event.warnings == 2 and ban.ends_at > ban.starts_at
    # ...and the other player's turn completed
    conduct.turn_completed_record(user_id=other, tournament_id=t.pk)
    other_turns = ConductRecord.objects.get(user_id=other).completed_turns
    cut = record(m, player, EndedBy.PLATFORM)
    with django_capture_on_commit_callbacks(execute=True):
        actions.match_replay(match_id=m.pk, record_id=cut.pk, reason="Processo daphne-a caduto", actor=staff)
    assert not ConductEvent.objects.filter(user=player, tournament_id=t.pk).exists()
    mine = ConductRecord.objects.get(user=player)
    assert (mine.received, mine.completed_turns) == (9, 4)
    ban.refresh_from_db()
    assert ban.event_id is None and ban.ends_at <= timezone.now()
    assert Notice.objects.filter(user=player, code="conduct_withdrawn").count() == 1
    withdrawn = AuditLog.objects.filter(action="moderation.conduct_withdrawn", target_id=str(event.pk))
    assert withdrawn.count() == 1
    assert ConductRecord.objects.get(user_id=other).completed_turns == other_turns - 1
    # the match played again records its own end
    assert conduct.conduct_record(**absent) is not None
