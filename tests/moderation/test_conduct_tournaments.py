"""The automatic warnings wired to real tournaments: training and pairs from the tournament, the
offender alone blamed, completed turns counted, and the bans and blocks refusing registrations.

Rules 004, "Ammonizioni automatiche": "1 ammonizione in caso di timeout nei tornei individuali;
2 ammonizioni in caso di timeout nei tornei a coppie"; "1 ammonizione bonus ogni 30 turni di tornei
completati"; "alla 10° ammonizione effettiva al giocatore non sarà permesso partecipare a tornei
Freerolls (bonus) per 3 giorni".
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import registry
from games.rng import SeededRng
from lobby import actions as lobby
from lobby.models import Seat, TableRuntime
from moderation import conduct, selectors
from moderation.models import ConductEvent, ConductMeasure, ConductRecord
from tests.piattaforma.factories import UserFactory, sign_in
from tests.tournaments.conftest import FUNDS
from tests.tournaments.factories import enter, make_tournament
from tests.tournaments.running_helpers import full_tournament, open_tables
from tests.wallet.factories import funded_player
from tournaments import errors, running
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(db):
    from piattaforma import roles

    return UserFactory(role=roles.STAFF)


def _play_until_timeout(table, late, rng) -> None:
    """Random legal play; once ``late`` has made a move of his own, his next decision times out."""
    acted = False
    for _ in range(3000):
        rt = TableRuntime.objects.get(pk=table.pk)
        engine = registry.get(rt.game or table.game)
        if rt.state is None or engine.is_over(rt.state):
            return
        seat_no = engine.to_act(rt.state)[0]
        seat = Seat.objects.get(table=table, number=seat_no)
        if seat.user_id == late.pk and acted:
            TableRuntime.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=1))
            lobby.table_timeout(table_id=table.pk, version=rt.version)
            continue
        action = engine.sample_action(rt.state, seat_no, rng)
        if action.get("type") == "abbandona":
            continue
        lobby.table_act(table_id=table.pk, user=seat.user, action=action, version=rt.version)
        acted = acted or seat.user_id == late.pk
    raise AssertionError("match did not end")


def _partner(t: Tournament, user):
    members = next(m for m in t.progress["lines"].values() if user.pk in m)
    return Registration.objects.get(tournament=t, user_id=next(u for u in members if u != user.pk)).user


def _play_until_the_pairs_time_runs_out(table, slow, partner, rng, *, share: float) -> None:
    """Random legal play; ``slow``'s first move takes ``share`` of his line's tempo partita, then his
    partner's next decision uses up what is left of it (tempo scaduto while the partner is to play)."""
    full_ms = table.tempo_partita * 1000
    spent = False
    for _ in range(3000):
        rt = TableRuntime.objects.get(pk=table.pk)
        engine = registry.get(rt.game or table.game)
        if rt.state is None or engine.is_over(rt.state):
            return
        seat_no = engine.to_act(rt.state)[0]
        seat = Seat.objects.get(table=table, number=seat_no)
        if seat.user_id == partner.pk and spent:
            TableRuntime.objects.filter(pk=table.pk).update(
                turn_started=timezone.now() - timedelta(milliseconds=full_ms),
                deadline=timezone.now() - timedelta(seconds=1),
            )
            lobby.table_timeout(table_id=table.pk, version=rt.version)
            continue
        if seat.user_id == slow.pk and not spent:
            thought = timedelta(milliseconds=int(full_ms * share))
            TableRuntime.objects.filter(pk=table.pk).update(turn_started=rt.turn_started - thought)
            spent = True
        action = engine.sample_action(rt.state, seat_no, rng)
        if action.get("type") == "abbandona":
            continue
        lobby.table_act(table_id=table.pk, user=seat.user, action=action, version=rt.version)
    raise AssertionError("match did not end")


