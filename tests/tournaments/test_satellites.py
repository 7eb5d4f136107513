"""Satellites (rules 004, "Tornei con struttura a fasi di qualificazione"; RULINGS K4): the prize is
an entry into the target tournament, paid through the wallet; listed in fuchsia; the target lists them.

Every scenario ends with both pools as the rules want them and the ledger zero-sum.
"""

from __future__ import annotations

import pytest

from games.rng import SeededRng
from tests.tournaments.conftest import FUNDS, authorise_all, money
from tests.tournaments.factories import enter, make_tournament
from tests.tournaments.running_helpers import full_tournament, ledger_zero, play_out, pool
from tournaments import actions, errors, running, selectors
from tournaments.models import Registration, Tournament
from wallet import selectors as wallet_selectors
from wallet.models import Posting

pytestmark = pytest.mark.django_db
F = Tournament.Format
RS = Registration.State


def _target(staff) -> Tournament:
    return make_tournament(staff, name="Finale", pool_quota=900, fee=100)  # € 10,00 (9,00 + 1,00)


def _play_satellite(staff, target: Tournament, **overrides) -> tuple[Tournament, list, dict]:
    """A KO sit&go of 4 at € 7,50 (6,00 + 1,50): pool € 24,00 = 2 seats of € 10,00 + € 4,00 (K4)."""
    values = {"format": F.KO, "pool_quota": 600, "fee": 150, "satellite_of": target, **overrides}
    sat, players = full_tournament(staff, 4, **values)
    play_out(sat, SeededRng(3))
    paid = running.tournament_pay(tournament_id=sat.pk)
    assert paid is not None
    sat.refresh_from_db()
    return sat, players, paid


def test_a_satellite_pays_entries_into_its_target_zero_sum(staff):
    target = _target(staff)
    sat, players, paid = _play_satellite(staff, target)
    by_position = {
        r.user_id: r.position for r in Registration.objects.filter(tournament=sat, state=RS.ADMITTED)
    }
    qualified = sorted((uid for uid, pos in by_position.items() if pos <= 2), key=by_position.get)
    assert len(qualified) == 2
    # the satellite's pool is empty, its whole value paid: two seats and the € 4,00 left (to 3°-4°)
    assert pool(sat) == 0 and sum(paid["prizes"].values()) == 2400
    assert paid["seats"] == {str(uid): "" for uid in qualified}
    # each qualifier is entered into the target through the ordinary path, waiting for the regulator
    entries = Registration.objects.filter(tournament=target)
    assert sorted(entries.values_list("user_id", flat=True)) == sorted(qualified)
    assert all(r.state == RS.PENDING and r.entry_transaction for r in entries)
    authorise_all(target)
    states = set(Registration.objects.filter(tournament=target).values_list("state", flat=True))
    assert states == {RS.AUTHORISED}
    assert pool(target) == 2 * target.pool_quota
    for p in players:
        won = paid["prizes"].get(p.pk, 0)
        seat = target.cost if p.pk in qualified else 0
        # his entry to the satellite, plus what he won, less the target's entry paid with the seat
        assert money(p) == FUNDS - sat.cost + won - seat, p.nickname
    others = [p.pk for p in players if p.pk not in qualified]
    assert sorted(paid["prizes"][uid] for uid in others) == [200, 200]  # 3°-4° ex aequo share € 4,00 (K2)
    assert ledger_zero() == 0 and wallet_selectors.reconciliation_report()["ok"]
    # the results say what was won
    results = selectors.final_results(tournament=sat)
    assert [r["prize"] for r in results[:2]] == ["Iscrizione a Finale", "Iscrizione a Finale"]


def test_a_qualifier_who_cancels_his_seat_gets_its_value_on_his_conto(staff):
    target = _target(staff)
    _sat, players, paid = _play_satellite(staff, target)
    authorise_all(target)
    winner = next(p for p in players if paid["seats"].get(str(p.pk)) == "")
    before = money(winner)
    actions.registration_cancel(tournament_id=target.pk, user=winner)
    authorise_all(target)
    assert Registration.objects.get(tournament=target, user=winner).state == RS.CANCELLED
    assert money(winner) == before + target.cost  # the refund goes where the seat's value was credited
    assert ledger_zero() == 0 and wallet_selectors.reconciliation_report()["ok"]


