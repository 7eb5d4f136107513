"""The table client's own words (static/js/table/), translated on the server for the page.

The client writes Italian and looks each text up in a catalog the page carries (json_script
``table-i18n``): ``{Italian: translation}`` for the words below, in the request's language.
``gettext_noop`` marks them for ``makemessages``; the English is in locale/en/LC_MESSAGES/django.po.
``{name}`` placeholders are filled in by the client.
"""

from __future__ import annotations

from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_

TEXTS = [
    N_("In attesa dei giocatori…"),
    N_("Tentativo di riconnessione in corso"),
    N_("Tentativo di riconnessione fallito - controlla la tua connessione"),
    N_("Connessione ristabilita"),
    N_("Giocata non ammessa"),
    N_("Importo non ammesso: da {min} a {max}"),
    N_("Importo (€)"),
    N_("Importo (cursore)"),
    N_("Sì"),
    N_("No"),
    N_("Annulla"),
    N_("Scegli le carte"),
    N_("Scegli una carta"),
    N_("Le tue carte"),
    N_(" · tocca le carte da scegliere"),
    N_(" · tocca una carta per giocarla (doppio clic o Invio)"),
    N_("Ultime giocate"),
    N_("SONO TORNATO"),
    N_("Un'altra partita ({s} s)"),
    N_("Sono pronto per iniziare ({s} s)"),
    N_("SITOUT (salta la mano)"),
    N_("Scegli prima le carte da attaccare"),
    N_("Il tavolo aspetta:"),
    N_("Servono {need} giocatori in grado di giocare: ora sono {n}."),
    N_("Il tuo credito al tavolo ({credit}) è sotto il minimo per giocare ({min}): ricarica almeno {short}."),
    N_("{name} non ha credito sufficiente per giocare ({credit})."),
    N_("{name} è in sitout."),
    N_("{name} si è disconnesso."),
    N_("Sei in sitout: premi SONO TORNATO per giocare."),
    N_("Ricarica e gioca"),
    N_("Ricarica"),
    N_("Importo da aggiungere (€)"),
    N_("Credito al tavolo aggiornato."),
    N_("Ricarica non riuscita"),
    N_("Sitout prossima mano"),
    N_("Esci alla prossima mano"),
    N_("Audio"),
    N_("Audio attivo"),
    N_("Audio spento"),
    N_("Posto {n}"),
    N_("Credito"),
    N_("Punti"),
    N_("Smazzate vinte"),
    N_("Tocca a te"),
    N_("Giocatore automatico"),
    N_("Lascia il tavolo"),
    N_("Sitout"),
    N_("Fine della partita"),
    N_("Fine della mano"),
    N_("Vince {name}"),
    N_("Pareggio"),
    N_("Carte"),
    N_("Denari"),
    N_("Settebello"),
    N_("Primiera"),
    N_("Scope"),
    N_("Totale"),
]


def catalog() -> dict[str, str]:
    """The client texts in the active language ({} in Italian: the client's own words stand)."""
    if (get_language() or "it").split("-")[0] == "it":
        return {}
    return {text: _(text) for text in TEXTS}
