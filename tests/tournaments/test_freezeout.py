"""Level tournaments played to the end by bots on the live tables: a freezeout of 30 on tables of 6.

Every hand is dealt and played at the lobby's tables (``lobby.door``: the owner runtime's entry),
each decision a bot's (``lobby.bots.bot_action``, through ``door.table_bot_move``); the tournament
learns each hand's end through ``hooks.match_ended`` and is advanced as its task does
(``running.tournament_advance``), with the level clock moved on one minute per round of hands.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import registry
from games.rng import SeededRng
from lobby import door
from lobby.bots import bot_action
from lobby.models import Hand, Seat, Table, TableRuntime
from piattaforma import hooks
from piattaforma.models import User
from tests.lobby.helpers import runtime
from tests.tournaments.conftest import FUNDS, authorise_all, money
from tests.tournaments.factories import enter, make_tournament
from tests.tournaments.running_helpers import ledger_zero, pool
from tests.wallet.factories import funded_player
from tournaments import freezeout, running
from tournaments.formats.prizes import award
from tournaments.formats.standings import check_placings
from tournaments.freezeout import LEVELS, chips_in_play
from tournaments.models import LEVEL_GAMES, Registration, Tournament, TournamentMatch
from wallet import selectors as wallet_selectors

pytestmark = pytest.mark.django_db(transaction=False)

ENTRANTS, SEATS, CHIPS, INVITO = 30, 6, 400, 20


def freezeout_tournament(
    staff,
    game: str,
    entrants: int = ENTRANTS,
    *,
    people: bool = False,
    fmt: str = Tournament.Format.FREEZEOUT,
    seats: int = SEATS,
    options: dict | None = None,
) -> tuple[Tournament, list[User]]:
    """A level sit&go (a freezeout, or ``fmt``) of ``entrants`` bots (or people), full and
    authorised, started."""
    t = make_tournament(
        staff,
        name="Freezeout di prova",
        game=game,
        format=fmt,
        kind=Tournament.Kind.SITGO,
        max_players=entrants,
        starting_chips=CHIPS,
        seats_per_table=seats,
        speed=Tournament.Speed.SUPERTURBO,
        first_invito=INVITO,
        options=options or {},
    )
    bots = [funded_player(FUNDS, is_bot=not people) for _ in range(entrants)]
    for bot in bots:
        enter(t, bot)
    authorise_all(t)
    t.refresh_from_db()
    assert t.state == Tournament.State.CLOSED
    assert running.tournament_start(tournament_id=t.pk)
    t.refresh_from_db()
    return t, bots


def level_tables(t: Tournament) -> list[TournamentMatch]:
    return list(TournamentMatch.objects.filter(tournament=t, phase=LEVELS, ended_at__isnull=True))


def play_hand(table_id: int) -> None:
    """The bots play the table's hand to its end (a person's decisions: a bot's move, sent as his)."""
    for _ in range(2000):
        rt = runtime(Table(pk=table_id))
        engine = registry.get(rt.game)
        if rt.state is None or engine.is_over(rt.state):
            if Hand.objects.filter(table_id=table_id, number=rt.hand_no, ended_at__isnull=True).exists():
                door.table_start_hand(table_id=table_id)  # the due start settles a hand over as dealt
            return
        if door.table_bot_move(table_id=table_id, version=rt.version):
            continue
        seat_no = engine.to_act(rt.state)[0]
        user = Seat.objects.get(table_id=table_id, number=seat_no).user
        action = bot_action(engine, rt.state, seat_no, SeededRng(rt.version))
        door.table_act(table_id=table_id, user=user, action=action, version=rt.version)
    raise AssertionError(f"table {table_id}: the hand did not end")


