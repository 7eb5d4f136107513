"""Database side of the load benchmark, run in a subprocess with the production settings.

``seed``: idempotent; creates the benchmark's tables and players in the template database
(players funded through a sandbox deposit and seated through ``lobby.door.table_sit``, so
every cent is in the ledger). Nothing is scheduled while seeding: no hand starts in the template.
``level``: in the copy a level runs on, opens a Django session for each player of the first
tables, queues the first deal of each poker table for the Celery workers, and writes the clients'
list (table, Daphne index, session key) as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import date, timedelta
from typing import Any

from bench.loadbench.core import POKER_SEATS, SCOPA_SEATS

DEPOSIT = 50_000
POKER_FIELDS: dict[str, Any] = {
    "game": "poker5",
    "seats": POKER_SEATS,
    "min_buy_in": 1_000,
    "max_buy_in": 20_000,
    "rake_bp": 500,
    "rake_cap": 300,
    "config": {"limit": "PL", "invito": 100},
}
SCOPA_FIELDS: dict[str, Any] = {
    "game": "scopa",
    "seats": SCOPA_SEATS,
    "min_buy_in": 2_000,
    "max_buy_in": 10_000,
    "posta_partita": 100,
    "posta_unitaria": 50,
    "perdita_massima": 2_000,
    "rake_bp": 500,
    "config": {"mode": "punti", "target": 11},
}
BUY_IN = {"poker5": 20_000, "scopa": 10_000}


def table_name(game: str, index: int) -> str:
    return f"lb-{game}-{index:04d}"


def player_nickname(game: str, index: int, seat: int) -> str:
    return f"lb{game[0]}{index:04d}s{seat}"


def _setup() -> None:
    import django

    django.setup()
    from django.conf import settings

    settings.LOBBY_SCHEDULE_TASKS = False  # no Celery clock: the tables' owners deal (``level``)


def seed(poker: int, scopa: int) -> None:
    """Create what is missing of ``poker`` poker tables and ``scopa`` scopa tables, seated and funded."""
    from django.contrib.auth.models import Group

    from lobby import actions, door
    from lobby.models import Seat, Table
    from piattaforma import roles
    from piattaforma.models import User
    from wallet import actions as wallet_actions

    players = Group.objects.get(name=roles.PLAYERS)
    for game, count, fields in (("poker5", poker, POKER_FIELDS), ("scopa", scopa, SCOPA_FIELDS)):
        existing = set(Table.objects.filter(name__startswith=f"lb-{game}-").values_list("name", flat=True))
        for index in range(count):
            name = table_name(game, index)
            if name in existing:
                continue
            table = actions.table_create(name=name, **fields)
            for seat in range(1, fields["seats"] + 1):
                nickname = player_nickname(game, index, seat)
                user = User.objects.filter(nickname=nickname).first()
                if user is None:
                    user = User.objects.create_user(
                        nickname=nickname,
                        email=f"{nickname}@loadbench.invalid",
                        password=None,
                        date_of_birth=date(1990, 1, 1),
                    )
                    players.user_set.add(user)
                    wallet_actions.deposit_create(
                        user=user, amount=DEPOSIT, idempotency_key=f"lb-dep-{nickname}"
                    )
                if not Seat.objects.filter(table=table, user=user).exists():
                    door.table_sit(
                        table_id=table.pk,
                        user=user,
                        seat_no=seat,
                        buy_in=BUY_IN[game],
                        idempotency_key=f"lb-sit-{nickname}-{table.pk}",
                    )
            if index % 50 == 49:
                print(f"  seeded {index + 1}/{count} {game} tables", file=sys.stderr, flush=True)


def level(poker: int, scopa: int, daphne: int, out: str) -> None:
    """Open sessions for the players of the first tables and queue the first poker deals."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    from lobby.models import Seat, TableRuntime
    from piattaforma.models import SiteHours

    # the servers run with production's settings: the site's daily closing (05:30-05:45 Rome) would
    # stop every deal of a run that falls in it, so its hours are off in this database
    SiteHours.objects.update_or_create(pk=1, defaults={"enabled": False})
    names = [table_name("poker5", i) for i in range(poker)] + [table_name("scopa", i) for i in range(scopa)]
    seats = list(
        Seat.objects.filter(table__name__in=names)
        .select_related("user", "table")
        .order_by("table__name", "number")
    )
    expected = poker * POKER_SEATS + scopa * SCOPA_SEATS
    if len(seats) != expected:
        raise SystemExit(f"the template holds {len(seats)} seated players, {expected} expected: reseed")
    order = {name: i for i, name in enumerate(names)}
    store = SessionStore()
    expire = timezone.now() + timedelta(seconds=settings.SESSION_COOKIE_AGE)
    sessions, clients = [], []
    for seat in seats:
        key = get_random_string(32, "abcdefghijklmnopqrstuvwxyz0123456789")
        data = {
            SESSION_KEY: str(seat.user.pk),
            BACKEND_SESSION_KEY: "piattaforma.auth.NicknameOrEmailBackend",
            HASH_SESSION_KEY: seat.user.get_session_auth_hash(),
        }
        sessions.append(Session(session_key=key, session_data=store.encode(data), expire_date=expire))
        clients.append(
            {
                "nickname": seat.user.nickname,
                "table": seat.table_id,
                "game": seat.table.game,
                "daphne": order[seat.table.name] % daphne,
                "session": key,
            }
        )
    Session.objects.bulk_create(sessions, batch_size=500)
    # The first deals, due now, kept on the rows as a next deal is (``tablerow.start_later``): each
    # table's owner, started by its first connection, deals on its own clock. No Celery task is
    # queued for them: a worker dealing before the owners exist leaves decision deadlines and starts
    # queued for the tables, which fire inside the measured window and find the owners there.
    # The template's other tables (seeded for a larger level) deal nothing: no client plays there.
    poker_ids = sorted({seat.table_id for seat in seats if seat.table.game == "poker5"})
    TableRuntime.objects.exclude(pk__in=poker_ids).update(start_at=None)
    TableRuntime.objects.filter(pk__in=poker_ids).update(start_at=timezone.now())
    with open(out, "w", encoding="utf-8") as fh:
        json.dump({"cookie_name": settings.SESSION_COOKIE_NAME, "clients": clients}, fh)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.loadbench.prepare")
    sub = parser.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("seed")
    s.add_argument("--poker", type=int, required=True)
    s.add_argument("--scopa", type=int, required=True)
    lv = sub.add_parser("level")
    lv.add_argument("--poker", type=int, required=True)
    lv.add_argument("--scopa", type=int, required=True)
    lv.add_argument("--daphne", type=int, required=True)
    lv.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    if os.environ.get("DJANGO_SETTINGS_MODULE") != "config.settings.production":
        raise SystemExit("run through python -m bench.loadbench (production settings expected)")
    _setup()
    if args.cmd == "seed":
        seed(args.poker, args.scopa)
    else:
        level(args.poker, args.scopa, args.daphne, args.out)


if __name__ == "__main__":
    main()
