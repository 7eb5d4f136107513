"""Benchmark of the collusion and dumping signals: prints figures, asserts nothing.

``DATABASE_URL=postgres://… .venv/bin/python -m bench.moderation --signals [--hands N]``
(PostgreSQL; it creates and drops its own ``test_…_bench`` database). It

1. generates the aggregates' input in bulk: N journaled hands (default 1,000,000) of 5,000
   players who play in clubs of 20 (2 or 3 seats a hand, every pair of a club meeting, money
   from the losers to the winners, now and then an abandon, a timeout or a sit-out, and one
   planted dumping pair), as
   ``SignalHand``/``SignalSeat`` rows, then the per-player and per-pair aggregates from them with
   set-based SQL (the same arithmetic as the hook's ingestion, scored by ``moderation.collusion``);
2. measures the staff dashboard page (``/moderazione/segnali/``, rendered through the test client
   as a staff member) and its drill-downs: the queries each makes and the best of 7 timings;
3. measures ``hooks.hand_settled`` throughput on top of that data: hands settled through the hook,
   one transaction each as the settlement does, heads-up and 6-handed.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Any

CLUBS, CLUB_SIZE = 250, 20
UNUSABLE = "!"  # Django's mark of an unusable password: these players never log in
DUMPING_EVERY = 1000  # one hand in a thousand: the planted dumper loses €50 to his partner


def _setup() -> Any:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    from django.db import connection

    if connection.vendor != "postgresql":
        raise SystemExit("--signals needs PostgreSQL: set DATABASE_URL")
    # its own database beside the test suite's (test_<name>), so both can run at once
    connection.settings_dict["TEST"]["NAME"] = f"test_{connection.settings_dict['NAME']}_bench"
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    return connection, name


def _best(fn: Callable[[], Any], rounds: int = 7) -> tuple[float, int]:
    """Best wall time of ``rounds`` calls in ms, and the queries one call makes."""
    from django.db import connection

    queries: list[str] = []

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):  # survives the request's reset of connection.queries
        fn()
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1000, len(queries)


def _server_ms(queryset: Any) -> tuple[float, str]:
    """PostgreSQL's own execution time of a query (EXPLAIN ANALYZE, best of 7) and its plan's top node."""
    import json

    from django.db import connection

    sql, params = queryset.query.sql_with_params()
    best, node = float("inf"), ""
    with connection.cursor() as cursor:
        for _ in range(7):
            cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}", params)
            raw = cursor.fetchone()[0]
            plan = (json.loads(raw) if isinstance(raw, str) else raw)[0]
            best = min(best, plan["Execution Time"])
            top = plan["Plan"]
            while top.get("Plans") and top["Node Type"] in ("Limit", "Nested Loop", "Hash Join"):
                top = top["Plans"][0]
            node = f"{top['Node Type']} on {top.get('Relation Name', '?')}"
    return best, node


def _users(n: int) -> list[int]:
    from piattaforma.models import User

    users = [
        User(
            nickname=f"g{i:05d}",
            email=f"g{i:05d}@example.invalid",
            date_of_birth="1990-01-01",
            password=UNUSABLE,
        )
        for i in range(n)
    ]
    return [u.pk for u in User.objects.bulk_create(users, batch_size=2000)]


GENERATE = """
INSERT INTO moderation_signalhand (id, hand_id, table_id, game, ended_at)
SELECT h, h, (h %% {clubs}) * 10 + 1, 'poker5', now() - (%(n)s - h) * interval '1 second'
FROM generate_series(1, %(n)s) h;

