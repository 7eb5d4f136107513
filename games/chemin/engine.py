"""Chemin de fer (rules 004, "Regole dello Chemin de fer"; RULINGS G1, G2, G4, B3).

One engine hand is one *coup* ("colpo"): whatever has to happen before the cards can be dealt
(a new banker accepting the banco, the punte placing their bets), the deal and the play, and what
the banker decides after a winning coup (continue, dimezzare, aumentare, passare la mano and the
seguito it opens). A coup may also end without cards: stallo, no bet in a tournament, no banker.

What lasts from coup to coup is the ``carry``: the sabot (the taglia's remaining order and the
discards), the banco in play (banker, posta, garage, winning coups, dimezzato, the seats present
when it started), the turn of the bank (who is next, the "anchor" of a seguito), the ferito and
the seats that have already bet. The carry is never shown to a client; views show only counts.

Money is integer cents in five places: each seat's free credit (``chips``), the ``posta``, the
``garage``, the bets of the coup and the ``rake``; their sum never changes within a coup and the
carry holds the posta and garage from one coup to the next (``outcome`` reports them too).

Decisions taken here where the rules are silent (documented where they are applied):

* Seat numbers increase counter-clockwise; "alla destra" (RULINGS G2) is the next higher seat
  number dealt in, wrapping round (the same reading as ``games.settemezzo``).
* The last coup of a taglia is the first coup dealt after the 200th card has left the sabot; the
  sabot is reshuffled (all 312 cards) before the next deal.
* The betting window is one declaration per punta (which he may later raise, below), visible to
  all as it is placed; the window closes when every punta has declared (and the banker, if asked,
  has answered). Then the rules' priorities decide: banco solo (the ferito first, then per la
  mano), banco e rispetto (keeps the partial bets placed before it), tavolo, tavolo e tavolo,
  partial bets in priority order. A partial bet that crosses the posta is cut to what is left;
  the others are annulled. Tavolo is half the posta rounded down; with tavolo e tavolo an odd
  cent stays uncovered.
* The banker's cards are covered for everyone, the banker too, until the punta has decided
  ("Le carte del banchiere non possono essere viste…"). A banker's 8 or 9 batte automatically.
  With 8 or 9 the punta's only play is BATTO (battuta automatica makes it without waiting).
* "Dimezzare … non oltre il 3° banco": once per banco, after one of its first three winning coups.
* Rake (cash tables): each winner pays floor(vincita × 2 × rake %) when a coup is settled; the
  banker's vincita is the sum of the bets he won, the punta's is his bet.
* A punta who has declared a partial bet, PASSO or withdrawn his bet keeps "il diritto … di
  chiedere il banco da solo o il tavolo" while the window is open (someone has still to declare,
  or the banker is asked): he may raise to BANCO, BANCO E RISPETTO or TAVOLO (a second tavolo is
  tavolo e tavolo), and a tavolo or a banco e rispetto may be raised to a mode of higher priority.
  These are optional buttons of a seat that is not in ``to_act`` (the window does not wait for
  them). The raise replaces his declaration and counts from the moment it is made; with banco e
  rispetto he keeps his own partial bet and covers the difference, so his bet is the posta less
  the other punte's partial bets. A partial bet cannot be changed to another partial bet.
* The banker's choices after a win (continuo, dimezzo, aumento, passo la mano) are offered at the
  end of the winning coup, and, "anche durante il tempo a disposizione delle puntate", again in the
  next window as optional buttons: PASSO LA MANO whenever the banco has won a coup (and he is asked
  TENGO IL BANCO / PASSO LA MANO when someone calls banco, as the rules' example says); DIMEZZO
  (once per banco, within its first three wins) and AUMENTO only if he chose CONTINUO after the win,
  once, until the cards are dealt (the choice after a win is one choice, taken at the end of the
  coup or in the window). A posta changed inside the window annuls the declarations placed so far
  and every punta declares again on the new posta (a bet is a share of the posta; the rules are
  silent). A declared bet cannot be lowered, except that a punta who loses the cards to a later bet
  is asked again: MANTENGO or RITIRO LA PUNTATA (the "10 secondi per ritirare la sua puntata";
  timeout: keep it), or raise it.
* Simplifications that remain: the window closes as soon as nobody is due, not when its time runs
  out, so a raise or the banker's choice must come before the last declaration; a partial bet is
  not raised to a larger partial bet nor lowered ("la puntata è libera" is read as one declaration
  plus the raises above); banco e rispetto keeps the partial bets, not a tavolo placed before it.
* When a seguito banco ends (the punta wins, stallo withdrawn, no new seguito), the turn resumes
  right of the banker who first passed the hand (the "anchor"), as the seguito paragraph says.
* A banker who is sitout (or has left) when a coup starts ends his banco: he collects (or is paid
  out) posta and garage, and the bank moves on. So does a tournament banker none of whose punte
  (the seats present when the banco started) is left with chips: the players seated since (moved
  by the balancing) may not punt on it, so no coup could ever be played. A tournament punta
  obliged to bet who is sitout or times out, and whom no other bet exempts, loses the minimum bet
  to the garage without playing.
* Cash tables: ``outcome()["stand_up"]`` lists the seats that skipped three banco turns in a row
  (refusing, or sitout as candidates or when a banco starts); the runtime stands them up. In a
  tournament it is always empty (RULINGS L2: a tournament player leaves only by elimination).
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

from games import cards
from games.chemin import regola
from games.engine import (
    CASH,
    MODE_OPTION,
    TOURNAMENT,
    Action,
    ConfigError,
    Engine,
    Event,
    HandOver,
    IllegalAction,
    InvalidAmount,
    NotYourTurn,
    Option,
    SeatSpec,
    State,
    UnknownAction,
    check_table_config,
    spec_matches,
)
from games.registry import register
from games.rng import Rng, choice, shuffled

SHOE_SIZE = 312
LAST_COUP_AFTER = 200
DIMEZZO_MAX_WINS = 3
# Priority of a declaration (lower is higher): what a punta may still raise to (rules: "banco solo",
# "banco e rispetto", "tavolo", then partial bets).
RAISE_RANK = {"banco": 0, "rispetto": 1, "tavolo": 2}
RAISABLE = ("punto", "passo", "ritirata", "rispetto", "tavolo")

DEFAULT_CONFIG: dict[str, Any] = {
    "mode": CASH,  # CASH or TOURNAMENT (games.engine.MODE_OPTION)
    "min_posta": 1000,  # banco minimo, cents (or tournament chips)
    "min_bet": 200,  # puntata minima
    "rake_bp": 0,  # rake in basis points (500 = 5 %); cash tables only
    "decks": 6,
}
OPTIONS: tuple[Option, ...] = (
    MODE_OPTION,
    Option("min_posta", "Banco minimo", "int", 1000, min=1),
    Option("min_bet", "Puntata minima", "int", 200, min=1),
    # montepremi at least 90 % of the raccolta: vincita x 2 x rake % <= 10 % of the two stakes
    Option("rake_bp", "Rake in punti base (500 = 5 %)", "int", 0, min=0, max=500),
    Option("decks", "Mazzi nel sabot", "int", 6, min=1),
)

# Phases of a coup.
ACCETTA = "accetta"  # the banker to be names the posta or refuses
PUNTATE = "puntate"  # the punte declare their bets
STALLO = "stallo"  # cash: nobody bet; the banker withdraws or waits
PUNTA = "punta"  # the punta receiving the cards plays
BANCO = "banco"  # the banker plays
DECISIONE = "decisione"  # after a winning coup: continuo / dimezzo / aumento / passo la mano
SEGUITO = "seguito"  # buy the banco at height
ASTA = "asta"  # auction for the seguito
OVER = "over"

LABELS = {
    "accetto": "FACCIO BANCO",
    "rifiuto": "RIFIUTO",
    "banco": "BANCO",
    "rispetto": "BANCO E RISPETTO",
    "tavolo": "TAVOLO",
    "punto": "PUNTO",
    "passo": "PASSO",
    "batto": "BATTO",
    "sto": "STO",
    "chiamo": "CHIAMO",
    "continuo": "CONTINUO",
    "dimezzo": "DIMEZZO",
    "aumento": "AUMENTO",
    "passo_mano": "PASSO LA MANO",
    "compro": "COMPRO ALL'ALTEZZA",
    "offerta": "OFFERTA",
    "ritiro": "RITIRO LA POSTA",
    "attendo": "ATTENDO",
    "mantengo": "MANTENGO LA PUNTATA",
    "tengo": "TENGO IL BANCO",
    "ritiro_puntata": "RITIRO LA PUNTATA",
}
FORFAIT = "forfait"  # runtime-only: a tournament seat that times out or is sitout "perde senza giocare"


def _spec(kind: str, **extra: Any) -> dict[str, Any]:
    return {"type": kind, "label": LABELS[kind], **extra}


def _amount_spec(kind: str, lo: int, hi: int) -> dict[str, Any]:
    return _spec(kind, amount={"min": lo, "max": hi})


def right_of(order: list[int], seat: int) -> list[int]:
    """Return the seats of ``order`` counter-clockwise from the right of ``seat`` (which may be absent).

    Seat numbers increase counter-clockwise (as in ``games.settemezzo``), so a seat's right is the
    next higher number dealt in, wrapping (RULINGS G2).
    """
    return sorted(s for s in order if s > seat) + sorted(s for s in order if s < seat)


def split_cents(amount: int, seats: list[int]) -> dict[int, int]:
    """Split ``amount`` among ``seats`` (already in the game's direction): floors, then a cent each (G1)."""
    share, rest = divmod(amount, len(seats))
    return {s: share + (1 if i < rest else 0) for i, s in enumerate(seats)}


def resolve_bets(
    decl: dict[str, dict[str, Any]], priority: list[int], posta: int, ferito: int | None
) -> tuple[dict[int, int], int | None, str]:
    """Return the valid bets (seat → amount), the seat that gets the cards and the winning mode.

    Priorities of the rules, high to low: banco solo (the ferito before everyone, then per la
    mano), banco e rispetto (with the partial bets placed before it), tavolo, tavolo e tavolo,
    partial bets per la mano up to the posta. The cards go to the highest bet, ties per la mano.
    """

    def seats_with(mode: str) -> list[int]:
        return [s for s in priority if decl.get(str(s), {}).get("mode") == mode]

    bets: dict[int, int] = {}
    mode = "punto"
    banco = seats_with("banco")
    rispetto = seats_with("rispetto")
    tavolo = seats_with("tavolo")
    half = posta // 2
    if banco:
        winner = ferito if ferito in banco else banco[0]
        bets, mode = {winner: posta}, "banco"
    elif rispetto:
        w = rispetto[0]
        seq = decl[str(w)]["seq"]
        for s in seats_with("punto"):
            if decl[str(s)]["seq"] < seq:
                bets[s] = decl[str(s)]["amount"]
        bets[w] = decl[str(w)]["amount"]
        mode = "rispetto"
    elif len(tavolo) >= 2:
        bets, mode = {tavolo[0]: half, tavolo[1]: half}, "tavolo_e_tavolo"
    else:
        left = posta
        if tavolo:
            bets[tavolo[0]] = half
            left -= half
            mode = "tavolo"
        for s in seats_with("punto"):
            take = min(decl[str(s)]["amount"], left)
            if take > 0:
                bets[s] = take
                left -= take
    if not bets:
        return {}, None, "nessuna"
    rank_of = {s: i for i, s in enumerate(priority)}
    receiver = min(bets, key=lambda s: (-bets[s], rank_of[s]))
    return bets, receiver, mode


@register
class ChemindeferEngine(Engine):
    """Chemin de fer: one banker against the punte, one coup per engine hand."""

    name = "chemin"
    title = "Chemin de fer"
    family = "puntate"
    min_seats = 2
    max_seats = 10
    # The table's rake is the engine's, so the rake the side panel shows (the table's) is the one taken.
    table_settings: ClassVar[dict[str, str]] = {"mode": "mode", "rake_bp": "rake_bp"}

    # ------------------------------------------------------------------ configuration and new coup

    def config_options(self) -> tuple[Option, ...]:
        """Return the table options of Chemin de fer (tavolo, banco and puntata minimi, rake, mazzi)."""
        return OPTIONS

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """Fill defaults; refuse unknown keys, non-integer money and a rake above the 10 % bound."""
        check_table_config(OPTIONS, config)
        cfg = {**DEFAULT_CONFIG, **config}
        if cfg["mode"] not in (CASH, TOURNAMENT):
            raise ConfigError(details={"mode": cfg["mode"]})
        for key in ("min_posta", "min_bet", "rake_bp", "decks"):
            if type(cfg[key]) is not int or cfg[key] < 0:
                raise ConfigError(details={key: cfg[key]})
        if cfg["min_posta"] < 1 or cfg["min_bet"] < 1 or cfg["decks"] < 1:
            raise ConfigError(details={"min": "posta, puntata e mazzi devono essere positivi"})
        # Montepremi at least 90 % of the raccolta: vincita × 2 × rake % ≤ 10 % of the two stakes.
        if cfg["rake_bp"] > 500 or (cfg["mode"] == TOURNAMENT and cfg["rake_bp"]):
            raise ConfigError(details={"rake_bp": cfg["rake_bp"]})
        return cfg

    def new(
        self, config: dict[str, Any], seats: list[SeatSpec], rng: Rng, carry: dict[str, Any] | None = None
    ) -> State:
        """Start a coup for the seats dealt in, continuing the banco and the sabot of ``carry``."""
        cfg = self.validate_config(config)
        if not self.min_seats <= len(seats) <= self.max_seats:
            raise ConfigError(details={"seats": len(seats)})
        numbers = [s["seat"] for s in seats]
        if len(set(numbers)) != len(numbers) or any(type(n) is not int for n in numbers):
            raise ConfigError(details={"seats": numbers})
        for s in seats:
            if type(s.get("chips")) is not int or s["chips"] < 0:
                raise ConfigError(details={"chips": s.get("chips")})
        c = copy.deepcopy(carry) if carry else {}
        size = SHOE_SIZE * cfg["decks"] // 6
        state: State = {
            "game": self.name,
            "config": cfg,
            "order": sorted(numbers),
            "seats": {
                str(s["seat"]): {
                    "chips": s["chips"],
                    "sitout": bool(s.get("sitout", False)),
                    "prefs": dict(s.get("prefs") or {}),
                }
                for s in seats
            },
            "phase": ACCETTA,
            "banker": None,
            "posta": 0,
            "garage": 0,
            "rake": 0,
            "paid_out": {},
            # the banco the table held for its banker since the last coup (kept in the table pot)
            "carried_in": (c["banco"]["posta"] + c["banco"]["garage"]) if c.get("banco") else 0,
            "banco": c.get("banco"),
            "anchor": c.get("anchor"),
            "turn": c.get("turn"),
            "candidates": [],
            "ferito": c.get("ferito"),
            "played": list(c.get("played", [])),
            "skipped": dict(c.get("skipped", {})),
            "decl": {},
            "banker_asked": None,
            "seq": 0,
            "bets": {},
            "settled": {},
            "receiver": None,
            "mode": None,
            "obligated": None,
            "punta": [],
            "banco_cards": [],
            "punta_shown": False,
            "banco_shown": False,
            "punta_play": None,
            "banco_play": None,
            "result": None,
            "seguito": None,
            "shoe": c.get("shoe"),
            "discards": c.get("discards", []),
            "reshuffle": c.get("reshuffle", False),
            "ultimo": False,
            "shoe_size": size,
            "deck_log": [],  # the sabot's order at each deal of this coup (RULINGS G4), never shown
            "shuffled": False,
            "coup_events": [],
        }
        if c.get("shoe") is None:
            fresh: list[str] = shuffled(cards.shoe(cfg["decks"]), rng)
            state["shoe"] = fresh
            state["shuffled"] = True
        events: list[Event] = []
        banco = c.get("banco")
        if banco is not None:
            self._resume_banco(state, c, events)
        if state["banker"] is None:
            self._start_acceptance(state, rng, events)
        self._advance(state, rng, events)
        state["coup_events"] = events
        return state

    def _resume_banco(self, state: State, c: dict[str, Any], events: list[Event]) -> None:
        """Continue the banco of the carry, or end it if its banker left or is sitout."""
        banker = c["banco"]["seat"]
        held = c["banco"]["posta"] + c["banco"]["garage"]
        seat = state["seats"].get(str(banker))
        if seat is None:
            # The banker left the table between coups: posta and garage are paid out to him.
            state["paid_out"][str(banker)] = held
            events.append({"type": "fine_banco", "seat": banker, "incasso": held, "motivo": "uscito"})
            self._banco_over(state, banker)
            return
        if seat["sitout"]:
            # A sitout player cannot hold the bank: he collects and the bank moves on.
            seat["chips"] += held
            events.append({"type": "fine_banco", "seat": banker, "incasso": held, "motivo": "sitout"})
            self._banco_over(state, banker)
            return
        members = set(c["banco"]["members"]) - {banker}
        punte = [s for s in state["order"] if s in members and state["seats"][str(s)]["chips"]]
        if state["config"]["mode"] == TOURNAMENT and not punte:
            # Only the seats present when the banco started may punt: with none of them left with
            # chips (eliminated, or moved away by the tournament's balancing, newcomers seated in
            # their place) nobody could ever bet against it. The banker collects, the bank moves on.
            seat["chips"] += held
            events.append({"type": "fine_banco", "seat": banker, "incasso": held, "motivo": "nessuna_punta"})
            self._banco_over(state, banker)
            return
        state["banker"] = banker
        state["posta"] = c["banco"]["posta"]
        state["garage"] = c["banco"]["garage"]
        state["banco"] = {k: v for k, v in c["banco"].items() if k not in ("posta", "garage")}
        state["phase"] = PUNTATE
        self._open_betting(state)

    # ------------------------------------------------------------------ the banker's turn

    def _banco_over(self, state: State, banker: int) -> None:
        """Close the banco (money already paid); the next turn starts right of the anchor (seguito) or him."""
        base = state["anchor"] if state["anchor"] is not None else banker
        state["anchor"] = None
        state["banco"] = None
        state["banker"] = None
        state["ferito"] = None  # the privilege is against the banker who wounded him
        state["posta"] = state["garage"] = 0
        state["turn"] = {"after": base}

    def _start_acceptance(self, state: State, rng: Rng, events: list[Event]) -> None:
        """Line up the candidates for the bank: the turn's order, or a random start (first banco)."""
        order = state["order"]
        turn = state["turn"]
        if turn is None or not any(str(s) in state["seats"] for s in turn.get("known", order)):
            # Start of the partita (or nobody left from before the interruption): random banker. At a
            # cash table the draw is among the seats that can hold the bank (a sitout seat would only
            # pass it on, doubling his right-hand neighbour's chance); in a tournament every seat is
            # drawn, and a sitout one drawn loses the banco due (tournament section).
            able = [
                s
                for s in order
                if not state["seats"][str(s)]["sitout"] and state["seats"][str(s)]["chips"] > 0
            ]
            first = choice(order if state["config"]["mode"] == TOURNAMENT or not able else able, rng)
            line = [first, *right_of(order, first)]
            events.append({"type": "sorteggio_banco", "seat": first})
        else:
            # "alla ripresa di una partita interrotta … il banco spetta al primo giocatore ad essere di
            # turno tra quelli che erano presenti al momento dell'interruzione": the seats of the last
            # coup come first; one who sat down since waits for his turn after them.
            ring = right_of(order, turn["after"])
            known = turn.get("known", order)
            line = [s for s in ring if s in known] + [s for s in ring if s not in known]
        line = [s for s in line if state["seats"][str(s)]["chips"] > 0]
        if state["config"]["mode"] == TOURNAMENT:
            # "se … si è appena seduto al tavolo, cioè se non ha ancora effettuato almeno una puntata,
            # il banco passa al giocatore successivo" (tournament section; the cash section omits it).
            veterans = [s for s in line if s in state["played"]]
            if veterans:
                line = veterans
        state["candidates"] = line
        state["phase"] = ACCETTA

    def _next_candidate(self, state: State, events: list[Event]) -> None:
        """Settle the automatic cases at the head of the candidate line (sitout)."""
        while state["candidates"]:
            cand = state["candidates"][0]
            seat = state["seats"][str(cand)]
            if not seat["sitout"]:
                return
            if state["config"]["mode"] == TOURNAMENT:
                self._forfeit_banco(state, cand, events)
            else:
                events.append({"type": "salta_banco", "seat": cand, "motivo": "sitout"})
                self._skip(state, cand)
                state["candidates"].pop(0)
        # Nobody took the bank: the coup ends; the next one starts right of the last candidate.
        state["phase"] = OVER
        state["result"] = "nessun_banco"
        events.append({"type": "nessun_banco"})

    def _skip(self, state: State, seat: int) -> None:
        state["skipped"][str(seat)] = state["skipped"].get(str(seat), 0) + 1
        state["turn"] = {"after": seat}

    def _forfeit_banco(self, state: State, seat: int, events: list[Event]) -> None:
        """Tournament: the banker due who is sitout or silent loses banco minimo / 2, split to the table."""
        chips = state["seats"][str(seat)]["chips"]
        loss = min(state["config"]["min_posta"] // 2, chips)
        others = right_of(state["order"], seat)
        shares = split_cents(loss, others)
        state["seats"][str(seat)]["chips"] -= loss
        for s, amount in shares.items():
            state["seats"][str(s)]["chips"] += amount
        events.append({"type": "penale_banco", "seat": seat, "amount": loss, "shares": _skeys(shares)})
        self._skip(state, seat)
        state["candidates"].pop(0)

    def _install_banker(self, state: State, seat: int, posta: int) -> None:
        """Start a banco: the posta leaves the banker's credit; only the seats present may punt."""
        state["seats"][str(seat)]["chips"] -= posta
        state["banker"] = seat
        state["posta"] = posta
        state["garage"] = 0
        state["banco"] = {
            "seat": seat,
            "start": posta,
            "wins": 0,
            "coups": 0,
            "halved": False,
            "ritocco": False,  # he chose CONTINUO after a win: he may still dimezzare/aumentare once
            "members": list(state["order"]),
        }
        if seat not in state["played"]:
            state["played"].append(seat)

    def _accept(self, state: State, seat: int, posta: int, events: list[Event]) -> None:
        self._install_banker(state, seat, posta)
        state["candidates"] = []
        state["skipped"][str(seat)] = 0
        for other, info in state["seats"].items():
            if info["sitout"]:  # "salta tre turni di banco consecutivi, propri o altrui"
                state["skipped"][other] = state["skipped"].get(other, 0) + 1
        events.append({"type": "banco", "seat": seat, "posta": posta})
        state["phase"] = PUNTATE
        self._open_betting(state)

    # ------------------------------------------------------------------ betting

    def priority(self, state: State) -> list[int]:
        """Return the punte in priority "per la mano": from the banker's right, counter-clockwise."""
        return right_of(state["order"], state["banker"])

    def _eligible_punte(self, state: State) -> list[int]:
        members = state["banco"]["members"]
        return [
            s
            for s in self.priority(state)
            if s in members and not state["seats"][str(s)]["sitout"] and state["seats"][str(s)]["chips"] > 0
        ]

    def _open_betting(self, state: State) -> None:
        state["banker_asked"] = None
        state["decl"] = {}
        state["seq"] = 0
        state["obligated"] = None
        if state["config"]["mode"] == TOURNAMENT:
            # "al secondo colpo l'obbligo passa al secondo giocatore di mano ecc."
            prio = [s for s in self.priority(state) if state["seats"][str(s)]["chips"] > 0]
            if prio:
                state["obligated"] = prio[state["banco"]["coups"] % len(prio)]

    def _betting_open(self, state: State) -> list[int]:
        """Punte still to declare, and those offered to withdraw a bet that lost the cards."""
        decl = state["decl"]
        return [s for s in self._eligible_punte(state) if str(s) not in decl or decl[str(s)].get("reopen")]

    def _exempt(self, state: State, seat: int) -> bool:
        """Tell whether the obligated punta would lose the cards even with the minimum bet."""
        trial = dict(state["decl"])
        chips = state["seats"][str(seat)]["chips"]
        trial[str(seat)] = {"mode": "punto", "amount": min(state["config"]["min_bet"], chips), "seq": 10**9}
        _, receiver, _ = resolve_bets(trial, self.priority(state), state["posta"], state["ferito"])
        return receiver != seat

    def _bet_specs(self, state: State, seat: int) -> list[dict[str, Any]]:
        chips = state["seats"][str(seat)]["chips"]
        posta = state["posta"]
        specs: list[dict[str, Any]] = []
        if chips >= posta:
            specs.append(_spec("banco"))
        partial = self._others_partial(state, seat)
        if partial and partial < posta and chips >= posta - partial:
            specs.append(_spec("rispetto"))
        half = posta // 2
        if half >= 1 and chips >= half:
            specs.append(_spec("tavolo"))
        hi = min(chips, posta)
        specs.append(_amount_spec("punto", min(state["config"]["min_bet"], hi), hi))
        if state["obligated"] != seat or self._exempt(state, seat):
            specs.append(_spec("passo"))
        return specs

    def _others_partial(self, state: State, seat: int) -> int:
        """Return the partial bets declared by the other punte (banco e rispetto keeps them)."""
        return sum(d["amount"] for s, d in state["decl"].items() if d["mode"] == "punto" and s != str(seat))

    def _raise_specs(self, state: State, seat: int) -> list[dict[str, Any]]:
        """Return the raises still open to a punta who has declared (banco solo / e rispetto / tavolo)."""
        current = state["decl"].get(str(seat), {}).get("mode")
        if current not in RAISABLE or seat not in self._eligible_punte(state):
            return []
        rank = RAISE_RANK.get(current, len(RAISE_RANK))
        return [sp for sp in self._bet_specs(state, seat) if RAISE_RANK.get(sp["type"], rank) < rank]

    def _banker_window_specs(self, state: State) -> list[dict[str, Any]]:
        """Return the banker's choices inside the window: dimezzo / aumento / passo la mano after a win."""
        banco = state["banco"]
        specs: list[dict[str, Any]] = []
        if banco.get("ritocco"):
            specs = [sp for sp in self._decision_specs(state) if sp["type"] in ("dimezzo", "aumento")]
        if banco["wins"] >= 1:
            specs.append(_spec("passo_mano"))
        return specs

    def _optional_specs(self, state: State, seat: int) -> list[dict[str, Any]]:
        """Return the buttons of a seat the window does not wait for (raises, the banker's choices)."""
        if state["phase"] != PUNTATE:  # at rest the window is open (it closes as soon as nobody is due)
            return []
        if seat == state["banker"]:
            return self._banker_window_specs(state)
        return self._raise_specs(state, seat)

    def _declare(self, state: State, seat: int, action: Action, events: list[Event]) -> None:
        kind = action["type"]
        posta = state["posta"]
        raised = str(seat) in state["decl"]
        if kind == "banco":
            amount = posta
        elif kind == "rispetto":
            amount = posta - self._others_partial(state, seat)
        elif kind == "tavolo":
            amount = posta // 2
        elif kind == "punto":
            amount = action["amount"]
        else:
            amount = 0
        before = self._provisional_receiver(state)
        state["decl"][str(seat)] = {"mode": kind, "amount": amount, "seq": state["seq"]}
        state["seq"] += 1
        events.append({"type": "puntata", "seat": seat, "mode": kind, "amount": amount, "rialzo": raised})
        after = self._provisional_receiver(state)
        if kind in ("banco", "rispetto") and state["banco"]["wins"] >= 1 and state["banker_asked"] is None:
            # "Se, ad esempio, un giocatore chiama banco, il banchiere avrà comunque 10 secondi di tempo
            # per passare la mano": the banker of a banco that has won is asked TENGO / PASSO LA MANO.
            state["banker_asked"] = "pending"
        if before is not None and before != after and before != seat:
            # "Se un giocatore a cui spetta ricevere le carte perde questo diritto, verranno comunque a
            # lui concessi almeno 10 secondi per ritirare la sua puntata": he is asked again.
            state["decl"][str(before)]["reopen"] = True
            events.append({"type": "perde_le_carte", "seat": before})

    def _provisional_receiver(self, state: State) -> int | None:
        """Return who would get the cards if the bets closed now."""
        return resolve_bets(state["decl"], self.priority(state), state["posta"], state["ferito"])[1]

    def _reconsider(self, state: State, seat: int, kind: str, events: list[Event]) -> None:
        """Keep or withdraw a bet that lost the cards."""
        decl = state["decl"][str(seat)]
        decl.pop("reopen", None)
        if kind == "ritiro_puntata":
            state["decl"][str(seat)] = {"mode": "ritirata", "amount": 0, "seq": decl["seq"]}
        events.append({"type": kind, "seat": seat})

    def _close_betting(self, state: State, events: list[Event]) -> None:
        """Resolve the declarations into bets, take them from the credits, then deal or stall."""
        obligated = state["obligated"]
        forfait = obligated is not None and (
            state["seats"][str(obligated)]["sitout"]
            or state["decl"].get(str(obligated), {}).get("mode") == FORFAIT
        )
        if obligated is not None and forfait:
            state["decl"].pop(str(obligated), None)
            if not self._exempt(state, obligated):
                # "Se un giocatore in sitout ha l'obbligo di puntare, perde senza giocare": the minimum
                # goes to the garage, the banker's at the end of the banco and never bettable.
                loss = min(state["config"]["min_bet"], state["seats"][str(obligated)]["chips"])
                state["seats"][str(obligated)]["chips"] -= loss
                state["garage"] += loss
                events.append({"type": "penale_punta", "seat": obligated, "amount": loss})
        prio = self.priority(state)
        bets, receiver, mode = resolve_bets(state["decl"], prio, state["posta"], state["ferito"])
        state["ferito"] = None  # the ferito's privilege lasts one coup
        if not bets:
            if state["config"]["mode"] == CASH:
                state["phase"] = STALLO
                events.append({"type": "stallo"})
            else:
                state["banco"]["coups"] += 1
                state["result"] = "nessuna_puntata"
                state["phase"] = OVER
                events.append({"type": "nessuna_puntata"})
            return
        for s, amount in bets.items():
            state["seats"][str(s)]["chips"] -= amount
            if s not in state["played"]:
                state["played"].append(s)
            state["skipped"][str(s)] = 0
        state["bets"] = {str(s): a for s, a in bets.items()}
        state["receiver"] = receiver
        state["mode"] = mode
        state["banco"]["coups"] += 1
        valid = {"type": "puntate_valide", "bets": dict(state["bets"]), "receiver": receiver, "mode": mode}
        events.append(valid)

    # ------------------------------------------------------------------ the sabot and the deal

    def _draw(self, state: State) -> str:
        card: str = state["shoe"].pop(0)
        return card

    def _deal(self, state: State, rng: Rng, events: list[Event]) -> None:
        if state["reshuffle"]:
            state["shoe"] = shuffled(state["shoe"] + state["discards"], rng)
            state["discards"] = []
            state["reshuffle"] = False
            state["shuffled"] = True
            events.append({"type": "nuova_taglia"})
        drawn = state["shoe_size"] - len(state["shoe"])
        if drawn >= LAST_COUP_AFTER:
            state["ultimo"] = True  # the last coup of the taglia; reshuffle before the next deal
            state["reshuffle"] = True
            events.append({"type": "ultimo_colpo"})
        state["banco"]["ritocco"] = False  # the choice after a win lasts until the cards are dealt
        state["deck_log"].append(list(state["shoe"]))
        c1, c2, c3, c4 = (self._draw(state) for _ in range(4))
        state["punta"] = [c1, c3]  # first and third card to the punta, second and fourth to the banker
        state["banco_cards"] = [c2, c4]
        state["phase"] = PUNTA
        events.append({"type": "carte", "to": [state["receiver"]], "cards": [c1, c3]})
        events.append({"type": "distribuzione", "receiver": state["receiver"]})

    # ------------------------------------------------------------------ the play

    def _auto(self, state: State, seat: int) -> bool:
        """Tell whether this seat's card play is automatic (alla regola or sitout)."""
        info = state["seats"][str(seat)]
        return info["sitout"] or regola.prefs_bool(info["prefs"], "chemin_alla_regola")

    def _punta_specs(self, state: State) -> list[dict[str, Any]]:
        if regola.points(state["punta"]) >= 8:
            return [_spec("batto")]
        return [_spec("sto"), _spec("chiamo")]

    def _punta_play(self, state: State, kind: str, events: list[Event], auto: bool = False) -> None:
        state["punta_play"] = kind
        events.append({"type": "gioco_punta", "seat": state["receiver"], "play": kind, "auto": auto})
        state["banco_shown"] = True
        events.append({"type": "scopre_banco", "cards": list(state["banco_cards"])})
        if kind == "batto" or regola.points(state["banco_cards"]) >= 8:
            if kind != "batto":
                state["banco_play"] = "batto"
                events.append({"type": "gioco_banco", "seat": state["banker"], "play": "batto", "auto": True})
            self._showdown(state, events)
            return
        if kind == "chiamo":
            card = self._draw(state)
            state["punta"].append(card)
            events.append({"type": "terza_punta", "card": card})
        state["phase"] = BANCO

    def _banco_play(self, state: State, kind: str, events: list[Event], auto: bool = False) -> None:
        state["banco_play"] = kind
        events.append({"type": "gioco_banco", "seat": state["banker"], "play": kind, "auto": auto})
        if kind == "chiamo":
            card = self._draw(state)
            state["banco_cards"].append(card)
            events.append({"type": "terza_banco", "card": card})
        self._showdown(state, events)

    def _third_value(self, state: State) -> int | None:
        return regola.card_value(state["punta"][2]) if len(state["punta"]) == 3 else None

    def _regola_action(self, state: State, seat: int) -> Action:
        prefs = state["seats"][str(seat)]["prefs"]
        if state["phase"] == PUNTA:
            return {"type": regola.punta_decision(regola.points(state["punta"]), prefs)}
        draws = regola.banker_draws(regola.points(state["banco_cards"]), self._third_value(state), prefs)
        return {"type": "chiamo" if draws else "sto"}

    def _showdown(self, state: State, events: list[Event]) -> None:
        """Reveal, compare and settle the coup."""
        state["punta_shown"] = True
        p, b = regola.points(state["punta"]), regola.points(state["banco_cards"])
        events.append({"type": "scopre_punta", "cards": list(state["punta"]), "points": p, "banco": b})
        rate = state["config"]["rake_bp"]
        bets = {int(s): a for s, a in state["bets"].items()}
        state["settled"], state["bets"] = state["bets"], {}  # the bets move to credits or posta now
        if p == b:
            # Égalité: the coup is void, bets go back and may be changed at the next coup.
            for s, a in bets.items():
                state["seats"][str(s)]["chips"] += a
            state["result"] = "egalite"
            events.append({"type": "egalite"})
            self._end_coup(state)
            return
        if p > b:
            paid: dict[str, int] = {}
            for s, a in bets.items():
                rake = a * 2 * rate // 10000
                state["posta"] -= a
                state["seats"][str(s)]["chips"] += 2 * a - rake
                state["rake"] += rake
                paid[str(s)] = 2 * a - rake
            state["result"] = "punta"
            banker = state["banker"]
            held = state["posta"] + state["garage"]
            state["seats"][str(banker)]["chips"] += held
            events.append({"type": "vince_punta", "paid": paid, "banco_incassa": held})
            self._banco_over(state, banker)
            self._end_coup(state)
            return
        won = sum(bets.values())
        rake = won * 2 * rate // 10000
        uncovered = state["posta"] - won
        state["garage"] += uncovered
        state["posta"] = 2 * won - rake
        state["rake"] += rake
        state["banco"]["wins"] += 1
        state["banco"]["ritocco"] = True
        if state["mode"] == "banco":
            state["ferito"] = state["receiver"]  # covered the whole banco alone and lost
        state["result"] = "banco"
        events.append(
            {"type": "vince_banco", "won": won, "rake": rake, "garage": uncovered, "posta": state["posta"]}
        )
        state["phase"] = DECISIONE

    def _end_coup(self, state: State) -> None:
        state["discards"] += state["punta"] + state["banco_cards"]
        state["bets"] = {}
        state["phase"] = OVER

    # ------------------------------------------------------------------ after a winning coup

    def _decision_specs(self, state: State) -> list[dict[str, Any]]:
        specs = [_spec("continuo")]
        banco = state["banco"]
        if not banco["halved"] and banco["wins"] <= DIMEZZO_MAX_WINS and state["posta"] >= 2:
            specs.append(_spec("dimezzo"))
        chips = state["seats"][str(state["banker"])]["chips"]
        if chips > 0:
            specs.append(_amount_spec("aumento", 1, chips))
        specs.append(_spec("passo_mano"))
        return specs

    def _change_posta(self, state: State, action: Action, events: list[Event]) -> None:
        """DIMEZZO (half the posta back to the banker's credit) or AUMENTO (credit into the posta)."""
        banker = state["banker"]
        seat = state["seats"][str(banker)]
        if action["type"] == "dimezzo":
            half = state["posta"] // 2
            state["posta"] -= half
            seat["chips"] += half
            state["banco"]["halved"] = True
            events.append({"type": "dimezzo", "seat": banker, "incasso": half, "posta": state["posta"]})
        else:
            amount = action["amount"]
            seat["chips"] -= amount
            state["posta"] += amount
            events.append({"type": "aumento", "seat": banker, "amount": amount, "posta": state["posta"]})
        state["banco"]["ritocco"] = False

    def _decide(self, state: State, action: Action, events: list[Event]) -> None:
        kind = action["type"]
        banker = state["banker"]
        if kind in ("dimezzo", "aumento"):
            self._change_posta(state, action, events)
        if kind != "passo_mano":
            events.append({"type": "continuo", "seat": banker, "posta": state["posta"]})
            self._end_coup(state)
            return
        self._pass_hand(state, events)

    def _pass_hand(self, state: State, events: list[Event]) -> None:
        """The banker passes the hand: he collects posta and garage, and the seguito is offered."""
        banker = state["banker"]
        seat = state["seats"][str(banker)]
        height = state["posta"]
        held = state["posta"] + state["garage"]
        seat["chips"] += held
        events.append({"type": "passo_mano", "seat": banker, "incasso": held, "altezza": height})
        state["ferito"] = None  # wounded by the banker who is leaving
        if state["anchor"] is None:
            state["anchor"] = banker  # the turn resumes right of whoever first passed the hand
        members = state["banco"]["members"]
        buyers = [
            s
            for s in right_of(state["order"], banker)
            if s in members and not state["seats"][str(s)]["sitout"] and state["seats"][str(s)]["chips"] > 0
        ]
        state["posta"] = state["garage"] = 0
        state["banco"] = None
        state["banker"] = None
        state["seguito"] = {
            "from": banker,
            "height": height,
            "buyers": buyers,
            "decl": {},
            "best": 0,
            "bidder": None,
        }
        state["phase"] = SEGUITO
        self._check_seguito(state, events)

    # ------------------------------------------------------------------ seguito and auction

    def _seguito_open(self, state: State) -> list[int]:
        seg = state["seguito"]
        if state["phase"] == SEGUITO:
            return [s for s in seg["buyers"] if str(s) not in seg["decl"]]
        return [s for s in seg["buyers"] if str(s) not in seg["decl"] and s != seg["bidder"]]

    def _seguito_specs(self, state: State, seat: int) -> list[dict[str, Any]]:
        seg = state["seguito"]
        chips = state["seats"][str(seat)]["chips"]
        specs: list[dict[str, Any]] = []
        if chips >= seg["height"]:
            specs.append(_spec("compro"))
        if state["phase"] == ASTA:
            lo = max(seg["best"] + 1, min(state["config"]["min_posta"], chips))
            hi = min(chips, seg["height"] - 1)
            if lo <= hi:
                specs.append(_amount_spec("offerta", lo, hi))
        specs.append(_spec("passo"))
        return specs

    def _seguito_act(self, state: State, seat: int, action: Action, events: list[Event]) -> None:
        seg = state["seguito"]
        kind = action["type"]
        if kind == "compro":
            events.append({"type": "compro", "seat": seat, "posta": seg["height"]})
            if state["phase"] == ASTA:
                # A purchase at height closes the auction at once.
                self._seguito_to(state, seat, seg["height"], events)
                return
            seg["decl"][str(seat)] = "compro"
        elif kind == "offerta":
            seg["best"] = action["amount"]
            seg["bidder"] = seat
            seg["decl"] = {k: v for k, v in seg["decl"].items() if v == "passo"}  # others may bid again
            events.append({"type": "offerta", "seat": seat, "amount": action["amount"]})
        else:
            seg["decl"][str(seat)] = "passo"
            events.append({"type": "passo", "seat": seat})
        self._check_seguito(state, events)

    def _check_seguito(self, state: State, events: list[Event]) -> None:
        seg = state["seguito"]
        if self._seguito_open(state):
            return
        if state["phase"] == SEGUITO:
            buyers = [s for s in seg["buyers"] if seg["decl"].get(str(s)) == "compro"]
            if buyers:
                self._seguito_to(state, buyers[0], seg["height"], events)  # priority per la mano
                return
            state["phase"] = ASTA
            seg["decl"] = {}
            events.append({"type": "asta"})
            if self._seguito_open(state):
                return
        if seg["bidder"] is not None:
            self._seguito_to(state, seg["bidder"], seg["best"], events)
            return
        # Nobody took the seguito: the bank goes on right of the anchor.
        events.append({"type": "nessun_seguito"})
        anchor = state["anchor"]
        state["anchor"] = None
        state["turn"] = {"after": anchor}
        state["seguito"] = None
        self._end_coup(state)

    def _seguito_to(self, state: State, seat: int, posta: int, events: list[Event]) -> None:
        state["seguito"] = None
        self._install_banker(state, seat, posta)
        events.append({"type": "seguito", "seat": seat, "posta": posta})
        self._end_coup(state)

    # ------------------------------------------------------------------ the contract

    def to_act(self, state: State) -> list[int]:
        """Return the seats that must decide now (all open punte at once while betting)."""
        phase = state["phase"]
        if phase == ACCETTA:
            return list(state["candidates"][:1])
        if phase == PUNTATE:
            asked = [state["banker"]] if state["banker_asked"] == "pending" else []
            return [*self._betting_open(state), *asked]
        if phase in (STALLO, BANCO, DECISIONE):
            return [state["banker"]]
        if phase == PUNTA:
            return [state["receiver"]]
        if phase in (SEGUITO, ASTA):
            return self._seguito_open(state)
        return []

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """List the buttons of this seat now (optional ones too: raises and the banker's choices)."""
        if seat not in self.to_act(state):
            return self._optional_specs(state, seat)
        phase = state["phase"]
        if phase == ACCETTA:
            chips = state["seats"][str(seat)]["chips"]
            specs = [_amount_spec("accetto", min(state["config"]["min_posta"], chips), chips)]
            if state["config"]["mode"] == CASH:
                specs.append(_spec("rifiuto"))  # cash tables: refused freely; tournaments: never
            return specs
        if phase == PUNTATE:
            if seat == state["banker"]:
                window = [sp for sp in self._banker_window_specs(state) if sp["type"] != "passo_mano"]
                return [_spec("tengo"), _spec("passo_mano"), *window]
            if state["decl"].get(str(seat), {}).get("reopen"):
                return [_spec("mantengo"), _spec("ritiro_puntata"), *self._raise_specs(state, seat)]
            return self._bet_specs(state, seat)
        if phase == STALLO:
            return [_spec("ritiro"), _spec("attendo")]
        if phase == PUNTA:
            return self._punta_specs(state)
        if phase == BANCO:
            return [_spec("sto"), _spec("chiamo")]
        if phase == DECISIONE:
            return self._decision_specs(state)
        return self._seguito_specs(state, seat)

    def _forfait_allowed(self, state: State, seat: int) -> bool:
        if state["config"]["mode"] != TOURNAMENT or seat not in self.to_act(state):
            return False
        if state["phase"] == PUNTATE:
            return seat == state["obligated"] and str(seat) not in state["decl"]
        return bool(state["phase"] == ACCETTA)

    def can_apply(self, state: State, seat: int, action: Action) -> bool:
        """Tell whether ``apply`` would accept this action (the runtime's forfait included)."""
        if action == {"type": FORFAIT}:
            return self._forfait_allowed(state, seat)
        return super().can_apply(state, seat, action)

    def timeout_action(self, state: State, seat: int) -> Action:
        """Return the rules' automatic decision: alla regola for the cards, else the safe refusal."""
        phase = state["phase"]
        if phase == PUNTATE and state["decl"].get(str(seat), {}).get("reopen"):
            return {"type": "mantengo"}
        if phase == PUNTATE and seat == state["banker"]:
            return {"type": "tengo"}
        if self._forfait_allowed(state, seat):
            return {"type": FORFAIT}
        if phase == ACCETTA:
            return {"type": "rifiuto"}
        if phase in (PUNTA, BANCO):
            return self._regola_action(state, seat)
        if phase == STALLO:
            return {"type": "ritiro"}
        if phase == DECISIONE:
            return {"type": "passo_mano"}  # an absent banker cashes the posta and the garage
        return {"type": "passo"}

    def apply(self, state: State, seat: int, action: Action, rng: Rng) -> list[Event]:
        """Apply one decision; refused ones raise and change nothing."""
        if state["phase"] == OVER:
            raise HandOver()
        if seat not in self.to_act(state) and not self._optional_specs(state, seat):
            raise NotYourTurn()
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise UnknownAction()
        if action == {"type": FORFAIT}:
            if not self._forfait_allowed(state, seat):
                raise UnknownAction()
        else:
            specs = self.legal_actions(state, seat)
            if not any(spec_matches(spec, action) for spec in specs):
                if any(sp["type"] == action["type"] and "amount" in sp for sp in specs):
                    raise InvalidAmount()
                if any(sp["type"] == action["type"] for sp in specs):
                    raise IllegalAction()
                raise UnknownAction()
        events: list[Event] = []
        self._dispatch(state, seat, action, rng, events)
        self._advance(state, rng, events)
        return events

    def _dispatch(self, state: State, seat: int, action: Action, rng: Rng, events: list[Event]) -> None:
        phase = state["phase"]
        kind = action["type"]
        if phase == ACCETTA:
            if kind == "accetto":
                self._accept(state, seat, action["amount"], events)
            elif kind == FORFAIT:
                self._forfeit_banco(state, seat, events)
            else:
                events.append({"type": "rifiuto", "seat": seat})
                self._skip(state, seat)
                state["candidates"].pop(0)
        elif phase == PUNTATE:
            if kind == FORFAIT:
                state["decl"][str(seat)] = {"mode": FORFAIT, "amount": 0, "seq": state["seq"]}
                state["seq"] += 1
                events.append({"type": "puntata", "seat": seat, "mode": FORFAIT, "amount": 0})
            elif seat == state["banker"] and kind in ("dimezzo", "aumento"):
                self._change_posta(state, action, events)
                # The declarations were shares of the old posta: they are annulled, all declare again.
                state["decl"] = {}
                state["banker_asked"] = None
                events.append({"type": "puntate_annullate", "posta": state["posta"]})
            elif seat == state["banker"]:
                state["banker_asked"] = "done"
                if kind == "passo_mano":
                    state["decl"] = {}  # the bets on a banco that is passed are void
                    state["result"] = "passo_mano"
                    self._pass_hand(state, events)
                else:
                    events.append({"type": "tengo", "seat": seat})
            elif kind in ("mantengo", "ritiro_puntata"):
                self._reconsider(state, seat, kind, events)
            else:
                self._declare(state, seat, action, events)
        elif phase == STALLO:
            if kind == "ritiro":
                held = state["posta"] + state["garage"]
                state["seats"][str(seat)]["chips"] += held
                events.append({"type": "ritiro", "seat": seat, "incasso": held})
                self._banco_over(state, seat)
                state["result"] = "ritiro"
            else:
                events.append({"type": "attendo", "seat": seat})
                state["result"] = "stallo"
            state["phase"] = OVER
        elif phase == PUNTA:
            self._punta_play(state, kind, events)
        elif phase == BANCO:
            self._banco_play(state, kind, events)
        elif phase == DECISIONE:
            self._decide(state, action, events)
        else:
            self._seguito_act(state, seat, action, events)

    def _advance(self, state: State, rng: Rng, events: list[Event]) -> None:
        """Run what needs nobody's decision: closing the bets, the deal, automatic play."""
        while True:
            phase = state["phase"]
            if phase == ACCETTA:
                if state["candidates"] and not state["seats"][str(state["candidates"][0])]["sitout"]:
                    return
                self._next_candidate(state, events)
                if state["phase"] == ACCETTA:
                    return
            elif phase == PUNTATE:
                if self.to_act(state):
                    return
                self._close_betting(state, events)
                if state["phase"] == PUNTATE:
                    self._deal(state, rng, events)
            elif phase == PUNTA:
                receiver = state["receiver"]
                points = regola.points(state["punta"])
                info = state["seats"][str(receiver)]
                battuta = points >= 8 and regola.prefs_bool(info["prefs"], "chemin_battuta_automatica")
                if not (self._auto(state, receiver) or battuta):
                    return
                self._punta_play(state, self._regola_action(state, receiver)["type"], events, auto=True)
            elif phase == BANCO:
                banker = state["banker"]
                if not self._auto(state, banker):
                    return
                self._banco_play(state, self._regola_action(state, banker)["type"], events, auto=True)
            else:
                return

    # ------------------------------------------------------------------ results

    def is_over(self, state: State) -> bool:
        """Tell whether the coup has ended."""
        return bool(state["phase"] == OVER)

    def outcome(self, state: State) -> dict[str, Any]:
        """Return the coup's result: free credit per seat, the banco still held, rake, paid-out money."""
        banco = None
        if state["banker"] is not None:
            banco = {"seat": state["banker"], "posta": state["posta"], "garage": state["garage"]}
        return {
            "result": state["result"],
            "chips": {s: info["chips"] for s, info in state["seats"].items()},
            "banco": banco,
            "rake": state["rake"],
            "paid_out": dict(state["paid_out"]),
            "carried_in": state["carried_in"],
            "carried_out": (state["posta"] + state["garage"]) if state["banker"] is not None else 0,
            # cash tables only: a tournament player leaves only by elimination (RULINGS L2)
            "stand_up": sorted(int(s) for s, n in state["skipped"].items() if n >= 3)
            if state["config"]["mode"] == CASH
            else [],
        }

    def carry(self, state: State) -> dict[str, Any] | None:
        """Return what the next coup starts from (sabot, banco, turn, ferito…); never shown to clients."""
        banco = None
        if state["banker"] is not None:
            banco = {**state["banco"], "posta": state["posta"], "garage": state["garage"]}
        turn = state["turn"]
        if turn is not None:
            turn = {**turn, "known": list(state["order"])}
        return {
            "shoe": list(state["shoe"]),
            "discards": list(state["discards"]),
            "reshuffle": state["reshuffle"],
            "banco": banco,
            "anchor": state["anchor"],
            "turn": turn,
            "ferito": state["ferito"],
            "played": list(state["played"]),
            "skipped": dict(state["skipped"]),
        }

    def deck_continues(self, carry: dict[str, Any] | None) -> bool:
        """The next coup deals on from the sabot, unless the taglia ended (a reshuffle is due) or there
        is none yet."""
        return bool(carry and carry.get("shoe")) and not (carry or {}).get("reshuffle", False)

    def release_seat(self, carry: dict[str, Any] | None, seat: int) -> tuple[dict[str, Any] | None, int]:
        """A banker who leaves between coups takes his posta and garage; the banco then ends."""
        banco = (carry or {}).get("banco")
        if not banco or banco["seat"] != seat:
            return carry, 0
        held = int(banco["posta"]) + int(banco["garage"])
        out = copy.deepcopy(carry)
        assert out is not None
        out["banco"]["posta"] = out["banco"]["garage"] = 0  # the next coup ends his banco, paying 0
        return out, held

    def money(self, state: State) -> int:
        """Return every cent in the coup: credits, posta, garage, bets, rake and money paid out."""
        return int(
            sum(info["chips"] for info in state["seats"].values())
            + state["posta"]
            + state["garage"]
            + sum(state["bets"].values())
            + state["rake"]
            + sum(state["paid_out"].values())
        )

    def cards_in_play(self, state: State) -> list[str]:
        """Return every card of the sabot: remaining, dealt this coup and discarded (always the full shoe)."""
        if state["phase"] == OVER:  # the coup's cards are already among the discards
            return [*state["shoe"], *state["discards"]]
        return [*state["shoe"], *state["punta"], *state["banco_cards"], *state["discards"]]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Return what this seat (None: a spectator) may see: never the sabot or a covered card."""
        receiver = state["receiver"]
        punta: list[str | None] = []
        if state["punta"]:
            own = seat is not None and seat == receiver
            punta = [c if (own or state["punta_shown"]) else None for c in state["punta"][:2]]
            punta += state["punta"][2:]  # the third card is dealt face up
        shown = state["banco_shown"]
        banco_cards: list[str | None] = [c if shown else None for c in state["banco_cards"][:2]]
        banco_cards += state["banco_cards"][2:]
        seg = state["seguito"]
        view: dict[str, Any] = {
            "game": self.name,
            "mode": state["config"]["mode"],
            "min_posta": state["config"]["min_posta"],
            "min_bet": state["config"]["min_bet"],
            "rake_bp": state["config"]["rake_bp"],
            "phase": state["phase"],
            "seats": {
                s: {
                    "chips": info["chips"],
                    "sitout": info["sitout"],
                    # "Se il giocatore imposta il gioco automatico alla regola ciò sarà evidenziato"
                    "alla_regola": regola.prefs_bool(info["prefs"], "chemin_alla_regola"),
                }
                for s, info in state["seats"].items()
            },
            "banker": state["banker"],
            "posta": state["posta"],
            "garage": state["garage"],
            "banco": None
            if state["banco"] is None
            else {k: state["banco"][k] for k in ("wins", "coups", "halved", "start")},
            "candidate": state["candidates"][0] if state["phase"] == ACCETTA else None,
            "priority": self.priority(state) if state["banker"] is not None else [],
            "ferito": state["ferito"],
            "obligated": state["obligated"],
            "banker_asked": state["banker_asked"],
            "declarations": {s: {"mode": d["mode"], "amount": d["amount"]} for s, d in state["decl"].items()},
            "bets": dict(state["bets"] or state["settled"]),
            "receiver": receiver,
            "punta": punta,
            "banco_cards": banco_cards,
            "punta_play": state["punta_play"],
            "banco_play": state["banco_play"],
            "result": state["result"],
            "seguito": None
            if seg is None
            else {"from": seg["from"], "height": seg["height"], "best": seg["best"], "bidder": seg["bidder"]},
            "rake": state["rake"],
            "ultimo_colpo": state["ultimo"],
            "carte_sfilate": state["shoe_size"] - len(state["shoe"]),
            "to_act": self.to_act(state),
        }
        if seat is not None and str(seat) in state["seats"]:
            view["legal"] = self.legal_actions(state, seat)
            view["prefs"] = dict(state["seats"][str(seat)]["prefs"])
        return view


def _skeys(d: dict[int, int]) -> dict[str, int]:
    return {str(k): v for k, v in d.items()}
