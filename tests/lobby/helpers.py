"""Shared steps of the live-table tests: seating, random legal play, money totals."""

from __future__ import annotations

import itertools
import json
from datetime import timedelta
from typing import Any

from django.utils import timezone

from games import registry
from games.rng import SeededRng
from lobby import door, selectors
from lobby.models import Seat, Table, TableRuntime
from wallet import selectors as wallet_selectors

_keys = itertools.count()


def key(prefix: str = "k") -> str:
    return f"{prefix}-{next(_keys)}"


def seat_players(table: Table, users: list, buy_in: int = 10_000, seat_offset: int = 0) -> list[Seat]:
    """Sit ``users`` down in seats ``seat_offset + 1``, ``seat_offset + 2``, ..."""
    return [
        door.table_sit(
            table_id=table.pk, user=u, seat_no=seat_offset + i + 1, buy_in=buy_in, idempotency_key=key("sit")
        )
        for i, u in enumerate(users)
    ]


def runtime(table: Table) -> TableRuntime:
    """The table's runtime now: the row, plus on the owner runtime the journal's steps it lags behind."""
    rt = selectors.runtime_now(table.pk)
    assert rt is not None
    return rt


def play_hand_randomly(
    table: Table, rng: SeededRng, on_step=None, max_steps: int = 500, skip_user=None, abandon_after=None
) -> int:
    """Play the running hand to its end with random legal actions of the seats to act.

    ``skip_user``'s decisions are left to the clock: his deadline is expired and the timeout applied.
    ``abandon_after``: random play can reach a rummy position nobody can ever close; after that
    many moves the seat to act abandons (giochi a partite), which ends the match by the rules.
    """
    for step in range(max_steps):
        rt = runtime(table)
        engine = registry.get(rt.game or table.game)
        if rt.state is None or engine.is_over(rt.state):
            return step
        seat_no = engine.to_act(rt.state)[0]
        seat = Seat.objects.get(table=table, number=seat_no)
        if abandon_after is not None and step >= abandon_after:
            door.table_act(table_id=table.pk, user=seat.user, action={"type": "abbandona"})
            continue
        if skip_user is not None and seat.user_id == skip_user.pk:
            TableRuntime.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=1))
            door.table_timeout(table_id=table.pk, version=rt.version)
            continue
        action = engine.sample_action(rt.state, seat_no, rng)
        door.table_act(table_id=table.pk, user=seat.user, action=action, version=rt.version)
        if on_step:
            on_step(runtime(table))
    raise AssertionError("hand did not end")


def back_from_sitout(table: Table) -> None:
    """Bring back the players random play sat out (a SITOUT answered at the invito sits the player
    out until he says "sono tornato"), so that the next hand deals them in again."""
    for seat in Seat.objects.filter(table=table, status=Seat.Status.SITOUT).select_related("user"):
        door.table_sitout(table_id=table.pk, user=seat.user, sitout=False)


def credit(seat: Seat, realm: str = "real") -> int:
    return int(wallet_selectors.table_credit_get(table_session_ref=seat.session_ref, realm=realm)["balance"])


def money_total(users, seats, realm: str = "real") -> int:
    """Conti plus table credits of these players (the house's rake is counted apart)."""
    conti = sum(wallet_selectors.balance_get(user=u)["cash" if realm == "real" else "play"] for u in users)
    return conti + sum(credit(s, realm) for s in seats)


def dumps(payload: Any) -> str:
    return json.dumps(payload, ensure_ascii=False)


def concrete(spec: dict[str, Any]) -> dict[str, Any]:
    """The action of a legal-action spec (its minimum amount where it asks one)."""
    action = {k: v for k, v in spec.items() if k not in ("label", "confirm", "amount")}
    if "amount" in spec:
        action["amount"] = spec["amount"]["min"]
    return action


def everyone_puts_the_invito(table: Table) -> None:
    """Answer INVITO for every seat asked (poker cash tables ask each hand, RULINGS P14)."""
    engine = registry.get(table.game)
    for seat_no in list(engine.to_act(runtime(table).state)):
        rt = runtime(table)
        spec = next(a for a in engine.legal_actions(rt.state, seat_no) if a["label"] == "INVITO")
        user = Seat.objects.get(table=table, number=seat_no).user
        door.table_act(table_id=table.pk, user=user, action=concrete(spec))


def carried_pots() -> int:
    """What the tables' pot accounts hold: a hand nobody opened carries its pot to the next."""
    from wallet.models import Account, AccountKind

    return int(sum(Account.objects.filter(kind=AccountKind.TABLE_POT).values_list("balance", flat=True)))


def house_rake(realm: str = "real") -> int:
    """The balance of the house's rake account."""
    from wallet.models import Account

    row = Account.objects.filter(kind="house_rake", realm=realm).values_list("balance", flat=True).first()
    return int(row or 0)


async def receive_frame(ws: Any, timeout: float = 5.0) -> dict[str, Any]:
    """A table socket's next frame past the heartbeat's ``{"type": "table.version"}``.

    The process heartbeat tells every table socket its version every ``LOBBY_HEARTBEAT_SECONDS``,
    whatever a test is doing: a test waiting for the answer to what it sent skips those.
    """
    while True:
        frame: dict[str, Any] = await ws.receive_json_from(timeout=timeout)
        if frame.get("type") != "table.version":
            return frame


async def receives_nothing(ws: Any, timeout: float) -> bool:
    """Nothing but heartbeats reached this table socket within ``timeout`` seconds."""
    while not await ws.receive_nothing(timeout=timeout):
        if (await ws.receive_json_from(timeout=timeout)).get("type") != "table.version":
            return False
    return True


def three_bots_dealt() -> tuple[Table, list, list[Seat], int]:
    """A three-seat poker table of bots with its first hand dealt: the table, the bots, their
    seats, and the money there is (their conti and credits, the house's rake, the carried pots)."""
    from tests.lobby.factories import poker_table
    from tests.wallet.factories import funded_player

    users = [funded_player(is_bot=True) for _ in range(3)]
    table = poker_table(seats=3)
    seats = seat_players(table, users)
    door.table_start_hand(table_id=table.pk)
    return table, users, seats, money_total(users, seats) + house_rake() + carried_pots()
