"""``python -m bench.freezeout``: a poker freezeout played to the end by bots on the live runtime.

A script, never a test: it prints figures and asserts nothing but the chips. In one process, on a
throw-away test database (SQLite in memory, or PostgreSQL with ``DATABASE_URL``). Beside the
tournament it plays hands at a cash table of the same game (6 bots, Poker 5 carte, the same
invito) through the same lobby entry points, so both CPU figures come from the same run.

Each round plays out the hand of every table that has one, then advances the tournament as its
task does (``running.tournament_advance``), the level clock one minute on per round. It prints:

* the wall time of the whole tournament, its hands, and the CPU per tournament hand (the hands
  played and every advance: folding, eliminations, balancing, moves, the next deals) against the
  CPU per cash hand (target ≤ 1.2×);
* the time to balance after an elimination: the balancing plan (``freezeout._balance``) of each
  advance that folded an elimination (target ≤ 50 ms at 1,000 entrants), and each advance's one
  transaction over its idle tables (``tournament_tables_next``: the seats written, the next hands
  dealt) when it seats a moved player beside when it moves nobody, p50 / p99 / max of each;
* in hand for hand, the spread between the first and the last table's deal of one round: every
  hand of the round starts at its one commit, so from that commit to the last table's view sent,
  p50 / p99 / max, with the tables of the largest round (target p99 < 250 ms across 100 tables),
  and the round's transaction itself.
  ``--hand-for-hand-margin M`` plays hand for hand while the players left are at most M above
  the paid places (the product's margin is 1: the bubble, a handful of tables), so a large M
  measures rounds across every table from the start.

``--max-rounds N`` stops after N rounds (the tournament unfinished): with a large margin, the
spread of the first rounds across every table without playing the whole tournament.

    .venv/bin/python -m bench.freezeout [--entrants 1000] [--seats 6] [--cash-hands 300]
        [--hand-for-hand-margin M] [--max-rounds N] [--seed 40]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from datetime import timedelta
from typing import Any

CHIPS, INVITO = 1_500, 20


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank; 0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def ms(values: list[float]) -> str:
    if not values:
        return "none"
    return (
        f"p50 {pct(values, 0.5) * 1000:.1f} ms, p99 {pct(values, 0.99) * 1000:.1f} ms, "
        f"max {max(values) * 1000:.1f} ms ({len(values)})"
    )


def play_hand(table_id: int) -> int:
    """The bots play the table's running hand to its end; returns the decisions made."""
    from games import registry
    from lobby import door, selectors
    from lobby.models import Hand

    for moves in range(5000):
        rt = selectors.runtime_now(table_id)
        if rt.state is None or registry.get(rt.game).is_over(rt.state):
            if Hand.objects.filter(table_id=table_id, number=rt.hand_no, ended_at__isnull=True).exists():
                door.table_start_hand(table_id=table_id)  # a hand over as dealt (L1) is settled here
            return moves
        if not door.table_bot_move(table_id=table_id, version=rt.version):
            raise RuntimeError(f"table {table_id}: no bot move")
    raise RuntimeError(f"table {table_id}: the hand did not end")


def cash_hands(count: int) -> tuple[float, int]:
    """CPU seconds per hand of a Poker 5 carte cash table of 6 bots (its next hand dealt at once,
    after 10 hands to warm up), and the hands timed."""
    from bench.users import bench_user
    from lobby import actions, door
    from lobby.models import Hand
    from wallet import actions as wallet_actions

    stamp = time.monotonic_ns() % 10**9
    table = actions.table_create(
        name=f"bench cash {stamp}", game="poker5", seats=6, min_buy_in=1_000, max_buy_in=100_000,
        config={"limit": "PL", "invito": INVITO},
    )  # fmt: skip
    for n in range(6):
        user = bench_user(nickname=f"c{stamp}-{n}", is_bot=True)
        wallet_actions.deposit_create(user=user, amount=1_000_000, idempotency_key=f"c{stamp}-{n}")
        door.table_sit(
            table_id=table.pk, user=user, seat_no=n + 1, buy_in=100_000, idempotency_key=f"s{stamp}-{n}"
        )
    door.table_start_hand(table_id=table.pk)
    for _ in range(10):
        play_hand(table.pk)
        door.table_start_hand(table_id=table.pk)
    warm = Hand.objects.filter(table=table, ended_at__isnull=False).count()
    cpu0 = time.process_time()
    for _ in range(count):
        play_hand(table.pk)
        if not door.table_start_hand(table_id=table.pk):
            break
    cpu = time.process_time() - cpu0
    played = Hand.objects.filter(table=table, ended_at__isnull=False).count() - warm
    return cpu / max(1, played), played


