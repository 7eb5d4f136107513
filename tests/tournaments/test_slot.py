"""Slot tournaments (rules 004, "Regole della slot tornei"; RULINGS S8) on the tournament machinery.

Sit&go and scheduled, played by bots through ``slot.slot_act`` (random unit bets, random choices)
with the clock driven by the ``now`` each action and advance is given, to the prizes: the ledger
zero-sum, the pool at zero, the placings of ``formats.slot``, the extra minute of a tie for first,
the end-of-time rules, a disconnected player's credit kept, the credit never negative.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games.rng import SeededRng
from games.slot import engine
from tests.tournaments.conftest import FUNDS, authorise_all, money
from tests.tournaments.factories import enter, make_tournament
from tests.tournaments.running_helpers import full_tournament, ledger_zero, pool
from tests.wallet.factories import funded_player
from tournaments import actions, errors, running, slot
from tournaments.formats.prizes import award
from tournaments.formats.slot import slot_placings
from tournaments.formats.standings import check_placings, position_of
from tournaments.models import SLOT_DEFAULT_CREDIT, Registration, SlotSession, Tournament

pytestmark = pytest.mark.django_db(transaction=False)

CREDIT = 3_000  # a small credit, so that bots run out of it within the test's spins


SLOT = {"name": "Slot di prova", "game": "slot", "format": Tournament.Format.SLOT, "starting_chips": CREDIT}


def slot_tournament(staff, entrants: int = 4, **overrides) -> Tournament:
    values = {**SLOT, "kind": Tournament.Kind.SITGO, "max_players": entrants, "slot_minutes": 2, **overrides}
    return make_tournament(staff, **values)


def started(staff, entrants: int = 4, **overrides) -> tuple[Tournament, list]:
    """A full, authorised slot sit&go, started now."""
    values = {**SLOT, "smazzate": 0, **overrides}
    return full_tournament(staff, entrants, **values)


def session(t: Tournament, user) -> SlotSession:
    return SlotSession.objects.get(tournament=t, user=user)


def act(t: Tournament, user, action: dict, now: datetime) -> dict:
    return slot.slot_act(
        tournament_id=t.pk, user=user, action=action, version=session(t, user).version, now=now
    )


def bot_move(state: dict, rng: random.Random) -> dict | None:
    """A bot's action: a random unit bet it can pay, or a random choice; None: nothing to do."""
    legal = engine.legal_actions(state)
    if not legal:
        return None
    spec = rng.choice(legal)
    action = {k: v for k, v in spec.items() if k not in ("label", "amount")}
    if "amount" in spec:
        action["amount"] = rng.randint(spec["amount"]["min"], spec["amount"]["max"])
    return action


def play_bots(t: Tournament, users: list, start: datetime, end: datetime, rng: random.Random) -> None:
    """The bots play in turns, each action at a later moment, until ``end`` (or nothing to do)."""
    moments = sorted(start + (end - start) * rng.random() for _ in range(60))
    for now in moments:
        user = rng.choice(users)
        playing = session(t, user).playing
        action = bot_move(playing, rng)
        if action is None:
            continue
        out = act(t, user, action, now)
        assert out["view"]["credit"] >= 0
        s = session(t, user)
        assert s.credit == s.playing["credit"] >= 0
        assert out["version"] == s.version


def assert_replays(t: Tournament) -> None:
    """Every session (and extra minute) rebuilt from its journal is the stored one."""
    for s in SlotSession.objects.filter(tournament=t):
        assert engine.replay(s.state["start_credit"], s.state["journal"]) == s.state
        if s.extra_state is not None:
            assert s.extra_state["start_credit"] == s.state["credit"]
            assert engine.replay(s.extra_state["start_credit"], s.extra_state["journal"]) == s.extra_state


