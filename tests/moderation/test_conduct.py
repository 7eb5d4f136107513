"""Automatic warnings of training tournaments, freeroll bans and the ladder, against the rules' arithmetic."""

import itertools
from datetime import timedelta

import pytest
from django.utils import timezone

from moderation import conduct, selectors
from moderation.errors import ModerationError
from moderation.models import ConductEvent, ConductMeasure, ConductRecord, Notice
from piattaforma import hooks
from piattaforma.models import AuditLog
from tests.piattaforma.factories import UserFactory

pytestmark = pytest.mark.django_db


def offence(user, tournament, *, kind="timeout", training=True, turn=1, now=None):
    return conduct.conduct_record(
        user_id=user.pk, tournament_id=tournament, kind=kind, training=training, turn=turn, now=now
    )


def test_one_warning_per_timeout_at_most_two_per_tournament():
    player = UserFactory()
    for turn in (1, 2, 3, 4):
        offence(player, 10, turn=turn)
    assert selectors.conduct_summary(player)["received"] == 2  # "al massimo 2 ammonizioni per ogni torneo"
    assert list(
        ConductEvent.objects.filter(user=player).order_by("turn").values_list("warnings", flat=True)
    ) == [
        1,
        1,
        0,
        0,
    ]
    offence(player, 11)
    assert selectors.conduct_summary(player)["received"] == 3


def test_a_no_show_gets_two_at_once_and_abandon_counts_as_timeout():
    absent, quitter = UserFactory(), UserFactory()
    offence(absent, 1, kind="absent")
    offence(quitter, 1, kind="abandon")
    assert selectors.conduct_summary(absent)["received"] == 2
    assert selectors.conduct_summary(quitter)["received"] == 1


def test_money_tournaments_give_no_warnings():
    player = UserFactory()
    offence(player, 5, training=False)
    assert selectors.conduct_summary(player)["received"] == 0
    assert ConductEvent.objects.get(user=player).warnings == 0


def test_the_same_offence_reported_twice_counts_once():
    player = UserFactory()
    assert offence(player, 3) is not None
    assert offence(player, 3) is None
    assert selectors.conduct_summary(player)["received"] == 1


def test_effective_count_is_received_minus_one_per_thirty_turns_never_negative():
    player = UserFactory()
    for t in range(1, 4):  # 6 warnings in 3 tournaments
        offence(player, t, kind="absent")
    for _ in range(59):
        conduct.turn_completed_record(user_id=player.pk, tournament_id=99)
    summary = selectors.conduct_summary(player)
    assert (summary["received"], summary["completed_turns"], summary["bonus"], summary["effective"]) == (
        6,
        59,
        1,
        5,
    )
    hooks.tournament_turn_completed(user_id=player.pk, tournament_id=99)  # through the core hook
    assert selectors.conduct_summary(player)["effective"] == 4
    fresh = UserFactory()
    for _ in range(90):
        conduct.turn_completed_record(user_id=fresh.pk, tournament_id=1)
    offence(fresh, 2)
    assert selectors.conduct_summary(fresh)["effective"] == 0  # 1 − 3, shown as 0


def _reach(player, effective, start_tournament=1000, now=None):
    """Give the player one warning a tournament (a timeout) until he has ``effective`` effective ones."""
    t = start_tournament
    while selectors.conduct_summary(player)["effective"] < effective:
        offence(player, t, now=now)
        t += 1
    return t


def test_freeroll_bans_at_ten_twenty_thirty_forty_then_every_ten():
    player = UserFactory()
    now = timezone.now()
    _reach(player, 9, now=now)
    assert not ConductMeasure.objects.filter(user=player, kind="freeroll_ban").exists()
    assert not selectors.freeroll_banned(user_id=player.pk, now=now)
    _reach(player, 10, start_tournament=2000, now=now)
    ban = ConductMeasure.objects.get(user=player, kind="freeroll_ban")
    assert (ban.step, ban.ends_at - ban.starts_at) == (10, timedelta(days=3))
    assert selectors.freeroll_banned(user_id=player.pk, now=now + timedelta(days=2, hours=23))
    assert not selectors.freeroll_banned(user_id=player.pk, now=now + timedelta(days=3, seconds=1))
    _reach(player, 60, start_tournament=3000, now=now)
    bans = list(ConductMeasure.objects.filter(user=player, kind="freeroll_ban").order_by("starts_at"))
    assert [(b.step, (b.ends_at - b.starts_at).days) for b in bans] == [
        (10, 3),
        (20, 5),
        (30, 10),
        (40, 20),
        (50, 10),
        (60, 10),
    ]
    # "per ulteriori N giorni": each ban starts when the previous one ends
    assert all(later.starts_at == earlier.ends_at for earlier, later in itertools.pairwise(bans))
    assert selectors.conduct_summary(player, now=now)["freeroll_ban_until"] == now + timedelta(days=58)
    assert Notice.objects.filter(user=player, code="conduct_freeroll_ban").count() == 6
    assert AuditLog.objects.filter(action="moderation.conduct_freeroll_ban").count() == 6


