"""Helpers of the running-tournament tests: fill a tournament, play its turns on the live tables."""

from __future__ import annotations

from typing import Any

from games.rng import SeededRng
from lobby import actions as lobby
from lobby.models import Table
from tests.lobby.helpers import play_hand_randomly
from tests.tournaments.conftest import FUNDS, authorise_all
from tests.tournaments.factories import enter, make_tournament
from tests.wallet.factories import funded_player
from tournaments import running
from tournaments.models import Tournament, TournamentMatch
from wallet import selectors as wallet_selectors
from wallet.models import Posting


def full_tournament(staff, entrants: int, **overrides: Any) -> tuple[Tournament, list]:
    """A sit&go (or a scheduled tournament closed now) with ``entrants`` authorised players, started."""
    overrides.setdefault("smazzate", 1)
    t = make_tournament(staff, kind=Tournament.Kind.SITGO, max_players=entrants, **overrides)
    players = [funded_player(FUNDS) for _ in range(entrants)]
    for p in players:
        enter(t, p)
    authorise_all(t)
    t.refresh_from_db()
    assert t.state == Tournament.State.CLOSED, t.state
    assert running.tournament_start(tournament_id=t.pk)
    t.refresh_from_db()
    return t, players


def open_tables(t: Tournament) -> list[Table]:
    ids = TournamentMatch.objects.filter(tournament=t, turn=t.turn, ended_at__isnull=True).values_list(
        "table_id", flat=True
    )
    return list(Table.objects.filter(pk__in=list(ids)).order_by("pk"))


def play_turn(t: Tournament, rng: SeededRng, *, skip_user=None, abandon_user=None) -> None:
    """Play every match of the current turn to its end (random legal moves), then advance."""
    for table in open_tables(t):
        if abandon_user is not None and table.seat_rows.filter(user=abandon_user).exists():
            assert lobby.table_leave(table_id=table.pk, user=abandon_user)["abandoned"]  # "Abbandona"
        play_hand_randomly(table, rng, skip_user=skip_user, max_steps=3000)
    running.tournament_advance(tournament_id=t.pk)
    t.refresh_from_db()


def play_out(t: Tournament, rng: SeededRng, turns: int = 40) -> None:
    for _ in range(turns):
        if t.state != Tournament.State.RUNNING:
            return
        play_turn(t, rng)
    raise AssertionError("tournament did not end")


def ledger_zero() -> int:
    return sum(Posting.objects.values_list("amount", flat=True))


def pool(t: Tournament) -> int:
    return wallet_selectors.tournament_pool_get(tournament_ref=t.ledger_ref)
