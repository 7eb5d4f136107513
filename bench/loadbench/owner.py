"""``python -m bench.loadbench.owner``: server CPU per action of the table owners, in one process.

A script, never a test. In one process, on the database of ``DATABASE_URL`` (migrated here):
``--tables`` Poker 5 carte tables of three bots each. Every seat has a stand-in socket that
takes the text of each view (so each version is built and encoded per seat as for real sockets;
the WebSocket framing is not in here, the full benchmark has it). For ``--seconds`` the owners of
every table run, bots moving on the owners' timers with no think time, the journal
group-committed.

It prints actions applied, actions/s, process CPU per action, journal commits, the memory an
open table holds in its owner (tracemalloc: the owners loaded, every seat and a spectator connected,
a hand dealt; divided by the tables), and the hand's boundary: the CPU of the process's threads
other than its event loop's (the owners' database threads: each hand's settlement and the next
deal, the leases' renewal) per hand played.

    DATABASE_URL=postgres://... python -m bench.loadbench.owner --tables 50 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
import tracemalloc
from typing import Any

from bench.loadbench import procs


def setup(tables: int) -> list[int]:
    from django.core.management import call_command

    from bench.users import bench_user
    from lobby import actions, door
    from wallet import actions as wallet_actions

    call_command("migrate", verbosity=0)
    ids = []
    stamp = int(time.time())
    for t in range(tables):
        table = actions.table_create(
            name=f"bench {stamp}-{t}", game="poker5", seats=3, min_buy_in=1_000, max_buy_in=20_000,
            config={"limit": "PL", "invito": 100},
        )  # fmt: skip
        for n in range(3):
            user = bench_user(nickname=f"o{stamp}-{t}-{n}", is_bot=True)
            wallet_actions.deposit_create(user=user, amount=100_000, idempotency_key=f"b{stamp}-{t}-{n}")
            sit_key = f"s{stamp}-{t}-{n}"
            seat = {"seat_no": n + 1, "buy_in": 20_000, "idempotency_key": sit_key}
            door.table_sit(table_id=table.pk, user=user, **seat)
        ids.append(table.pk)
    return ids


class Sink:
    """A stand-in socket: keeps the size of what it was sent."""

    last_version = 0

    def __init__(self) -> None:
        self.bytes = 0

    async def send(self, text_data: str | None = None, **_: Any) -> None:
        self.bytes += len(text_data or "")


async def run_owner(ids: list[int], seconds: float) -> dict[str, Any]:
    from django.conf import settings

    from games import evaluator
    from lobby import actions, bots, presence
    from lobby.runtime.journal import journal

    bots.BOT_DELAY_SECONDS = 0.0
    evaluator.build_all()  # the hand evaluator's tables load once per process, not per table
    # memory: the owners loaded, every seat and a spectator connected, the first hand dealt (no clock
    # armed meanwhile, so no bot moves while tracemalloc slows everything down)
    settings.LOBBY_SCHEDULE_TASKS = False
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    owners = [await presence.owner_for(t) for t in ids]
    for owner in owners:
        for seat in owner.seats:
            owner.audience.add(seat.user_id, Sink())
        owner.audience.add(0, Sink())  # a spectator
        await owner.call(actions.table_start_hand, table_id=owner.table_id)
    after = tracemalloc.take_snapshot()
    memory = sum(s.size_diff for s in after.compare_to(before, "filename")) / len(ids)
    tracemalloc.stop()
    settings.LOBBY_SCHEDULE_TASKS = True  # the owners' own timers: the bots move; each hand's end deals again
    print(f"owner: measuring {seconds:.0f} s from now (pid {os.getpid()})", flush=True)
    hand_nos = lambda: sum(o.rt.hand_no if o.rt is not None else 0 for o in owners)  # noqa: E731
    start_cpu, start = time.process_time(), time.perf_counter()
    start_loop = procs.loop_ticks(os.getpid())
    start_commits, start_applied, start_hands = journal().commits, sum(o.applied for o in owners), hand_nos()
    for owner in owners:
        owner._arm()
    await asyncio.sleep(seconds)
    cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start
    loop = (procs.loop_ticks(os.getpid()) - start_loop) / procs.CLK_TCK
    applied, hands = sum(o.applied for o in owners) - start_applied, hand_nos() - start_hands
    commits = journal().commits - start_commits
    await presence.stop_all()
    return {
        "actions": applied, "hands": hands, "wall": wall, "cpu": cpu, "loop": loop, "commits": commits,
        "memory": memory,
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    from django.conf import settings

    settings.LOBBY_SCHEDULE_TASKS = False
    from lobby.actions import hands

    hands.NEXT_HAND_DELAY_SECONDS = 0  # the next hand is dealt at once
    r = asyncio.run(run_owner(setup(args.tables), args.seconds))
    db = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    print(f"{args.tables} poker tables x 3 bots, {args.seconds:.0f} s, database {db}")
    print("actions  actions/s  CPU ms/action  commits  memory/table  hands  threads' CPU ms/hand")
    per = 1000 * r["cpu"] / max(1, r["actions"])
    per_hand = 1000 * (r["cpu"] - r["loop"]) / max(1, r["hands"])
    print(
        f"{r['actions']:7d}  {r['actions'] / r['wall']:9.0f}  {per:13.2f}"
        f"  {r['commits']:>7}  {r['memory'] / 1024:>9.0f} KB  {r['hands']:>5}  {per_hand:>20.2f}"
    )


if __name__ == "__main__":
    main()
