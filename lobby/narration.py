"""The hand history in words: one readable line per event ("Mario gioca 7♦ e prende 3♣ 4♠").

Built from a step's events (the engine's full-information records; the caller filters private
ones with ``private_to`` first) and, when no event says anything, from the action's type. Every
line is Italian through Django's i18n (English in locale/en). No rule lives here: the engines
decide, this module only words what they recorded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_
from django.utils.translation import ngettext

from games.cards import ITALIAN_RANKS, RANK_NAME_ITALIAN, SUIT_NAME_ITALIAN
from wallet.money import format_money

SUITS = {"h": "♥", "d": "♦", "c": "♣", "s": "♠"}


def card_text(code: Any, italian: bool = False) -> str:
    """ "7♦", "10♠", "A♥"; of an Italian deck its name ("7 di denari", "cavallo di coppe", RULINGS
    G3): a French suit symbol is no suit of a 40-card deck. "jolly" for a jolly; "?" for a covered card."""
    if not isinstance(code, str) or len(code) < 2:
        return "?"
    if code[0] == "X":
        return _("jolly")
    if italian and code[0] in ITALIAN_RANKS and code[1] in SUIT_NAME_ITALIAN:
        return f"{RANK_NAME_ITALIAN[code[0]]} di {SUIT_NAME_ITALIAN[code[1]]}"
    rank = "10" if code[0] == "T" else code[0]
    return f"{rank}{SUITS.get(code[1], code[1])}"


def cards_text(codes: Any, italian: bool = False) -> str:
    if not isinstance(codes, list):
        return ""
    return (", " if italian else " ").join(card_text(c, italian) for c in codes)


class Namer:
    """Seat numbers and line indexes to the players' nicknames."""

    def __init__(
        self,
        names: dict[int, str],
        lines: list[list[int]] | None = None,
        *,
        italian: bool = False,
        realm: str = "real",
    ) -> None:
        self.names = names
        self.lines = lines or []
        self.italian = italian  # a 40-card Italian deck: cards named, not French symbols
        self.realm = realm  # the table's money: euro, or gettoni at a training table

    def card(self, code: Any) -> str:
        return card_text(code, self.italian)

    def cards(self, codes: Any) -> str:
        return cards_text(codes, self.italian)

    def seat(self, no: Any) -> str:
        if isinstance(no, int) and no in self.names:
            return self.names[no]
        return _("Posto %(n)s") % {"n": no}

    def seats(self, nos: Any) -> str:
        if not isinstance(nos, list):
            return self.seat(nos)
        return ", ".join(self.seat(n) for n in nos)

    def line(self, index: Any) -> str:
        if isinstance(index, int) and 0 <= index < len(self.lines):
            return " e ".join(self.seat(s) for s in self.lines[index])
        return _("Linea %(n)s") % {"n": (index + 1) if isinstance(index, int) else index}


def _money(value: Any, n: Namer) -> str:
    return (
        format_money(value, n.realm) if isinstance(value, int) and not isinstance(value, bool) else str(value)
    )


def _melds(melds: Any, n: Namer) -> str:
    if not isinstance(melds, list):
        return ""
    return " · ".join(n.cards(m.get("cards")) for m in melds if isinstance(m, dict))


def _points(points: Any) -> str:
    return " – ".join(str(p) for p in points) if isinstance(points, list) else str(points)


Handler = Callable[[dict[str, Any], str, Namer], str | None]


def _gioca(e: dict[str, Any], who: str, n: Namer) -> str:
    text = _("%(who)s gioca %(card)s") % {"who": who, "card": n.card(e.get("card"))}
    if e.get("take"):
        text = _("%(who)s gioca %(card)s e prende %(take)s") % {
            "who": who,
            "card": n.card(e.get("card")),
            "take": n.cards(e["take"]),
        }
    if e.get("scopa"):
        text += " — " + _("Scopa!")
    return text


def _carte(e: dict[str, Any], who: str, n: Namer) -> str:
    if "seat" in e:
        return _("%(who)s riceve %(cards)s") % {"who": who, "cards": n.cards(e.get("cards"))}
    return _("Carte al punto: %(cards)s") % {"cards": n.cards(e.get("cards"))}


def _pesca(e: dict[str, Any], who: str, n: Namer) -> str:
    if e.get("card"):
        return _("%(who)s pesca %(card)s") % {"who": who, "card": n.card(e["card"])}
    return _("%(who)s pesca dal tallone") % {"who": who}


