"""Benchmark of the tournament formats: prints figures, asserts nothing.

Run with ``.venv/bin/python -m bench.tournaments`` (``--quick`` for fewer repetitions). Figures:

* pairing one Danese round of 10,000 entrants (standings sort by VP, MP, random list, then 1-2, 3-4);
* balancing a 10,000-entrant freezeout (9-handed) right after one elimination;
* for context, the same balancing after a whole table's worth of eliminations, and awarding a
  10,000-entrant Danese pool with ex aequo groups.

Target: under one second each.

``--live`` (Django, a throw-away test database: SQLite in memory, or PostgreSQL with DATABASE_URL)
prints instead the live-runtime figures: seating and starting a 1,024-entrant Danese
turn (from the last match's end to every table of the next turn dealt; goal < 2 s), and the CPU
per entrant of a whole 256-entrant KO played by bots (``--quick``: 256 and 32 entrants;
``--turn-only``: the Danese figures alone).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

from games.rng import SeededRng
from tournaments.formats.balancing import apply_moves, balance
from tournaments.formats.danese import Score, add_results, danese_pairing, danese_placings, match_result
from tournaments.formats.draw import draw_random_list
from tournaments.formats.levels import seat_tables
from tournaments.formats.prizes import award, danese_weights

ENTRANTS = 10_000


def best_of(fn: Callable[[], object], repeat: int) -> float:
    """Best wall time of ``repeat`` runs, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str]) -> None:
    """Print the figures."""
    repeat = 3 if "--quick" in argv else 20
    rng = SeededRng(2026)
    names = [f"u{i:05d}" for i in range(ENTRANTS)]
    rl = draw_random_list(names, rng)

    # A Danese after three played rounds, so the standings have many VP/MP ties to break.
    totals = {n: Score() for n in names}
    for r in range(3):
        round_tables = danese_pairing(totals, rl, first_round=r == 0)
        results: list[tuple[str, Score]] = []
        for a, b in round_tables:
            sa, sb = match_result(rng.randbelow(40), rng.randbelow(40))
            results += [(a, sa), (b, sb)]
        totals = add_results(totals, results)
    t = best_of(lambda: danese_pairing(totals, rl, first_round=False), repeat)
    print(f"danese pairing, {ENTRANTS} entrants, round 4: {t * 1000:.1f} ms (best of {repeat})")

    tables_list = seat_tables(list(rl.order), 9)
    tables = dict(enumerate(tables_list, start=1))
    tables[1] = tables[1][1:]  # one player busts at table 1
    plan = balance(tables, 9)
    t = best_of(lambda: balance(tables, 9), repeat)
    print(
        f"freezeout balance, {ENTRANTS} entrants on {len(tables)} tables of 9, after one elimination: "
        f"{t * 1000:.2f} ms, {len(plan.moves)} move(s), {len(plan.broken)} table(s) broken"
    )

    busted = {t_no: players[:-1] if t_no % 120 == 0 else players for t_no, players in tables.items()}
    plan = balance(busted, 9)
    t = best_of(lambda: balance(busted, 9), repeat)
    after = apply_moves(busted, plan.moves)
    more = sum(1 for n in busted if n % 120 == 0)
    print(
        f"freezeout balance after {more} more eliminations: {t * 1000:.2f} ms, "
        f"{len(plan.moves)} move(s), {len(plan.broken)} table(s) broken, {len(after)} tables left"
    )

    placings = danese_placings(totals)
    weights = danese_weights(ENTRANTS)
    t = best_of(lambda: award(ENTRANTS * 900, weights, placings, rl.order), repeat)
    groups = sum(1 for g in placings if len(g) > 1)
    print(f"danese award, {ENTRANTS} entrants ({groups} ex aequo groups): {t * 1000:.1f} ms")


# --- the live runtime: a tournament's turns on lobby tables (needs the database) ------------------