def pay_and_check(t: Tournament, players: list, before: int) -> dict:
    """Pay the prizes: the pool at zero, every prize as the table gives it, the ledger zero-sum."""
    paid = running.tournament_pay(tournament_id=t.pk)
    assert paid is not None
    t.refresh_from_db()
    assert pool(t) == 0
    assert ledger_zero() == 0
    p = t.progress
    expected = award(
        paid["pool"], running.prize_weights(t, len(p["lines"])), p["placings"], running.line_order(t)
    )
    assert paid["prizes"] == {int(line): amount for line, amount in expected.items() if amount > 0}
    for user in players:
        assert money(user) == FUNDS - t.cost + paid["prizes"].get(user.pk, 0)
    assert sum(money(u) for u in players) == before - len(players) * t.fee + (paid["top_up"])
    return paid


# --- settings ------------------------------------------------------------------------------------


def test_slot_defaults_and_refused_settings(staff):
    t = slot_tournament(staff, starting_chips=0, slot_minutes=0)
    assert (t.starting_chips, t.slot_minutes) == (SLOT_DEFAULT_CREDIT, 10)
    assert t.is_slot and t.min_players == t.max_players == 4
    bad = [
        ({"game": "scopa"}, "game"),
        ({"smazzate": 2}, "smazzate"),
        ({"seats_per_table": 6}, "seats_per_table"),
        ({"speed": Tournament.Speed.TURBO}, "seats_per_table"),
        ({"lines": Tournament.Lines.RANDOM_PAIRS, "max_players": 8}, "lines"),
        ({"options": {"carte_scoperte": True}}, "options"),
        ({"starting_chips": 29}, "starting_chips"),
        ({"slot_minutes": 61}, "slot_minutes"),
    ]
    for changes, field in bad:
        with pytest.raises(errors.InvalidTournament) as exc:
            slot_tournament(staff, **changes)
        assert field in exc.value.details["fields"], (changes, exc.value.details["fields"])
    # the slot is played only in its format, and its time only by slot tournaments
    with pytest.raises(errors.InvalidTournament) as exc:
        make_tournament(staff, game="slot", format=Tournament.Format.DANESE, smazzate=1)
    assert "game" in exc.value.details["fields"]
    with pytest.raises(errors.InvalidTournament) as exc:
        make_tournament(staff, game="scopa", smazzate=1, slot_minutes=5)
    assert "slot_minutes" in exc.value.details["fields"]


# --- a 4-entrant sit&go to its prizes ------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2])
def test_sitgo_played_by_bots_to_its_prizes(staff, seed):
    before = 4 * FUNDS
    t, players = started(staff)
    rng = random.Random(seed)
    start = t.started_at
    ends = start + timedelta(minutes=t.slot_minutes)
    assert {s.ends_at for s in SlotSession.objects.filter(tournament=t)} == {ends}
    assert {s.credit for s in SlotSession.objects.filter(tournament=t)} == {CREDIT}
    away = players[3]  # disconnected from the start: his credit waits for him
    play_bots(t, players[:3], start, ends, rng)
    # before the end nothing moves; at the end every session closes
    assert not running.tournament_advance(tournament_id=t.pk, now=ends - timedelta(seconds=1))
    with pytest.raises(errors.SlotTimeOver):
        act(t, players[0], {"type": "gira", "amount": 1}, ends)
    assert running.tournament_advance(tournament_id=t.pk, now=ends)
    t.refresh_from_db()
    credits = {str(s.user_id): s.credit for s in SlotSession.objects.filter(tournament=t)}
    assert credits[str(away.pk)] == CREDIT
    assert all(s.state["over"] for s in SlotSession.objects.filter(tournament=t))
    if t.progress["extra"] is not None:  # a tie for first: the extra minute, nobody plays it
        extra_end = t.progress["extra"]["ends_at"]
        assert running.tournament_advance(tournament_id=t.pk, now=datetime.fromisoformat(extra_end))
        t.refresh_from_db()
    assert t.state == Tournament.State.FINISHED
    assert t.progress["credits"] == credits
    placings = t.progress["placings"]
    check_placings(placings)
    assert sorted(e for group in placings for e in group) == sorted(credits)
    extra = t.progress["extra"]
    assert placings == slot_placings(credits, extra["credits"] if extra else None)
    positions = position_of(placings)
    for r in Registration.objects.filter(tournament=t):
        assert r.position == positions[str(r.user_id)] and r.pt is not None
    assert_replays(t)
    pay_and_check(t, players, before)