def _raccogli(e: dict[str, Any], who: str, n: Namer) -> str:
    cards = e.get("cards") or ([e["card"]] if e.get("card") else [])
    return _("%(who)s raccoglie %(cards)s") % {"who": who, "cards": n.cards(cards)}


def _cala(e: dict[str, Any], who: str, n: Namer) -> str:
    cards = n.cards(e["cards"]) if e.get("cards") else _melds(e.get("melds"), n)
    return _("%(who)s cala %(cards)s") % {"who": who, "cards": cards}


def _attacca(e: dict[str, Any], who: str, n: Namer) -> str:
    if e.get("cards"):
        return _("%(who)s attacca %(cards)s") % {"who": who, "cards": n.cards(e["cards"])}
    return _("%(who)s attacca: %(melds)s") % {"who": who, "melds": _melds(e.get("melds"), n)}


def _cambio(e: dict[str, Any], who: str, n: Namer) -> str:
    if e.get("out") is not None:
        return _("%(who)s cambia %(out)s e riceve %(in)s") % {
            "who": who,
            "out": n.cards(e.get("out")),
            "in": n.cards(e.get("in")),
        }
    count = e.get("count", 0)
    if not count:
        return _("%(who)s non cambia carte") % {"who": who}
    words = ngettext("%(who)s cambia %(n)s carta", "%(who)s cambia %(n)s carte", count)
    return words % {"who": who, "n": count}


def _buio(e: dict[str, Any], who: str, n: Namer) -> str:
    if e.get("in"):
        return _("%(who)s gioca al buio e riceve %(cards)s") % {"who": who, "cards": n.cards(e["in"])}
    if isinstance(e.get("amount"), int):
        return _("%(who)s apre al buio con %(amount)s") % {"who": who, "amount": _money(e["amount"], n)}
    return _("%(who)s gioca al buio") % {"who": who}


def _punto(e: dict[str, Any], who: str, n: Namer) -> str:
    if "mazzetto" in e:
        return _("%(who)s punta %(amount)s sul mazzetto %(m)s") % {
            "who": who,
            "amount": _money(e.get("amount"), n),
            "m": int(e["mazzetto"]) + 1,
        }
    return _("%(who)s punta %(amount)s") % {"who": who, "amount": _money(e.get("amount"), n)}


def _rilancio(e: dict[str, Any], who: str, n: Namer) -> str:
    text = _("%(who)s rilancia a %(amount)s") % {"who": who, "amount": _money(e.get("amount"), n)}
    return text + (" (" + _("resto") + ")" if e.get("resto") else "")


def _apro(e: dict[str, Any], who: str, n: Namer) -> str:
    text = _("%(who)s apre con %(amount)s") % {"who": who, "amount": _money(e.get("amount"), n)}
    return text + (" (" + _("resto") + ")" if e.get("resto") else "")


def _piatti(e: dict[str, Any], who: str, n: Namer) -> str:
    parts = []
    for pot in e.get("pots") or []:
        winners = pot.get("winners") or []
        parts.append(
            _("%(who)s vince %(amount)s") % {"who": n.seats(winners), "amount": _money(pot.get("amount"), n)}
            if winners
            else _("Piatto di %(amount)s") % {"amount": _money(pot.get("amount"), n)}
        )
    return "; ".join(parts) or _("Nessun piatto")


def _mostro(e: dict[str, Any], who: str, n: Namer) -> str:
    text = _("%(who)s mostra %(cards)s") % {"who": who, "cards": n.cards(e.get("cards"))}
    return text + (f": {e['punto']}" if e.get("punto") else "")


def _carta(e: dict[str, Any], who: str, n: Namer) -> str:
    if e.get("card") and e.get("covered"):
        return _("%(who)s riceve %(card)s coperta") % {"who": who, "card": n.card(e["card"])}
    if e.get("card"):
        return _("%(who)s riceve %(card)s") % {"who": who, "card": n.card(e["card"])}
    return _("%(who)s riceve una carta coperta") % {"who": who}


def _fine_smazzata(e: dict[str, Any], who: str, n: Namer) -> str:
    return _("Fine della smazzata %(n)s: punti %(points)s") % {
        "n": e.get("number", ""),
        "points": _points(e.get("points")),
    }


