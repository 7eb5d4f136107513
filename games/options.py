"""Options as data (one place for every option): the players' and the tables'.

Each option has a type (``bool``, ``choice``, ``int`` with bounds, or ``data``: a structured value
the engine checks itself), a default and an Italian label.

* The players' "opzioni di gioco" of each game (``GAMES``), from the "Opzioni di gioco automatico"
  paragraphs of each game's rules: engines read a seat's ``prefs`` with these keys; the profile
  page and the API validate through ``validate``.
* The table options of each engine (``Engine.config_options``, declared beside its rules, the
  ``Option`` class and the check living in games.engine, the contract): every ``validate_config``
  first passes the config through ``games.engine.check_table_config``, which refuses a key
  the engine does not declare (``unknown_config_key``), a value outside an option's type or
  choices (``invalid_config``) and an option the game does not implement set to anything but its
  inert value (``unsupported_config``); the back office offers the same list.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine import Option


@dataclass(frozen=True)
class GameOptions:
    """The options of one game."""

    game: str
    title: str
    options: tuple[Option, ...] = field(default_factory=tuple)
    # When a change reaches a table the player already sits at (``APPLIES_FROM``): read at every
    # deal of a cash table (``lobby.actions.hands``), so from the next hand, or the next match of a
    # gioco a partite; Sette e mezzo keeps the options of the moment the player sat down.
    applies_from: str = "hand"


# "hand": the next hand; "match": the next partita; "join": the next table the player sits at
# (Sette e mezzo, rules 004: "Modifiche alle opzioni di gioco automatico non sono prese in
# considerazione sul tavolo nel quale il giocatore sta giocando").
APPLIES_FROM = ("hand", "match", "join")


class OptionError(ValueError):
    """A preference value the schema does not allow; ``errors`` maps keys to Italian messages."""

    def __init__(self, errors: dict[str, str]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))


VELE = (
    ("", "Nessuna preferenza"),
    ("nessuna", "Nessuna vela"),
    ("una", "Una"),
    ("due", "Due"),
    ("tre", "Tre"),
    ("croce", "Croce"),
    ("h", "H"),
    ("piramide", "Piramide"),
    ("ascensore", "Ascensore"),
)
DISTRIBUZIONE = (
    ("", "Nessuna preferenza"),
    ("mai", "Mai"),
    ("primo_giro", "Solo al primo giro"),
    ("sempre", "Sempre"),
)
MOSTRA = Option(
    "mostra_nascondi",
    "Mostra / nascondi la tua mano",
    "choice",
    "chiedi",
    (("chiedi", "Chiedimelo sempre"), ("nascondi", "Nascondo sempre"), ("mostra", "Mostro sempre")),
)
# Sette e mezzo thresholds in half points (RULINGS B1): 3, 4, 4½, 5, 6, 6½; default 4½.
SOGLIE = ((6, "3"), (8, "4"), (9, "4½"), (10, "5"), (12, "6"), (13, "6½"))
STO_TIRO = (("sto", "Sto"), ("tiro", "Tiro"))
DECK_STYLE = Option(
    "stile_mazzo",
    "Stile delle carte",
    "choice",
    "napoletane",
    (("napoletane", "Napoletane"), ("piacentine", "Piacentine"), ("francesi", "Francesi")),
    help="Solo estetico: le carte cambiano aspetto, il gioco no.",  # RULINGS G3
)
TELESINA_OPTIONS = (
    Option("vele_preferite", "Variante vele preferita", "choice", "", VELE),
    Option("usa_sempre_vele", "Utilizzare sempre la variante vele preferita", "bool", False),
    Option("distribuzione_preferita", "Variante di distribuzione preferita", "choice", "", DISTRIBUZIONE),
    Option(
        "usa_sempre_distribuzione", "Utilizzare sempre la variante distribuzione preferita", "bool", False
    ),
)
ORDINA_MANO = Option(
    "ordina_mano",
    "Ordina la mano",
    "choice",
    "seme",
    (("seme", "Per seme"), ("valore", "Per valore, matte prima")),
)
INVITO_AUTO = Option("invito_automatico", "Invito automatico (solo tavoli cash)", "bool", False)

GAMES: dict[str, GameOptions] = {
    g.game: g
    for g in (
        GameOptions("poker5", "Poker 5 carte all'italiana", (*TELESINA_OPTIONS, MOSTRA, INVITO_AUTO)),
        GameOptions("telesina", "Telesina", (*TELESINA_OPTIONS, MOSTRA, INVITO_AUTO)),
        GameOptions("scopa", "Scopa", (DECK_STYLE,), "match"),
        GameOptions("asso", "Asso piglia tutto", (DECK_STYLE,), "match"),
        GameOptions(
            "cirulla",
            "Cirulla",
            (DECK_STYLE, Option("accuso_automatico", "Accuso automatico (cirulla e decino)", "bool", True)),
            "match",
        ),
        GameOptions("briscola", "Briscola", (DECK_STYLE,), "match"),
        GameOptions(
            "tresette",
            "Tresette",
            (
                DECK_STYLE,
                Option("chiamata_fuori_automatica", "Chiamata fuori automatica", "bool", True),
                Option("accuso_automatico", "Accuso automatico", "bool", True),
                Option(
                    "dichiarazione_automatica",
                    "Dichiarazione automatica (\u201cHo \u2026\u201d)",
                    "bool",
                    True,
                ),
            ),
            "match",
        ),
        GameOptions("bestia", "Bestia", (DECK_STYLE,)),
        GameOptions("burraco", "Burraco", (ORDINA_MANO,), "match"),
        GameOptions("scala40", "Scala 40", (ORDINA_MANO,), "match"),
        GameOptions(
            "settemezzo",
            "Sette e mezzo",
            (
                DECK_STYLE,
                Option("sette_mezzo_soglia_punta", "Se sono di punta sto a partire da", "choice", 9, SOGLIE),
                Option(
                    "sette_mezzo_soglia_banco",
                    "Se sono di banco e la punta è stata, sto da",
                    "choice",
                    9,
                    SOGLIE,
                ),
            ),
            "join",
        ),
        GameOptions("mazzetti", "Mazzetti", (DECK_STYLE,)),
        GameOptions(
            "chemin",
            "Chemin de fer",
            (
                Option("chemin_alla_regola", "Gioco sempre alla regola", "bool", False),
                Option("chemin_punta_5", "Avendo 5 di punta", "choice", "sto", STO_TIRO),
                Option("chemin_banco_3_dando_9", "Avendo 3 di banco e dando 9", "choice", "sto", STO_TIRO),
                Option("chemin_banco_5_dando_4", "Avendo 5 di banco e dando 4", "choice", "sto", STO_TIRO),
                Option("chemin_battuta_automatica", "Battuta automatica in caso di 8 o 9", "bool", False),
            ),
        ),
    )
}


def kept_for_the_session(game: str) -> bool:
    """Tell whether a seat keeps the options of its sit-down for the whole table session ("join")."""
    return GAMES[game].applies_from == "join"


def defaults(game: str) -> dict[str, Any]:
    """Return the default preferences of a game."""
    return {o.key: o.default for o in GAMES[game].options}


def validate(game: str, values: dict[str, Any]) -> dict[str, Any]:
    """Return the complete, checked preferences (defaults filled in); raise OptionError if invalid."""
    if game not in GAMES:
        raise OptionError({"game": "Gioco sconosciuto"})
    if not isinstance(values, dict):
        raise OptionError({"values": "Formato delle opzioni non valido"})
    options = {o.key: o for o in GAMES[game].options}
    errors: dict[str, str] = {k: "Opzione sconosciuta" for k in values if k not in options}
    out = defaults(game)
    for key, option in options.items():
        if key not in values:
            continue
        value = values[key]
        if option.accepts(value):
            out[key] = value
        else:
            errors[key] = "Valore non ammesso"
    if errors:
        raise OptionError(errors)
    return out
