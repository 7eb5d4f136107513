"""A tournament played through on live tables: start, turns, results by hook, placings, prizes.

Every scenario ends with the pool at zero and the ledger zero-sum (postings sum to 0, the
reconciliation finds nothing). Matches are played by random legal moves through the lobby's own
``table_act`` (tests.lobby.helpers.play_hand_randomly); the tournament learns each result only
through ``piattaforma.hooks.match_ended``.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.rng import SeededRng
from lobby import actions as lobby
from lobby import selectors as lobby_selectors
from lobby.errors import NotAllowed
from lobby.models import Seat, Table
from piattaforma import hooks
from tests.lobby.factories import scopa_table
from tests.lobby.helpers import play_hand_randomly, seat_players
from tests.piattaforma.factories import sign_in
from tests.tournaments.conftest import FUNDS, authorise_all, money
from tests.tournaments.factories import enter, make_tournament
from tests.tournaments.running_helpers import (
    full_tournament,
    ledger_zero,
    open_tables,
    play_out,
    play_turn,
    pool,
)
from tests.wallet.factories import funded_player
from tournaments import actions, running
from tournaments.models import Registration, Tournament, TournamentMatch
from wallet import selectors as wallet_selectors
from wallet.models import Posting

pytestmark = pytest.mark.django_db
F = Tournament.Format


def finish_and_pay(t: Tournament, seed: int = 1) -> dict:
    play_out(t, SeededRng(seed))
    assert t.state == Tournament.State.FINISHED
    before = Posting.objects.count()
    paid = running.tournament_pay(tournament_id=t.pk)
    assert paid is not None and Posting.objects.count() > before
    assert running.tournament_pay(tournament_id=t.pk) is None  # twice pays nothing more
    assert pool(t) == 0
    assert ledger_zero() == 0
    assert wallet_selectors.reconciliation_report()["ok"]
    return paid


def check_money(t: Tournament, players, paid: dict) -> None:
    """Each player: his funds, less the entry, plus his prize; the prizes add up to the whole pool."""
    for p in players:
        reg = Registration.objects.get(tournament=t, user=p, state=Registration.State.ADMITTED)
        assert reg.position is not None
        assert reg.prize == paid["prizes"].get(p.pk, 0)
        assert money(p) == FUNDS - t.cost + reg.prize
    assert sum(paid["prizes"].values()) == paid["pool"] == len(players) * t.pool_quota + paid["top_up"]


@pytest.mark.parametrize(
    ("fmt", "entrants", "extra"),
    [
        (F.DANESE, 8, {"turns": 3}),
        (F.KO, 8, {}),
        (F.DANEL, 8, {"turns": 3}),
        (F.DANKO, 8, {"turns": 2, "ko_qualifiers": 4}),
        (F.DANELKO, 8, {"turns": 2, "ko_qualifiers": 4}),
    ],
)
def test_each_format_is_played_through_and_paid(staff, fmt, entrants, extra):
    t, players = full_tournament(staff, entrants, format=fmt, **extra)
    assert t.state == Tournament.State.RUNNING and t.turn == 1
    assert len(t.progress["random_list"]) == entrants
    first = list(TournamentMatch.objects.filter(tournament=t, turn=1))
    assert len(first) == entrants // 2 and all(m.table_id for m in first)
    paid = finish_and_pay(t)
    check_money(t, players, paid)
    positions = sorted(Registration.objects.filter(tournament=t).values_list("position", flat=True))
    assert positions[0] == 1
    if fmt == F.KO:
        assert t.turn == 3  # 8 lines: three KO rounds
        assert positions == [1, 2, 3, 3, 5, 5, 5, 5]
        assert sorted(paid["prizes"].values(), reverse=True) == [4680, 2520]  # 65/35 of 72,00 (K1)


def test_scheduled_ko_with_byes_and_a_guarantee(staff):
    t = make_tournament(staff, format=F.KO, min_players=4, guaranteed=10_000)
    players = [funded_player(FUNDS) for _ in range(6)]
    for p in players:
        enter(t, p)
    authorise_all(t)
    actions.tournament_close(tournament_id=t.pk, now=t.starts_at - timedelta(minutes=2))
    assert not running.tournament_start(tournament_id=t.pk)  # not yet: it starts at its time
    assert running.tournament_start(tournament_id=t.pk, now=t.starts_at)
    first = list(TournamentMatch.objects.filter(tournament=t, turn=1).order_by("number"))
    assert [bool(m.line_b) for m in first] == [True, True, False, False]  # 2 matches, 2 byes
    t.refresh_from_db()
    paid = finish_and_pay(t)
    assert paid["top_up"] == 10_000 - 6 * 900
    assert paid["prizes"] and sum(paid["prizes"].values()) == 10_000
    assert len(paid["prizes"]) == 1  # 1–6 entrants: one prize winner (K1)
    check_money(t, players, paid)


@pytest.mark.parametrize(
    ("game", "table", "lines"),
    [
        ("briscola", "4in2", "individual"),
        ("tresette", "4", "random_pairs"),
        ("cirulla", "2", "individual"),
        ("asso", "2", "individual"),
    ],
)
def test_games_and_table_kinds(staff, game, table, lines):
    t, players = full_tournament(staff, 8, game=game, table=table, lines=lines, turns=2, format=F.DANESE)
    seated = Seat.objects.filter(table_id__in=[m.table_id for m in t.matches.filter(turn=1)])
    assert seated.count() == 8  # every player seated once: 4 tables of 2, or 2 tables of 4 (pairs)
    paid = finish_and_pay(t)
    check_money(t, players, paid)


def test_rummy_games_end_by_abandonment_with_the_forfeit_vp(staff):
    """Burraco: random play may never close; the seat to act abandons (K6: 0 VP, the other ≥ 14)."""
    t, _players = full_tournament(staff, 4, game="burraco", turns=1, format=F.DANESE, smazzate=0)
    for table in open_tables(t):
        play_hand_randomly(table, SeededRng(3), abandon_after=6, max_steps=50)
    running.tournament_advance(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.state == Tournament.State.FINISHED
    for m in t.matches.all():
        offender = m.result["offender"]
        other = "b" if offender == "a" else "a"
        assert m.result["forfeit"] == "abandon"
        assert m.result[offender]["vp"] == 0 and m.result[other]["vp"] >= 14
        assert m.result[offender]["mp"] == -m.result[other]["mp"]
    running.tournament_pay(tournament_id=t.pk)
    assert pool(t) == 0 and ledger_zero() == 0


def test_absent_timeout_and_abandon_are_reported_as_conduct(staff):
    seen: list[dict] = []

    def record(**kwargs):
        seen.append(kwargs)

    hooks.on_tournament_conduct(record)
    try:
        t, players = full_tournament(staff, 4, turns=2, format=F.DANESE)
        absent = players[0]
        with django_capture_on_commit() as callbacks:
            play_turn(t, SeededRng(5), skip_user=absent)
        for cb in callbacks:
            cb()
        kinds = {(c["user_id"], c["kind"]) for c in seen}
        assert (absent.pk, "absent") in kinds
        m = TournamentMatch.objects.get(tournament=t, turn=1, table_id__in=_tables_of(absent))
        side = "a" if m.line_a == str(absent.pk) else "b"
        assert m.result["offender"] == side and m.result[side]["vp"] == 0
        assert m.result["b" if side == "a" else "a"]["vp"] == 20  # default table: a win's 20 ≥ 14
        seen.clear()
        with django_capture_on_commit() as callbacks:
            play_turn(t, SeededRng(6), abandon_user=players[1])
        for cb in callbacks:
            cb()
        assert {(c["user_id"], c["kind"], c["turn"], c["training"]) for c in seen} == {
            (players[1].pk, "abandon", 2, False)
        }
    finally:
        hooks._tournament_conduct.remove(record)


def _tables_of(user) -> list[int]:
    from lobby.models import HandPlayer

    return list(HandPlayer.objects.filter(user=user).values_list("hand__table_id", flat=True))


def django_capture_on_commit():
    from django.test import TestCase

    return TestCase.captureOnCommitCallbacks(execute=False)


def test_tournament_tables_are_not_cash_tables(staff):
    t, players = full_tournament(staff, 2, format=F.KO)
    table = open_tables(t)[0]
    assert table.tournament_id == t.pk and table.rake_bp == 0 and table.max_buy_in == 0
    assert table.pk not in {row["id"] for row in lobby_selectors.lobby_tables()}
    outsider = funded_player(FUNDS)
    postings = Posting.objects.count()
    with pytest.raises(NotAllowed):
        lobby.table_sit(table_id=table.pk, user=outsider, seat_no=1, buy_in=100, idempotency_key="x1")
    with pytest.raises(NotAllowed):
        lobby.waiting_join(table_id=table.pk, user=outsider)
    with pytest.raises(NotAllowed):
        lobby.table_rebuy(table_id=table.pk, user=players[0], amount=100, idempotency_key="x2")
    play_hand_randomly(table, SeededRng(2), max_steps=500)
    assert Posting.objects.count() == postings  # no money moved at the table
    assert not lobby.table_start_hand(table_id=table.pk)  # one match per tournament table
    running.tournament_advance(tournament_id=t.pk)
    table.refresh_from_db()
    assert not table.is_open and not table.seat_rows.exists()


def test_advance_before_the_turn_ends_changes_nothing(staff):
    t, _players = full_tournament(staff, 4, turns=2)
    tables = open_tables(t)
    play_hand_randomly(tables[0], SeededRng(1), max_steps=500)
    progress = dict(t.progress)
    assert not running.tournament_advance(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.turn == 1 and t.progress == progress
    assert TournamentMatch.objects.filter(tournament=t).count() == 2
    assert not running.tournament_start(tournament_id=t.pk)  # started once only
    assert running.tournament_pay(tournament_id=t.pk) is None  # nothing to pay while running


def test_a_cash_match_end_is_not_a_tournament_result(staff):
    table = scopa_table(config={"mode": "smazzate", "deals": 1})
    users = [funded_player(FUNDS), funded_player(FUNDS)]
    seat_players(table, users, buy_in=5_000)
    for u in users:
        lobby.table_ready(table_id=table.pk, user=u)
    play_hand_randomly(table, SeededRng(4), max_steps=500)
    assert not TournamentMatch.objects.exists()
    assert Table.objects.get(pk=table.pk).tournament_id is None


def test_the_sweep_starts_advances_and_pays(staff):
    t, _players = full_tournament(staff, 2, format=F.KO)
    for table in open_tables(t):
        play_hand_randomly(table, SeededRng(8), max_steps=500)
    out = running.running_sweep()
    assert out["advanced"] == 1 and out["paid"] == 1
    t.refresh_from_db()
    assert t.state == Tournament.State.FINISHED and t.paid_at is not None and pool(t) == 0


def test_staff_see_every_payout_players_do_not(staff, client):
    from django.urls import reverse

    t, players = full_tournament(staff, 2, format=F.KO)
    paid = finish_and_pay(t)
    (winner_id,) = paid["prizes"]
    winner = next(p for p in players if p.pk == winner_id)
    url = reverse("backoffice:tournaments_payout_changelist")
    sign_in(client, winner)
    assert client.get(url).status_code in (302, 403)
    sign_in(client, staff)
    page = client.get(url).content.decode()
    assert winner.nickname in page and "18,00" in page  # 2 × 9,00, all to the winner (K1)
    match_url = reverse("backoffice:tournaments_tournamentmatch_changelist")
    assert client.get(match_url).status_code == 200


def test_the_hook_twice_or_for_an_unknown_table_changes_nothing(staff):
    t, _players = full_tournament(staff, 2, format=F.KO)
    table = open_tables(t)[0]
    captured: list[dict] = []
    hooks.on_match_ended(captured.append)
    try:
        play_hand_randomly(table, SeededRng(2), max_steps=500)
    finally:
        hooks._match_ended.remove(captured.append)
    (result,) = captured
    match = TournamentMatch.objects.get(table_id=table.pk)
    before = (match.result, match.ended_at)
    running.match_record(result)  # delivered again: already ended, nothing changes
    running.match_record({**result, "table_id": 10**9})  # no such match
    match.refresh_from_db()
    assert (match.result, match.ended_at) == before
    assert TournamentMatch.objects.filter(tournament=t).count() == 1


def test_fixed_pairs_at_tables_of_four(staff):
    t = make_tournament(
        staff, kind=Tournament.Kind.SITGO, max_players=8, lines="fixed_pairs", table="4", turns=2, smazzate=1
    )
    players = [funded_player(FUNDS) for _ in range(8)]
    for first, second in zip(players[::2], players[1::2], strict=True):
        actions.registration_create(
            tournament_id=t.pk, user=first, idempotency_key=f"p{first.pk}", partner=second
        )
        enter(t, second)
    authorise_all(t)
    t.refresh_from_db()
    assert t.state == Tournament.State.CLOSED
    assert running.tournament_start(tournament_id=t.pk)
    t.refresh_from_db()
    pairs = {tuple(m) for m in t.progress["lines"].values()}
    assert pairs == {(a.pk, b.pk) for a, b in zip(players[::2], players[1::2], strict=True)}
    (m1, _m2) = TournamentMatch.objects.filter(tournament=t, turn=1)
    assert Seat.objects.filter(table_id=m1.table_id).count() == 4
    paid = finish_and_pay(t)
    check_money(t, players, paid)
    # partners share their line's prize (the odd cent to the first registered)
    for a, b in zip(players[::2], players[1::2], strict=True):
        ra, rb = (Registration.objects.get(tournament=t, user=u) for u in (a, b))
        assert ra.position == rb.position and 0 <= ra.prize - rb.prize <= 1


def test_scala40_tournament_with_whole_matches_is_played_through(staff):
    """Scala 40 at tournament tables, a whole match per turn: random play may never close, so the
    seat to act abandons (K6); the engine's own VP and MP reach the standings, the pool is paid."""
    t, players = full_tournament(staff, 4, game="scala40", turns=2, format=F.DANESE, smazzate=0)
    assert open_tables(t)[0].config["mode"] != "smazzate"  # a whole match, not a number of smazzate
    for _turn in range(2):
        for table in open_tables(t):
            play_hand_randomly(table, SeededRng(table.pk), abandon_after=8, max_steps=60)
        running.tournament_advance(tournament_id=t.pk)
        t.refresh_from_db()
    assert t.state == Tournament.State.FINISHED
    for m in t.matches.all():
        assert m.result["forfeit"] == "abandon"
        other = "b" if m.result["offender"] == "a" else "a"
        assert m.result[m.result["offender"]]["vp"] < m.result[other]["vp"]
    totals = t.progress["totals"]
    assert sum(vp for vp, _mp in totals.values()) == sum(
        m.result["a"]["vp"] + m.result["b"]["vp"] for m in t.matches.all()
    )
    paid = finish_and_pay(t)
    check_money(t, players, paid)


def test_a_whole_match_to_the_points_per_turn(staff):
    """Scopa to 11 points per turn (rules 004: "il numero di turni per i punti necessari")."""
    t, players = full_tournament(staff, 4, turns=1, format=F.DANESE, smazzate=0, points_to_win=11)
    config = open_tables(t)[0].config
    assert config["mode"] == "punti" and config["target"] == 11
    paid = finish_and_pay(t)
    check_money(t, players, paid)
    assert all(max(m.result["a"]["points"], m.result["b"]["points"]) >= 11 for m in t.matches.all())