def _fine_partita(e: dict[str, Any], who: str, n: Namer) -> str:
    winner = n.seats(e["winner_seats"]) if e.get("winner_seats") else n.line(e.get("winner"))
    if e.get("winner") is None and not e.get("winner_seats"):
        return _("Fine della partita: pari (%(points)s)") % {"points": _points(e.get("points"))}
    return _("Fine della partita: vince %(who)s (%(points)s)") % {
        "who": winner,
        "points": _points(e.get("points")),
    }


def _result(e: dict[str, Any], who: str, n: Namer) -> str:
    side = _("il punto") if e.get("winner") == "punta" else _("il banco")
    if e.get("winner") is None:
        return _("%(who)s non ha puntato") % {"who": n.seat(e.get("punta"))}
    return _("Contro %(who)s vince %(side)s") % {"who": n.seat(e.get("punta")), "side": side}


def _apri(e: dict[str, Any], who: str, n: Namer) -> str:
    return _("%(who)s apre con %(melds)s (%(value)s punti)") % {
        "who": who,
        "melds": _melds(e.get("melds"), n),
        "value": e.get("value", ""),
    }


def _scoperte(e: dict[str, Any], who: str, n: Namer) -> str:
    """Telesina: the covered card each seat chose to turn up (``{seat: card}``)."""
    cards = e.get("cards")
    if isinstance(cards, dict):
        who_card = ((n.seat(int(k)) if str(k).isdigit() else str(k), n.card(c)) for k, c in cards.items())
        shown = ", ".join(f"{name} {card}" for name, card in who_card)
    else:
        shown = n.cards(cards)
    return _("Carte scoperte: %(cards)s") % {"cards": shown}


def _girata(e: dict[str, Any], who: str, n: Namer) -> str:
    vele = e.get("vele") if isinstance(e.get("vele"), dict) else {}
    shown = ", ".join(f"{k} {n.card(c)}" for k, c in vele.items())
    return _("Si girano le vele: %(vele)s") % {"vele": shown}


def _simple(template: str) -> Handler:
    """A line with the player's name and the event's own fields (amount, cards, card…)."""

    def handler(e: dict[str, Any], who: str, n: Namer) -> str:
        return _(template) % {
            "who": who,
            "amount": _money(e.get("amount"), n),
            "posta": _money(e.get("posta"), n),
            "cover": _money(e.get("cover"), n),
            "card": n.card(e.get("card")),
            "cards": n.cards(e.get("cards") or e.get("table")),
            "count": e.get("count", ""),
            "number": e.get("number", ""),
            "dealer": n.seat(e.get("dealer")),
            "line": n.line(e.get("line")),
            "players": n.seats(e.get("players") or e.get("seats") or []),
            "points": e.get("points", ""),
            "play": str(e.get("play", "")).upper(),
            "kind": e.get("kind", ""),
            "layout": e.get("layout", ""),
            "punto": e.get("punto", ""),
            "mazzetto": int(e["mazzetto"]) + 1 if isinstance(e.get("mazzetto"), int) else "",
            "index": int(e["index"]) + 1 if isinstance(e.get("index"), int) else "",
            "size": e.get("size", ""),
            "piatto": _money(e.get("piatto"), n),
            "won": _money(e.get("won"), n),
            "incasso": _money(e.get("incasso"), n),
            "pot": _money(e.get("pot"), n),
            "vele": e.get("vele", ""),
            "distribuzione": str(e.get("distribuzione", "")).replace("_", " "),
        }

    return handler


