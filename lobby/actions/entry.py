"""Reserved cash tables (rules 004, "Tornei riservati": "Sono proposti tornei e tavoli"): who may
sit down (``piattaforma.entry``), asked by sitting down, by the waiting list and by the pages."""

from __future__ import annotations

from lobby.actions import tablerow
from lobby.errors import ENTRY_REFUSALS
from lobby.models import Table
from piattaforma.entry import entry_refusal
from piattaforma.models import User


def table_entry_refusal(table: Table, user: User, *, password: str | None) -> tuple[str, str] | None:
    """Why a reserved table (rules 004, "Tornei riservati": "tornei e tavoli") refuses this player,
    as (code, Italian message), or None; ``password`` None leaves the password out (the pages)."""
    invited = table.invited.filter(pk=user.pk).exists() if table.invited.exists() else None
    return entry_refusal(
        table,
        user=user,
        game=table.game,
        game_title=tablerow.engine_for(table).title,
        invited=invited,
        password=password,
    )


def check_table_entry(table: Table, user: User, *, password: str | None) -> None:
    """Refuse, changing nothing, a player a reserved table does not admit."""
    refusal = table_entry_refusal(table, user, password=password)
    if refusal is not None:
        code, message = refusal
        raise ENTRY_REFUSALS[code](message)