def test_bonuses_lowering_the_count_let_a_threshold_trigger_again():
    player = UserFactory()
    _reach(player, 10)
    for _ in range(30):
        conduct.turn_completed_record(user_id=player.pk, tournament_id=1)
    assert selectors.conduct_summary(player)["effective"] == 9
    offence(player, 5000)
    assert ConductMeasure.objects.filter(user=player, kind="freeroll_ban", step=10).count() == 2


def test_ladder_escalates_with_repeat_offences_and_forgets_after_thirty_days():
    player = UserFactory()
    start = timezone.now() - timedelta(days=60)
    blocks = []
    for i in range(7):
        at = start + timedelta(days=i)
        offence(player, 100 + i, training=False, now=at)
        offence(player, 100 + i, training=False, turn=2, now=at)  # same tournament: not a new offence
        m = ConductMeasure.objects.filter(user=player, tournament_id=100 + i).get()
        blocks.append((m.kind, m.step, m.ends_at - m.starts_at if m.ends_at else None))
    assert blocks == [
        ("notice", 1, None),
        ("tournament_block", 2, timedelta(hours=1)),
        ("tournament_block", 3, timedelta(hours=6)),
        ("tournament_block", 4, timedelta(hours=24)),
        ("tournament_block", 5, timedelta(days=3)),
        ("tournament_block", 6, timedelta(days=7)),
        ("tournament_block", 7, timedelta(days=7)),
    ]
    # 40 days after the last one, the window is empty again: back to a notice
    later = start + timedelta(days=6 + 40)
    offence(player, 200, training=False, now=later)
    assert ConductMeasure.objects.get(user=player, tournament_id=200).kind == "notice"
    assert conduct.ladder_block(0) == timedelta(0)


def test_hook_reaches_moderation_and_end_of_match_summary_lists_the_measures():
    player = UserFactory()
    hooks.tournament_conduct(user_id=player.pk, tournament_id=42, kind="timeout", training=True, turn=3)
    summary = selectors.conduct_summary(player, tournament_id=42)
    kinds = [m["kind"] for m in summary["measures"]]
    assert "warning" in kinds and "notice" in kinds
    assert selectors.conduct_summary(player, tournament_id=43)["measures"] == []
    assert Notice.objects.filter(user=player, code="conduct_warning").exists()


@pytest.mark.parametrize(
    "kwargs",
    [
        {"kind": "sleepy"},
        {"tournament_id": 0},
        {"tournament_id": "7"},
        {"turn": -1},
        {"training": "yes"},
        {"user_id": 10**9},
    ],
)
def test_bad_conduct_input_is_refused_and_changes_nothing(kwargs):
    player = UserFactory()
    args = {
        "user_id": player.pk,
        "tournament_id": 1,
        "kind": "timeout",
        "training": True,
        "turn": 1,
        **kwargs,
    }
    with pytest.raises(ModerationError) as info:
        conduct.conduct_record(**args)
    assert info.value.code == "bad_conduct"
    assert not ConductEvent.objects.exists() and not ConductRecord.objects.exists()
    with pytest.raises(ModerationError):
        conduct.turn_completed_record(user_id=player.pk, tournament_id=-3)
    assert not ConductRecord.objects.exists()


def test_conduct_api_gives_the_player_his_own_measures_of_a_tournament(client):
    from django.urls import reverse

    player, other = UserFactory(), UserFactory()
    offence(player, 42, turn=3)
    offence(other, 42, kind="absent")
    url = reverse("moderation:conduct_api")
    assert client.get(url).status_code == 403  # visitors
    client.force_login(player)
    body = client.get(url, {"torneo": "42"}).json()
    assert (body["received"], body["effective"]) == (1, 1)
    assert sorted(m["kind"] for m in body["measures"]) == ["notice", "warning"]  # not the other's
    assert all(m["tournament_id"] == 42 for m in body["measures"])
    assert client.get(url, {"torneo": "43"}).json()["measures"] == []
    for bad in ("x", "-1", "0", "9" * 40):
        response = client.get(url, {"torneo": bad})
        assert response.status_code == 400 and response.json()["code"] == "bad_request"
