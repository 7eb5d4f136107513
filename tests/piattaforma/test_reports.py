"""Back-office reports against a ledger built here: rake, GGR, tournament fees, payments; CSV; access."""

import csv
import io

import pytest

from games.rng import SeededRng
from lobby import door
from piattaforma import reports, roles
from tests.lobby.factories import poker_table
from tests.lobby.helpers import everyone_puts_the_invito, house_rake, play_hand_randomly, seat_players
from tests.piattaforma.factories import UserFactory, sign_in
from tests.tournaments.conftest import authorise_all
from tests.tournaments.factories import enter, make_tournament
from tests.wallet.factories import funded_player
from tournaments import actions as tournament_actions
from wallet import actions as wallet_actions
from wallet.models import Payment

pytestmark = pytest.mark.django_db


def build_ledger():
    staff = UserFactory(role=roles.STAFF)
    users = [funded_player(amount=100_000) for _ in range(3)]  # three deposits of € 1.000
    table = poker_table()
    seat_players(table, users, buy_in=10_000)
    for seed in (1, 2):
        door.table_start_hand(table_id=table.pk)
        everyone_puts_the_invito(table)
        play_hand_randomly(table, SeededRng(seed))
    hands_rake = house_rake()  # the tournament fees go to the same house account below
    assert hands_rake > 0
    t = make_tournament(staff)  # € 10,00 = 9,00 + 1,00
    for u in users:
        enter(t, u)
    authorise_all(t)
    other = make_tournament(staff, game="briscola", name="Briscola")
    enter(other, users[0])
    authorise_all(other)
    tournament_actions.tournament_cancel(tournament_id=other.pk, actor=staff, reason="Guasto del server")
    out = wallet_actions.withdrawal_request(user=users[1], amount=5_000, idempotency_key="w1")
    payment = Payment.objects.get(direction="withdrawal")
    wallet_actions.withdrawal_approve(payment_id=payment.pk, actor=staff)
    assert out
    return staff, users, hands_rake


def by_slug(days=7):
    return {r.slug: r for r in reports.all_reports(days=days)}


def test_reports_match_the_ledger_built():
    _staff, _users, hands_rake = build_ledger()
    built = by_slug()
    rake = built["rake"]
    assert {row["game"] for row in rake.rows} <= {"poker5"}
    assert sum(row["rake"] for row in rake.rows) == hands_rake
    assert house_rake() == hands_rake + 300  # and the house holds exactly rake plus the fees kept
    fees = built["tornei"]
    by_game = {row["game"]: row["fees"] for row in fees.rows}
    assert by_game["scopa"] == 300  # three fees of € 1,00
    assert by_game["briscola"] == 0  # paid, then refunded with the cancellation
    ggr = built["ggr"]
    assert sum(row["ggr"] for row in ggr.rows) == hands_rake + 300
    pay = built["pagamenti"]
    assert sum(row["deposits"] for row in pay.rows) == 300_000
    assert sum(row["withdrawals"] for row in pay.rows) == 5_000
    tables = {row["game"]: row for row in built["tavoli"].rows}
    assert tables["poker5"]["tables"] == 1 and tables["poker5"]["seated"] == 3
    # three players staked real money today (the seats, the hands, the entries); the fourth user
    # (staff) and the house accounts do not count
    assert [row["players"] for row in built["giocatori-attivi"].rows] == [3]


def test_csv_has_a_line_a_row_and_euro_amounts(client):
    staff, _users, _rake = build_ledger()
    sign_in(client, staff)
    response = client.get("/backoffice/rapporti/pagamenti.csv?giorni=7")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    lines = list(csv.reader(io.StringIO(response.content.decode())))
    assert lines[0] == ["Giorno", "Depositi", "Prelievi", "Saldo"]
    assert lines[1][1:] == ["3000.00", "50.00", "2950.00"]
    page = client.get("/backoffice/rapporti/?giorni=30")
    html = page.content.decode()
    assert page.status_code == 200
    for slug in ("ggr", "rake", "tornei", "pagamenti", "giocatori-attivi", "concorrenza", "tavoli"):
        assert f'data-testid="report-{slug}"' in html
    # one chart a report with data, drawn on the server; no activity sample yet: no chart there
    assert html.count('<svg class="chart"') == 6
    assert client.get("/backoffice/rapporti/nessuno.csv").status_code == 404