def lobby_chips_agree(t: Tournament) -> None:
    """The chips the lobby dealt each running table are the tournament's chips of its players."""
    p = t.progress
    for m in level_tables(t):
        if not m.result["running"]:
            continue
        rt = TableRuntime.objects.get(pk=m.table_id)
        hand = Hand.objects.get(table_id=m.table_id, number=rt.hand_no)
        dealt = {str(s["user_id"]): s["chips"] for s in hand.seats}
        assert dealt == {uid: p["chips"][uid] for uid in dealt}, (dealt, m.table_id)
        seated = set(Seat.objects.filter(table_id=m.table_id).values_list("user_id", flat=True))
        assert {int(u) for u in dealt} == seated
        assert {int(u) for u, (tid, _s) in p["seating"].items() if tid == m.table_id} == seated
        # a hand is dealt with the level in force at its deal (a new level applies from the next hand)
        key = next(iter(LEVEL_GAMES[t.game]))  # the level's minimum bet: invito, puntata minima
        assert INVITO <= hand.config[key] <= INVITO * _multiplier(p["level"])


def _multiplier(level: int) -> int:
    from tournaments.formats.levels import invito_multiplier

    return invito_multiplier(level)


def advance(t: Tournament, clock) -> None:
    """What the tournament's task does after a hand's end, at ``clock``."""
    running.tournament_advance(tournament_id=t.pk, now=clock)


def play_to_the_end(t: Tournament, seed: int, until=None, step=advance) -> dict:
    """Play hands until one player holds every chip: at each round a random subset of the tables
    with a hand running plays it out (the others stay in their hand), then the tournament advances.
    Chips are checked after every hand folded and every move."""
    rng = random.Random(seed)
    clock = t.started_at
    seen = {"max_tables": len(level_tables(t))}
    for _ in range(3000):
        t.refresh_from_db()
        if t.state != Tournament.State.RUNNING or (until is not None and until(t)):
            return seen
        busy = [m.table_id for m in level_tables(t) if m.result["running"]]
        if busy:
            for table_id in rng.sample(busy, max(1, rng.randint(1, len(busy)))):
                play_hand(table_id)
        clock += timedelta(seconds=60)
        step(t, clock)
        t.refresh_from_db()
        if t.state == Tournament.State.RUNNING:
            assert chips_in_play(t) == len(t.progress["lines"]) * CHIPS
            held = t.progress["held"]  # a banker's chips in his banco are his
            assert not any(c + held.get(uid, 0) <= 0 for uid, c in t.progress["chips"].items())
            lobby_chips_agree(t)
            open_tables = Table.objects.filter(tournament_id=t.pk, is_open=True)
            for table in open_tables:
                assert table.seat_rows.count() <= SEATS
            if t.progress["hand_for_hand"]:
                # every table was dealt this round's hand together; none deals again before all end
                tables = level_tables(t)
                assert len(tables) > 1
                assert {m.result["round"] for m in tables} == {t.progress["round"]}
    raise AssertionError(f"the freezeout did not end: {_where_it_stands(t)}")


def _where_it_stands(t: Tournament) -> list[dict]:
    """Each open level table as the tournament and the lobby see it (a stuck freezeout's report)."""
    out = []
    for m in level_tables(t):
        rt = TableRuntime.objects.get(pk=m.table_id)
        over = rt.state is None or registry.get(rt.game).is_over(rt.state)
        hand = Hand.objects.filter(table_id=m.table_id, number=rt.hand_no).first()
        out.append(
            {
                "table": m.table_id,
                "result": m.result,
                "hand_no": rt.hand_no,
                "over": over,
                "hand_ended": bool(hand and hand.ended_at),
                "start_at": rt.start_at,
                "phase": rt.state and rt.state.get("phase"),
                "dealt": rt.dealt,
                "seats": list(Seat.objects.filter(table_id=m.table_id).values_list("number", "status")),
                "config": rt.table.config,
                "outcome": hand and hand.outcome,
            }
        )
    p = t.progress
    return [p.get("round"), p.get("hand_for_hand"), p.get("chips"), p.get("held"), p.get("pots"), *out]


