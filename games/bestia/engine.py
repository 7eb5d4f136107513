"""Bestia, 3 and 4 cards (rules 004, "Regole della Bestia"; RULINGS G1, G2, G4, I8).

One engine hand is one *smazzata*. What lasts between smazzate is the ``carry``: the dealer, the
piatto (the bestie paid, or the whole piatto of a void hand) and who is entitled to play for it,
and each seat's count of consecutive turns missed in sitout. The runtime keeps the carried piatto
in the table's pot account: ``outcome()`` reports it as ``carried_in`` / ``carried_out``.

Flow:
1. Active players ("giocatori attivi"). Piatto iniziale 0: cash tables, every seat not in sitout
   with at least the credito minimo (``min_credit``); tournaments, every seat with chips (sitout
   included). Piatto iniziale > 0: only the seats entitled to it, those that paid an invito since
   the piatto was last 0 (cash: sitout seats are not charged and sit this one out, keeping the
   right). The first dealer is drawn at random among the active players; then the next active
   seat at the previous dealer's right.
2. Inviti: every active player pays the invito; ``games.bestia.money.invito_and_bestia`` caps it
   (and then the bestia is 0) by the lowest credit, and caps the rischio bestia by the piatto and
   by the lowest credit left.
3. Deal: 3 (or 4) cards each, one at a time counter-clockwise from the dealer's right; the next
   card is turned up and shows the briscola; the rest is the stock.
4. Declarations (RULINGS I8: from the giocatore di mano, the dealer's right): Passo, Servito,
   Cambio (with the cards to change, replaced from the top of the stock at once). Then, in the
   same order, each player who passed may play al buio while the stock holds a whole hand: his
   cards are discarded unseen and he takes the top 3 (4) cards of the stock, committed to play.
5. RULINGS I8: if fewer than two players play, the smazzata is void: the piatto carries over to
   the next one (which adds its new inviti) and the cards are redealt.
6. Play (games.tricks.BESTIA_RULES): the first player at the dealer's right who plays leads; he
   must lead the top trump if he holds it (the ace, or the 3 when the ace is the face-up card);
   follow suit, else trump, else anything; the trick's winner leads the next.
7. The piatto is split by tricks (``split_by_tricks``), cash tables taking the rake from what each
   player collects; then each player who played and took no trick (4 cards: the first player who
   decided to play, fewer than two) pays the rischio bestia into the next smazzata's piatto.

Decisions where the chapter is silent or unclear (each also noted where it is applied):

* Seat numbers increase counter-clockwise: a seat's right is the next higher seat number dealt in,
  wrapping round (the reading of games.settemezzo and games.chemin).
* The split's remainder. The chapter says both "I resti … vengono attribuiti al giocatore che ha
  fatto la prima presa" and "L'eventuale resto spetterà al primo giocatore partendo dal giocatore
  alla destra del mazziere e continuando in senso antiorario", with the example € 10,00 → 3,34 to
  "il primo giocatore". Parts are truncated to the cent, and every cent left goes with the part of
  the first trick: the one reading that agrees with the first sentence and the example for any
  number of leftover cents (RULINGS G1 defers to "as written in its rules").
* Rake (cash): per collector, floor(collected × rake %) as in the chapter's example (A collects
  € 20 at 10 %: € 2), capped per smazzata by ``rake_cap`` (used up in playing order); at most
  10 % (montepremi ≥ 90 % of the raccolta). Bestie are not raked when paid: the piatto they form
  is raked when a later smazzata shares it.
* The face-up briscola stays on the table and is never drawn: changes and buio take only the
  stock above it (hence "il 3 con l'asso scoperto" is the top trump: the ace is out of play). A
  Cambio may change at most as many cards as the stock holds.
* The al buio round is offered only to players who passed (those playing already play), once
  each, while the stock holds a whole hand (3 cards, 4 in the 4-card variant); its button is
  "Al buio" (the rules name only Passo / Servito / Cambio).
* Entitlement to a carried piatto is lost by leaving the table (a seat missing from a hand's seat
  list) and never passes to a seat spec marked ``"new": True`` (the runtime marks a player who sat
  down since the last hand, so a reused seat number inherits nothing). If fewer than two entitled
  players can play, the smazzata is open to everybody as with piatto 0, so a piatto whose players
  left is still played for.
* Sitout: the timeout decision is ``{"type": "sitout"}`` (not a button; the player clicks "sitout
  prossima smazzata" for the next hand, outside the engine). A sitout player who has not declared
  passes (also in the buio round); one who declared is played automatically: the first card of
  his hand the rules allow. ``outcome()["missed"]`` counts, per seat, the consecutive smazzate
  that ended with it in sitout (a smazzata with the seat present and not in sitout resets it);
  cash tables stand up a seat at 3 (``outcome()["stand_up"]``, "salta tre turni consecutivi").
* Fewer than two active players: the hand ends at once (``ended_by`` "pochi_giocatori"), nothing
  is charged and the carry is kept.
* Tournaments (RULINGS L1): when, once the inviti are in, only one active player is not in sitout,
  he takes the whole piatto at once, no cards dealt (``ended_by`` "presente_unico"): the players
  in sitout are blinded off rather than the piatto growing for ever. With every active player in
  sitout they all pass and the smazzata is void (I8). The last player with chips at a tournament
  table takes a piatto left there the same way.
* At most 8 seats (3 × 8 + 1 = 25 cards dealt, leaving a stock for changes).

Money is conserved after every action: ``sum(chips) + piatto + rake`` equals the credits dealt in
plus ``carried_in``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any, ClassVar

from games import tricks
from games.bestia.money import invito_and_bestia, rake_on_shares, split_by_tricks
from games.cards import italian_deck
from games.engine import (
    CASH,
    MODE_OPTION,
    TOURNAMENT,
    ConfigError,
    Engine,
    Event,
    HandOver,
    IllegalAction,
    InvalidCards,
    NotYourTurn,
    Option,
    SeatSpec,
    State,
    UnknownAction,
    check_table_config,
    seat_books,
)
from games.registry import register
from games.rng import Rng, shuffled
from games.tricks import key as k

RULES = tricks.BESTIA_RULES
CANONICAL = italian_deck()
MAX_RAKE_BP = 1000
STAND_UP_AFTER = 3  # "Se un giocatore salta tre turni consecutivi, perché in sit out"

DICHIARAZIONE = "dichiarazione"
BUIO = "buio"
GIOCO = "gioco"
OVER = "over"

# The action types of each phase and the keys each takes besides "type" ("sitout": the timeout).
ACTIONS: dict[str, dict[str, tuple[str, ...]]] = {
    DICHIARAZIONE: {"passo": (), "servito": (), "cambio": ("cards",), "sitout": ()},
    BUIO: {"passo": (), "buio": (), "sitout": ()},
    GIOCO: {"gioca": ("card",), "sitout": ()},
}

DEFAULT_CONFIG: dict[str, Any] = {
    "mode": "cash",  # "cash" | "tournament"
    "cards": 3,  # 3 or 4 (variant "Bestia a 4 carte")
    "invito": 100,  # the table's invito (tournaments: the current level's)
    "min_credit": None,  # credito minimo to start a smazzata with piatto 0 (default: the invito)
    "rake_bp": 0,  # cash only, basis points, at most 1000
    "rake_cap": None,  # cents per smazzata, or None
}

OPTIONS: tuple[Option, ...] = (
    MODE_OPTION,
    Option("cards", "Carte per giocatore", "choice", 3, ((3, "3 carte"), (4, "Bestia a 4 carte"))),
    Option("invito", "Invito", "int", 100, min=1),
    Option("min_credit", "Credito minimo", "int", None, min=0, nullable=True, help="Se assente: l'invito"),
    Option("rake_bp", "Rake in punti base (1000 = 10 %)", "int", 0, min=0, max=MAX_RAKE_BP),
    Option("rake_cap", "Tetto del rake per smazzata", "int", None, min=0, nullable=True),
)


class StockTooShort(InvalidCards):
    code = "stock_too_short"
    default_message = "Nel mazzo non ci sono abbastanza carte"


def from_right_of(seats: Sequence[int], dealer: int) -> list[int]:
    """Every seat of ``seats`` in playing order, starting at the dealer's right, the dealer last."""
    after = sorted(s for s in seats if s > dealer)
    before = sorted(s for s in seats if s <= dealer)
    return after + before