@pytest.mark.parametrize("share,warned", [(0.8, True), (0.7, False)])
def test_tempo_scaduto_in_pairs_warns_the_partner_who_used_over_three_quarters(
    staff, django_capture_on_commit_callbacks, share, warned
):
    """Rules 004: "1 ammonizione per ogni partita terminata per tempo scaduto nei tornei a coppie se il
    giocatore ha utilizzato più dei 3/4 del tempo a disposizione". The line's time runs out while the
    partner is to play: the one who used more than 3/4 of it gets 1 warning, the partner none (the
    old code gave 2 to whoever was to play, as for a timeout)."""
    from lobby.actions.tournament_tables import seats_time_used
    from lobby.models import Hand

    t, players = full_tournament(
        staff, 8, game="tresette", table="4", lines="random_pairs", turns=1, format="danese", training=True
    )
    slow = players[0]
    partner = _partner(t, slow)
    table = next(x for x in open_tables(t) if x.seat_rows.filter(user=slow).exists())
    full_ms = table.tempo_partita * 1000
    with django_capture_on_commit_callbacks(execute=True):
        _play_until_the_pairs_time_runs_out(table, slow, partner, SeededRng(4), share=share)
        for other in open_tables(t):
            if other.pk != table.pk:
                from tests.lobby.helpers import play_hand_randomly

                play_hand_randomly(other, SeededRng(5), max_steps=3000)
        running.tournament_advance(tournament_id=t.pk)
    # each seat's time used, from the clocks the steps recorded: his own thinking, the partner's rest
    hand = Hand.objects.get(table=table, number=1)
    used = seats_time_used(table, hand)
    seat_of = {s["user_id"]: s["seat"] for s in hand.seats}
    assert int(full_ms * share) <= used[seat_of[slow.pk]] < int(full_ms * share) + 2000
    assert used[seat_of[slow.pk]] + used[seat_of[partner.pk]] == full_ms  # the line's whole time
    assert not ConductEvent.objects.filter(user=partner).exists()  # to play when it ran out, not to blame
    assert _turns(partner) == 1
    if warned:
        event = ConductEvent.objects.get(user=slow, tournament_id=t.pk)
        assert (event.kind, event.training, event.warnings) == ("slow", True, 1)
        assert _warnings(slow) == 1 and _turns(slow) == 0
        assert not ConductMeasure.objects.filter(user=slow).exists()  # no ladder for slowness
    else:  # 70 % of the time is not "più dei 3/4"
        assert not ConductEvent.objects.filter(user=slow).exists() and _turns(slow) == 1


def test_a_slow_partner_in_a_money_tournament_is_recorded_without_warnings():
    player = UserFactory()
    event = conduct.conduct_record(
        user_id=player.pk, tournament_id=8, kind="slow", training=False, turn=1, pairs=True
    )
    assert (event.kind, event.warnings) == ("slow", 0) and _warnings(player) == 0
    assert not ConductMeasure.objects.filter(user=player).exists()
    conduct.conduct_record(user_id=player.pk, tournament_id=9, kind="slow", training=True, turn=1, pairs=True)
    conduct.conduct_record(user_id=player.pk, tournament_id=9, kind="slow", training=True, turn=2, pairs=True)
    conduct.conduct_record(
        user_id=player.pk, tournament_id=9, kind="timeout", training=True, turn=3, pairs=True
    )
    assert _warnings(player) == 2  # 1 + 1, then the cap of 2 a tournament
    assert ConductMeasure.objects.get(user=player).kind == "notice"  # the timeout's, the ladder's first


def _turn(t: Tournament, rng, late=None) -> None:
    from tests.lobby.helpers import play_hand_randomly

    for table in open_tables(t):
        if late is not None and table.seat_rows.filter(user=late).exists():
            _play_until_timeout(table, late, rng)
        else:
            play_hand_randomly(table, rng, max_steps=3000)
    running.tournament_advance(tournament_id=t.pk)
    t.refresh_from_db()


def _warnings(user) -> int:
    return selectors.conduct_summary(user)["received"]


def _turns(user) -> int:
    return selectors.conduct_summary(user)["completed_turns"]


def test_a_timeout_in_a_training_pairs_tournament_gives_two_to_him_alone(
    staff, django_capture_on_commit_callbacks
):
    t, players = full_tournament(
        staff, 8, game="tresette", table="4", lines="random_pairs", turns=1, format="danese", training=True
    )
    late = players[0]
    partner = next(
        Registration.objects.get(tournament=t, user_id=uid).user
        for members in t.progress["lines"].values()
        if late.pk in members
        for uid in members
        if uid != late.pk
    )
    with django_capture_on_commit_callbacks(execute=True):
        _turn(t, SeededRng(4), late=late)
    assert t.state == Tournament.State.FINISHED
    event = ConductEvent.objects.get(user=late, tournament_id=t.pk)
    assert (event.kind, event.training, event.warnings) == ("timeout", True, 2)  # pairs: 2 per timeout
    assert _warnings(late) == 2
    assert not ConductEvent.objects.filter(user=partner).exists()  # his partner is not to blame
    assert _warnings(partner) == 0 and _turns(partner) == 1
    others = [p for p in players if p.pk != late.pk]
    assert all(_turns(p) == 1 for p in others)
    assert _turns(late) == 0  # a turn he lost on time is not completed


def test_the_same_timeout_in_a_money_tournament_gives_none_but_counts_for_the_ladder(
    staff, django_capture_on_commit_callbacks
):
    t, players = full_tournament(staff, 4, turns=1, format="danese")
    late = players[0]
    with django_capture_on_commit_callbacks(execute=True):
        _turn(t, SeededRng(7), late=late)
    event = ConductEvent.objects.get(user=late, tournament_id=t.pk)
    assert (event.kind, event.training, event.warnings) == ("timeout", False, 0)
    assert ConductMeasure.objects.get(user=late).kind == "notice"  # the ladder's first rung
    assert all(_turns(p) == 1 for p in players[1:])


