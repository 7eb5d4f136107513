"""A shootout played to the end by bots on the live tables (rules 004, "Shootout"): 30 players at
5 tables of 6 stay at their first table until one is left at each; the 5 winners meet at the final
table with the chips they won. Players eliminated at a stage rank below everyone who reached a
later stage, and among themselves by the order of elimination across the tables (a hand's, or a
hand-for-hand round's, eliminations together by their chips at its start)."""

from __future__ import annotations

import pytest

from lobby.models import Hand, Table
from tests.tournaments.test_freezeout import (
    CHIPS,
    ENTRANTS,
    freezeout_tournament,
    hand_for_hand_entered_and_left,
    placings_and_prizes_exact,
    play_to_the_end,
)
from tournaments import freezeout, running
from tournaments.formats.levels import freezeout_placings
from tournaments.freezeout import chips_in_play
from tournaments.models import Tournament, TournamentMatch

pytestmark = pytest.mark.django_db(transaction=False)


def test_a_shootout_of_30_bots_is_played_to_the_end(staff):
    t, bots = freezeout_tournament(staff, "poker5", fmt=Tournament.Format.SHOOTOUT)
    first = {uid: table_id for uid, (table_id, _seat) in t.progress["seating"].items()}
    assert len(set(first.values())) == 5 and t.progress["stage"] == 1

    def stays_at_his_first_table(t: Tournament, clock) -> None:
        running.tournament_advance(tournament_id=t.pk, now=clock)
        t.refresh_from_db()
        p = t.progress
        if p.get("stage") == 1:  # nobody moves: each player still in plays where he was seated
            assert all(first[uid] == table_id for uid, (table_id, _s) in p["seating"].items())
            assert all(
                first[uid] not in {tid for tid, _s in p["seating"].values()} for uid in p["stage_winners"]
            )
        assert chips_in_play(t) == ENTRANTS * CHIPS

    play_to_the_end(t, seed=44, step=stays_at_his_first_table)
    t.refresh_from_db()
    p = t.progress
    assert t.state == Tournament.State.FINISHED
    assert p["moves"] == [] and p["broken"] == []
    # stage 1: 5 tables of 30; stage 2: the final table of the 5 table winners
    assert p["stages"] == [[5, 30], [1, 5]] and p["stage"] == 2
    matches = TournamentMatch.objects.filter(tournament=t).order_by("number")
    assert [m.turn for m in matches] == [1, 1, 1, 1, 1, 2]
    stage1 = [m for m in matches if m.turn == 1]
    winners = {m.result["won_by"] for m in stage1}
    assert len(winners) == 5 and all(first[w] == m.table_id for m in stage1 for w in [m.result["won_by"]])
    final = matches.get(turn=2)
    dealt_final = {s["user_id"] for h in Hand.objects.filter(table_id=final.table_id) for s in h.seats}
    assert dealt_final == {int(w) for w in winners}
    # each winner came to the final table with every chip of his table
    first_final_hand = Hand.objects.filter(table_id=final.table_id).order_by("number").first()
    brought = {str(s["user_id"]): s["chips"] for s in first_final_hand.seats}
    for m in stage1:
        assert brought[m.result["won_by"]] == CHIPS * sum(1 for tid in first.values() if tid == m.table_id)
    assert Table.objects.filter(tournament_id=t.pk, is_open=True).count() == 0
    assert p["chips"] == {p["winner"]: ENTRANTS * CHIPS}
    hand_for_hand_entered_and_left(t, freezeout.HAND_FOR_HAND_MARGIN)

    # placings: the final table's 5 above every player eliminated at stage 1, each stage's by the
    # order of elimination (the latest first), simultaneous ones by chips, ties sharing
    placings = placings_and_prizes_exact(t, bots)
    assert placings == freezeout_placings(p["winner"], p["eliminations"])
    assert set([uid for group in placings for uid in group][:5]) == winners


@pytest.mark.parametrize(
    ("game", "entrants", "seats", "stages"),
    [
        # 5 table winners, more than a table of 3 seats: another stage of 2 tables, then the final
        ("poker5", 14, 3, [[5, 14], [2, 5], [1, 2]]),
        # heads-up tables: of 3 winners one has a bye (a table of one plays nothing) to the final
        ("poker5", 6, 2, [[3, 6], [1, 3], [1, 2]]),
        # the banking games: a banco carried across hands goes with its table's winner
        ("settemezzo", 12, 3, [[4, 12], [2, 4], [1, 2]]),
        ("chemin", 8, 4, [[2, 8], [1, 2]]),
    ],
)
def test_a_shootout_with_more_winners_than_seats_plays_another_stage(staff, game, entrants, seats, stages):
    t, bots = freezeout_tournament(
        staff, game, entrants=entrants, fmt=Tournament.Format.SHOOTOUT, seats=seats
    )
    play_to_the_end(t, seed=45)
    t.refresh_from_db()
    p = t.progress
    assert t.state == Tournament.State.FINISHED
    assert p["stages"] == stages
    assert [m.turn for m in TournamentMatch.objects.filter(tournament=t).order_by("number")] == [
        stage for stage, (tables, _players) in enumerate(stages, start=1) for _ in range(tables)
    ]
    assert p["chips"] == {p["winner"]: entrants * CHIPS}
    placings_and_prizes_exact(t, bots)