def _live_setup(entrants: int, fmt: str, game: str = "scopa") -> tuple[Any, list[Any]]:
    """A free tournament of ``entrants`` bots, closed with every one admitted (the entry path is
    measured elsewhere: here only seating and playing count)."""
    from datetime import timedelta

    from django.utils import timezone

    from bench.users import bench_bots
    from tournaments.models import Registration, Tournament

    bots = bench_bots(entrants)
    tag = bots[0].nickname.removesuffix("u0")
    now = timezone.now()
    t = Tournament.objects.create(
        name=f"bench {fmt} {entrants}",
        game=game,
        format=fmt,
        kind=Tournament.Kind.SCHEDULED,
        turns=3,
        smazzate=1,
        min_players=2,
        max_players=entrants,
        registration_opens_at=now - timedelta(hours=1),
        starts_at=now - timedelta(seconds=1),
        state=Tournament.State.CLOSED,
    )
    Registration.objects.bulk_create(
        [
            Registration(
                tournament=t, user=b, state=Registration.State.ADMITTED, idempotency_key=f"{tag}-{b.pk}"
            )
            for b in bots
        ]
    )
    return t, bots


def _end_turn_by_abandon(t: Any) -> int:
    """End every match of the current turn: one seat of each table abandons ("Abbandona")."""
    from lobby import door
    from lobby.models import Seat
    from tournaments.models import TournamentMatch

    ids = TournamentMatch.objects.filter(tournament=t, turn=t.turn, ended_at__isnull=True).values_list(
        "table_id", flat=True
    )
    for seat in Seat.objects.filter(table_id__in=list(ids), number=1).select_related("user"):
        door.table_leave(table_id=seat.table_id, user=seat.user)
    return len(ids)


def _play_turn_by_bots(t: Any) -> int:
    """Play every match of the current turn with the bots' own moves (lobby.door.table_bot_move)."""
    from lobby import door
    from lobby.models import TableRuntime
    from tournaments.models import TournamentMatch

    moves = 0
    open_ids = list(
        TournamentMatch.objects.filter(tournament=t, turn=t.turn, ended_at__isnull=True).values_list(
            "table_id", flat=True
        )
    )
    while open_ids:
        for table_id, version in TableRuntime.objects.filter(pk__in=open_ids).values_list("pk", "version"):
            moves += door.table_bot_move(table_id=table_id, version=version)
        open_ids = list(
            TournamentMatch.objects.filter(tournament=t, turn=t.turn, ended_at__isnull=True).values_list(
                "table_id", flat=True
            )
        )
    return moves


class Phases:
    """Wall and CPU time spent in a few named functions during one measured call (bench only)."""

    def __init__(self) -> None:
        self.wall: dict[str, float] = {}
        self.cpu: dict[str, float] = {}
        self._labels: list[str] = []
        self._undo: list[tuple[Any, str, Any]] = []

    def wrap(self, owner: Any, attr: str, label: str) -> None:
        """Time every call of ``owner.attr`` under ``label`` until ``undo``."""
        original = getattr(owner, attr)

        def timed(*args: Any, **kwargs: Any) -> Any:
            wall0, cpu0 = time.perf_counter(), time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                self.wall[label] = self.wall.get(label, 0.0) + time.perf_counter() - wall0
                self.cpu[label] = self.cpu.get(label, 0.0) + time.process_time() - cpu0

        self._labels.append(label)
        self._undo.append((owner, attr, original))
        setattr(owner, attr, timed)

    def undo(self) -> None:
        for owner, attr, original in reversed(self._undo):
            setattr(owner, attr, original)
        self._undo = []

    def report(self) -> str:
        return "; ".join(
            f"{k} {self.wall[k]:.2f} s (CPU {self.cpu[k]:.2f})" for k in self._labels if k in self.wall
        )