def test_extra_minute_separates_a_tie_for_first(staff):
    t, (a, b, c, d) = started(staff)
    start = t.started_at
    ends = start + timedelta(minutes=t.slot_minutes)
    # a and b never spin; c and d lose something, so a and b are tied for first
    for user in (c, d):
        now = start + timedelta(seconds=1)
        while session(t, user).credit >= CREDIT or session(t, user).playing["phase"] != "spin":
            action = bot_move(session(t, user).playing, random.Random(7)) or {}
            if action.get("type") == "gira":
                action["amount"] = 1
            act(t, user, action, now)
    assert running.tournament_advance(tournament_id=t.pk, now=ends)
    t.refresh_from_db()
    extra = t.progress["extra"]
    assert t.state == Tournament.State.RUNNING
    assert sorted(extra["players"]) == sorted([str(a.pk), str(b.pk)])
    extra_end = ends + timedelta(seconds=slot.EXTRA_TIME_S)
    assert extra["ends_at"] == extra_end.isoformat()
    # only the tied play; c's time is over
    with pytest.raises(errors.SlotTimeOver):
        act(t, c, {"type": "gira", "amount": 1}, ends + timedelta(seconds=5))
    assert session(t, a).extra_state["credit"] == CREDIT
    rng = random.Random(3)
    now = ends + timedelta(seconds=2)
    while session(t, a).credit == CREDIT or session(t, a).playing["phase"] != "spin":
        act(t, a, bot_move(session(t, a).playing, rng), now)  # b stays away
    # the standings put the players of the extra minute first
    table = slot.snapshot(tournament_id=t.pk, user_id=c.pk, now=now)["standings"]
    assert {row["position"] for row in table["best"][:2]} <= {1, 2}
    assert table["position"] >= 3
    assert not running.tournament_advance(tournament_id=t.pk, now=extra_end - timedelta(seconds=1))
    assert running.tournament_advance(tournament_id=t.pk, now=extra_end)
    t.refresh_from_db()
    assert t.state == Tournament.State.FINISHED
    first, second = sorted([a, b], key=lambda u: -session(t, u).credit)
    assert t.progress["placings"][:2] == [[str(first.pk)], [str(second.pk)]]
    assert t.progress["extra"]["credits"] == {str(a.pk): session(t, a).credit, str(b.pk): CREDIT}
    assert_replays(t)
    pay_and_check(t, [a, b, c, d], 4 * FUNDS)


def test_still_tied_after_the_extra_minute_they_share(staff):
    t, players = started(staff)
    ends = t.started_at + timedelta(minutes=t.slot_minutes)
    assert running.tournament_advance(tournament_id=t.pk, now=ends)  # nobody played: all four tied
    t.refresh_from_db()
    assert len(t.progress["extra"]["players"]) == 4
    assert running.tournament_advance(tournament_id=t.pk, now=ends + timedelta(seconds=60))
    t.refresh_from_db()
    assert t.progress["placings"] == [sorted(str(u.pk) for u in players)]
    paid = pay_and_check(t, players, 4 * FUNDS)
    # K2: the four share the whole pool, the odd cents by registration order
    assert sum(paid["prizes"].values()) == paid["pool"]
    assert max(paid["prizes"].values()) - min(paid["prizes"].values()) <= 1


# --- the end of time -----------------------------------------------------------------------------