@register
class Bestia(Engine):
    """Bestia (3 or 4 cards): one smazzata per engine hand, the piatto carried between them."""

    name = "bestia"
    title = "Bestia"
    family = "puntate"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 8
    table_settings: ClassVar[dict[str, str]] = {"mode": "mode", "rake_bp": "rake_bp", "rake_cap": "rake_cap"}

    # ------------------------------------------------------------------ configuration

    def config_options(self) -> tuple[Option, ...]:
        """Return the table options of Bestia (tavolo, variante a 3 o 4 carte, invito, rake)."""
        return OPTIONS

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """Fill defaults; refuse unknown keys, a bad variant, non-integer money, a rake over 10 %."""
        check_table_config(OPTIONS, config)
        cfg = {**DEFAULT_CONFIG, **config}
        if cfg["min_credit"] is None:
            cfg["min_credit"] = cfg["invito"]
        if cfg["mode"] not in (CASH, TOURNAMENT):
            raise ConfigError(mode=cfg["mode"])
        if cfg["cards"] not in (3, 4) or type(cfg["cards"]) is not int:
            raise ConfigError(cards=cfg["cards"])
        for key in ("invito", "min_credit", "rake_bp"):
            if type(cfg[key]) is not int or cfg[key] < 0:
                raise ConfigError(**{key: cfg[key]})
        if cfg["invito"] < 1:
            raise ConfigError(invito=cfg["invito"])
        if cfg["rake_cap"] is not None and (type(cfg["rake_cap"]) is not int or cfg["rake_cap"] < 0):
            raise ConfigError(rake_cap=cfg["rake_cap"])
        if cfg["rake_bp"] > MAX_RAKE_BP or (cfg["mode"] == "tournament" and cfg["rake_bp"]):
            raise ConfigError("rake non valido (solo tavoli cash, al massimo 10 %)", rake_bp=cfg["rake_bp"])
        return cfg

    # ------------------------------------------------------------------ a new smazzata

    def new(
        self, config: dict[str, Any], seats: list[SeatSpec], rng: Rng, carry: dict[str, Any] | None = None
    ) -> State:
        """Start a smazzata: active players, dealer, inviti, deal (shuffled with ``rng``)."""
        return self.new_with_deck(config, seats, rng, carry, deck=None)

    def new_with_deck(
        self,
        config: dict[str, Any],
        seats: list[SeatSpec],
        rng: Rng,
        carry: dict[str, Any] | None = None,
        deck: list[str] | None = None,
    ) -> State:
        """``new`` dealing from a given deck order (replays from ``deck_log``, golden tests)."""
        cfg = self.validate_config(config)
        numbers = [s.get("seat") for s in seats]
        if any(type(n) is not int for n in numbers) or len(set(numbers)) != len(numbers):
            raise ConfigError(seats=numbers)
        if not self.min_seats <= len(seats) <= self.max_seats:
            raise ConfigError(seats=len(seats))
        for s in seats:
            if type(s.get("chips")) is not int or s["chips"] < 0:
                raise ConfigError(chips=s.get("chips"))
        if deck is not None and sorted(deck) != sorted(CANONICAL):
            raise ConfigError(deck="il mazzo deve avere le 40 carte")
        c = carry or {}
        order = sorted(int(s["seat"]) for s in seats)
        by_seat = {int(s["seat"]): s for s in seats}
        piatto_in = int(c.get("piatto", 0))
        newcomers = {s for s in order if by_seat[s].get("new")}
        entitled = [s for s in c.get("entitled", []) if s in by_seat and s not in newcomers]
        state: State = {
            "game": self.name,
            "config": cfg,
            "order": order,
            **seat_books(order, by_seat),
            "carried_in": piatto_in,
            "piatto": piatto_in,
            "entitled": entitled,
            "missed_in": {k(s): int(c.get("missed", {}).get(k(s), 0)) for s in order},
            "prev_dealer": c.get("dealer"),
            "dealer": c.get("dealer"),
            "active": [],
            "invito": 0,
            "invito_capped": False,
            "bestia": 0,
            "phase": OVER,
            "pending": [],
            "decisions": {},
            "changed": {},
            "players": [],
            "briscola": None,
            "deal": None,
            "discards": [],
            "rake": 0,
            "result": None,
            "ended_by": None,
            "deck_log": [],
            "log": [],
        }
        events: list[Event] = []
        active = self._active(state)
        if len(active) == 1 and cfg["mode"] == TOURNAMENT and state["piatto"] > 0:
            # RULINGS L1: the last player with chips at a tournament table takes the piatto left
            state["active"] = active
            self._walkover(state, active[0], events)
            state["log"] = events
            return state
        if len(active) < 2:
            state["ended_by"] = "pochi_giocatori"
            events.append({"type": "pochi_giocatori", "active": active})
            state["log"] = events
            return state
        prev = c.get("dealer")
        dealer = active[rng.randbelow(len(active))] if prev is None else from_right_of(active, int(prev))[0]
        state["dealer"] = dealer
        playing = from_right_of(active, dealer)
        state["active"] = playing
        self._inviti(state, events)
        present = [s for s in playing if not state["sitout"][k(s)]]
        if cfg["mode"] == TOURNAMENT and len(present) == 1:
            self._walkover(state, present[0], events)  # RULINGS L1
            state["log"] = events
            return state
        if deck is None:
            deck = shuffled(CANONICAL, rng)
        self._deal(state, list(deck), events)
        state["phase"] = DICHIARAZIONE
        state["pending"] = list(playing)
        self._run_auto(state, events)
        state["log"] = events
        return state

    def _active(self, state: State) -> list[int]:
        """Return the giocatori attivi, ascending (see the module docstring, point 1)."""
        cfg = state["config"]
        cash = cfg["mode"] == "cash"

        def present(s: int) -> bool:
            return state["chips"][k(s)] > 0 and not (cash and state["sitout"][k(s)])

        if state["piatto"] > 0 and state["entitled"]:
            restricted = [s for s in state["order"] if s in state["entitled"] and present(s)]
            if len(restricted) >= 2:
                return restricted
            # Fewer than two entitled players can play: open to all as with piatto 0 (docstring).
        return [
            s
            for s in state["order"]
            if present(s) and (not cash or state["chips"][k(s)] >= cfg["min_credit"])
        ]

    def _inviti(self, state: State, events: list[Event]) -> None:
        """Charge every active player the invito; fix the rischio bestia (shown at the start)."""
        active = state["active"]
        credits = [state["chips"][k(s)] for s in active]
        invito, capped, bestia = invito_and_bestia(state["config"]["invito"], state["piatto"], credits)
        state["invito"], state["invito_capped"], state["bestia"] = invito, capped, bestia
        for s in active:
            state["chips"][k(s)] -= invito
            state["piatto"] += invito
        entitled = set(state["entitled"]) | set(active)
        state["entitled"] = sorted(entitled)
        events.append(
            {
                "type": "inviti",
                "seats": list(active),
                "invito": invito,
                "capped": capped,
                "piatto": state["piatto"],
                "bestia": bestia,
            }
        )

    def _walkover(self, state: State, winner: int, events: list[Event]) -> None:
        """RULINGS L1: in a tournament the one active seat not in sitout takes the whole piatto once
        the inviti are in (the others pay and take no part); no cards are dealt."""
        piatto = state["piatto"]
        state["chips"][k(winner)] += piatto
        state["piatto"] = 0
        state["players"] = [winner]
        shares = {k(winner): piatto}
        events.append({"type": "spartizione", "shares": dict(shares), "rake": {}, "presente_unico": True})
        state["phase"] = OVER
        state["ended_by"] = "presente_unico"
        state["result"] = self._result(state, shares, {}, {}, [])
        events.append({"type": "fine", "chips": dict(state["chips"]), "piatto": 0})

    def _deal(self, state: State, deck: list[str], events: list[Event]) -> None:
        """Deal the hands from the dealer's right, turn up the briscola, the rest is the stock."""
        state["deck_log"].append(list(deck))
        playing = state["active"]
        each = state["config"]["cards"]
        hands, rest = tricks.deal_round_robin(deck, playing, each)
        briscola = rest.pop(0)
        deal = tricks.new_trick_state(playing, hands, playing[0], briscola[1], rest)
        deal["exposed"] = briscola
        deal["turn"] = None  # nobody plays a card before the declarations end
        state["deal"] = deal
        state["briscola"] = briscola
        state["decisions"] = {k(s): None for s in playing}
        events.append({"type": "mazziere", "seat": state["dealer"]})
        for s in playing:
            events.append({"type": "carte", "seat": s, "cards": list(hands[s]), "to": [s]})
        events.append({"type": "briscola", "card": briscola, "stock": len(rest)})

    # ------------------------------------------------------------------ who acts, what is legal

    def actor(self, state: State) -> int | None:
        """Return the seat that must decide now, or None."""
        phase = state["phase"]
        if phase in (DICHIARAZIONE, BUIO):
            return int(state["pending"][0]) if state["pending"] else None
        if phase == GIOCO:
            turn = state["deal"]["turn"]
            return None if turn is None else int(turn)
        return None

    def to_act(self, state: State) -> list[int]:
        """Return the seat that must decide now (one at a time); empty when the smazzata is over."""
        seat = self.actor(state)
        return [] if seat is None else [seat]

    def change_limit(self, state: State, seat: int) -> int:
        """Return how many cards the seat may change now: its hand, at most the stock."""
        return min(len(state["deal"]["hands"][k(seat)]), len(state["deal"]["stock"]))

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """List the buttons: Passo / Servito / Cambio (one per set of cards), Passo / Al buio, the cards."""
        if self.actor(state) != seat:
            return []
        phase = state["phase"]
        if phase == DICHIARAZIONE:
            hand = state["deal"]["hands"][k(seat)]
            specs: list[dict[str, Any]] = [
                {"type": "passo", "label": "Passo"},
                {"type": "servito", "label": "Servito"},
            ]
            for n in range(1, self.change_limit(state, seat) + 1):
                for cards in combinations(hand, n):
                    specs.append({"type": "cambio", "label": "Cambio", "cards": list(cards)})
            return specs
        if phase == BUIO:
            return [{"type": "passo", "label": "Passo"}, {"type": "buio", "label": "Al buio"}]
        return [
            {"type": "gioca", "card": c, "label": c} for c in tricks.legal_now(RULES, state["deal"], seat)
        ]

    def timeout_action(self, state: State, seat: int) -> dict[str, Any]:
        """Return the timeout decision: the seat goes sitout and the system decides for it."""
        if self.actor(state) != seat:
            raise NotYourTurn()
        return {"type": "sitout"}

    # ------------------------------------------------------------------ apply

    def check(self, state: State, seat: int, action: dict[str, Any]) -> None:
        """Raise the specific IllegalAction if ``apply`` would refuse the action; change nothing."""
        if state["phase"] == OVER:
            raise HandOver()
        if self.actor(state) != seat:
            raise NotYourTurn()
        if not isinstance(action, dict):
            raise UnknownAction()
        kind = action.get("type")
        phase = state["phase"]
        allowed = ACTIONS[phase]
        if not isinstance(kind, str) or kind not in allowed:
            raise UnknownAction(type=str(kind))
        extra = set(action) - {"type", *allowed[str(kind)]}
        if extra:
            raise UnknownAction(extra=sorted(extra))
        if kind == "cambio":
            cards = action.get("cards")
            hand = state["deal"]["hands"][k(seat)]
            if (
                not isinstance(cards, list)
                or not cards
                or any(not isinstance(c, str) or c not in hand for c in cards)
                or len(set(cards)) != len(cards)
            ):
                raise InvalidCards(cards=cards)
            if len(cards) > self.change_limit(state, seat):
                raise StockTooShort(cards=len(cards), stock=len(state["deal"]["stock"]))
        elif kind == "gioca":
            tricks.check_play(RULES, state["deal"], seat, action.get("card"))

    def can_apply(self, state: State, seat: int, action: dict[str, Any]) -> bool:
        """Tell whether ``apply`` would accept this action (never changes ``state``)."""
        try:
            self.check(state, seat, action)
        except IllegalAction:
            return False
        return True

    def apply(self, state: State, seat: int, action: dict[str, Any], rng: Rng) -> list[Event]:
        """Validate fully, then apply one action and the automatic decisions it leads to."""
        self.check(state, seat, action)
        events: list[Event] = []
        kind = action["type"]
        if kind == "sitout":
            state["sitout"][k(seat)] = True
            events.append({"type": "sitout", "seat": seat})
        elif kind == "gioca":
            self._play(state, seat, action["card"], events)
        else:
            self._declare(state, seat, action, events)
        self._run_auto(state, events)
        return events

    def _run_auto(self, state: State, events: list[Event]) -> None:
        """Decide for sitout players until a present one must act or the smazzata ends."""
        while True:
            seat = self.actor(state)
            if seat is None or not state["sitout"][k(seat)]:
                return
            if state["phase"] == GIOCO:
                # "il sistema giocherà automaticamente la prima carta in mano tra quelle ammesse"
                self._play(state, seat, tricks.legal_now(RULES, state["deal"], seat)[0], events, auto=True)
            else:
                # "Se il giocatore va in sit out … prima di aver comunicato la sua decisione … il
                # sistema non lo fa giocare" (also in the buio round).
                self._declare(state, seat, {"type": "passo"}, events, auto=True)

    # ------------------------------------------------------------------ declarations

    def _declare(
        self, state: State, seat: int, action: dict[str, Any], events: list[Event], auto: bool = False
    ) -> None:
        """Apply Passo / Servito / Cambio (first round) or Passo / Al buio (second round)."""
        kind = action["type"]
        deal = state["deal"]
        state["pending"].pop(0)
        auto_mark = {"auto": True} if auto else {}
        if state["phase"] == DICHIARAZIONE:
            state["decisions"][k(seat)] = kind
            if kind == "passo":
                events.append({"type": "passo", "seat": seat, **auto_mark})
            else:
                state["players"].append(seat)
                cards = list(action.get("cards", []))
                if cards:
                    drawn = self._replace(state, seat, cards)
                    state["changed"][k(seat)] = len(cards)
                    events.append({"type": "cambio", "seat": seat, "out": cards, "in": drawn, "to": [seat]})
                    events.append({"type": "cambio", "seat": seat, "count": len(cards)})
                else:
                    events.append({"type": "servito", "seat": seat})
            if not state["pending"]:
                self._open_buio(state)
        else:
            if kind == "buio":
                hand = list(deal["hands"][k(seat)])
                drawn = self._replace(state, seat, hand)
                state["decisions"][k(seat)] = "buio"
                state["players"].append(seat)
                events.append({"type": "buio", "seat": seat, "in": drawn, "to": [seat]})
                events.append({"type": "buio", "seat": seat})
            else:
                events.append({"type": "passo_buio", "seat": seat, **auto_mark})
            self._skip_short_stock(state)
        if state["phase"] == BUIO and not state["pending"]:
            self._end_declarations(state, events)

    def _replace(self, state: State, seat: int, cards: list[str]) -> list[str]:
        """Discard ``cards`` face down and draw as many from the top of the stock."""
        deal = state["deal"]
        hand = deal["hands"][k(seat)]
        for c in cards:
            hand.remove(c)
        state["discards"].extend(cards)
        drawn = deal["stock"][: len(cards)]
        del deal["stock"][: len(cards)]
        hand.extend(drawn)
        return list(drawn)

    def _open_buio(self, state: State) -> None:
        """Start the al buio round: the players who passed, in order, while the stock holds a hand."""
        state["phase"] = BUIO
        state["pending"] = [s for s in state["active"] if state["decisions"][k(s)] == "passo"]
        self._skip_short_stock(state)

    def _skip_short_stock(self, state: State) -> None:
        """Close the buio round once the stock no longer holds a whole hand ("almeno tre carte")."""
        if len(state["deal"]["stock"]) < state["config"]["cards"]:
            state["pending"] = []

    def _end_declarations(self, state: State, events: list[Event]) -> None:
        """Start the play, or void the smazzata when fewer than two play (RULINGS I8)."""
        players = state["players"]
        if len(players) < 2:
            state["phase"] = OVER
            state["ended_by"] = "nulla"
            state["deal"]["turn"] = None
            state["result"] = self._result(state, {}, {}, {}, [])
            events.append({"type": "smazzata_nulla", "players": list(players), "piatto": state["piatto"]})
            return
        deal = state["deal"]
        order = [s for s in state["active"] if s in players]
        for s in state["active"]:
            if s not in players:  # the passers' cards go face down to the discards
                state["discards"].extend(deal["hands"].pop(k(s)))
        deal["order"] = order
        deal["taken"] = {k(s): [] for s in order}
        deal["leader"] = order[0]
        deal["turn"] = order[0]
        state["phase"] = GIOCO
        events.append({"type": "gioco", "players": order, "leader": order[0]})

    # ------------------------------------------------------------------ play and settlement

    def _play(self, state: State, seat: int, card: str, events: list[Event], auto: bool = False) -> None:
        """Play a checked card; settle the smazzata after the last trick."""
        deal = state["deal"]
        events.append({"type": "gioca", "seat": seat, "card": card, **({"auto": True} if auto else {})})
        done = tricks.play(RULES, deal, seat, card)
        if done is None:
            return
        events.append({"type": "presa", "seat": done["winner"], "cards": [c for _, c in done["plays"]]})
        if deal["turn"] is None:
            self._settle(state, events)

    def _settle(self, state: State, events: list[Event]) -> None:
        """Split the piatto by tricks less rake, then take the bestie into the next piatto."""
        cfg = state["config"]
        deal = state["deal"]
        winners = [int(t["winner"]) for t in deal["history"]]
        shares = split_by_tricks(state["piatto"], winners, cfg["cards"])
        rakes = (
            rake_on_shares(shares, deal["order"], cfg["rake_bp"], cfg["rake_cap"]) if cfg["rake_bp"] else {}
        )
        for s, amount in shares.items():
            r = rakes.get(s, 0)
            state["chips"][s] += amount - r
            state["piatto"] -= amount
            state["rake"] += r
        events.append({"type": "spartizione", "shares": shares, "rake": rakes})
        won = tricks.tricks_won(deal)
        first = state["players"][0]
        bestie: list[int] = []
        for s in deal["order"]:
            needed = 2 if cfg["cards"] == 4 and s == first else 1
            if won[k(s)] < needed:
                bestie.append(s)
                state["chips"][k(s)] -= state["bestia"]
                state["piatto"] += state["bestia"]
        if bestie:
            events.append(
                {"type": "bestia", "seats": bestie, "amount": state["bestia"], "piatto": state["piatto"]}
            )
        state["phase"] = OVER
        state["ended_by"] = "fine"
        state["result"] = self._result(state, shares, rakes, won, bestie)
        events.append({"type": "fine", "chips": dict(state["chips"]), "piatto": state["piatto"]})

    @staticmethod
    def _result(
        state: State, shares: dict[str, int], rakes: dict[str, int], won: dict[str, int], bestie: list[int]
    ) -> dict[str, Any]:
        return {
            "tricks": dict(won),
            "shares": dict(shares),
            "rake": dict(rakes),
            "bestie": list(bestie),
            "bestia": state["bestia"] if bestie else 0,
        }

    # ------------------------------------------------------------------ results and carry

    def is_over(self, state: State) -> bool:
        """Tell whether the smazzata has ended."""
        return bool(state["phase"] == OVER)

    def missed(self, state: State) -> dict[str, int]:
        """Consecutive smazzate each seat has ended in sitout, this one included (once over)."""
        return {
            s: (state["missed_in"][s] + 1 if state["sitout"][s] else 0) if state["phase"] == OVER else n
            for s, n in state["missed_in"].items()
        }

    def outcome(self, state: State) -> dict[str, Any]:
        """Return the result: final chips per seat, rake, the piatto carried in and out, stand-ups.

        ``chips`` (every seat dealt in, string keys) + ``rake`` + ``carried_out`` equals the starting
        chips + ``carried_in``; the runtime keeps ``carried_out`` in the table's pot account.
        ``missed``: per seat, the consecutive smazzate ended in sitout; ``stand_up`` (cash tables):
        the seats at 3, to be stood up. ``eliminated`` (tournaments): the seats left without chips,
        out before the next invito ("eliminati … a inizio smazzata, prima di mettere l'invito").
        """
        if state["phase"] != OVER:
            raise IllegalAction("La smazzata non è terminata")
        chips = state["chips"]
        missed = self.missed(state)
        cash = state["config"]["mode"] == "cash"
        return {
            "chips": dict(chips),
            "delta": {s: chips[s] - state["start_chips"][s] for s in chips},
            "rake": state["rake"],
            "carried_in": state["carried_in"],
            "carried_out": state["piatto"],
            "ended_by": state["ended_by"],
            "dealer": state["dealer"],
            "active": list(state["active"]),
            "players": list(state["players"]),
            "invito": state["invito"],
            "bestia": state["bestia"],
            "result": state["result"],
            "sitout": sorted(int(s) for s, v in state["sitout"].items() if v),
            "missed": missed,
            "stand_up": sorted(int(s) for s, n in missed.items() if n >= STAND_UP_AFTER) if cash else [],
            "eliminated": [] if cash else sorted(int(s) for s, c in chips.items() if c == 0),
        }

    def carry(self, state: State) -> dict[str, Any] | None:
        """Return the dealer, the piatto and who may play for it, and the missed-turn counters."""
        piatto = state["piatto"]
        return {
            "dealer": state["dealer"],
            "piatto": piatto,
            "entitled": list(state["entitled"]) if piatto > 0 else [],
            "missed": self.missed(state),
        }

    def money(self, state: State) -> int:
        """Return every cent of the smazzata: credits, piatto and rake (constant after every action)."""
        return int(sum(state["chips"].values()) + state["piatto"] + state["rake"])

    def cards_in_play(self, state: State) -> list[str]:
        """Return every card of the deal (hands, stock, trick, taken, discards, briscola); [] if none."""
        if state["deal"] is None:
            return []
        return [*tricks.cards_in_play(state["deal"]), *state["discards"], state["briscola"]]

    # ------------------------------------------------------------------ views

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Return what this seat (None: a spectator) may see: its own hand, never others' or the stock."""
        deal = state["deal"]
        out: dict[str, Any] = {
            "game": self.name,
            "config": dict(state["config"]),
            "order": list(state["order"]),
            "chips": dict(state["chips"]),
            "sitout": dict(state["sitout"]),
            "dealer": state["dealer"],
            "active": list(state["active"]),
            "phase": state["phase"],
            "to_act": self.to_act(state),
            "invito": state["invito"],
            "invito_capped": state["invito_capped"],
            "piatto_iniziale": state["carried_in"],
            "piatto": state["piatto"],
            "bestia": state["bestia"],
            "decisions": dict(state["decisions"]),
            "changed": dict(state["changed"]),
            "players": list(state["players"]),
            "briscola": state["briscola"],
            "rake": state["rake"],
            "ended_by": state["ended_by"],
            "result": state["result"],
        }
        if deal is not None:
            out.update(
                {
                    "stock_count": len(deal["stock"]),
                    "discard_count": len(state["discards"]),
                    "hand_counts": {s: len(h) for s, h in deal["hands"].items()},
                    "playing_order": list(deal["order"])
                    if state["phase"] == GIOCO or state["ended_by"] == "fine"
                    else [],
                    "leader": deal["leader"],
                    "trick": [list(p) for p in deal["trick"]],
                    # Every card played is face up on the table: all the tricks are public.
                    "tricks": [
                        {"leader": t["leader"], "plays": [list(p) for p in t["plays"]], "winner": t["winner"]}
                        for t in deal["history"]
                    ],
                }
            )
        if seat is not None and k(seat) in state["chips"]:
            hand = deal["hands"].get(k(seat)) if deal is not None else None
            out["hand"] = list(hand) if hand is not None else []
            out["legal_actions"] = self.legal_actions(state, seat)
        return out
