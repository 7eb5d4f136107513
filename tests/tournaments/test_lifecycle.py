"""Registration → authorisation → close, for scheduled tournaments and sit&go, with the ledger checked."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from piattaforma.regulator import Decision
from tests.piattaforma.factories import UserFactory
from tests.tournaments.conftest import ACCEPT, FUNDS, REFUSE, TIMEOUT, assert_ledger, authorise_all, money
from tests.tournaments.factories import enter, make_tournament
from tests.wallet.factories import funded_player
from tournaments import actions, errors
from tournaments.models import Registration, Tournament
from wallet import selectors as wallet_selectors
from wallet.errors import InsufficientFunds, PlayerNotAllowed
from wallet.models import Transaction

pytestmark = pytest.mark.django_db
S = Registration.State


def close_now(t: Tournament):
    return actions.tournament_close(tournament_id=t.pk, now=t.starts_at - timedelta(minutes=2))


def test_scheduled_lifecycle_excludes_the_last_registrant_to_an_even_number(staff, players):
    t = make_tournament(staff)
    regs = [enter(t, p) for p in players[:7]]
    assert {r.state for r in regs} == {S.PENDING}
    assert money(players[0]) == FUNDS - 1_000
    authorise_all(t)
    regs = list(Registration.objects.filter(tournament=t))
    assert {r.state for r in regs} == {S.AUTHORISED}
    assert all(r.ticket.startswith("ADM") for r in regs)
    t.refresh_from_db()
    assert t.adm_code.startswith("TRN")
    # not yet due: 3 minutes before the start nothing happens
    assert actions.tournament_close(tournament_id=t.pk, now=t.starts_at - timedelta(minutes=3)) is None
    outcome = close_now(t)
    assert outcome == {"admitted": 6, "excluded": 1, "cancelled": False}
    t.refresh_from_db()
    assert t.state == Tournament.State.CLOSED
    last = Registration.objects.get(tournament=t, user=players[6])
    assert last.state == S.EXCLUDED  # the last in chronological order
    assert money(players[6]) == FUNDS
    assert Registration.objects.filter(tournament=t, state=S.ADMITTED).count() == 6
    assert_ledger(t, players)


def test_scheduled_under_the_minimum_is_cancelled_and_everyone_refunded(staff, players):
    t = make_tournament(staff, min_players=6)
    for p in players[:5]:
        enter(t, p)
    authorise_all(t)
    assert close_now(t)["cancelled"] is True
    t.refresh_from_db()
    assert t.state == Tournament.State.CANCELLED
    assert set(Registration.objects.filter(tournament=t).values_list("state", flat=True)) == {S.REFUNDED}
    assert_ledger(t, players)
    assert wallet_selectors.tournament_pool_get(tournament_ref=t.ledger_ref) == 0


def test_random_pairs_close_to_a_multiple_of_four(staff, players):
    t = make_tournament(staff, lines=Tournament.Lines.RANDOM_PAIRS, table=Tournament.Table.PAIRS)
    for p in players[:7]:
        enter(t, p)
    authorise_all(t)
    assert close_now(t) == {"admitted": 4, "excluded": 3, "cancelled": False}
    assert_ledger(t, players)


def test_an_entry_still_waiting_at_the_close_does_not_play_and_is_refunded(staff, players):
    t = make_tournament(staff)
    for p in players[:5]:
        enter(t, p)
    for r in Registration.objects.filter(tournament=t, user__in=players[:4]):
        actions.registration_authorise(registration_id=r.pk, authorizer=ACCEPT)
    close_now(t)
    assert Registration.objects.get(tournament=t, user=players[4]).state == S.REFUSED
    assert Registration.objects.filter(tournament=t, state=S.ADMITTED).count() == 4
    # the regulator's late answer changes nothing
    late = Registration.objects.get(tournament=t, user=players[4])
    assert actions.registration_authorise(registration_id=late.pk, authorizer=ACCEPT) == S.REFUSED
    assert_ledger(t, players)


def test_sitgo_closes_when_full_and_authorised_and_repeats(staff, players):
    t = make_tournament(staff, kind=Tournament.Kind.SITGO, max_players=4, repeat=True)
    assert t.min_players == 4 and t.state == Tournament.State.REGISTRATION
    with pytest.raises(errors.TournamentFull):
        for p in players[:5]:
            enter(t, p)
    t.refresh_from_db()
    assert t.state == Tournament.State.REGISTRATION  # full, but not all authorised yet
    authorise_all(t)
    t.refresh_from_db()
    assert t.state == Tournament.State.CLOSED
    assert Registration.objects.filter(tournament=t, state=S.ADMITTED).count() == 4
    twin = Tournament.objects.exclude(pk=t.pk).get()
    assert (twin.state, twin.max_players, twin.name, twin.pool_quota) == ("registration", 4, t.name, 900)
    assert_ledger(t, players)


def test_sitgo_place_freed_by_a_refused_authorisation(staff, players):
    t = make_tournament(staff, kind=Tournament.Kind.SITGO, max_players=2)
    a = enter(t, players[0])
    b = enter(t, players[1])
    actions.registration_authorise(registration_id=a.pk, authorizer=ACCEPT)
    actions.registration_authorise(registration_id=b.pk, authorizer=REFUSE)
    t.refresh_from_db()
    assert t.state == Tournament.State.REGISTRATION
    assert Registration.objects.get(pk=b.pk).state == S.REFUSED
    assert money(players[1]) == FUNDS
    c = enter(t, players[2])
    actions.registration_authorise(registration_id=c.pk, authorizer=ACCEPT)
    t.refresh_from_db()
    assert t.state == Tournament.State.CLOSED
    assert_ledger(t, players)


def test_freeroll_needs_no_payment_nor_authorisation(staff, players):
    t = make_tournament(
        staff, pool_quota=0, fee=0, guaranteed=5_000, kind=Tournament.Kind.SITGO, max_players=2
    )
    enter(t, players[0])
    enter(t, players[1])
    t.refresh_from_db()
    assert t.state == Tournament.State.CLOSED
    assert Transaction.objects.filter(kind="tournament_entry").count() == 0
    assert_ledger(t, players)


def test_announced_tournament_opens_and_closes_through_the_sweeper(staff, players):
    now = timezone.now()
    t = make_tournament(
        staff, registration_opens_at=now + timedelta(minutes=5), starts_at=now + timedelta(minutes=30)
    )
    assert t.state == Tournament.State.ANNOUNCED
    with pytest.raises(errors.RegistrationClosed):
        enter(t, players[0])
    assert actions.tournaments_sweep(now=now + timedelta(minutes=6))["opened"] == 1
    for p in players[:4]:
        enter(t, p)
    authorise_all(t)
    assert actions.tournaments_sweep(now=now + timedelta(minutes=27))["closed"] == 0
    assert actions.tournaments_sweep(now=now + timedelta(minutes=28))["closed"] == 1
    t.refresh_from_db()
    assert t.state == Tournament.State.CLOSED
    assert_ledger(t, players)


def test_reserved_tournament_takes_only_the_invited(staff, players):
    t = actions.tournament_create(
        actor=staff,
        values={
            "name": "Su invito",
            "game": "burraco",
            "pool_quota": 900,
            "fee": 100,
            "max_players": 8,
            "starts_at": timezone.now() + timedelta(hours=1),
        },
        invited=[players[0]],
    )
    assert t.state == Tournament.State.RESERVED
    with pytest.raises(errors.NotInvited):
        enter(t, players[1])
    enter(t, players[0])
    assert_ledger(t, players)


# --- cancellations ----------------------------------------------------------------------------


def test_cancellation_authorised_is_refunded_in_full(staff, players):
    t = make_tournament(staff)
    reg = enter(t, players[0])
    with pytest.raises(errors.AuthorisationPending):
        actions.registration_cancel(tournament_id=t.pk, user=players[0])
    actions.registration_authorise(registration_id=reg.pk, authorizer=ACCEPT)
    reg = actions.registration_cancel(tournament_id=t.pk, user=players[0])
    assert reg.state == S.CANCEL_PENDING
    with pytest.raises(errors.CancellationPending):
        actions.registration_cancel(tournament_id=t.pk, user=players[0])
    assert actions.registration_authorise(registration_id=reg.pk, authorizer=ACCEPT) == S.CANCELLED
    reg.refresh_from_db()
    assert reg.cancel_ticket.startswith("ADM") and reg.refund_transaction
    assert money(players[0]) == FUNDS
    # he may register again afterwards
    enter(t, players[0], key="again")
    assert_ledger(t, players)


def test_cancellation_refused_leaves_the_registration_standing(staff, players):
    t = make_tournament(staff)
    reg = enter(t, players[0])
    actions.registration_authorise(registration_id=reg.pk, authorizer=ACCEPT)
    actions.registration_cancel(tournament_id=t.pk, user=players[0])
    assert actions.registration_authorise(registration_id=reg.pk, authorizer=REFUSE) == S.AUTHORISED
    assert money(players[0]) == FUNDS - 1_000
    assert_ledger(t, players)


def test_cancellation_waiting_at_the_close_is_completed(staff, players):
    t = make_tournament(staff)
    for p in players[:5]:
        enter(t, p)
    authorise_all(t)
    actions.registration_cancel(tournament_id=t.pk, user=players[4])
    close_now(t)
    assert Registration.objects.get(tournament=t, user=players[4]).state == S.CANCELLED
    assert_ledger(t, players)


def test_no_cancellation_after_the_close(staff, players):
    t = make_tournament(staff)
    for p in players[:4]:
        enter(t, p)
    authorise_all(t)
    close_now(t)
    with pytest.raises(errors.CancellationClosed):
        actions.registration_cancel(tournament_id=t.pk, user=players[0])
    assert_ledger(t, players)


def test_sitgo_cancellation_before_it_starts(staff, players):
    t = make_tournament(staff, kind=Tournament.Kind.SITGO, max_players=4)
    regs = [enter(t, p) for p in players[:3]]
    authorise_all(t)
    actions.registration_cancel(tournament_id=t.pk, user=players[0])
    authorise_all(t)
    assert Registration.objects.get(pk=regs[0].pk).state == S.CANCELLED
    assert_ledger(t, players)


def test_timeouts_are_retried_then_count_as_refused(staff, players):
    t = make_tournament(staff)
    reg = enter(t, players[0])
    assert actions.registration_authorise(registration_id=reg.pk, authorizer=TIMEOUT) == "timeout"
    reg.refresh_from_db()
    assert (reg.state, reg.attempts) == (S.PENDING, 1)
    Registration.objects.filter(pk=reg.pk).update(attempts=actions.AUTHORISATION_MAX_ATTEMPTS)
    later = timezone.now() + actions.AUTHORISATION_RETRY_AFTER + timedelta(seconds=1)
    actions.tournaments_sweep(now=later)
    reg.refresh_from_db()
    assert reg.state == S.REFUSED
    assert_ledger(t, players)


# --- staff cancellation for a technical fault ----------------------------------------------------


def test_staff_cancel_refunds_every_entry_in_every_state(staff, players):
    t = make_tournament(staff)
    regs = [enter(t, p) for p in players[:4]]
    for r in regs[:3]:
        actions.registration_authorise(registration_id=r.pk, authorizer=ACCEPT)
    actions.registration_cancel(tournament_id=t.pk, user=players[2])
    out = actions.tournament_cancel(tournament_id=t.pk, actor=staff, reason="Guasto del server di gioco")
    assert out == {"refunded": 4}
    t.refresh_from_db()
    assert t.state == Tournament.State.CANCELLED
    assert wallet_selectors.tournament_pool_get(tournament_ref=t.ledger_ref) == 0
    assert_ledger(t, players)
    with pytest.raises(errors.TournamentOver):
        actions.tournament_cancel(tournament_id=t.pk, actor=staff, reason="Di nuovo annullato")


def test_staff_cancel_after_the_close(staff, players):
    t = make_tournament(staff)
    for p in players[:4]:
        enter(t, p)
    authorise_all(t)
    close_now(t)
    actions.tournament_cancel(tournament_id=t.pk, actor=staff, reason="Guasto tecnico")
    assert_ledger(t, players)


# --- refusals change nothing ---------------------------------------------------------------------


def snapshot(t: Tournament):
    from tests.wallet.conftest import ledger_snapshot

    t.refresh_from_db()
    return (
        ledger_snapshot(),
        t.state,
        sorted(Registration.objects.values_list("pk", "state", "ticket", "refund_transaction")),
    )


@pytest.mark.parametrize(
    "case",
    ["twice", "after_close", "no_money", "suspended", "full", "cancel_unregistered", "player_creates"],
)
def test_refusals_change_nothing(staff, players, case):
    t = make_tournament(staff, max_players=4)
    enter(t, players[0])
    authorise_all(t)
    before = snapshot(t)
    if case == "twice":
        with pytest.raises(errors.AlreadyRegistered):
            enter(t, players[0], key="second")
    elif case == "after_close":
        for p in players[1:4]:
            enter(t, p)
        authorise_all(t)
        close_now(t)
        before = snapshot(t)
        with pytest.raises(errors.RegistrationClosed):
            enter(t, players[5])
    elif case == "no_money":
        short, broke = funded_player(500), funded_player(0)
        before = snapshot(t)  # after their deposits: only the refusals are checked
        for user in (short, broke):
            with pytest.raises(InsufficientFunds):
                enter(t, user)
    elif case == "suspended":
        blocked = UserFactory(status="suspended")
        with pytest.raises(PlayerNotAllowed):
            enter(t, blocked)
    elif case == "full":
        for p in players[1:4]:
            enter(t, p)
        before = snapshot(t)
        with pytest.raises(errors.TournamentFull):
            enter(t, players[5])
    elif case == "cancel_unregistered":
        with pytest.raises(errors.NotRegistered):
            actions.registration_cancel(tournament_id=t.pk, user=players[1])
    elif case == "player_creates":
        with pytest.raises(errors.NotPermitted):
            make_tournament(players[1])
    assert snapshot(t) == before


def test_same_key_replays_and_other_use_is_refused(staff, players):
    t = make_tournament(staff)
    first = enter(t, players[0], key="same")
    assert enter(t, players[0], key="same").pk == first.pk
    with pytest.raises(errors.IdempotencyConflict):
        enter(t, players[1], key="same")
    assert money(players[0]) == FUNDS - 1_000
    assert_ledger(t, players)


def test_a_decision_for_a_request_overtaken_is_ignored(staff, players):
    t = make_tournament(staff)
    reg = enter(t, players[0])
    actions.registration_authorise(registration_id=reg.pk, authorizer=ACCEPT)
    again = actions.registration_decide(registration_id=reg.pk, asked=S.PENDING, decision=Decision(False))
    assert again.state == S.AUTHORISED
    assert_ledger(t, players)


@pytest.mark.parametrize(
    "overrides",
    [
        {"pool_quota": 790, "fee": 210},  # pool under 80 %
        {"kind": Tournament.Kind.SITGO, "max_players": 6},  # not a power of 2
        {"game": "poker5"},  # not a gioco a partite
        {"lines": Tournament.Lines.RANDOM_PAIRS},  # pairs at a head-to-head table
        {"format": Tournament.Format.DANKO, "ko_qualifiers": 6},
        {"min_players": 10, "max_players": 8},
    ],
)
def test_invalid_settings_are_refused(staff, overrides):
    with pytest.raises(errors.InvalidTournament):
        make_tournament(staff, **overrides)
    assert not Tournament.objects.exists()


# --- fixed pairs -----------------------------------------------------------------------------------


def fixed_pairs(staff, **overrides):
    return make_tournament(
        staff, lines=Tournament.Lines.FIXED_PAIRS, table=Tournament.Table.PAIRS, **overrides
    )


def test_fixed_pairs_register_together_and_incomplete_pairs_are_excluded(staff, players):
    t = fixed_pairs(staff)
    a, b, c, d, e, f, g, h = players[:8]
    with pytest.raises(errors.PartnerRequired):
        enter(t, a)
    for first, second in ((a, b), (c, d), (e, f), (g, h)):
        actions.registration_create(
            tournament_id=t.pk, user=first, idempotency_key=f"p{first.pk}", partner=second
        )
    for second in (b, d, f):  # h never comes
        reg = enter(t, second)
        assert reg.pair.user == {b: a, d: c, f: e}[second]
    authorise_all(t)
    outcome = close_now(t)
    # pairs a-b, c-d, e-f complete: 6 players, cut to a multiple of 4 (the last pair, e-f, excluded);
    # g's pair is incomplete and g is refunded too
    assert outcome == {"admitted": 4, "excluded": 2, "cancelled": False}
    states = dict(Registration.objects.filter(tournament=t).values_list("user_id", "state"))
    assert [states[p.pk] for p in (a, b, c, d)] == [S.ADMITTED] * 4
    assert [states[p.pk] for p in (e, f, g)] == [S.EXCLUDED] * 3
    assert_ledger(t, players)


def test_fixed_pairs_keep_the_partners_place_and_refuse_bad_partners(staff, players):
    t = fixed_pairs(staff, kind=Tournament.Kind.SITGO, max_players=4)
    a, b, c, d, e = players[:5]
    for bad in (a, UserFactory(status="suspended")):
        with pytest.raises(errors.InvalidPartner):
            actions.registration_create(tournament_id=t.pk, user=a, idempotency_key="bad", partner=bad)
    actions.registration_create(tournament_id=t.pk, user=a, idempotency_key="a", partner=b)
    actions.registration_create(tournament_id=t.pk, user=c, idempotency_key="c", partner=d)
    with pytest.raises(errors.TournamentFull):  # b's and d's places are kept
        actions.registration_create(tournament_id=t.pk, user=e, idempotency_key="e", partner=players[5])
    # the lobby's preview says the same to e, and offers b the place kept for him
    assert actions.registration_refusal(tournament=t, user=e) == errors.TournamentFull.default_message
    assert actions.registration_refusal(tournament=t, user=b) is None
    with pytest.raises(errors.InvalidPartner):  # b is already someone's partner
        actions.registration_create(tournament_id=t.pk, user=players[6], idempotency_key="x", partner=b)
    enter(t, b)
    enter(t, d)
    authorise_all(t)
    t.refresh_from_db()
    assert t.state == Tournament.State.CLOSED
    assert Registration.objects.filter(tournament=t, state=S.ADMITTED).count() == 4
    assert_ledger(t, players)
