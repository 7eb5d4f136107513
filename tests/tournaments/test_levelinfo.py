"""The pages of a running level tournament: the level clock as the players read it, the chip counts,
the eliminations with their placings, the table's level strip (livello.json) and the player's own
end (placing, prize, PT, leaderboard position). Rules 004, "Informazioni sul torneo", "La Lobby del
torneo"; the tournament is played on the live tables as in test_freezeout."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from tests.tournaments.factories import make_tournament
from tests.tournaments.test_freezeout import CHIPS, INVITO, freezeout_tournament, level_tables, play_hand
from tournaments import levelinfo, running, selectors
from tournaments.formats.levels import LEVEL_SECONDS, Speed
from tournaments.formats.money import format_euro
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=False)
LEVEL_S = LEVEL_SECONDS[Speed.SUPERTURBO]


def play_round(t: Tournament, clock) -> None:
    """Every table with a hand running plays it out; the tournament advances at ``clock``."""
    for m in level_tables(t):
        if m.result["running"]:
            play_hand(m.table_id)
    running.tournament_advance(tournament_id=t.pk, now=clock)
    t.refresh_from_db()


def test_the_level_clock_counts_to_the_next_level_and_then_waits_for_the_next_hand(staff):
    t, _bots = freezeout_tournament(staff, "poker5", entrants=8)
    start = t.started_at
    now = levelinfo.clock(t, start + timedelta(seconds=LEVEL_S - 10))
    assert now == {
        "level": 1,
        "invito": INVITO,
        "next_level": 2,
        "next_invito": 2 * INVITO,
        "seconds_to_next": 10,
        "level_minutes": LEVEL_S // 60,
    }
    # the clock has passed into level 2, but no hand has been dealt with it: "from the next hand"
    later = levelinfo.clock(t, start + timedelta(seconds=LEVEL_S + 5))
    assert (later["level"], later["next_level"], later["seconds_to_next"]) == (1, 2, 0)
    play_round(t, start + timedelta(seconds=LEVEL_S + 5))
    dealt = levelinfo.clock(t, start + timedelta(seconds=LEVEL_S + 5))
    assert (dealt["level"], dealt["invito"], dealt["next_invito"]) == (2, 2 * INVITO, 3 * INVITO)
    assert dealt["seconds_to_next"] == LEVEL_S - 5


def left_now(t: Tournament) -> int:
    return len(t.progress["chips"])


def test_summary_chip_counts_and_the_table_strip_follow_the_hands(client, staff, django_user_model):
    t, bots = freezeout_tournament(staff, "poker5", entrants=8)
    first = levelinfo.summary(t)
    assert first["players_left"] == first["entrants"] == 8 and first["tables"] == 2
    assert first["chips_in_play"] == 8 * CHIPS and first["average"] == CHIPS
    assert first["average_label"] == "400" and levelinfo.chips_label(3200) == "3.200"
    stamp = selectors.lobby_stamp(tournament=t)
    live = selectors.lobby_live_stamp(tournament=t)
    clock = t.started_at
    for _ in range(40):
        clock += timedelta(seconds=20)
        play_round(t, clock)
        if t.progress["eliminations"] or t.state != Tournament.State.RUNNING:
            break
    assert t.progress["eliminations"], "nobody went out in 40 rounds"
    if t.state != Tournament.State.RUNNING:
        assert selectors.lobby_stamp(tournament=t) != stamp  # the end: the open lobby reloads
        return
    assert selectors.lobby_stamp(tournament=t) == stamp  # the same phase: the open lobby does not reload
    assert selectors.lobby_live_stamp(tournament=t) != live  # it draws the new counts in place
    play = client.get(reverse("tournaments:level_live", args=[t.pk]))
    assert play.status_code == 200 and play["X-Live"] == selectors.lobby_live_stamp(tournament=t)
    drawn = play.content.decode()
    assert 'data-testid="chip-counts"' in drawn and 'data-testid="eliminations"' in drawn
    assert f"{left_now(t)}/8" in drawn  # the players left, as the lobby shows them
    # the info panel's level facts, in a template its page puts in place of its own
    facts = drawn[drawn.index('<template data-live-part="level-facts">') :]
    assert f'data-testid="players-left">{left_now(t)}/8<' in facts and 'data-testid="chips-in-play"' in facts
    left = len(t.progress["chips"])
    info = levelinfo.summary(t)
    assert info["players_left"] == left and info["chips_in_play"] == 8 * CHIPS
    assert info["average"] == 8 * CHIPS // left

    # the chip counts: most chips first, equal chips sharing a position, each with his table
    rows = levelinfo.chip_counts(t, user_id=None)
    assert [r["chips"] for r in rows] == sorted((r["chips"] for r in rows), reverse=True)
    assert sum(r["chips"] for r in rows) + sum(t.progress["pots"].values()) == 8 * CHIPS
    for row in rows:
        assert row["position"] == 1 + sum(1 for r in rows if r["chips"] > row["chips"])
        assert row["table"] in {m.number for m in level_tables(t)}
    # the eliminations take the last places, each group sharing its place
    out = levelinfo.eliminations(t)
    assert len(out) == 8 - left and all(left < r["position"] <= 8 for r in out)
    assert min(r["position"] for r in out) == left + 1  # (ex aequo share the best place of their group)
    assert all(r["tied"] == ([x["position"] for x in out].count(r["position"]) > 1) for r in out)

    # the table's strip: a player still in reads his chips, position and table; one out his placing
    inside = next(b for b in bots if str(b.pk) in t.progress["chips"])
    client.force_login(inside)
    data = client.get(reverse("tournaments:level_info", args=[t.pk])).json()
    chips = t.progress["chips"][str(inside.pk)]
    assert data["levels"] and data["chips"] == chips and data["players_left"] == left
    assert data["position"] == levelinfo.position(t.progress["chips"], inside.pk)
    assert data["table_number"] in {m.number for m in level_tables(t)}
    assert data["placing"] is None and data["next_invito"] > data["invito"]
    gone = next(b for b in bots if str(b.pk) not in t.progress["chips"])
    client.force_login(gone)
    data = client.get(reverse("tournaments:level_info", args=[t.pk])).json()
    assert data["position"] is None and data["chips"] is None
    assert data["placing"] == next(r["position"] for r in out if r["nickname"] == gone.nickname)
    client.logout()  # anyone may read the public counts; nobody's position
    data = client.get(reverse("tournaments:level_info", args=[t.pk])).json()
    assert data["levels"] and data["position"] is None and data["players_left"] == left

    # the lobby and the info panel show the level, the chips and the players left
    page = client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
    assert "Classifica in corso" in page and "Tavoli in corso" in page and "Eliminati" in page
    assert f"{left}/8" in page and f"media {levelinfo.chips_label(8 * CHIPS // left)}" in page
    assert gone.nickname in page and "Guarda" in page
    listed = client.get(reverse("tournaments:list") + f"?tipo=sitgo&t={t.pk}").content.decode()
    assert "Livello in corso" in listed and "Chips in gioco" in listed and "Tempo partita" not in listed


def test_a_turn_tournament_has_no_level_strip(client, staff):
    t = make_tournament(staff, game="scopa")
    data = client.get(reverse("tournaments:level_info", args=[t.pk])).json()
    assert data == {
        "levels": False,
        "finished": False,
        "placing": None,
        "lobby_url": reverse("tournaments:lobby", args=[t.pk]),
    }
    assert levelinfo.summary(t) is None and levelinfo.chip_counts(t, None) == []
    assert levelinfo.chips_stamp(t) == ""


def test_the_player_reads_his_placing_prize_pt_and_leaderboard_position_at_the_end(client, staff):
    t, (one, two) = freezeout_tournament(staff, "poker5", entrants=2, people=True)
    clock = t.started_at
    for _ in range(400):
        if t.state != Tournament.State.RUNNING:
            break
        clock += timedelta(seconds=30)
        play_round(t, clock)
    assert t.state == Tournament.State.FINISHED
    running.tournament_pay(tournament_id=t.pk)
    t.refresh_from_db()
    winner = one if t.progress["winner"] == str(one.pk) else two
    client.force_login(winner)
    data = client.get(reverse("tournaments:level_info", args=[t.pk])).json()
    assert data["finished"] is True and data["placing"] == 1 and not data["levels"]
    mine = levelinfo.my_result(t, winner.pk)
    assert mine["position"] == 1 and mine["entrants"] == 2 and mine["prize"].startswith("€")
    assert mine["pt"] and mine["board_position"] == 1 and mine["board_players"] == 2
    page = client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
    assert "Il tuo risultato" in page and "1° su 2" in page and mine["prize"] in page
    loser = two if winner == one else one
    other = levelinfo.my_result(t, loser.pk)
    prize = t.registrations.get(user=loser).prize
    assert other["position"] == 2 and other["board_position"] == 2
    assert other["prize"] == (format_euro(prize) if prize else "")
    assert levelinfo.my_result(t, staff.pk) is None and levelinfo.my_result(t, None) is None


def test_a_level_tournament_of_an_odd_number_of_entrants_starts_with_all_of_them(staff):
    """The exclusion to a multiple of 2 pairs the lines of a turn tournament; a freezeout seats any
    number: a sit&go of 5 closes with the 5 admitted, and its tables seat them all."""
    t, bots = freezeout_tournament(staff, "poker5", entrants=5)
    assert t.state == Tournament.State.RUNNING
    assert t.registrations.filter(state="admitted").count() == 5
    assert sorted(t.progress["chips"]) == sorted(str(b.pk) for b in bots)
    assert levelinfo.summary(t)["players_left"] == 5
