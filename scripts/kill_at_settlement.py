"""One table's owner, its bots playing hand after hand, killed with SIGKILL at a hand's end.

    DATABASE_URL=postgres://… python scripts/kill_at_settlement.py TABLE_ID KILL_AT

A process of its own (``tests/lobby/test_kill_at_settlement.py`` runs it again and again on the
test database): it takes the table over (its lease must be free or expired), settles a hand the
journal ended if a killed predecessor left one, and lets the bots play with no pauses. At the
``KILL_AT``-th hand it ends (its last step committed to the journal and its view sent) it sends
itself SIGKILL before the settlement's transaction begins: nothing of Python's clean-up runs, the
owner's lease stays held until it expires. ``KILL_AT`` 0: it plays until a hand settles after its
start, then stops the owner cleanly. Prints ``ready``, ``settled N`` and ``stopped`` lines.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

import django

django.setup()

from lobby import bots, presence  # noqa: E402
from lobby.actions import hands  # noqa: E402
from lobby.runtime.owner import TableOwner  # noqa: E402

WAIT = 60.0


def main(table_id: int, kill_at: int) -> None:
    bots.BOT_DELAY_SECONDS = 0.0
    hands.NEXT_HAND_DELAY_SECONDS = 0
    hands.SHOWDOWN_PAUSE_SECONDS = 0
    settle = TableOwner._settle_sync
    ends = 0
    settled = 0

    def settle_or_die(owner: TableOwner) -> None:
        nonlocal ends, settled
        if owner.recovered_end:
            owner.recovered_end = False  # (a predecessor's hand: settled, not counted)
        else:
            ends += 1
            if ends == kill_at:
                print(f"killed at hand {owner.rt.hand_no if owner.rt else '?'}", flush=True)
                os.kill(os.getpid(), signal.SIGKILL)
        settle(owner)
        settled += 1
        print(f"settled {owner.rt.hand_no if owner.rt else '?'}", flush=True)

    TableOwner._settle_sync = settle_or_die  # type: ignore[method-assign]  # the script swaps the method in place to die in it

    async def run() -> None:
        await presence.owner_for(table_id)
        print("ready", flush=True)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        while loop.time() < deadline and (kill_at or not ends):
            await asyncio.sleep(0.02)
        await presence.stop_all()
        print("stopped", flush=True)

    asyncio.run(run())


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
