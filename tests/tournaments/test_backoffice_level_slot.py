"""Staff create level and slot tournament templates and their schedules in the back office; the
schedule's tournaments are level and slot tournaments that play."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from piattaforma import roles
from tests.piattaforma.factories import UserFactory, sign_in
from tests.tournaments.conftest import FUNDS, authorise_all
from tests.tournaments.factories import enter
from tests.tournaments.test_backoffice import add_form
from tests.tournaments.test_freezeout import CHIPS, INVITO, play_to_the_end
from tests.wallet.factories import funded_player
from tournaments import actions, running, slot
from tournaments.models import LEVEL_GAMES, SlotSession, Tournament, TournamentMatch, TournamentSchedule

pytestmark = pytest.mark.django_db

ADD = "backoffice:tournaments_tournament_add"
# what a level tournament's form holds; the turn section's values (hidden) are ignored
LEVEL = {
    "format": "freezeout",
    "starting_chips": str(CHIPS),
    "seats_per_table": "4",
    "speed": "superturbo",
    "first_invito": str(INVITO),
    "smazzate": "2",  # typed in the turn section before the format changed: ignored
    "lines": "random_pairs",
    "slot_credit": "5000",
}
SLOT = {"game": "slot", "format": "slot", "slot_credit": "3000", "slot_minutes": "5", "starting_chips": "50"}


def post(client, **overrides):
    return client.post(reverse(ADD), add_form(**overrides))


@pytest.fixture
def staff_client(client, staff):
    sign_in(client, staff)
    return client


@pytest.mark.parametrize("game", sorted(LEVEL_GAMES))
def test_staff_create_a_level_tournament_of_each_gioco_a_puntate(staff_client, game):
    chosen = {"poker5": {"giro_pazzo": True}, "settemezzo": {"variant": "piatto"}}.get(game, {})
    response = post(staff_client, game=game, **LEVEL, options=json.dumps(chosen) if chosen else "")
    assert response.status_code == 302, response.content.decode()[:3000]
    t = Tournament.objects.get()
    assert (t.game, t.format, t.starting_chips, t.seats_per_table) == (game, "freezeout", CHIPS, 4)
    assert (t.speed, t.first_invito, t.slot_minutes) == ("superturbo", INVITO, 0)
    assert (t.smazzate, t.lines) == (0, "individual")  # the turn section does not apply
    assert t.options == chosen
    page = staff_client.get(reverse("backoffice:tournaments_tournament_change", args=[t.pk])).content.decode()
    assert 'data-testid="level-structure"' in page and 'data-testid="prize-table"' in page
    assert "Torneo a livelli" in page and "Torneo a turni" not in page and "Torneo slot" not in page


def test_staff_create_a_shootout_and_a_slot_tournament(staff_client):
    response = post(staff_client, game="poker5", **{**LEVEL, "format": "shootout"})
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Tournament.objects.get().format == "shootout"
    response = post(staff_client, name="Slot della sera", **SLOT)
    assert response.status_code == 302, response.content.decode()[:3000]
    t = Tournament.objects.get(name="Slot della sera")
    assert (t.game, t.format, t.starting_chips, t.slot_minutes) == ("slot", "slot", 3000, 5)
    assert (t.smazzate, t.seats_per_table, t.speed, t.first_invito, t.options) == (0, 0, "", 0, {})
    page = staff_client.get(reverse("backoffice:tournaments_tournament_change", args=[t.pk])).content.decode()
    assert "Torneo slot" in page and "Torneo a livelli" not in page and "da 1 a 100 chips" in page
    assert "livelli ammessi" not in page.lower()  # the slot is chance: no skill levels
    # the slot's defaults: 100.000 chips, 10 minutes; skill levels (hidden for the slot) ignored
    changes = {**SLOT, "slot_credit": "", "slot_minutes": "", "skill_levels": ["1"]}
    response = post(staff_client, name="Slot normale", **changes)
    assert response.status_code == 302, response.content.decode()[:3000]
    t = Tournament.objects.get(name="Slot normale")
    assert (t.starting_chips, t.slot_minutes, t.skill_levels) == (100_000, 10, "")


def test_the_add_form_groups_the_settings_by_format(staff_client):
    page = staff_client.get(reverse(ADD)).content.decode()
    for section in ("fmt-turns", "fmt-levels", "fmt-slot"):
        assert section in page
    assert "js/backoffice-tournament.js" in page
    assert 'data-game="poker5"' in page and "giro_pazzo" in page


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"game": "poker5", **LEVEL, "starting_chips": "150"}, "starting_chips", "almeno 10 inviti"),
        ({"game": "poker5", **LEVEL, "speed": ""}, "speed", "velocità"),
        ({"game": "poker5", **LEVEL, "seats_per_table": "9"}, "seats_per_table", "da 2 a 6 posti"),
        ({"game": "poker5", **LEVEL, "options": '{"invito": 50}'}, "options", "lo stabilisce il livello"),
        ({"game": "poker5", **LEVEL, "options": '{"rake_percent": 5}'}, "options", "struttura del torneo"),
        ({"game": "settemezzo", **LEVEL, "options": '{"variant": "classica"}'}, "options", "piatto"),
        ({"game": "bestia", **LEVEL, "options": '{"sconosciuta": 1}'}, "options", "sconosciuta"),
        ({"game": "scopa", **LEVEL}, "game", "giochi a puntate"),
        ({"game": "poker5", "format": "danese"}, "game", "giochi a partite"),
        ({**SLOT, "game": "scopa"}, "game", "Pierino"),
        ({**SLOT, "slot_credit": "20"}, "slot_credit", "30"),
        ({**SLOT, "slot_minutes": "90"}, "slot_minutes", "al più 60 minuti"),
    ],
)
def test_invalid_settings_are_refused_in_italian_and_nothing_is_saved(staff_client, changes, field, message):
    response = post(staff_client, **changes)
    assert response.status_code == 200
    form = response.context["adminform"].form
    assert field in form.errors, form.errors
    assert message in " ".join(form.errors[field]), form.errors[field]
    assert message in response.content.decode()
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("role", [roles.PLAYERS, roles.MODERATORS])
def test_players_and_moderators_cannot_create_templates_nor_schedules(client, staff, role):
    sign_in(client, UserFactory(role=role))
    assert client.get(reverse(ADD)).status_code in (302, 403)
    post(client, game="poker5", **LEVEL)
    post(client, **SLOT)
    assert not Tournament.objects.exists()
    template = actions.tournament_create(actor=staff, values=_slot_values())
    client.post(
        reverse("backoffice:tournaments_tournamentschedule_add"),
        {"template": template.pk, "weekdays": "0123456", "start_time": "21:00", "opens_hours_before": "6"},
    )
    assert not TournamentSchedule.objects.exists()


def _slot_values(**changes):
    return {
        "name": "Slot modello",
        "game": "slot",
        "format": "slot",
        "kind": "scheduled",
        "starting_chips": 3000,
        "slot_minutes": 2,
        "pool_quota": 900,
        "fee": 100,
        "min_players": 2,
        "max_players": 8,
        "starts_at": timezone.now() + timedelta(days=5),
        **changes,
    }


def _scheduled_from(staff_client, template: Tournament) -> Tournament:
    """A schedule made in the back office from ``template``, run by the beat's sweep: its next
    tournament, opened."""
    start = timezone.localtime() + timedelta(hours=3)
    response = staff_client.post(
        reverse("backoffice:tournaments_tournamentschedule_add"),
        {
            "template": template.pk,
            "weekdays": "0123456",
            "start_time": start.strftime("%H:%M"),
            "opens_hours_before": "6",
            "active": "on",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    schedule = TournamentSchedule.objects.get(template=template)
    actions.tournaments_sweep()  # the beat: creates the schedule's tournaments and opens the due ones
    made = Tournament.objects.filter(schedule=schedule).order_by("starts_at").first()
    assert made is not None and made.state == Tournament.State.REGISTRATION
    return made


def _close_and_start(t: Tournament, players: list) -> Tournament:
    for p in players:
        enter(t, p)
    authorise_all(t)
    actions.tournaments_sweep(now=t.starts_at - timedelta(seconds=30))
    t.refresh_from_db()
    assert t.state == Tournament.State.CLOSED
    assert running.tournament_start(tournament_id=t.pk, now=t.starts_at)
    t.refresh_from_db()
    assert t.state == Tournament.State.RUNNING
    return t


def test_a_schedule_of_a_level_template_creates_a_freezeout_that_plays_to_its_end(staff_client, staff):
    response = post(
        staff_client, name="Poker del giovedì", game="poker5", **LEVEL, min_players="4", max_players="8"
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    template = Tournament.objects.get()
    made = _scheduled_from(staff_client, template)
    for field in ("game", "format", "starting_chips", "seats_per_table", "speed", "first_invito", "options"):
        assert getattr(made, field) == getattr(template, field), field
    assert (made.progress, made.started_at, made.kind) == ({}, None, "scheduled")
    t = _close_and_start(made, [funded_player(FUNDS, is_bot=True) for _ in range(5)])
    assert TournamentMatch.objects.filter(tournament=t, phase="livelli").count() == 2  # 3 + 2 at tables of 4
    play_to_the_end(t, seed=3)
    t.refresh_from_db()
    assert t.state == Tournament.State.FINISHED and len(t.progress["placings"][0]) == 1


def test_a_schedule_of_a_slot_template_creates_a_slot_tournament_that_plays(staff_client, staff):
    response = post(staff_client, name="Slot del venerdì", **SLOT, min_players="2", max_players="8")
    assert response.status_code == 302, response.content.decode()[:3000]
    template = Tournament.objects.get()
    made = _scheduled_from(staff_client, template)
    assert (made.game, made.format, made.starting_chips, made.slot_minutes) == ("slot", "slot", 3000, 5)
    players = [funded_player(FUNDS) for _ in range(3)]
    t = _close_and_start(made, players)
    assert SlotSession.objects.filter(tournament=t).count() == 3
    out = slot.slot_act(
        tournament_id=t.pk, user=players[0], action={"type": "gira", "amount": 1}, version=0, now=t.starts_at
    )
    assert out["version"] == 1 and out["view"]["credit"] >= 0


def test_a_template_that_already_ran_gives_fresh_tournaments(staff):
    template = actions.tournament_create(actor=staff, values=_slot_values())
    Tournament.objects.filter(pk=template.pk).update(
        progress={"credits": {"1": 5}}, turn=1, started_at=timezone.now(), prize_transaction="x"
    )
    schedule = actions.schedule_create(
        actor=staff, template_id=template.pk, weekdays="0123456", start_time=timezone.localtime().time()
    )
    assert actions.schedules_run(now=timezone.now() - timedelta(hours=1)) >= 1
    made = Tournament.objects.filter(schedule=schedule).first()
    assert (made.progress, made.turn, made.started_at, made.prize_transaction) == ({}, 0, None, "")
