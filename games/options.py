"""The players' "opzioni di gioco" for each game, as data (one place for every option).

Each option has a type (``bool``, ``choice`` or ``int`` with bounds), a default and an Italian label,
from the "Opzioni di gioco automatico" paragraphs of each game's rules. Engines read a seat's
``prefs`` with these keys; the profile page and the API validate through ``validate``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Option:
    """One preference: its key, Italian label, kind, default and allowed values."""

    key: str
    label: str
    kind: str  # "bool" | "choice" | "int"
    default: Any
    choices: tuple[tuple[Any, str], ...] = ()
    min: int | None = None
    max: int | None = None
    help: str = ""


@dataclass(frozen=True)
class GameOptions:
    """The options of one game."""

    game: str
    title: str
    options: tuple[Option, ...] = field(default_factory=tuple)


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
    help="Solo estetico (RULINGS G3).",
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
        GameOptions("scopa", "Scopa", (DECK_STYLE,)),
        GameOptions("asso", "Asso piglia tutto", (DECK_STYLE,)),
        GameOptions(
            "cirulla",
            "Cirulla",
            (DECK_STYLE, Option("accuso_automatico", "Accuso automatico (cirulla e decino)", "bool", True)),
        ),
        GameOptions("briscola", "Briscola", (DECK_STYLE,)),
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
        ),
        GameOptions("bestia", "Bestia", (DECK_STYLE,)),
        GameOptions("burraco", "Burraco", (ORDINA_MANO,)),
        GameOptions("scala40", "Scala 40", (ORDINA_MANO,)),
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
        if option.kind == "bool":
            ok = type(value) is bool
        elif option.kind == "choice":
            ok = any(type(value) is type(c) and value == c for c, _ in option.choices)
        else:
            ok = type(value) is int and (option.min is None or value >= option.min)
            ok = ok and (option.max is None or value <= option.max)
        if ok:
            out[key] = value
        else:
            errors[key] = "Valore non ammesso"
    if errors:
        raise OptionError(errors)
    return out