@pytest.mark.parametrize("game", ["poker5", "telesina"])
def test_a_freezeout_of_30_bots_on_5_tables_of_6_is_played_to_the_end(client, staff, game):
    t, bots = freezeout_tournament(staff, game)
    assert len(level_tables(t)) == 5
    assert (
        sorted(Seat.objects.filter(table__tournament_id=t.pk).values_list("table_id", flat=True)).count(
            level_tables(t)[0].table_id
        )
        == 6
    )
    assert all(h.seats[0]["chips"] == CHIPS for h in Hand.objects.filter(table__tournament_id=t.pk))
    assert pool(t) == ENTRANTS * t.pool_quota

    play_to_the_end(t, seed=40)
    t.refresh_from_db()
    p = t.progress
    assert t.state == Tournament.State.FINISHED

    # the level clock raised the invito between hands
    assert len(p["level_changes"]) >= 2
    assert [c[0] for c in p["level_changes"]] == sorted(c[0] for c in p["level_changes"])
    inviti = {h.config["invito"] for h in Hand.objects.filter(table__tournament_id=t.pk)}
    assert {INVITO, *(c[1] for c in p["level_changes"])} >= inviti and len(inviti) >= 3
    # tables were broken and players moved, keeping their chips
    assert len(p["broken"]) == 4 and p["moves"]
    assert Table.objects.filter(tournament_id=t.pk, is_open=True).count() == 0
    hand_for_hand_entered_and_left(t, freezeout.HAND_FOR_HAND_MARGIN)
    # the winner holds every chip; the placings cover all 30, exact
    assert p["chips"] == {p["winner"]: ENTRANTS * CHIPS}
    placings = placings_and_prizes_exact(t, bots)
    assert placings[0] == [p["winner"]]
    winner = User.objects.get(pk=int(p["winner"]))
    page = client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
    assert winner.nickname in page and "Freezeout" in page


def placings_and_prizes_exact(t: Tournament, bots: list[User]) -> list[list[str]]:
    """The final placings cover every entrant, each group at its position; the prizes are the rules'
    table to the cent, the pool at zero, every entrant's money and PT, the ledger balanced."""
    p = t.progress
    entrants = len(bots)
    placings = running.final_placings(t)
    check_placings(placings)
    assert sorted(uid for group in placings for uid in group) == sorted(str(b.pk) for b in bots)
    regs = {r.user_id: r for r in Registration.objects.filter(tournament=t)}
    position = 1
    for group in placings:
        assert {regs[int(uid)].position for uid in group} == {position}
        position += len(group)
    paid = running.tournament_pay(tournament_id=t.pk)
    weights = running.prize_weights(t, entrants)
    expected = award(entrants * t.pool_quota, weights, placings, p["registration_order"])
    assert {int(uid): amount for uid, amount in expected.items() if amount} == paid["prizes"]
    assert sum(paid["prizes"].values()) == entrants * t.pool_quota
    assert pool(t) == 0
    for bot in bots:
        regs[bot.pk].refresh_from_db()
        assert regs[bot.pk].prize == paid["prizes"].get(bot.pk, 0)
        assert money(bot) == FUNDS - t.cost + regs[bot.pk].prize
        assert regs[bot.pk].pt is not None
    assert ledger_zero() == 0
    assert wallet_selectors.reconciliation_report()["ok"]
    return placings