INSERT INTO moderation_signalseat (hand_id, user_id, delta, "end", outlier)
SELECT h,
       %(base)s + CASE WHEN h %% {dump} = 0 THEN k
            ELSE (h %% {clubs}) * {size}
                 + ((h / {clubs}) %% {size} + k * (1 + (h / ({clubs} * {size})) %% 9)) %% {size} END,
       CASE WHEN h %% {dump} = 0 THEN (CASE k WHEN 0 THEN -5000 ELSE 5000 END)
            WHEN k = (h / 7) %% n THEN -r
            WHEN n = 2 THEN r
            WHEN k = ((h / 7) + 1) %% n THEN r - r / 2
            ELSE r / 2 END,
       CASE WHEN k = (h / 7) %% n AND h %% {dump} <> 0 AND h %% 97 = 0 THEN 'abandon'
            WHEN k = (h / 7) %% n AND h %% {dump} <> 0 AND h %% 89 = 0 THEN 'timeout'
            WHEN h %% {dump} = 0 AND k = 0 AND h %% 3000 = 0 THEN 'abandon'
            WHEN h %% 53 = 0 AND k <> (h / 7) %% n THEN 'sitout'
            ELSE 'normal' END,
       false
FROM (SELECT h, 2 + (h %% 3 = 0 AND h %% {dump} <> 0)::int AS n, 1 + (h * 2654435761) %% 2000 AS r
      FROM generate_series(1, %(n)s) h) hands
CROSS JOIN LATERAL generate_series(0, n - 1) k;

SELECT setval(pg_get_serial_sequence('moderation_signalhand', 'id'), %(n)s);
"""

AGGREGATE = """
INSERT INTO moderation_playersignal
    (user_id, hands, abandons, timeouts, sitouts, net, sum_sq, outliers, score, last_at)
SELECT s.user_id, count(*), count(*) FILTER (WHERE s."end" = 'abandon'),
       count(*) FILTER (WHERE s."end" = 'timeout'), count(*) FILTER (WHERE s."end" = 'sitout'),
       sum(s.delta), sum(s.delta::float8 * s.delta), count(*) FILTER (WHERE s.outlier), 0, max(h.ended_at)
FROM moderation_signalseat s JOIN moderation_signalhand h ON h.id = s.hand_id
GROUP BY s.user_id;

WITH won AS (SELECT hand_id, sum(delta) AS tw FROM moderation_signalseat WHERE delta > 0 GROUP BY hand_id)
INSERT INTO moderation_pairsignal
    (a_id, b_id, hands, a_to_b, b_to_a, forfeits_a, forfeits_b, outliers_a, outliers_b, score, last_at)
SELECT x.user_id, y.user_id, count(*),
       sum(CASE WHEN x.delta < 0 AND y.delta > 0 THEN (-x.delta * y.delta) / won.tw ELSE 0 END),
       sum(CASE WHEN y.delta < 0 AND x.delta > 0 THEN (-y.delta * x.delta) / won.tw ELSE 0 END),
       count(*) FILTER (WHERE y.delta > 0 AND x."end" <> 'normal'),
       count(*) FILTER (WHERE x.delta > 0 AND y."end" <> 'normal'),
       count(*) FILTER (WHERE y.delta > 0 AND x.outlier),
       count(*) FILTER (WHERE x.delta > 0 AND y.outlier),
       0, max(h.ended_at)
