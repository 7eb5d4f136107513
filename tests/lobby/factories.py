"""Cash tables as the lobby creates them (``lobby.door.table_create``): poker 5 and Scopa.

``PokerTableFactory`` and ``ScopaTableFactory`` are factory_boy factories whose creation is the
lobby's own action, so a test's table has what a staff-made one has (its runtime row, its config
checked by the game's engine). ``poker_table(**overrides)`` and ``scopa_table(**overrides)`` are
their short forms.
"""

from __future__ import annotations

from typing import Any

import factory

from lobby import door
from lobby.models import Table


class _TableFactory(factory.Factory):
    class Meta:
        model = Table
        abstract = True

    realm = "real"

    @classmethod
    def _create(cls, model_class, *args: Any, **fields: Any) -> Table:
        return door.table_create(**fields)

    @classmethod
    def _build(cls, model_class, *args: Any, **fields: Any) -> Table:
        raise TypeError("a table exists only through lobby.door.table_create: use create()")


class PokerTableFactory(_TableFactory):
    """A four-seat Poker 5 carte cash table, pot limit, invito € 1,00, rake 5 % up to € 3,00."""

    name = "Tavolo Roma"
    game = "poker5"
    seats = 4
    min_buy_in = 1_000
    max_buy_in = 20_000
    rake_bp = factory.LazyAttribute(lambda o: 0 if o.realm == "play" else 500)  # gettoni pay no rake
    rake_cap = factory.LazyAttribute(lambda o: 0 if o.realm == "play" else 300)
    config = factory.LazyFunction(lambda: {"limit": "PL", "invito": 100})


SCOPA_STAKES = {"posta_partita": 100, "posta_unitaria": 50, "perdita_massima": 2_000, "rake_bp": 500}


class ScopaTableFactory(_TableFactory):
    """A two-seat Scopa cash table (a punti, 11) with the C1 stakes of SCOPA_STAKES."""

    name = "Scopa Napoli"
    game = "scopa"
    seats = 2
    min_buy_in = 2_000
    max_buy_in = 10_000
    config = factory.LazyFunction(lambda: {"mode": "punti", "target": 11})
    posta_partita = SCOPA_STAKES["posta_partita"]
    posta_unitaria = SCOPA_STAKES["posta_unitaria"]
    perdita_massima = SCOPA_STAKES["perdita_massima"]
    rake_bp = factory.LazyAttribute(lambda o: 0 if o.realm == "play" else SCOPA_STAKES["rake_bp"])


def poker_table(**overrides: Any) -> Table:
    return PokerTableFactory(**overrides)


def scopa_table(**overrides: Any) -> Table:
    return ScopaTableFactory(**overrides)
