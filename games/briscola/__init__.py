"""Briscola: the match engine (games.partite) around one Briscola smazzata (games.briscola.deal).

Registered as ``"briscola"``. Formats: testa a testa, a coppie, 4 in 2. Partite a punti (the
default): the first line past 60 in a smazzata wins (RULINGS I6); the match engine's target is
61 and its totals add up smazzate, so after a 60–60 the next smazzata decides (a tie again: one
more). Partite a smazzate: a best of an odd number of smazzate won (``count="vinte"``). KO
spareggi: the line that made the last trick of the third spareggio loses. Timeout or abandon: the
unassigned points of the smazzata, at most 20, go to the other line. Cash: difference / 10
rounded half down (RULINGS C1).
"""

from __future__ import annotations

from typing import Any, ClassVar

from games.briscola.deal import DEAL, WINNING_POINTS, BriscolaDeal
from games.engine import ConfigError, Option
from games.registry import register
from games.tricks import State, TrickDealRules, TrickMatchMixin


class BriscolaRules(TrickDealRules):
    """The Briscola smazzata for the match engine."""

    deal: ClassVar[BriscolaDeal] = DEAL
    game_defaults: ClassVar[dict[str, Any]] = {"vinco_subito_smazzata": False}
    game_options: ClassVar[tuple[Option, ...]] = (
        Option("vinco_subito_smazzata", "Vinco subito: la smazzata finisce a 61", "bool", False),
        Option("target", "Punti da superare", "choice", WINNING_POINTS, ((WINNING_POINTS, "Oltre 60 (61)"),)),
    )

    def validate_config(self, config: dict[str, Any]) -> None:
        """Partite a punti are to 61 (RULINGS I6); a smazzate count the smazzate won."""
        if config["mode"] == "punti" and config["target"] != WINNING_POINTS:
            raise ConfigError("nella briscola a punti vince chi supera 60 punti", target=config["target"])
        if config["mode"] == "smazzate" and config["count"] != "vinte":
            raise ConfigError("nella briscola a smazzate vince chi ne vince la maggioranza")
        if type(config["vinco_subito_smazzata"]) is not bool:
            raise ConfigError("vinco_subito_smazzata non valido")

    def public_start_events(self, d: State) -> list[dict[str, Any]]:
        """The briscola card turned face up under the stock."""
        return [{"type": "briscola", "card": d["briscola"]}]


@register
class Briscola(TrickMatchMixin):
    """Briscola in 2 or 4 (rules 004)."""

    name = "briscola"
    title = "Briscola"
    min_seats = 2
    max_seats = 4
    rules = BriscolaRules()
    defaults: ClassVar[dict[str, Any]] = {
        "mode": "punti",
        "target": WINNING_POINTS,
        "penalty_cap": 20,
        "cash_divisor": 10,
        "decider": "loses",
    }

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """Partite a smazzate count the smazzate won unless told otherwise."""
        if config.get("mode") == "smazzate" and "count" not in config:
            config = {**config, "count": "vinte"}
        return super().validate_config(config)