def _turn_phases() -> Phases:
    """Where a turn change's time goes: the lobby's close and open, the commit (fsync on a file
    database), and the work after it (closed tables' views to the channel layer, bot wake-ups)."""
    from django.db import connection, models

    from lobby import bulkinsert
    from lobby.actions import tournament_tables
    from tournaments import running

    phases = Phases()
    phases.wrap(running, "_fold", "standings")
    phases.wrap(tournament_tables, "tournament_tables_close", "close 512 tables")
    phases.wrap(running, "_open_tables", "open+deal (in memory, bulk inserts)")
    phases.wrap(bulkinsert, "insert", "of which the tables' inserts")
    phases.wrap(models.QuerySet, "bulk_create", "the matches' bulk_create")
    phases.wrap(connection, "commit", "commit")
    phases.wrap(tournament_tables, "_send_closed", "after commit: closed views sent")
    phases.wrap(tournament_tables, "_wake_bots", "after commit: bots woken")
    return phases


def _server_cpu() -> float | None:
    """CPU seconds used so far by this connection's PostgreSQL backend, when the server runs on this
    machine (``/proc``); None otherwise. On a loaded machine the wall time of a turn says little: the
    CPU of both processes says what the turn costs."""
    import os

    from django.db import connection

    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def live(argv: list[str]) -> None:
    """Print the live-runtime figures: a 1,024-entrant Danese turn, and a 256-entrant KO by bots."""
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    from django.db import connection

    from tournaments import running

    danese_n = 256 if "--quick" in argv else 1024
    ko_n = 32 if "--quick" in argv else 256
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        print(f"database: {connection.vendor} ({name})")
        t, _bots = _live_setup(danese_n, "danese")
        start, cpu0 = time.perf_counter(), time.process_time()
        running.tournament_start(tournament_id=t.pk)
        first, cpu = time.perf_counter() - start, time.process_time() - cpu0
        print(
            f"danese {danese_n}: start (random list, {danese_n // 2} tables seated and dealt): {first:.2f} s,"
            f" CPU {cpu:.2f} s"
        )
        t.refresh_from_db()
        _end_turn_by_abandon(t)
        phases = _turn_phases()
        server0 = _server_cpu()
        start, cpu0 = time.perf_counter(), time.process_time()
        running.tournament_advance(tournament_id=t.pk)
        turn, cpu = time.perf_counter() - start, time.process_time() - cpu0
        server1 = _server_cpu()
        phases.undo()
        t.refresh_from_db()
        server = (
            f", database server CPU {server1 - server0:.2f} s"
            if server0 is not None and server1 is not None
            else ""
        )
        print(
            f"danese {danese_n}: last match ended -> turn {t.turn} standings, {danese_n // 2} tables closed, "
            f"{danese_n // 2} new tables seated and dealt: {turn:.2f} s, CPU {cpu:.2f} s{server} (goal < 2 s)"
        )
        print(f"  where: {phases.report()}")
        if hasattr(os, "getloadavg"):
            print(f"  load average: {os.getloadavg()[0]:.1f} (2 cores: figures over ~2 are loaded)")

        if "--turn-only" in argv:
            return

        t, _bots = _live_setup(ko_n, "ko")
        cpu0, wall0 = time.process_time(), time.perf_counter()
        running.tournament_start(tournament_id=t.pk)
        t.refresh_from_db()
        moves = 0
        while t.state == "running":
            moves += _play_turn_by_bots(t)
            running.tournament_advance(tournament_id=t.pk)
            t.refresh_from_db()
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        print(
            f"ko {ko_n} played by bots (scopa, 1 smazzata a match, {ko_n - 1} matches, {moves} moves): "
            f"CPU {cpu:.1f} s = {cpu / ko_n * 1000:.0f} ms per entrant, {cpu / max(1, moves) * 1000:.2f} ms "
            f"per move; wall {wall:.1f} s; state {t.state}"
        )
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


if __name__ == "__main__":
    if "--live" in sys.argv[1:]:
        live(sys.argv[1:])
    else:
        main(sys.argv[1:])