def test_the_chart_draws_one_bar_a_category_and_series():
    report = reports.Report(
        slug="x",
        title="Prova",
        columns=[
            reports.Column("game", "Gioco"),
            reports.Column("a", "A", "eur"),
            reports.Column("b", "B", "eur"),
        ],
        rows=[{"game": "scopa", "a": 100, "b": -50}, {"game": "poker5", "a": 300, "b": 0}],
        x="game",
        series=["a", "b"],
    )
    svg = str(reports.bar_chart(report))
    assert svg.count("<rect") == 4 and "style=" not in svg
    assert "scopa · A: € 1,00" in svg and "poker5 · B: € 0,00" in svg
    assert "Nessun dato" in str(
        reports.bar_chart(reports.Report(slug="y", title="Vuoto", columns=[], series=["a"]))
    )


def test_games_show_by_their_titles_and_long_labels_slant_below_a_taller_chart():
    from games import registry

    games = registry.names()  # every game open at once: 13 labels under the axis
    report = reports.Report(
        slug="tavoli",
        title="Adesso",
        columns=[reports.Column("game", "Gioco", "game"), reports.Column("tables", "Tavoli", "int")],
        rows=[{"game": g, "tables": i + 1} for i, g in enumerate(games)],
        x="game",
        series=["tables"],
    )
    svg = str(reports.bar_chart(report))
    assert "Chemin de fer" in svg and "Poker 5 carte all&#x27;italiana" in svg and ">chemin<" not in svg
    assert svg.count("rotate(-35") == len(games)  # too many for level labels: each one slanted
    assert 'viewBox="0 0 720 260"' not in svg  # the chart grew to hold them
    assert reports.cell(report.columns[0], "nessuno") == "nessuno"  # an unknown code shows as it is
    few = reports.Report(**{**report.__dict__, "rows": report.rows[:3]})
    assert "rotate(" not in str(reports.bar_chart(few))  # three fit level, centred under their bars
    assert 'viewBox="0 0 720 260"' in str(reports.bar_chart(few))


@pytest.mark.parametrize("role", ["anonymous", roles.PLAYERS, roles.MODERATORS])
def test_only_staff_see_reports(client, role):
    if role != "anonymous":
        sign_in(client, UserFactory(role=role))
    for url in ("/backoffice/rapporti/", "/backoffice/rapporti/pagamenti.csv"):
        assert client.get(url).status_code in (302, 403)


def test_active_players_count_each_player_once_a_day_and_only_real_money():
    from django.utils import timezone

    users = [funded_player(amount=50_000) for _ in range(2)]
    table = poker_table()
    seat_players(table, users, buy_in=10_000)  # a buy-in each, then the hand's postings
    door.table_start_hand(table_id=table.pk)
    everyone_puts_the_invito(table)
    play_hand_randomly(table, SeededRng(3))
    idle = funded_player(amount=50_000)  # deposited, never played: not active
    wallet_actions.play_money_top_up(user=idle, amount=1_000, idempotency_key="p")  # play money only
    rows = {row["day"]: row["players"] for row in by_slug(days=3)["giocatori-attivi"].rows}
    assert rows == {timezone.localdate(): 2}


def test_concurrency_is_a_time_series_of_samples():
    from datetime import timedelta

    from django.utils import timezone

    from piattaforma import tasks
    from piattaforma.actions import activity_sample_record
    from piattaforma.models import ActivitySample

    users = [funded_player(amount=50_000) for _ in range(3)]
    table = poker_table()
    now = (timezone.now() - timedelta(days=1)).replace(minute=30, second=0, microsecond=0)
    activity_sample_record(now=now - timedelta(hours=1))  # the table is open, nobody sits yet
    seat_players(table, users[:2], buy_in=10_000)
    activity_sample_record(now=now - timedelta(minutes=5))
    seat_players(poker_table(), users[2:], buy_in=10_000)
    activity_sample_record(now=now)
    assert tasks.sample_activity() == 3  # the beat task records the same, now
    sample = ActivitySample.objects.latest("sampled_at")
    assert (sample.tables, sample.seated) == (2, 3)
    assert sample.per_game == {"poker5": {"tables": 2, "seated": 3}}
    hourly = reports.concurrency_report(since=now - timedelta(hours=2), hourly=True)
    by_hour = {row["period"]: row for row in hourly.rows}
    this_hour = timezone.localtime(now).strftime("%d/%m %H:00")
    assert (by_hour[this_hour]["peak_seated"], by_hour[this_hour]["peak_tables"]) == (3, 2)
    assert by_hour[this_hour]["mean_seated"] == round((2 + 3) / 2)
    before = timezone.localtime(now - timedelta(hours=1)).strftime("%d/%m %H:00")
    assert (by_hour[before]["peak_seated"], by_hour[before]["peak_tables"]) == (0, 1)
    daily = {r.slug: r for r in reports.all_reports(days=7)}["concorrenza"]
    assert daily.columns[0].label == "Giorno"
    assert sum(row["samples"] for row in daily.rows) == 4