def _pending_state(credit: int) -> dict:
    """A session whose last spin left a bonus or slates waiting (found by the engine, seeded)."""
    for seed in range(100_000):
        state = engine.new(credit)
        engine.apply(state, {"type": "gira", "amount": 1}, SeededRng(seed))
        if state["phase"] in (engine.BONUS, engine.SLATES):
            return state
    raise AssertionError("no feature in 100,000 spins")


def test_a_choice_pending_at_the_end_is_answered_negatively(staff):
    t, players = started(staff)
    ends = t.started_at + timedelta(minutes=t.slot_minutes)
    s = session(t, players[0])
    s.state = _pending_state(CREDIT)
    s.credit = s.state["credit"]
    s.save()
    phase = s.state["phase"]
    assert running.tournament_advance(tournament_id=t.pk, now=ends)
    s.refresh_from_db()
    spin = s.state["spin"]
    assert s.state["over"] and s.state["phase"] == engine.SPIN
    assert s.state["journal"][-1]["action"] == {"type": engine.EXPIRE}
    if phase == engine.BONUS:  # the level reached: level 1, no door turned
        assert spin["bonus"]["doors"] == [] and spin["bonus"]["win"] == spin["bet"] * 5
    else:  # the free spins played at multiplier 1, as awarded
        assert spin["free"]["multiplier"] == 1 and len(spin["free"]["spins"]) >= spin["free"]["awarded"]
    assert s.credit == s.state["credit"]
    assert engine.replay(CREDIT, s.state["journal"]) == s.state


def test_a_spin_before_the_end_counts_in_full(staff):
    t, players = started(staff)
    ends = t.started_at + timedelta(minutes=t.slot_minutes)
    out = act(t, players[0], {"type": "gira", "amount": 1}, ends - timedelta(microseconds=1))
    credit = out["view"]["credit"]
    assert running.tournament_advance(tournament_id=t.pk, now=ends)
    assert session(t, players[0]).state["spins"] == 1
    assert session(t, players[0]).credit >= credit  # a feature it started paid at the end, never less


# --- refusals ------------------------------------------------------------------------------------


def test_refusals_change_nothing(staff):
    t, players = started(staff, starting_chips=2_000)
    user = players[0]
    now = t.started_at + timedelta(seconds=1)
    outsider = funded_player(FUNDS)
    before = session(t, user)
    cases = [
        (user, {"type": "gira", "amount": 0}, before.version, "bet_out_of_range"),
        (user, {"type": "gira", "amount": 100}, before.version, "insufficient_credit"),
        (user, {"type": "porta", "door": 1}, before.version, "no_choice_pending"),
        (user, {"type": "tira"}, before.version, "unknown_action"),
        (user, ["gira"], before.version, "unknown_action"),
        (user, {"type": "gira", "amount": 1}, before.version + 1, "stale_version"),
        (user, {"type": "gira", "amount": 1}, "0", "stale_version"),
        (outsider, {"type": "gira", "amount": 1}, 0, "slot_not_playing"),
    ]
    for who, action, version, code in cases:
        with pytest.raises(Exception) as exc:
            slot.slot_act(tournament_id=t.pk, user=who, action=action, version=version, now=now)
        assert getattr(exc.value, "code", None) == code, (action, exc.value)
    after = session(t, user)
    assert (after.state, after.version, after.credit) == (before.state, before.version, before.credit)
    assert not SlotSession.objects.filter(user=outsider).exists()
    # accepted: the version moves on, the credit pays the total bet
    out = act(t, user, {"type": "gira", "amount": 2}, now)
    assert out["version"] == before.version + 1
    assert out["events"][0]["type"] == "giro" and out["events"][0]["bet"] == 60