HANDLERS: dict[str, Handler] = {
    # capture and trick games (Scopa, Asso, Cirulla, Briscola, Tresette, Bestia)
    "gioca": _gioca,
    "carte": _carte,
    "presa": _simple(N_("%(who)s prende %(cards)s")),
    "pesca": _pesca,
    "ultima_presa": _simple(N_("Le carte rimaste in tavola (%(cards)s) vanno a %(line)s")),
    "tavola": _simple(N_("In tavola: %(cards)s")),
    "a_monte": _simple(N_("Carte a monte (%(cards)s): si distribuisce di nuovo")),
    "accuso": _simple(N_("%(who)s accusa %(kind)s (%(points)s punti): %(cards)s")),
    "smazzata": _simple(N_("Smazzata %(number)s, mazziere %(dealer)s")),
    "fine_smazzata": _fine_smazzata,
    "fine_partita": _fine_partita,
    # rummy (Burraco, Scala 40)
    "raccogli": _raccogli,
    "cala": _cala,
    "apri": _apri,
    "scarta": _simple(N_("%(who)s scarta %(card)s")),
    "carta_pescata": _simple(N_("%(who)s pesca %(card)s")),
    "attacca": _attacca,
    "pozzetto": _simple(N_("%(who)s prende il pozzetto")),
    "carte_pozzetto": _simple(N_("%(who)s trova nel pozzetto %(cards)s")),
    "chiusura": _simple(N_("%(who)s chiude")),
    "primo_scarto": _simple(N_("Primo scarto: %(card)s")),
    "tallone_esaurito": _simple(N_("Il tallone è finito")),
    "rimetti": _simple(N_("%(who)s rimette %(card)s")),
    "sostituisci": _simple(N_("%(who)s sostituisce il jolly con %(card)s")),
    "rimescola": _simple(N_("Gli scarti tornano nel tallone (%(cards)s carte)")),
    # poker and telesina
    "invito": _simple(N_("%(who)s mette l'invito di %(amount)s")),
    "dai_carte": _simple(N_("%(who)s: DAI CARTE")),
    "distribuzione": _simple(N_("Si distribuiscono le carte")),
    "passo": _simple(N_("%(who)s passa")),
    "piatti": _piatti,
    "nascondo": _simple(N_("%(who)s non mostra le carte")),
    "mostro": _mostro,
    "fine": _simple(N_("Fine della mano")),
    "buio": _buio,
    "controbuio": _simple(N_("%(who)s fa il controbuio con %(amount)s")),
    "over": _simple(N_("%(who)s fa l'over con %(amount)s")),
    "vedo": _simple(N_("%(who)s vede (%(amount)s)")),
    "va_bene": _simple(N_("%(who)s: VA BENE")),
    "cambio": _cambio,
    "scarto": _simple(N_("%(who)s scarta %(cards)s")),
    "carte_cambio": _simple(N_("%(who)s riceve %(cards)s")),
    "busso": _simple(N_("%(who)s bussa")),
    "punto": _punto,
    "rilancio": _rilancio,
    "apro": _apro,
    "sitout": _simple(N_("%(who)s è in sitout")),
    "annullata": _simple(N_("Mano annullata")),
    "parol": _simple(N_("%(who)s: PAROL")),
    "variante": _simple(N_("%(who)s sceglie vele %(vele)s, distribuzione %(distribuzione)s")),
    "carta": _carta,
    "carta_coperta": _simple(N_("%(who)s riceve una carta coperta")),
    "vele": _simple(N_("Vele: %(layout)s (%(count)s carte)")),
    "parola": _simple(N_("Parla %(who)s: %(punto)s")),
    # bestia
    "gioco": _simple(N_("Giocano %(players)s")),
    "spartizione": _simple(N_("Il piatto viene diviso")),
    "bestia": _simple(N_("Bestia per %(players)s: %(amount)s")),
    "servito": _simple(N_("%(who)s è servito")),
    "smazzata_nulla": _simple(N_("Smazzata nulla: il piatto di %(piatto)s resta")),
    # banking games (Chemin de fer, Mazzetti, Sette e mezzo)
    "banco": _simple(N_("%(who)s tiene il banco con %(posta)s")),
    "puntata": _simple(N_("%(who)s punta %(amount)s")),
    "puntate_valide": _simple(N_("Puntate accettate")),
    "gioco_punta": _simple(N_("%(who)s per il punto: %(play)s")),
    "gioco_banco": _simple(N_("%(who)s per il banco: %(play)s")),
    "scopre_banco": _simple(N_("Il banco scopre %(cards)s")),
    "scopre_punta": _simple(N_("Il punto scopre %(cards)s (%(points)s)")),
    "terza_punta": _simple(N_("Terza carta al punto: %(card)s")),
    "terza_banco": _simple(N_("Terza carta al banco: %(card)s")),
    "vince_punta": _simple(N_("Vince il punto")),
    "vince_banco": _simple(N_("Vince il banco: %(won)s")),
    "passo_mano": _simple(N_("%(who)s passa la mano")),
    "asta": _simple(N_("Il banco va all'asta")),
    "offerta": _simple(N_("%(who)s offre %(amount)s")),
    "seguito": _simple(N_("%(who)s tiene il seguito con %(posta)s")),
    "perde_le_carte": _simple(N_("%(who)s perde le carte")),
    "mantengo": _simple(N_("%(who)s mantiene il banco")),
    "compro": _simple(N_("%(who)s compra il banco per %(posta)s")),
    "rifiuto": _simple(N_("%(who)s rifiuta il banco")),
    "aumento": _simple(N_("%(who)s aumenta di %(amount)s (posta %(posta)s)")),
    "continuo": _simple(N_("%(who)s continua con %(posta)s")),
    "accetto": _simple(N_("%(who)s accetta il banco (copertura %(cover)s)")),
    "shuffle": _simple(N_("Il mazzo viene mescolato")),
    "mazzetto": _simple(N_("Mazzetto %(index)s: %(size)s carte")),
    "gira": _simple(N_("%(who)s gira il mazzetto %(mazzetto)s: %(card)s")),
    "result": _result,
    "piatto_al_banco": _simple(N_("%(who)s incassa il piatto: %(amount)s")),
    "end": _simple(N_("Fine del banco")),
    "offer": _simple(N_("Il banco è offerto a %(who)s")),
    "deal": _carta,
    "sto": _simple(N_("%(who)s sta")),
    "tiro": _simple(N_("%(who)s chiede carta")),
    "sballa": _simple(N_("%(who)s sballa")),
    "reveal": _simple(N_("%(who)s scopre %(cards)s")),
    "non_gioca": _simple(N_("%(who)s non gioca")),
    # the rest of what the engines record
    "attendo": _simple(N_("%(who)s attende")),
    "cappotto": _simple(N_("Cappotto per %(line)s")),
    "chiama_fuori": _simple(N_("%(who)s chiama fuori")),
    "dichiarazione": _simple(N_("%(who)s dichiara")),
    "dimezzo": _simple(N_("%(who)s dimezza il banco (incassa %(incasso)s)")),
    "egalite": _simple(N_("Égalité: nessuno vince il colpo")),
    "fine_banco": _simple(N_("%(who)s lascia il banco (incassa %(incasso)s)")),
    "girata": _girata,
    "giro_pazzo": _simple(N_("Giro pazzo")),
    "inviti": _simple(N_("Si mettono gli inviti")),
    "mano": _simple(N_("Nuova mano, mazziere %(dealer)s")),
    "mazziere": _simple(N_("Mazziere: %(who)s")),
    "nessun_banco": _simple(N_("Nessuno tiene il banco")),
    "nessun_seguito": _simple(N_("Nessuno tiene il seguito")),
    "nessuna_puntata": _simple(N_("Nessuna puntata")),
    "non_aperto": _simple(N_("Nessuno apre: l'apertura minima sale")),
    "nuova_taglia": _simple(N_("Il mazzo viene tagliato di nuovo")),
    "partecipo": _simple(N_("%(who)s partecipa al parol con %(amount)s")),
    "passo_buio": _simple(N_("%(who)s non apre al buio")),
    "passo_parol": _simple(N_("%(who)s non partecipa al parol")),
    "penale_banco": _simple(N_("Penale per %(who)s (banco): %(amount)s")),
    "penale_punta": _simple(N_("Penale per %(who)s (punto): %(amount)s")),
    "penalty": _simple(N_("Penale per %(who)s: %(amount)s")),
    "piatto_di_parol": _simple(N_("Piatto di parol: %(pot)s resta in tavola")),
    "pochi_giocatori": _simple(N_("Non ci sono abbastanza giocatori")),
    "puntate_annullate": _simple(N_("Puntate annullate")),
    "quarta": _simple(N_("%(who)s riceve la quarta carta %(cards)s")),
    "rimescolo": _simple(N_("Gli scarti vengono rimescolati (%(count)s carte)")),
    "ritiro": _simple(N_("%(who)s si ritira (incassa %(incasso)s)")),
    "salta_banco": _simple(N_("%(who)s salta il banco")),
    "skip_banco": _simple(N_("%(who)s salta il banco")),
    "scelta_carta": _simple(N_("%(who)s sceglie di scoprire %(card)s")),
    "scelto": _simple(N_("%(who)s ha scelto la carta da scoprire")),
    "scoperte": _scoperte,
    "senza_puntate": _simple(N_("Le carte restanti si danno senza puntate")),
    "sorteggio_banco": _simple(N_("Il sorteggio dà il banco a %(who)s")),
    "stallo": _simple(N_("Stallo: la smazzata si chiude")),
    "tengo": _simple(N_("%(who)s tiene")),
    "timeout": _simple(N_("Tempo scaduto per %(who)s")),
    "ultimo_colpo": _simple(N_("Ultimo colpo")),
}