def hand_for_hand_entered_and_left(t: Tournament, margin: int) -> None:
    """Hand for hand began when the players left were just above the paid places and ended once
    they were no more than the paid places (rules 004, "Modalità mano per mano")."""
    paid = len(running.prize_weights(t, ENTRANTS))
    log = t.progress["hand_for_hand_log"]
    assert [kind for kind, _n in log] == ["on", "off"] * (len(log) // 2) + ["on"] * (len(log) % 2)
    for kind, left in log:
        assert (paid < left <= paid + margin) if kind == "on" else left <= paid, log


def test_the_tournaments_game_options_reach_its_tables_at_every_level(staff):
    t, _bots = freezeout_tournament(staff, "telesina", 12, options={"limit": "PL", "vele": "croce"})
    tables = list(Table.objects.filter(tournament_id=t.pk))
    assert tables and all(tb.config["limit"] == "PL" and tb.config["vele"] == "croce" for tb in tables)
    level = freezeout.level_now(t, t.started_at + timedelta(hours=1))
    config = freezeout.level_config(t, level)
    assert config["invito"] == level.invito > INVITO and config["limit"] == "PL"  # the level sets the invito


def test_a_freezeout_plays_hand_for_hand_near_the_paid_places(client, staff, monkeypatch):
    """With a margin of 20 (players left from 27 down to 8 with 7 paid), every round of hands is
    dealt at every table together, until the players left are the paid places."""
    monkeypatch.setattr(freezeout, "HAND_FOR_HAND_MARGIN", 20)
    t, _bots = freezeout_tournament(staff, "poker5")
    play_to_the_end(t, seed=41)
    t.refresh_from_db()
    assert t.state == Tournament.State.FINISHED
    log = t.progress["hand_for_hand_log"]
    assert log[0][0] == "on" and log[-1][0] == "off" and t.progress["round"] >= 3
    hand_for_hand_entered_and_left(t, 20)
    placings = running.final_placings(t)
    check_placings(placings)
    assert sum(len(g) for g in placings) == ENTRANTS
    assert chips_in_play(t) == ENTRANTS * CHIPS


def test_the_tournament_pages_show_a_level_tournament(client, staff):
    t, _bots = freezeout_tournament(staff, "poker5", entrants=8)
    listed = reverse("tournaments:list") + f"?tipo=sitgo&t={t.pk}"
    for url in (listed, reverse("tournaments:lobby", args=[t.pk])):
        response = client.get(url)
        assert response.status_code == 200, url
        page = response.content.decode()
        assert "Freezeout di prova" in page and "Freezeout" in page and "superturbo" in page, url
    page = client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
    assert "Invito 20" in page and "Invito 40" in page  # the structure: the levels with their times


def test_a_moved_player_is_called_to_his_new_table_and_a_leaver_stays_in_sitout(
    staff, monkeypatch, django_capture_on_commit_callbacks
):
    """People at the tables: each move sends the moved player, after the commit, a call to his new
    table on every page he has open, and a page that connects later is told his table now. A
    player who leaves his table stays in the tournament, in sitout, with his chips (RULINGS L2)."""
    sent: list[tuple[int, dict]] = []
    monkeypatch.setattr("piattaforma.playercalls.calls_send", lambda calls: sent.extend(calls))
    t, people = freezeout_tournament(staff, "poker5", entrants=12, people=True)
    assert len(level_tables(t)) == 2

    leaver = people[0]
    table_id = t.progress["seating"][str(leaver.pk)][0]
    play_hand(table_id)
    assert door.table_leave(table_id=table_id, user=leaver) == {"left": False, "sitout": True}
    assert Seat.objects.get(table_id=table_id, user=leaver).status == Seat.Status.SITOUT
    # the cash tables' stand-up of a long sitout never applies at a tournament's table (RULINGS L2)
    Seat.objects.filter(table_id=table_id, user=leaver).update(
        missed_hands=100, sitout_since=timezone.now() - timedelta(hours=1)
    )
    door.table_chores(table_id=table_id)
    assert Seat.objects.filter(table_id=table_id, user=leaver).exists()

    def with_calls(t: Tournament, clock) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            running.tournament_advance(tournament_id=t.pk, now=clock)

    play_to_the_end(t, seed=7, until=lambda t: bool(t.progress["moves"]), step=with_calls)
    t.refresh_from_db()
    if str(leaver.pk) in t.progress["chips"]:  # still in: seated at his table, or moved with his chips
        where = t.progress["seating"][str(leaver.pk)][0]
        assert Seat.objects.filter(table_id=where, user=leaver).exists()
    assert t.progress["moves"], "no move happened"
    for uid, _source, target, seat, _hands in t.progress["moves"]:
        calls = [c for user_id, c in sent if user_id == int(uid) and c["table_id"] == target]
        assert calls and "cambio di tavolo" in calls[-1]["title"]
        assert calls[-1]["url"] == reverse("lobby:table", args=[target])
        if t.state == Tournament.State.RUNNING and t.progress["seating"].get(uid, [None])[0] == target:
            assert Seat.objects.get(table_id=target, user_id=int(uid)).number == seat
            (now,) = hooks.player_calls(user_id=int(uid))
            assert now["table_id"] == target


def test_the_next_hand_is_dealt_after_the_pause_to_read_the_result(
    staff, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """A hand's end asks for the tournament's advance (the next deal) after the pause a cash table
    takes to show the result: 4 s, or 8 s after a showdown."""
    t, _bots = freezeout_tournament(staff, "poker5", entrants=8)
    sent: list[tuple[str, dict]] = []

    def record(self, *args, **kwargs):
        sent.append((self.task, dict(self.options)))

    monkeypatch.setattr("celery.canvas.Signature.apply_async", record)
    settings.TOURNAMENTS_SCHEDULE_TASKS = True
    table_id = level_tables(t)[0].table_id
    with django_capture_on_commit_callbacks(execute=True):
        play_hand(table_id)
    advances = [options for task, options in sent if task == "tournaments.advance"]
    assert len(advances) == 1 and advances[0]["countdown"] in (4, 8), sent


@pytest.mark.parametrize("game", ["poker5", "telesina"])
def test_a_heads_up_with_an_absent_player_is_blinded_off_to_its_end(staff, game):
    """RULINGS L1 at the runtime: with one of the last two players gone (sitout), every hand is still
    dealt; the absent seat pays its invito and the one playing takes the pot at once. The absent
    player is blinded off, the tournament ends with the present one first, and no chip is lost."""
    t, (present, absent) = freezeout_tournament(staff, game, entrants=2, people=True)
    (table,) = level_tables(t)
    play_hand(table.table_id)  # the first hand played by both; he leaves between hands
    assert door.table_leave(table_id=table.table_id, user=absent) == {"left": False, "sitout": True}
    before = Hand.objects.filter(table_id=table.table_id).count()
    play_to_the_end(t, seed=3)
    t.refresh_from_db()
    hands = Hand.objects.filter(table_id=table.table_id, number__gt=before)
    if hands.exists():  # (the first hand may have ended the tournament: an all-in)
        assert not Hand.objects.filter(table_id=table.table_id, ended_at__isnull=True).exists()  # settled
        assert all(h.seats and {s["user_id"] for s in h.seats} == {present.pk, absent.pk} for h in hands)
        assert running.final_placings(t)[0] == [str(present.pk)]  # the present player wins
    assert t.state == Tournament.State.FINISHED
    paid = running.tournament_pay(tournament_id=t.pk)
    assert sum(paid["prizes"].values()) == 2 * t.pool_quota and pool(t) == 0
    assert ledger_zero() == 0


@pytest.mark.parametrize("game", ["poker5", "telesina"])
def test_a_final_table_all_in_sitout_is_blinded_off_to_a_winner(staff, game):
    """With every seat of a level table in sitout nobody may win a pot at a showdown, and carried
    it would drain every stack into it (RULINGS L1 names one seat playing, not none). Each hand's
    pot goes to the first to speak of those who paid into it: the stacks swing as the invito
    grows, until they bust; the tournament ends, no chip lost, the pool at zero."""
    t, bots = freezeout_tournament(staff, game, entrants=3)
    (table,) = level_tables(t)
    Seat.objects.filter(table_id=table.table_id).update(status=Seat.Status.SITOUT)
    for _ in range(20):  # the first hand, dealt before, timed out: played on, it could bust two at once
        rt = runtime(Table(pk=table.table_id))
        if registry.get(rt.game).is_over(rt.state):
            break
        TableRuntime.objects.filter(pk=rt.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        door.table_timeout(table_id=table.table_id, version=rt.version)  # (a time bank first, if any)
    assert registry.get(rt.game).is_over(rt.state)
    play_to_the_end(t, seed=5)
    t.refresh_from_db()
    hands = list(Hand.objects.filter(table_id=table.table_id).order_by("number"))
    assert len(hands) > 3 and all(h.ended_at for h in hands)
    winners = []
    for hand in hands[1:]:  # (the first was dealt before) each hand's pot to one seat, none carried
        (pot,) = hand.outcome["pots"]
        assert len(pot["winners"]) == 1 and hand.outcome["carried_out"] == 0, hand.outcome
        winners.append(pot["winners"][0])
    assert len(set(winners)) > 1  # the first to speak moves with the deal
    assert t.state == Tournament.State.FINISHED
    assert t.progress["chips"] == {t.progress["winner"]: 3 * CHIPS}
    placings_and_prizes_exact(t, bots)