FROM moderation_signalseat x
JOIN moderation_signalseat y ON y.hand_id = x.hand_id AND x.user_id < y.user_id
JOIN moderation_signalhand h ON h.id = x.hand_id
LEFT JOIN won ON won.hand_id = x.hand_id
GROUP BY x.user_id, y.user_id;
"""


def _generate(n: int, ids: list[int]) -> None:
    from django.db import connection, transaction

    sql = GENERATE.format(clubs=CLUBS, size=CLUB_SIZE, dump=DUMPING_EVERY)
    if ids != list(range(ids[0], ids[0] + len(ids))):  # a fresh database numbers them in a row
        raise SystemExit("the players' ids are not consecutive")
    with transaction.atomic(), connection.cursor() as cursor:
        for label, statement in zip(
            ("hands", "seats", "sequence"), filter(str.strip, sql.split(";\n")), strict=True
        ):
            start = time.perf_counter()
            cursor.execute(statement, {"n": n, "base": ids[0]})
            print(f"    {label}: {time.perf_counter() - start:.1f} s")
        for label, statement in zip(
            ("players", "pairs"), filter(str.strip, AGGREGATE.split(";\n")), strict=True
        ):
            start = time.perf_counter()
            cursor.execute(statement)
            print(f"    {label} aggregates: {time.perf_counter() - start:.1f} s")
    with connection.cursor() as cursor:
        cursor.execute(
            "ANALYZE moderation_signalhand, moderation_signalseat, "
            "moderation_playersignal, moderation_pairsignal"
        )


def _score() -> tuple[int, int]:
    """Score every aggregate row as the ingestion does (moderation.collusion)."""
    from moderation import collusion
    from moderation.dumping import _pair, _save
    from moderation.models import PairSignal, PlayerSignal

    players = list(PlayerSignal.objects.all())
    for p in players:
        p.score = collusion.player_score(
            hands=p.hands, abandons=p.abandons, timeouts=p.timeouts, sitouts=p.sitouts, outliers=p.outliers
        )
    _save(PlayerSignal, players, ("score",))
    pairs = list(PairSignal.objects.all())
    for q in pairs:
        q.score = collusion.pair_score(_pair(q))
    _save(PairSignal, pairs, ("score",))
    return len(players), len(pairs)


def _hook_rate(ids: list[int], hands: int, seats: int, first_id: int) -> tuple[float, float, float]:
    """Hands per second through ``hooks.hand_settled``, one transaction each (as the settlement):
    counting the commit, and the hook's own work alone (the settlement commits anyway); queries a
    hand. Then the fold of the queued hands (``dumping.signals_fold``, the beat's task) is timed."""
    import random

    from django.db import connection, transaction
    from django.utils import timezone

    from moderation import dumping
    from piattaforma import hooks

    rng = random.Random(seats)
    queries = [0]
    spent: dict[str, float] = {}

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        queries[0] += 1
        t = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            key = " ".join(sql.split()[:3])[:60]
            spent[key] = spent.get(key, 0.0) + time.perf_counter() - t

    inside = 0.0
    start = time.perf_counter()
    for i in range(hands):
        club = rng.randrange(CLUBS)
        users = rng.sample(ids[club * CLUB_SIZE : (club + 1) * CLUB_SIZE], seats)
        amounts = [rng.randint(1, 2000) for _ in range(seats - 1)]
        deltas = [-sum(amounts), *amounts]
        summary = {
            "table_id": club * 10 + 1,
            "game": "poker5",
            "hand_id": first_id + i,
            "ended_at": timezone.now(),
            "seats": [
                {"user_id": u, "delta": d, "end": "normal"} for u, d in zip(users, deltas, strict=True)
            ],
        }
        with transaction.atomic(), connection.execute_wrapper(count):
            t = time.perf_counter()
            hooks.hand_settled(summary)
            inside += time.perf_counter() - t
    rate = hands / (time.perf_counter() - start)
    slowest = sorted(spent.items(), key=lambda kv: -kv[1])[:3]
    print("    slowest statements: " + "; ".join(f"{k} {v * 1000 / hands:.1f} ms" for k, v in slowest))
    per_hand = queries[0] / hands
    queries[0] = 0
    t = time.perf_counter()
    with connection.execute_wrapper(count):
        folded = dumping.signals_fold()  # the beat's task: the queued hands, by batches
    fold_s = time.perf_counter() - t
    print(
        f"    folded {folded:,} queued hands in {fold_s:.2f} s ({folded / fold_s:,.0f} hands/s), "
        f"{queries[0]} queries ({queries[0] / max(1, folded):.2f} a hand)"
    )
    return rate, hands / inside, per_hand


def main(argv: list[str]) -> None:
    n = int(argv[argv.index("--hands") + 1]) if "--hands" in argv else 1_000_000
    connection, name = _setup()
    print(f"\nload average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    try:
        from django.db.models import Max
        from django.test import Client
        from django.urls import reverse

        from bench.users import bench_user
        from moderation import collusion, selectors
        from moderation.models import PairSignal, SignalHand, SignalSeat
        from piattaforma import roles

        print(
            f"\ncollusion signals on PostgreSQL ({connection.settings_dict['NAME']}), {n:,} journaled hands"
        )
        ids = _users(CLUBS * CLUB_SIZE)
        start = time.perf_counter()
        _generate(n, ids)
        generated = time.perf_counter() - start
        start = time.perf_counter()
        players, pairs = _score()
        scored = time.perf_counter() - start
        print(
            f"  generated {SignalHand.objects.count():,} hands, {SignalSeat.objects.count():,} seats, "
            f"{players:,} players, {pairs:,} pairs in {generated:.1f} s (bulk SQL); scored in {scored:.1f} s"
        )
        top = PairSignal.objects.select_related("a", "b").order_by("-score").first()
        assert top is not None
        flagged = PairSignal.objects.filter(score__gte=collusion.FLAG_SCORE).count()
        print(
            f"  top pair: {top.a.nickname} → {top.b.nickname}, score {top.score}, {top.hands:,} hands; "
            f"{flagged} of {pairs:,} pairs at or above {collusion.FLAG_SCORE}"
        )
        staff = bench_user(nickname="bench_staff", role=roles.STAFF)
        client = Client()
        client.force_login(staff)
        _second_factor(client, staff)

        def page(url: str) -> Callable[[], Any]:
            def get() -> None:
                response = client.get(url)
                if response.status_code != 200:
                    raise SystemExit(f"{url}: {response.status_code}")

            return get

        figures = [
            ("selectors.signals_dashboard()", selectors.signals_dashboard),
            ("GET /moderazione/segnali/ (dashboard page)", page(reverse("moderation:signals"))),
            (
                "GET pair drill-down (top pair)",
                page(reverse("moderation:signals_pair", args=[top.a_id, top.b_id])),
            ),
            (
                "GET player drill-down (top pair's a)",
                page(reverse("moderation:signals_player", args=[top.a_id])),
            ),
        ]
        for label, fn in figures:
            ms, queries = _best(fn)
            print(f"  {label:<45} {ms:8.1f} ms  ({queries} queries, best of 7)")
        from moderation.models import PlayerSignal

        for label, qs in (
            (
                "pairs ranking query",
                PairSignal.objects.select_related("a", "b").order_by("-score", "-hands")[:50],
            ),
            (
                "players ranking query",
                PlayerSignal.objects.select_related("user").order_by("-score", "-hands")[:50],
            ),
        ):
            ms, node = _server_ms(qs)
            print(f"  {label:<45} {ms:8.2f} ms  in PostgreSQL ({node})")
        first = (SignalHand.objects.aggregate(m=Max("hand_id"))["m"] or 0) + 1
        for seats, hands in ((2, 2000), (6, 1000)):
            rate, own, per_hand = _hook_rate(ids, hands, seats, first)
            first += hands
            print(
                f"  hooks.hand_settled, {seats} seats: {rate:,.0f} hands/s with a commit each, "
                f"{own:,.0f} hands/s of the hook's own work ({1000 / own:.1f} ms), "
                f"{per_hand:.0f} queries a hand ({hands:,} hands)"
            )
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


if __name__ == "__main__":
    main(sys.argv[1:])


def _second_factor(client: Any, staff: Any) -> None:
    """Verify the staff session with a confirmed authenticator, as ``django_otp.login`` does: the
    staff's pages want the second factor (``piattaforma.twofa``)."""
    from django_otp import DEVICE_ID_SESSION_KEY
    from django_otp.plugins.otp_totp.models import TOTPDevice

    device = TOTPDevice.objects.filter(user=staff, confirmed=True).first()
    device = device or TOTPDevice.objects.create(user=staff, name="bench", confirmed=True)
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = device.persistent_id
    session.save()
