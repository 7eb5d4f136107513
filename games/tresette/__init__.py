"""Tresette: the match engine (games.partite) around one Tresette smazzata (games.tresette.deal).

Registered as ``"tresette"``. Formats: a coppie and 4 in 2 (four hands of ten), testa a testa =
spizzichino (two hands of ten, twenty in the stock, shown draws). Partite a punti (default target
21) or a smazzate; chiamata fuori is the match option ``vinco_subito`` (RULINGS I7). Game options
(match config keys): ``a_perdere``, ``accuso``, ``cappotto``, ``dichiarazioni``; ``torneo`` marks
a tournament table (no cappotto there). KO ties (RULINGS I5): partite a punti play up to three
spareggi and then the line that made the last trick loses; partite a smazzate go straight to the
last trick of the last smazzata, which wins; a perdere: fewer points win, a tie goes to the last
trick of the last smazzata. Timeout or abandon: the unassigned points, at most 6.
"""

from __future__ import annotations

from typing import Any, ClassVar

from games.engine import ConfigError, Option
from games.registry import register
from games.tresette.deal import DEAL, TresetteDeal
from games.tricks import State, TrickDealRules, TrickMatchMixin

GAME_KEYS = ("a_perdere", "accuso", "cappotto", "dichiarazioni", "torneo")


class TresetteRules(TrickDealRules):
    """The Tresette smazzata for the match engine."""

    deal: ClassVar[TresetteDeal] = DEAL
    game_defaults: ClassVar[dict[str, Any]] = dict.fromkeys(GAME_KEYS, False)
    game_options: ClassVar[tuple[Option, ...]] = (
        Option("a_perdere", "Tresette a perdere", "bool", False),
        Option("accuso", "Accuso", "bool", False),
        Option("cappotto", "Cappotto (mai nei tornei)", "bool", False),
        Option("dichiarazioni", "Dichiarazioni (a coppie)", "bool", False),
        Option("torneo", "Tavolo di torneo", "bool", False),
    )
    # a perdere sets lower_wins and decider_always itself (TresetteEngine.validate_config)
    not_implemented: ClassVar[frozenset[str]] = frozenset()

    def validate_config(self, config: dict[str, Any]) -> None:
        """Check the variants and options against each other (rules 004, "Varianti" and options)."""
        for k in GAME_KEYS:
            if type(config[k]) is not bool:
                raise ConfigError(f"{k} non valido", **{k: config[k]})
        if config["a_perdere"] and (config["accuso"] or config["vinco_subito"]):
            raise ConfigError("nel tresette a perdere non sono previsti chiamata fuori e accuso")
        if config["a_perdere"] and not config["lower_wins"]:
            raise ConfigError("nel tresette a perdere vince chi fa meno punti (lower_wins)")
        if config["cappotto"] and config["torneo"]:
            raise ConfigError("il cappotto non si applica mai nei tornei")

    def running(self, st: State) -> tuple[list[int], int | None] | None:
        """Points so far and the line calling out (chiamata fuori), for the match's vinco subito."""
        d = st["deal"]
        return self.deal.running_points(d), self.deal.taker_calling(d)

    def result(self, st: State) -> dict[str, Any]:
        """Points (cards + accusi), the last trick's line, and a cappotto as an extra posta."""
        res = super().result(st)
        cap = res["detail"]["cappotto"]
        res["cappotti"] = [1 if cap == i else 0 for i in (0, 1)]
        return res


@register
class Tresette(TrickMatchMixin):
    """Tresette in 4 (a coppie, 4 in 2) and spizzichino in 2 (rules 004)."""

    name = "tresette"
    title = "Tresette"
    min_seats = 2
    max_seats = 4
    rules = TresetteRules()
    defaults: ClassVar[dict[str, Any]] = {"mode": "punti", "target": 21, "penalty_cap": 6, "decider": "loses"}

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """Fill the tie rules the chapter gives for each kind of match (RULINGS I5)."""
        extra: dict[str, Any] = {}
        if config.get("a_perdere"):
            # "In caso di parità vince chi ha fatto l'ultima presa dell'ultima smazzata."
            extra = {"lower_wins": True, "decider": "wins", "decider_always": True}
        elif config.get("mode") == "smazzate":
            # "Solo nei tornei KO, in caso di parità di punti, vince chi ha fatto l'ultima presa."
            extra = {"decider": "wins", "spareggi": 0}
        return super().validate_config({**extra, **config})
