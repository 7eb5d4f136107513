"""Freezeout of the other giochi a puntate played to the end by bots on the live tables: Sette e
mezzo, Mazzetti, Chemin de fer and Bestia, each with its tournament lines (rules 004)."""

from __future__ import annotations

import pytest

from lobby.models import Hand
from tests.tournaments.test_freezeout import (
    CHIPS,
    INVITO,
    freezeout_tournament,
    placings_and_prizes_exact,
    play_to_the_end,
)
from tournaments import running
from tournaments.freezeout import chips_in_play
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=False)


@pytest.mark.parametrize("game", ["settemezzo", "mazzetti", "chemin", "bestia"])
def test_a_freezeout_of_18_bots_is_played_to_the_end(staff, game):
    entrants = 18
    t, bots = freezeout_tournament(staff, game, entrants=entrants)
    seen = {"held": 0, "pots": 0}

    def advance(t: Tournament, clock) -> None:
        running.tournament_advance(tournament_id=t.pk, now=clock)
        t.refresh_from_db()
        seen["held"] = max(seen["held"], sum(t.progress["held"].values()))
        seen["pots"] = max(seen["pots"], sum(t.progress["pots"].values()))

    play_to_the_end(t, seed=46, step=advance)
    t.refresh_from_db()
    p = t.progress
    assert t.state == Tournament.State.FINISHED
    hands = Hand.objects.filter(table__tournament_id=t.pk)
    assert all(h.config["mode"] == "tournament" for h in hands)
    assert p["broken"] and p["moves"]
    assert p["chips"] == {p["winner"]: entrants * CHIPS} and not any(p["pots"].values())
    assert chips_in_play(t) == entrants * CHIPS
    placings_and_prizes_exact(t, bots)  # placings, prizes to the cent, the pool at zero
    if game == "chemin":  # a banker's banco carried from coup to coup is his, not lost
        assert seen["held"] > 0
    if game == "bestia":  # a bestia carries the pot into the next smazzata
        assert seen["pots"] > 0
    for uid, target in {(int(uid), target) for uid, _source, target, _seat, _hands in p["moves"]}:
        # a moved player is a newcomer at his new table (each time he arrives there: a player may
        # be moved back to a table he played at before); the banco (mattaro) skips him there
        arrivals, there = 0, False
        for hand in hands.filter(table_id=target).order_by("number"):
            mine = next((s for s in hand.seats if s["user_id"] == uid), None)
            if mine is not None and not there:  # his first hand since he sat down here
                arrivals += 1
                assert mine["new"] is True
                if game in ("mazzetti", "settemezzo") and hand.outcome["banker"] == mine["seat"]:
                    # only when nobody at the table had bet there yet (the rule passes the banco
                    # to the next who has, "non ha ancora effettuato almeno una puntata")
                    played = set((hand.carry_in or {}).get("played", []))
                    assert all(s["new"] or (hand.carry_in and s["seat"] not in played) for s in hand.seats), (
                        mine["seat"],
                        [(s["seat"], s["new"], s["sitout"], s["chips"]) for s in hand.seats],
                        hand.carry_in,
                        {k: hand.outcome.get(k) for k in ("banker", "skipped", "penalties", "sitout")},
                    )
            there = mine is not None
        assert arrivals
    assert INVITO in {next(v for k, v in h.config.items() if k in ("invito", "min_bet")) for h in hands}
