"""Cash tables as the lobby creates them (``lobby.door.table_create``): poker 5 and Scopa."""

from __future__ import annotations

from typing import Any

from lobby import door
from lobby.models import Table


def poker_table(**overrides: Any) -> Table:
    fields = {
        "name": "Tavolo Roma",
        "game": "poker5",
        "seats": 4,
        "min_buy_in": 1_000,
        "max_buy_in": 20_000,
        "rake_bp": 500,
        "rake_cap": 300,
        "config": {"limit": "PL", "invito": 100},
    }
    return door.table_create(**{**fields, **overrides})


SCOPA_STAKES = {"posta_partita": 100, "posta_unitaria": 50, "perdita_massima": 2_000, "rake_bp": 500}


def scopa_table(**overrides: Any) -> Table:
    """A two-seat Scopa cash table (a punti, 11) with the C1 stakes of SCOPA_STAKES."""
    fields = {
        "name": "Scopa Napoli",
        "game": "scopa",
        "seats": 2,
        "min_buy_in": 2_000,
        "max_buy_in": 10_000,
        "config": {"mode": "punti", "target": 11},
        **SCOPA_STAKES,
    }
    return door.table_create(**{**fields, **overrides})