def test_individual_training_timeout_gives_one():
    player = UserFactory()
    conduct.conduct_record(user_id=player.pk, tournament_id=5, kind="timeout", training=True, turn=1)
    assert _warnings(player) == 1
    other = UserFactory()
    conduct.conduct_record(
        user_id=other.pk, tournament_id=5, kind="timeout", training=True, turn=1, pairs=True
    )
    conduct.conduct_record(
        user_id=other.pk, tournament_id=5, kind="abandon", training=True, turn=2, pairs=True
    )
    assert _warnings(other) == 2  # at most 2 a tournament
    assert list(
        ConductEvent.objects.filter(user=other).order_by("turn").values_list("warnings", flat=True)
    ) == [2, 0]


def test_thirty_completed_turns_earn_one_bonus_on_the_card(client):
    player = UserFactory(nickname="costante")
    for turn in range(1, 4):
        conduct.conduct_record(user_id=player.pk, tournament_id=turn, kind="timeout", training=True, turn=1)
    for _ in range(59):
        conduct.turn_completed_record(user_id=player.pk, tournament_id=9)
    summary = selectors.conduct_summary(player)
    assert (summary["received"], summary["bonus"], summary["effective"]) == (3, 1, 2)
    conduct.turn_completed_record(user_id=player.pk, tournament_id=9)
    assert selectors.conduct_summary(player)["effective"] == 1  # 3 − 60 // 30
    sign_in(client, UserFactory())
    html = client.get("/moderazione/giocatori/costante/").content.decode()
    assert 'data-testid="effective-warnings">1<' in html


def _banned(player, *, warnings: int, now) -> None:
    """Give ``player`` ``warnings`` warnings (two a training tournament), the last ones at ``now``."""
    ConductRecord.objects.filter(user=player).delete()
    for i in range(warnings // 2):
        for turn in (1, 2):
            conduct.conduct_record(
                user_id=player.pk, tournament_id=1000 + i, kind="timeout", training=True, turn=turn, now=now
            )


def test_a_freeroll_ban_refuses_freerolls_only_and_ends_on_time(staff):
    now = timezone.now()
    player = funded_player(FUNDS)
    _banned(player, warnings=10, now=now - timedelta(days=20))  # the ladder's blocks are long over
    ConductMeasure.objects.filter(user=player, kind="tournament_block").delete()
    ban = ConductMeasure.objects.get(user=player, kind="freeroll_ban")
    assert ban.step == 10 and ban.ends_at - ban.starts_at == timedelta(days=3)
    ConductMeasure.objects.filter(pk=ban.pk).update(
        starts_at=now - timedelta(days=1), ends_at=now + timedelta(days=2)
    )
    freeroll = make_tournament(staff, pool_quota=0, fee=0, guaranteed=2000, name="Freeroll")
    training = make_tournament(staff, pool_quota=0, fee=0, training=True, name="Allenamento")
    paid = make_tournament(staff, name="A pagamento")
    before = Registration.objects.count()
    with pytest.raises(errors.FreerollBanned) as info:
        enter(freeroll, player)
    assert info.value.code == "freeroll_banned" and "Freeroll" in info.value.message
    assert Registration.objects.count() == before  # nothing changed
    enter(training, player)
    enter(paid, player)
    ConductMeasure.objects.filter(pk=ban.pk).update(ends_at=now - timedelta(seconds=1))
    enter(freeroll, player)


def test_the_ladders_block_refuses_every_registration_until_it_ends(staff):
    player = funded_player(FUNDS)
    now = timezone.now()
    for tournament in (1, 2):
        conduct.conduct_record(
            user_id=player.pk, tournament_id=tournament, kind="abandon", training=False, turn=1
        )
    block = ConductMeasure.objects.get(user=player, kind="tournament_block")
    assert block.ends_at - block.starts_at == timedelta(hours=1)  # 2 offences in 30 days: 1 hour
    t = make_tournament(staff)
    from wallet.models import Posting

    postings = Posting.objects.count()
    with pytest.raises(errors.TournamentBlocked) as info:
        enter(t, player)
    assert info.value.code == "tournament_blocked"
    assert Posting.objects.count() == postings and not Registration.objects.filter(user=player).exists()
    ConductMeasure.objects.filter(pk=block.pk).update(ends_at=now - timedelta(seconds=1))
    enter(t, player)
    assert Registration.objects.filter(user=player).count() == 1


def test_a_chained_block_refuses_until_the_last_link_ends():
    player = UserFactory()
    now = timezone.now()
    first = ConductMeasure.objects.create(
        user=player,
        kind="tournament_block",
        step=2,
        starts_at=now - timedelta(minutes=30),
        ends_at=now + timedelta(minutes=30),
        created_at=now,
    )
    ConductMeasure.objects.create(
        user=player,
        kind="tournament_block",
        step=3,
        starts_at=first.ends_at,
        ends_at=first.ends_at + timedelta(hours=6),
        created_at=now,
    )
    code, message = selectors.tournament_entry_refusal(user_id=player.pk, freeroll=False, now=now)
    end = timezone.localtime(first.ends_at + timedelta(hours=6)).strftime("%d/%m/%Y %H:%M")
    assert code == "tournament_blocked" and end in message
    assert (
        selectors.tournament_entry_refusal(user_id=player.pk, freeroll=False, now=now + timedelta(hours=7))
        is None
    )