def setup(entrants: int, seats: int) -> Any:
    """A closed freezeout of ``entrants`` bots, every one admitted (the entry path is measured
    elsewhere)."""

    from django.utils import timezone

    from bench.users import bench_bots
    from tournaments.models import Registration, Tournament

    bots = bench_bots(entrants)
    tag = bots[0].nickname.removesuffix("u0")
    now = timezone.now()
    t = Tournament(
        name=f"bench freezeout {entrants}",
        game="poker5",
        format=Tournament.Format.FREEZEOUT,
        kind=Tournament.Kind.SCHEDULED,
        min_players=2,
        max_players=entrants,
        starting_chips=CHIPS,
        seats_per_table=seats,
        speed=Tournament.Speed.SUPERTURBO,
        first_invito=INVITO,
        registration_opens_at=now - timedelta(hours=1),
        starts_at=now - timedelta(seconds=1),
        state=Tournament.State.CLOSED,
    )
    t.full_clean(exclude=["created_by", "schedule", "satellite_of"])
    t.save()
    Registration.objects.bulk_create(
        [
            Registration(
                tournament=t, user=b, state=Registration.State.ADMITTED, idempotency_key=f"{tag}-{b.pk}"
            )
            for b in bots
        ]
    )
    return t


class Probe:
    """Times ``freezeout._balance``, the round's ``tournament_tables_next`` (one transaction for
    every idle table) and, after the commit, the views of the tables it dealt (bench only)."""

    def __init__(self) -> None:
        from django.db import transaction

        from lobby import door
        from lobby.actions import level_tables
        from tournaments import freezeout

        self.balance: float = 0.0
        self.calls: list[tuple[float, int, bool]] = []  # (seconds, tables dealt, a moved player seated)
        self.committed: float | None = None  # the round's commit: every hand visible at once
        self.sent: float | None = None  # the last dealt table's view sent
        self._balance, self._next = freezeout._balance, door.tournament_tables_next
        self._send = level_tables._send_dealt

        def balance(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return self._balance(*args, **kwargs)
            finally:
                self.balance += time.perf_counter() - start

        def tables_next(*, tables: Any, **kwargs: Any) -> set[int]:
            transaction.on_commit(lambda: setattr(self, "committed", time.perf_counter()))  # runs first
            start = time.perf_counter()
            dealt = self._next(tables=tables, **kwargs)
            moved = any(plan.arrive for plan in tables.values())
            self.calls.append((time.perf_counter() - start, len(dealt), moved))
            return dealt

        def send(runtimes: Any) -> None:
            self._send(runtimes)
            self.sent = time.perf_counter()

        freezeout._balance = balance
        freezeout.door.tournament_tables_next = tables_next  # freezeout reads it through lobby.door
        level_tables._send_dealt = send  # the deal's after-commit reads it from its module

    def reset(self) -> None:
        self.balance, self.calls, self.committed, self.sent = 0.0, [], None, None

    def spread(self) -> float | None:
        """From the commit of the round (its hands all started) to the last table's view sent."""
        if self.committed is None or self.sent is None:
            return None
        return self.sent - self.committed

    def undo(self) -> None:
        from lobby.actions import level_tables
        from tournaments import freezeout

        freezeout._balance = self._balance
        freezeout.door.tournament_tables_next = self._next
        level_tables._send_dealt = self._send


def run(args: argparse.Namespace) -> None:
    from django.db import connection

    from lobby.models import Hand, TableRuntime
    from tournaments import freezeout, running
    from tournaments.models import Tournament, TournamentMatch

    print(f"database: {connection.vendor}")
    cash, played = cash_hands(args.cash_hands)
    print(
        f"cash table: Poker 5 carte, 6 bots, invito {INVITO}: "
        f"CPU {cash * 1000:.2f} ms per hand ({played} hands)"
    )

    if args.hand_for_hand_margin is not None:
        freezeout.HAND_FOR_HAND_MARGIN = args.hand_for_hand_margin
    t = setup(args.entrants, args.seats)
    rng = random.Random(args.seed)
    wall0, cpu0 = time.perf_counter(), time.process_time()
    running.tournament_start(tournament_id=t.pk)
    start_wall = time.perf_counter() - wall0
    t.refresh_from_db()
    clock = t.started_at
    probe = Probe()
    plans: list[float] = []
    moving: list[float] = []
    plain: list[float] = []
    spreads: list[tuple[float, int]] = []
    bulk: list[tuple[float, int]] = []
    advance_cpu = 0.0
    decisions = rounds = 0
    try:
        while t.state == Tournament.State.RUNNING and rounds != args.max_rounds:
            rounds += 1
            busy = list(
                TournamentMatch.objects.filter(
                    tournament=t, phase=freezeout.LEVELS, ended_at__isnull=True, result__running=True
                ).values_list("table_id", flat=True)
            )
            # tables end their hands at different times: a random share of them play theirs out
            # (hand for hand from the start: all of them, the tables wait for one another anyway)
            share = len(busy) if args.hand_for_hand_margin else max(1, len(busy) // rng.randint(1, 3))
            for table_id in rng.sample(busy, share) if busy else []:
                decisions += play_hand(table_id)
            clock += timedelta(seconds=60)
            eliminated = sum(len(g) for e in t.progress["eliminations"] for g in e)
            probe.reset()
            moves_before = len(t.progress["moves"])
            c0 = time.process_time()
            running.tournament_advance(tournament_id=t.pk, now=clock)
            advance_cpu += time.process_time() - c0
            t.refresh_from_db()
            if t.state != Tournament.State.RUNNING:
                break
            if freezeout.chips_in_play(t) != args.entrants * CHIPS:
                raise AssertionError("chips not conserved")
            if sum(len(g) for e in t.progress["eliminations"] for g in e) > eliminated:
                plans.append(probe.balance)
            for seconds, _dealt, moved in probe.calls:
                if moved and len(t.progress["moves"]) > moves_before:
                    moving.append(seconds)
                else:
                    plain.append(seconds)
            dealt = sum(n for _s, n, _m in probe.calls)
            spread = probe.spread()
            if t.progress["hand_for_hand"] and dealt > 1 and spread is not None:
                spreads.append((spread, dealt))
                bulk += [(seconds, n) for seconds, n, _m in probe.calls]
    finally:
        probe.undo()
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    hands = Hand.objects.filter(table__tournament_id=t.pk).count()
    tables = TableRuntime.objects.filter(table__tournament_id=t.pk).count()
    print(
        f"freezeout {args.entrants} entrants, Poker 5 carte, tables of {args.seats} ({tables} opened), "
        f"superturbo, {CHIPS} chips, invito {INVITO}: {t.state} after {rounds} rounds"
    )
    print(
        f"  wall {wall:.1f} s (start {start_wall:.2f} s), {hands} hands, {decisions} decisions, "
        f"{len(t.progress['level_changes'])} level changes, {len(t.progress['moves'])} moves, "
        f"{len(t.progress['broken'])} tables broken"
    )
    print(
        f"  CPU per tournament hand {cpu / hands * 1000:.2f} ms (advances "
        f"{advance_cpu / hands * 1000:.2f} ms of it) = {cpu / hands / cash:.2f} × a cash hand (target ≤ 1.2×)"
    )
    print(f"  balancing plan after an elimination (freezeout._balance): {ms(plans)} (target ≤ 50 ms)")
    print(
        f"  an advance's deal (tournament_tables_next, every idle table) seating moved players: {ms(moving)}"
    )
    print(f"    beside the rounds' deals that move nobody: {ms(plain)}")
    widest = max((n for _s, n in spreads), default=0)
    print(
        f"  hand for hand (margin {freezeout.HAND_FOR_HAND_MARGIN}): deal spread (the round's commit "
        f"to its last table's view sent) {ms([s for s, _n in spreads])}, rounds of up to {widest} tables "
        "(target p99 < 250 ms across 100 tables)"
    )
    print(f"    the round's one deal transaction, commit excluded: {ms([s for s, _n in bulk])}")
    if spreads:
        wide = [s for s, n in spreads if n >= 0.8 * widest]
        print(
            f"    rounds of ≥ {int(0.8 * widest)} tables: {ms(wide)}; "
            f"mean {statistics.mean(wide) * 1000:.1f} ms"
        )
    if hasattr(os, "getloadavg"):
        print(f"  load average: {os.getloadavg()[0]:.1f} (2 cores: figures over ~2 are loaded)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--cash-hands", type=int, default=300)
    parser.add_argument("--hand-for-hand-margin", type=int, default=None)
    parser.add_argument("--max-rounds", type=int, default=None)
    parser.add_argument("--seed", type=int, default=40)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    from django.db import connection

    name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        run(args)
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


if __name__ == "__main__":
    main()