def test_a_seat_the_target_refuses_stays_as_its_value(staff):
    """A qualifier already registered in the target cannot enter twice: he keeps the seat's value."""
    target = _target(staff)
    values = {"format": F.KO, "pool_quota": 600, "fee": 150, "satellite_of": target}
    sat, players = full_tournament(staff, 4, **values)
    for p in players:  # every satellite player already bought his entry to the target
        enter(target, p)
    authorise_all(target)
    entries_before = Posting.objects.filter(transaction__kind="tournament_entry").count()
    play_out(sat, SeededRng(3))
    paid = running.tournament_pay(tournament_id=sat.pk)
    assert paid is not None and len(paid["seats"]) == 2
    assert all(reason == errors.AlreadyRegistered.default_message for reason in paid["seats"].values())
    assert Posting.objects.filter(transaction__kind="tournament_entry").count() == entries_before
    assert pool(sat) == 0 and pool(target) == 4 * target.pool_quota
    for p in players:
        assert money(p) == FUNDS - target.cost - sat.cost + paid["prizes"].get(p.pk, 0)
    sat.refresh_from_db()
    shown = [r["prize"] for r in selectors.final_results(tournament=sat)[:2]]
    assert all("iscrizione a Finale non possibile" in s for s in shown), shown
    assert ledger_zero() == 0 and wallet_selectors.reconciliation_report()["ok"]


@pytest.mark.parametrize(
    ("target_values", "satellite_values"),
    [
        ({"pool_quota": 0, "fee": 0}, {}),  # a free target: nothing to win
        ({"lines": "random_pairs", "table": "4"}, {}),  # seats are one player's entry
        ({}, {"starts_at_after_target": True}),  # the satellite must end before its target
    ],
)
def test_invalid_satellites_are_refused_and_nothing_is_created(staff, target_values, satellite_values):
    target = make_tournament(staff, name="Finale", **target_values)
    count = Tournament.objects.count()
    extra = {}
    if satellite_values.get("starts_at_after_target"):
        extra["starts_at"] = target.starts_at
        extra["registration_opens_at"] = target.registration_opens_at
    with pytest.raises(errors.InvalidTournament) as refused:
        make_tournament(staff, name="Satellite", pool_quota=200, fee=50, satellite_of=target, **extra)
    assert "satellite_of" in refused.value.details["fields"]
    assert Tournament.objects.count() == count


def test_prize_distribution_shows_the_seats(staff):
    target = make_tournament(staff, name="Scopa della sera", pool_quota=450, fee=50)  # € 5,00
    sat = make_tournament(
        staff, name="Satellite", kind=Tournament.Kind.SITGO, max_players=8, pool_quota=100, fee=25,
        format=F.KO, satellite_of=target,
    )  # fmt: skip
    rows = selectors.prize_distribution(tournament=sat)["rows"]
    # pool € 8,00: one seat of € 5,00; € 3,00 left, shared while each share is at least € 1,25 (K4)
    assert [(r["positions"], r["amount"]) for r in rows] == [
        ("1°", "Iscrizione a Scopa della sera"),
        ("2°-3°", "€ 1,50"),
    ]


def test_the_list_shows_satellites_in_fuchsia_and_the_target_lists_them(staff, client):
    target = _target(staff)
    starts = target.starts_at - (target.starts_at - target.registration_opens_at) / 2
    sat = make_tournament(
        staff, name="Satellite della finale", pool_quota=200, fee=50, satellite_of=target, starts_at=starts
    )
    page = client.get(f"/tornei/?t={sat.pk}").content.decode()
    assert f'class="t-row t-row--satellite is-selected" data-tournament="{sat.pk}"' in page
    assert "satellite di Finale" in page
    assert f'data-testid="satellite-of"><a href="/tornei/{target.pk}/">Finale</a>' in page
    lobby = client.get(f"/tornei/{target.pk}/").content.decode()
    assert 'data-testid="satellites"' in lobby
    assert f'href="/tornei/{sat.pk}/">Satellite della finale</a>' in lobby
    sat_lobby = client.get(f"/tornei/{sat.pk}/?iscritti=8").content.decode()  # "simula iscritti"
    assert "Iscrizione a Finale" in sat_lobby and "€ 3,00" in sat_lobby  # 1 seat, € 6,00 left for 2°-3°


def test_a_satellite_stays_editable_once_its_target_has_started(staff):
    """The back office edits a satellite's name and notes later: the target's start is no error then."""
    target = _target(staff)
    sat = make_tournament(
        staff, name="Satellite", kind=Tournament.Kind.SITGO, max_players=4, satellite_of=target
    )
    Tournament.objects.filter(pk=target.pk).update(state=Tournament.State.RUNNING)
    sat = Tournament.objects.get(pk=sat.pk)
    sat.name = "Satellite del giovedì"
    sat.full_clean()  # no ValidationError