# A public record and the private one that says more about the same move of the same seat: the
# viewer who may read both (staff, or the seat itself) gets the private one only.
SAME_MOVE = {"pesca": ("pesca", "carta_pescata"), "carta_coperta": ("carta",), "deal": ("deal",)}


def _said_privately(event: dict[str, Any], events: list[dict[str, Any]]) -> bool:
    if "to" in event or event.get("seat") is None:
        return False
    kinds = SAME_MOVE.get(str(event.get("type")), ())
    return any("to" in e and e.get("seat") == event["seat"] and e.get("type") in kinds for e in events)


def event_line(event: dict[str, Any], namer: Namer) -> str | None:
    """One event in words; None for one that says nothing (an unknown record without a seat)."""
    kind = event.get("type")
    seat = event.get("seat")
    who = namer.seat(seat) if seat is not None else ""
    handler = HANDLERS.get(str(kind))
    if handler is not None:
        return handler(event, who, namer)
    if seat is None:
        return None
    return f"{who}: {str(kind).replace('_', ' ')}"


# The showdown in the order a table tells it: the hands shown (or mucked), then who wins the pots.
SHOW_RECORDS = ("mostro", "nascondo")
AWARD_RECORDS = ("piatti",)


def in_telling_order(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A step's events with its pot awards after its hands shown or hidden (an engine settles an
    uncontested pot before the winner chooses to show): the cards first, then who wins."""
    shows = [i for i, e in enumerate(events) if e.get("type") in SHOW_RECORDS]
    if not shows:
        return events
    last_show = shows[-1]
    awards = [e for i, e in enumerate(events) if i < last_show and e.get("type") in AWARD_RECORDS]
    if not awards:
        return events
    rest = [e for i, e in enumerate(events) if not (i < last_show and e.get("type") in AWARD_RECORDS)]
    at = rest.index(events[last_show]) + 1
    return rest[:at] + awards + rest[at:]


def hand_step_events(steps_events: list[list[dict[str, Any]]]) -> list[list[dict[str, Any]]]:
    """Each step's events to narrate: a pot award whose hand goes on (its winner is then asked to
    show or hide) is told with the step that ends the hand, where the table shows the result."""
    out: list[list[dict[str, Any]]] = []
    held: list[dict[str, Any]] = []
    for events in steps_events:
        events = held + list(events)
        held = []
        if not any(e.get("type") == "fine" for e in events):
            held = [e for e in events if e.get("type") in AWARD_RECORDS]
            events = [e for e in events if e.get("type") not in AWARD_RECORDS]
        out.append(events)
    if held and out:
        out[-1] = out[-1] + held  # a hand that stopped before its end: told at its last step
    return out


def action_words(action: dict[str, Any], legal: list[dict[str, Any]], namer: Namer) -> str:
    """A recorded action in words, as its button said it: the label of the legal action of its type
    (the type itself, spaced and capitalised, when no spec had one), then its amount and its cards
    ("Rilancio € 3,00", "Gioca 7 di denari"); the sitout toggle as "Sitout: sì"."""
    kind = str(action.get("type", ""))
    label = next((s.get("label") for s in legal if s.get("type") == kind and s.get("label")), None)
    words = [str(label or kind.replace("_", " ").capitalize())]
    if isinstance(action.get("sitout"), bool):
        words[0] += ": " + (_("sì") if action["sitout"] else _("no"))
    if isinstance(action.get("amount"), int) and not isinstance(action.get("amount"), bool):
        words.append(str(action["amount"]) if kind == "mazzetto" else _money(action["amount"], namer))
    if action.get("card") is not None:
        words.append(namer.card(action["card"]))
    if isinstance(action.get("cards"), list) and action["cards"]:
        words.append(namer.cards(action["cards"]))
    return " ".join(w for w in words if w)


def step_lines(*, seat: int, action: dict[str, Any], events: list[dict[str, Any]], namer: Namer) -> list[str]:
    """A step in words: its events' lines, or the action's type when no event says anything."""
    events = in_telling_order(events)
    lines = [line for e in events if not _said_privately(e, events) and (line := event_line(e, namer))]
    if not lines:
        lines = [f"{namer.seat(seat)}: {str(action.get('type', '')).replace('_', ' ')}"]
    return lines
