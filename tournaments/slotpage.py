"""What the slot tournament's page carries besides its socket: the machine's tables for the
paytable, the lines and the reels' spin (all public: ``games.slot.table``), and the page script's
own words (static/js/slot/), translated on the server.

The script writes Italian and looks each text up in the catalog the page carries (json_script
``slot-i18n``, as the table client's ``table-i18n``): ``{Italian: translation}``, empty in Italian.
``{name}`` placeholders are filled in by the script.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_

from games.slot import table

TEXTS = [
    N_("GIRA"),
    N_("STOP"),
    N_("Auto Start"),
    N_("Stop Auto ({n})"),
    N_("Puntata Massima"),
    N_("Vincita"),
    N_("Credito"),
    N_("Puntata totale"),
    N_("Tocca per saltare"),
    N_("Linea {n}: {count} × {symbol} = {pay}"),
    N_("Bonus: scegli una porta"),
    N_("Livello {level} · vincita {win}"),
    N_("La Maestra! Sali al livello {level}"),
    N_("La Preside! Il bonus finisce"),
    N_("Bonus vinto: {win}"),
    N_("Porta {n}"),
    N_("Free spin: scegli una lavagnetta"),
    N_("{spins} giri gratuiti · moltiplicatore ×{mult}"),
    N_("+{spins} giri"),
    N_("moltiplicatore +{mult}"),
    N_("La Preside: si torna in classe!"),
    N_("Lavagnetta {n}"),
    N_("Giro gratuito {n} di {of}"),
    N_("Free spin finiti: {played} giri, vincita {win}"),
    N_("Ruota di Pierino"),
    N_("Verde: entri nella modalità Pierino ({chance}%). Rosso: torni al gioco."),
    N_("INIZIA"),
    N_("La ruota parte da sola tra {s} s"),
    N_("Entri nella modalità Pierino!"),
    N_("Niente modalità Pierino: si torna al gioco"),
    N_("Pierino: giro {n} di 10 · {points} punti"),
    N_("Pierino: {points} punti, vinci {prize} chips"),
    N_("Continua"),
    N_("Salta"),
    N_("Tempo rimasto"),
    N_("Tempo scaduto"),
    N_("Minuto in più per la parità"),
    N_("La tua posizione"),
    N_("{position}° su {entrants}"),
    N_("Classifica"),
    N_("Il torneo è finito"),
    N_("Il tuo piazzamento: {position}° su {entrants}"),
    N_("Premio: {prize}"),
    N_("Nessun premio"),
    N_("Premi in pagamento…"),
    N_("Credito insufficiente per questa puntata"),
    N_("Auto Start interrotto: scegli tu"),
    N_("Tentativo di riconnessione in corso"),
    N_("Tentativo di riconnessione fallito - controlla la tua connessione"),
    N_("Connessione ristabilita"),
    N_("Sessione scaduta: accedi di nuovo"),
    N_("Non giochi in questo torneo"),
    N_("Audio attivo"),
    N_("Audio spento"),
    N_("chips"),
]


def catalog() -> dict[str, str]:
    """The script's texts in the active language ({} in Italian: the script's own words stand)."""
    if (get_language() or "it").split("-")[0] == "it":
        return {}
    return {text: _(text) for text in TEXTS}


def machine() -> dict[str, Any]:
    """The machine's public tables, as the page draws them (names in the active language)."""
    names = {
        "C": _("Campanella"),
        "M": _("Mappamondo"),
        "Z": _("Zaino"),
        "L": _("Libro"),
        "Q": _("Quaderno"),
        "T": _("Matita"),
        "G": _("Gomma"),
        "R": _("Righello"),
        "W": _("Bomba"),
        "S": _("Serratura"),
        "F": _("Fionda"),
        "P": _("Pierino"),
        "A": _("Stella"),
        "B": _("Cuore"),
        "D": _("Fiore"),
        "_": "",
    }
    return {
        "names": names,
        "pays": {code: list(pays) for code, pays in table.PAYS.items()},
        "paylines": [list(line) for line in table.PAYLINES],
        "strips": list(table.STRIPS),
        "point_strips": list(table.POINT_STRIPS),
        "points": {code: list(p) for code, p in table.POINTS.items()},
        "bands": [list(b) for b in table.PIERINO_BANDS],
        "bonus": {
            "multipliers": [table.BONUS_MULTIPLIERS[n] for n in range(1, table.BONUS_TOP_LEVEL + 1)],
            "preside": [table.BONUS_PRESIDE.get(n, 0) for n in range(1, table.BONUS_TOP_LEVEL + 1)],
            "doors": table.BONUS_DOORS,
        },
        "free_spins": {str(k): v for k, v in table.FREE_SPINS_AWARDED.items()},
        "free_spin_cap": table.FREE_SPIN_CAP,
        "slates": [list(s) for s in table.SLATES],
        "pierino_pay": table.PIERINO_PAY,
        "lines": table.LINES,
        "min_unit": table.MIN_UNIT,
        "max_unit": table.MAX_UNIT,
    }
