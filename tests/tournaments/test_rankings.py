"""Punti Torneo, leaderboards and skill levels (rules 004, "Classifiche", "I Punti torneo (PT)",
"Classifiche speciali", "Rating e livelli di abilità", and the training section's PT)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from itertools import count

import pytest
from django.utils import timezone

from games.rng import SeededRng
from tests.piattaforma.factories import sign_in
from tests.tournaments.conftest import FUNDS
from tests.tournaments.factories import enter, make_tournament
from tests.tournaments.running_helpers import full_tournament, play_out
from tests.wallet.factories import funded_player
from tournaments import errors, rankings
from tournaments.formats.points import TRAINING_COST, Period, format_pt, k5_loss
from tournaments.models import Registration, SkillLevel, Tournament
from wallet import selectors as wallet_selectors

pytestmark = pytest.mark.django_db
F = Tournament.Format
KEYS = count()


def _played(t: Tournament) -> dict[int, Registration]:
    play_out(t, SeededRng(7))
    assert t.state == Tournament.State.FINISHED
    return {
        r.user_id: r for r in Registration.objects.filter(tournament=t, state=Registration.State.ADMITTED)
    }


def test_a_money_tournament_gives_everyone_2_x_rake_and_the_best_a_share_of_entrants_x_rake(staff):
    t, _players = full_tournament(staff, 4, format=F.DANESE, turns=2, pool_quota=900, fee=100)
    regs = _played(t)
    pts = {uid: r.pt for uid, r in regs.items()}
    assert all(pt is not None and pt >= 2 * 100 for pt in pts.values())  # "la certezza di ... 2 x rake"
    assert sum(pts.values()) == 4 * 2 * 100 + 4 * 100  # plus the fictitious pool, iscritti x rake
    winner = next(r for r in regs.values() if r.position == 1)
    assert winner.pt == max(pts.values()) > 2 * 100
    # the line's VP and turns played are kept for the ratings: a Danese plays every turn
    assert all(r.turns_played == 2 for r in regs.values())
    assert sum(r.vp for r in regs.values()) > 0


def test_a_training_danese_pays_the_10_pt_cost_by_position_and_adds_the_bonus(staff, settings):
    settings.TOURNAMENTS_TRAINING_BONUS_PER_SMAZZATA = 25
    t, _players = full_tournament(staff, 4, format=F.DANESE, turns=2, training=True)
    regs = _played(t)
    bonus = 4 * (1 * 2) * 25  # entrants x smazzate (1 a turn, 2 turns) x the setting
    costs = {uid: k5_loss(r.position, 4) for uid, r in regs.items()}  # K5: the worst placed pay
    assert sum(r.pt for r in regs.values()) == 4 * TRAINING_COST + bonus - sum(costs.values())
    assert all(regs[uid].pt + cost >= 0 for uid, cost in costs.items())  # the PT prizes are never negative
    assert all(cost == 0 for uid, cost in costs.items() if regs[uid].position <= 2)  # above the median
    assert all(costs[uid] > 0 and regs[uid].pt < 0 for uid, r in regs.items() if r.position == 4)


def test_a_training_ko_costs_everyone_10_pt(staff):
    t, _players = full_tournament(staff, 4, format=F.KO, training=True)
    regs = _played(t)
    assert sum(r.pt for r in regs.values()) == 4 * TRAINING_COST + 4 * t.turn * 10 - 4 * TRAINING_COST


def test_each_member_of_a_pair_gets_his_lines_pt(staff):
    t, _players = full_tournament(
        staff,
        8,
        format=F.DANESE,
        turns=1,
        lines="random_pairs",
        table="4",
        pool_quota=450,
        fee=50,
        game="tresette",
    )
    regs = _played(t)
    for members in t.progress["lines"].values():
        a, b = (regs[u] for u in members)
        assert a.pt == b.pt and a.position == b.position
    # 8 players paid the rake: 2 x rake each, and the lines' pool of 4 x rake credited to both members
    assert sum(r.pt for r in regs.values()) == 8 * 2 * 50 + 8 * 50


# --- leaderboards ----------------------------------------------------------------------------------


def _scored(
    staff, players_pt: dict, *, ended: datetime, training: bool = False, special: str = ""
) -> Tournament:
    values = {"training": training, "special_leaderboard": special}
    if not training:
        values.update(pool_quota=900, fee=100)
    t = make_tournament(staff, name=f"T{next(KEYS)}", **values)
    Tournament.objects.filter(pk=t.pk).update(state=Tournament.State.FINISHED, finished_at=ended)
    for user, pt in players_pt.items():
        Registration.objects.create(
            tournament=t, user=user, idempotency_key=f"s{next(KEYS)}", state="admitted", pt=pt, position=1
        )
    return t


def test_leaderboards_by_period_section_and_special(staff, client):
    now = datetime(2026, 11, 27, 12, 0, tzinfo=timezone.get_current_timezone())  # a Friday
    a, b, c = (funded_player(0) for _ in range(3))
    _scored(staff, {a: 500, b: 300}, ended=now - timedelta(days=1))  # this week
    _scored(staff, {b: 400, c: 800}, ended=now - timedelta(days=10))  # this month, not this week
    _scored(staff, {c: 100}, ended=now - timedelta(days=400))  # only all time
    _scored(staff, {a: -300, c: 2_000}, ended=now - timedelta(days=2), training=True)
    _scored(staff, {a: 50, b: 50}, ended=now - timedelta(days=3), special="Classifica di novembre")

    def board(**kw):
        rows = rankings.leaderboard(at=now, **kw)["rows"]
        return [(r["position"], r["nickname"], r["pt"]) for r in rows]

    assert board(period=Period.WEEK) == [(1, a.nickname, "5,50 PT"), (2, b.nickname, "3,50 PT")]
    assert board(period=Period.MONTH) == [
        (1, c.nickname, "8 PT"),
        (2, b.nickname, "7,50 PT"),
        (3, a.nickname, "5,50 PT"),
    ]
    assert board(period=Period.ALL)[0] == (1, c.nickname, "9 PT")
    assert board(section=rankings.TRAINING, period=Period.WEEK) == [
        (1, c.nickname, "20 PT"),
        (2, a.nickname, "-3 PT"),
    ]
    assert board(special="Classifica di novembre") == [
        (1, a.nickname, "0,50 PT"),
        (1, b.nickname, "0,50 PT"),
    ]
    assert rankings.special_names() == ["Classifica di novembre"]
    announced = make_tournament(staff, name="Asso", special_leaderboard="Classifica di dicembre")
    assert rankings.special_names() == ["Classifica di dicembre", "Classifica di novembre"]
    lobby = client.get(f"/tornei/{announced.pk}/").content.decode()  # the info panel links it
    assert "/tornei/classifiche/?speciale=Classifica%20di%20dicembre" in lobby
    page = client.get("/tornei/classifiche/?speciale=Classifica%20di%20dicembre").content.decode()
    assert "Classifica speciale: Classifica di dicembre" in page and 'data-testid="empty-board"' in page


def test_bots_play_but_do_not_rank(staff):
    now = datetime(2026, 11, 25, 12, 0, tzinfo=timezone.get_current_timezone())  # a Wednesday: one
    # hour before it is in every period (an hour before a Monday's 00:30 is last week's)
    person, bot = funded_player(0), funded_player(0, is_bot=True)
    _scored(staff, {person: 300, bot: 900}, ended=now - timedelta(hours=1))
    for period in rankings.PERIODS:
        board = rankings.leaderboard(period=period, at=now)
        assert [r["nickname"] for r in board["rows"]] == [person.nickname]
        assert board["players"] == 1
    assert rankings.leaderboard(period=Period.WEEK, user_id=person.pk, at=now)["rows"][0]["position"] == 1


def test_the_leaderboard_page_for_everyone_and_the_players_own_row(staff, client, monkeypatch):
    players = [funded_player(0) for _ in range(5)]
    _scored(
        staff, {p: 1000 - 100 * i for i, p in enumerate(players)}, ended=timezone.now() - timedelta(minutes=5)
    )
    # anonymous: the leaderboard is public (all time: five minutes ago may be last week, on a Monday)
    page = client.get("/tornei/classifiche/?periodo=all").content.decode()
    assert players[0].nickname in page and "10 PT" in page and 'data-testid="my-row"' not in page
    monkeypatch.setattr(rankings, "ROWS", 2)  # the player's own row after the first rows
    sign_in(client, players[4])
    page = client.get("/tornei/classifiche/?periodo=all").content.decode()
    assert players[4].nickname in page and players[2].nickname not in page
    assert 'data-testid="my-row"' in page and "5°" in page
    for bad in ("?periodo=secolo", "?sezione=../&periodo=<b>", "?speciale=nessuna"):  # fall back, no 500
        response = client.get("/tornei/classifiche/" + bad)
        assert response.status_code == 200 and "<b>" not in response.content.decode()
    empty = client.get("/tornei/classifiche/?sezione=training").content.decode()
    assert 'data-testid="empty-board"' in empty


# --- ratings and skill levels ------------------------------------------------------------------------


def _history(staff, player, game: str, vps: list[int], *, days_ago: int = 5, training: bool = False) -> None:
    ended = timezone.now() - timedelta(days=days_ago)
    for vp in vps:
        values = {"game": game, "training": training, "smazzate": 1}
        if not training:
            values.update(pool_quota=900, fee=100)
        t = make_tournament(staff, name=f"R{next(KEYS)}", **values)
        Tournament.objects.filter(pk=t.pk).update(state=Tournament.State.FINISHED, finished_at=ended)
        Registration.objects.create(
            tournament=t,
            user=player,
            idempotency_key=f"r{next(KEYS)}",
            state="admitted",
            pt=200,
            position=1,
            vp=vp * 2,
            turns_played=2,
        )


def test_skill_levels_every_night_from_the_last_4_months_of_money_tournaments(staff, client):
    strong, good, fair, weak, rookie = (funded_player(0) for _ in range(5))
    for player, vp in ((strong, 18), (good, 14), (fair, 10), (weak, 4)):
        _history(staff, player, "scopa", [vp] * 7)
    _history(staff, rookie, "scopa", [20] * 6)  # 6 tournaments: esordiente, however good
    _history(staff, rookie, "scopa", [20] * 3, training=True)  # training does not count
    _history(staff, weak, "scopa", [20] * 5, days_ago=130)  # out of the 4 months
    _history(staff, strong, "briscola", [2] * 7)  # each game has its own rating
    SkillLevel.objects.create(
        user=rookie, game="burraco", rating=1, level=3, tournaments=7, updated_on=date(2020, 1, 1)
    )
    kept = rankings.skill_levels_update()
    assert kept == 6
    levels = {(s.user_id, s.game): (s.level, s.tournaments) for s in SkillLevel.objects.all()}
    assert levels == {
        (strong.pk, "scopa"): (1, 7),  # K8: 4 rated players, rank r at level 1 + 5(r - 1) // 4
        (good.pk, "scopa"): (2, 7),
        (fair.pk, "scopa"): (3, 7),
        (weak.pk, "scopa"): (4, 7),
        (rookie.pk, "scopa"): (0, 6),
        (strong.pk, "briscola"): (1, 7),  # alone in briscola: the best, level 1
    }
    assert SkillLevel.objects.get(user=strong, game="scopa").rating == 18  # MVP: VP per turn
    sign_in(client, rookie)
    page = client.get("/profilo/").content.decode()
    assert 'data-testid="my-levels"' in page and "Esordiente" in page
    sign_in(client, strong)
    page = client.get("/profilo/").content.decode()
    assert "1° livello" in page and "18,00" in page


def test_format_pt():
    assert [format_pt(n) for n in (0, 1000, 1250, -815, 123_456)] == [
        "0 PT",
        "10 PT",
        "12,50 PT",
        "-8,15 PT",
        "1.234,56 PT",
    ]


# --- the rating as a criterion of access ("l'accesso a tornei riservati") -----------------------------


def test_a_tournament_for_some_skill_levels_only(staff, client):
    t = make_tournament(staff, skill_levels="5, 0,4")
    assert t.skill_levels == "0,4,5" and t.allowed_levels == {0, 4, 5}
    newcomer, champion, weak = (funded_player(FUNDS) for _ in range(3))
    SkillLevel.objects.create(
        user=champion, game="scopa", rating=18, level=1, tournaments=9, updated_on=timezone.localdate()
    )
    SkillLevel.objects.create(
        user=weak, game="scopa", rating=3, level=5, tournaments=9, updated_on=timezone.localdate()
    )
    SkillLevel.objects.create(
        user=weak, game="briscola", rating=19, level=1, tournaments=9, updated_on=timezone.localdate()
    )
    assert enter(t, newcomer) and enter(t, weak)  # no rating in the game: esordiente
    with pytest.raises(errors.LevelNotAllowed) as refused:
        enter(t, champion)
    assert refused.value.code == "skill_level_not_allowed" and "1° livello" in refused.value.message
    assert not Registration.objects.filter(tournament=t, user=champion).exists()
    balance = wallet_selectors.balance_get(user=champion)
    sign_in(client, champion)
    page = client.get(f"/tornei/{t.pk}/").content.decode()
    assert 'data-testid="levels"' in page and "4° livello, 5° livello, esordienti" in page
    # the lobby offers him no «Iscriviti», it says why; a player it admits has the button
    assert 'data-testid="register"' not in page and 'data-testid="register-refusal"' in page
    assert "il tuo livello nel gioco è 1° livello" in page
    other = funded_player(FUNDS)
    sign_in(client, other)
    assert 'data-testid="register"' in client.get(f"/tornei/{t.pk}/").content.decode()
    sign_in(client, champion)
    page = client.post(f"/tornei/{t.pk}/iscriviti/", {"idempotency_key": "lv"}, follow=True).content.decode()
    assert "riservato ai giocatori di 4° livello, 5° livello, esordienti" in page
    assert wallet_selectors.balance_get(user=champion) == balance  # nothing paid
    with pytest.raises(errors.InvalidTournament) as bad:
        make_tournament(staff, skill_levels="1,7")
    assert "skill_levels" in bad.value.details["fields"]


def test_staff_tick_the_admitted_levels_in_the_back_office(client):
    from django.urls import reverse

    from piattaforma import roles
    from tests.piattaforma.factories import UserFactory, sign_in
    from tests.tournaments.test_backoffice import add_form

    staff = UserFactory(role=roles.STAFF)
    sign_in(client, staff)
    data = add_form()
    data["skill_levels"] = ["4", "5", "0"]
    response = client.post(reverse("backoffice:tournaments_tournament_add"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Tournament.objects.get().skill_levels == "0,4,5"
    form = client.get(reverse("backoffice:tournaments_tournament_add")).content.decode()
    assert 'name="skill_levels"' in form and "Esordienti" in form