def test_no_play_before_the_start_nor_after_the_end(staff):
    t = slot_tournament(staff)
    user = funded_player(FUNDS)
    enter(t, user)
    with pytest.raises(errors.SlotNotPlaying):
        slot.slot_act(tournament_id=t.pk, user=user, action={"type": "gira", "amount": 1}, version=0)
    t2, players = started(staff)
    ends = t2.started_at + timedelta(minutes=t2.slot_minutes)
    running.tournament_advance(tournament_id=t2.pk, now=ends)
    running.tournament_advance(tournament_id=t2.pk, now=ends + timedelta(minutes=1))
    t2.refresh_from_db()
    assert t2.state == Tournament.State.FINISHED
    with pytest.raises(errors.SlotNotPlaying):
        act(t2, players[0], {"type": "gira", "amount": 1}, ends + timedelta(minutes=2))


# --- every kind of tournament --------------------------------------------------------------------


def test_scheduled_slot_tournament_starts_at_its_time(staff):
    starts = timezone.now() + timedelta(hours=1)
    t = slot_tournament(staff, kind=Tournament.Kind.SCHEDULED, max_players=8, min_players=2, starts_at=starts)
    players = [funded_player(FUNDS) for _ in range(3)]
    for p in players:
        enter(t, p)
    authorise_all(t)
    actions.tournaments_sweep(now=starts - timedelta(seconds=30))
    t.refresh_from_db()
    assert t.state == Tournament.State.CLOSED
    assert not running.tournament_start(tournament_id=t.pk, now=starts - timedelta(seconds=1))
    assert running.tournament_start(tournament_id=t.pk, now=starts)
    assert SlotSession.objects.filter(tournament=t).count() == 3
    ends = starts + timedelta(minutes=t.slot_minutes)
    assert {s.ends_at for s in SlotSession.objects.filter(tournament=t)} == {ends}


@pytest.mark.parametrize("setup", ["freeroll", "training"])
def test_freeroll_and_training(staff, setup):
    if setup == "freeroll":
        t, players = started(staff, pool_quota=0, fee=0, guaranteed=1_000)
    else:
        t, players = started(staff, training=True)
    ends = t.started_at + timedelta(minutes=t.slot_minutes)
    play_bots(t, players, t.started_at, ends, random.Random(5))
    running.tournament_advance(tournament_id=t.pk, now=ends)
    running.tournament_advance(tournament_id=t.pk, now=ends + timedelta(minutes=1))
    t.refresh_from_db()
    assert t.state == Tournament.State.FINISHED
    assert all(r.pt is not None for r in Registration.objects.filter(tournament=t))
    paid = running.tournament_pay(tournament_id=t.pk)
    assert pool(t) == 0 and ledger_zero() == 0
    if setup == "freeroll":
        assert sum(paid["prizes"].values()) == 1_000
    else:
        assert paid["prizes"] == {}


def test_cancelled_slot_sitgo_refunds_every_entry(staff):
    t = slot_tournament(staff)
    players = [funded_player(FUNDS) for _ in range(3)]
    for p in players:
        enter(t, p)
    authorise_all(t)
    actions.tournament_cancel(tournament_id=t.pk, actor=staff, reason="Guasto tecnico")
    assert all(money(p) == FUNDS for p in players)
    assert pool(t) == 0 and ledger_zero() == 0
    assert not SlotSession.objects.filter(tournament=t).exists()


# --- the pages that list every tournament stand a slot one ---------------------------------------


def test_pages_of_a_slot_tournament_open_running_and_finished(staff, client):
    from django.urls import reverse

    from tests.piattaforma.factories import sign_in

    t, players = started(staff)
    sign_in(client, players[0])
    for _step in ("running", "finished"):
        for url in (
            reverse("tournaments:list") + f"?tipo=sitgo&t={t.pk}",
            reverse("tournaments:lobby", args=[t.pk]),
            reverse("tournaments:my_state", args=[t.pk]),
        ):
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
        page = client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
        assert "Pierino Tenta la Fortuna" in page
        ends = t.started_at + timedelta(minutes=t.slot_minutes)
        running.tournament_advance(tournament_id=t.pk, now=ends)
        running.tournament_advance(tournament_id=t.pk, now=ends + timedelta(minutes=1))
