"""Sette e mezzo, variants "piatto" (tournaments and cash) and "classica" (cash): the engine.

One engine hand is one *banco*: the banker against every punta once (RULINGS B1). ``carry``
holds the rotation (who held the banco, who sat, who has already bet); every banco starts from a
freshly shuffled deck, so no deck is carried (the piatto variant keeps its deck from coup to coup
inside the banco, reshuffling after a coup in which the matta came out).

Points are kept in half points (ints, never floats): a figure is 1, a number card twice its face
value, 7½ is 15. The matta (re di denari) takes the best value for its holder among ½, 1 … 7;
alone it counts ½ (RULINGS B1). Over 15 is *sballato*.

Flow, piatto variant: ACCETTO with the piatto (at least the minimum piatto, or all-in) → for each
punta from the banker's right: one covered card to the punta and one to the banker; the punta
chooses the amount (minimum bet … piatto) with STO or TIRO; TIRO gives an up card, over 7½
loses at once; after STO the banker turns his card up and plays TIRO / STO knowing the punta's
up cards; ties go to the banker. A winning punta is paid from the piatto less rake; a losing
punta's stake goes into the piatto less rake (rake = vincita × 2 × %). The banco ends when the
piatto is empty or every punta has played; the banker takes what is left of the piatto.

Flow, classica: ACCETTO with the maximum bet per punta (the banker puts max × punte in the
piatto; all-in: the whole credit, caps split as the rules say); one covered card to every punta
then to the banker; each punta in turn bets (minimum … cap) with STO / TIRO and plays out; then
the banker plays once against all of them; at the end winners are paid less their rake, and the
banker pays rake on his positive balance only. The deck is shuffled only at the start of the
banco.

Sitout (decisions documented here, the rules being terse):
* cash: the banco may be refused freely (RIFIUTO, or a banker in sitout is skipped); a punta in
  sitout when the banco starts gets no cards; a punta who goes sitout (SITOUT or timeout) when
  asked for the bet does not play this banco (his covered card is discarded unseen);
* tournaments: the banco cannot be refused; a banker in sitout, or who times out on the
  acceptance, loses half the minimum piatto (or all his chips), split among all the others
  (RULINGS G1), and the banco passes on; a punta already in sitout at the start of the banco loses
  half the minimum bet into the piatto when its turn comes; a punta who goes sitout when asked for
  the bet is deemed to have bet the obligatory minimum and is played "alla regola";
* after the bet (and for the banker after the acceptance) a seat that goes sitout is played
  automatically: the punta stands from its threshold ("sette_mezzo_soglia_punta"); the banker,
  when the punta stood without drawing, stands from "sette_mezzo_soglia_banco", otherwise as soon
  as he exceeds the punta's seen cards by ½ point. Thresholds are half points, allowed
  6, 8, 9, 10, 12, 13 (3, 4, 4½, 5, 6, 6½), default 9 (RULINGS B1).

Other decisions where the chapter is silent or self-contradictory:
* "NON GIOCO" is never offered: at cash tables the way not to play is to be in sitout before the
  cards come (the cash rules say so for both variants), in tournaments betting is obligatory.
* The classica's "se il banco è in sit out al momento della puntata paga il doppio della puntata
  minima a tutti i giocatori" cannot happen: the classica is cash only, where the banco may be
  refused freely, and after accepting the banker decides only when his turn comes (then he is
  played alla regola like the piatto's banker).
* The newcomer exception of the rotation (skip a seat that has never bet) applies at cash tables
  too: the cash paragraph only restates the main rule in short.
* The matta "esce" when it is dealt in a coup, covered or not; every card of a settled coup is
  shown in its result; a punta who busts shows his cards at once (also in the classica).
* The piatto variant keeps its deck from coup to coup; should it run out, the discards are
  shuffled into a new deck (logged in ``deck_log``). A hand at 7½ may still draw (the rules do
  not forbid it; the matta can make that sensible).
* At most 8 seats (the 40-card deck must serve every punta and the banker in the classica).
"""

from __future__ import annotations

from typing import Any, ClassVar

from games.engine import (
    ConfigError,
    Event,
    HandOver,
    IllegalAction,
    Option,
    State,
    check_table_config,
    spec_matches,
)
from games.registry import register
from games.rng import Rng, shuffled
from games.settemezzo.banco import (
    BANCO_OPTIONS,
    CARD_INDEX,
    MATTA,
    BancoEngine,
    fresh_deck,
    k,
    rake_of,
    threshold,
)

SETTE_E_MEZZO = 15
# "Premove: in alcuni casi il giocatore potrà impostare la sua decisione ancor prima che tocchi a
# lui" (rules 004, Sette e mezzo): a seat waiting for its turn sets STO or TIRO (a punta that has
# not bet yet with the amount too); when its turn comes the decision is played if it is allowed
# then, else dropped and the player decides as usual.
PREMOVE = "premove"
PREMOVE_DECISIONS = ("sto", "tiro")
ALLOWED_THRESHOLDS = frozenset({6, 8, 9, 10, 12, 13})
DEFAULT_THRESHOLD = 9
PREF_PUNTA = "sette_mezzo_soglia_punta"
PREF_BANCO = "sette_mezzo_soglia_banco"
_MATTA_VALUES = (14, 12, 10, 8, 6, 4, 2, 1)  # 7 … 1, ½ in half points, best first


def half_points(card: str) -> int:
    """Return a plain card's value in half points (figures ½, others their face value)."""
    r = card[0]
    return 1 if r in "JQK" else 2 * "A234567".index(r) + 2


def points(cards: list[str]) -> int:
    """Return a hand's total in half points, the matta at its best value (alone: ½, RULINGS B1).

    A total over 15 (7½) is sballato.
    """
    if cards == [MATTA]:
        return 1
    base = sum(half_points(c) for c in cards if c != MATTA)
    if MATTA not in cards:
        return base
    for value in _MATTA_VALUES:
        if base + value <= SETTE_E_MEZZO:
            return base + value
    return base + 1


def busted(cards: list[str]) -> bool:
    """Tell whether a hand is over 7½."""
    return points(cards) > SETTE_E_MEZZO


def punta_wins(punta: list[str], banco: list[str]) -> bool:
    """Tell whether the punta beats the banker: higher total without busting; ties to the banker."""
    if busted(punta):
        return False
    if busted(banco):
        return True
    return points(punta) > points(banco)


def elimination_ranking(eliminated: list[dict[str, Any]]) -> list[list[int]]:
    """Rank players eliminated by the same banker in the same banco, best placed first.

    The rules: "si classifica prima colui il quale, prima di essere eliminato, aveva il numero
    maggiore di chips". Entries are ``{"seat": s, "chips_before": n}`` (``outcome()["eliminated"]``);
    equal chips stay ex aequo in one group (RULINGS K2).
    """
    groups: dict[int, list[int]] = {}
    for e in eliminated:
        groups.setdefault(int(e["chips_before"]), []).append(int(e["seat"]))
    return [sorted(groups[c]) for c in sorted(groups, reverse=True)]


VARIANT = Option(
    "variant", "Variante", "choice", "piatto", (("piatto", "Piatto"), ("classica", "Classica (solo cash)"))
)


@register
class SetteEMezzo(BancoEngine):
    """Sette e mezzo: one banco (the banker against every punta) per engine hand."""

    name = "settemezzo"
    title = "Sette e mezzo"
    max_seats: ClassVar[int] = 8

    def config_options(self) -> tuple[Option, ...]:
        """Return the banking games' table options and the variant (piatto or classica)."""
        return (*BANCO_OPTIONS, VARIANT)

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """Add ``variant`` ("piatto" | "classica"; classica only at cash tables) to the common keys.

        ``min_bank`` is the minimum piatto (piatto) or the minimum of the maximum bet per punta
        (classica, the "banco minimo unitario"); default 10 × min_bet (piatto), min_bet (classica).
        """
        check_table_config(self.config_options(), config)
        cfg = {"variant": "piatto", **config}
        if cfg["variant"] == "classica" and cfg.get("mode") == "tournament":
            raise ConfigError("i tornei di sette e mezzo si giocano solo nella variante piatto")
        if "min_bank" not in cfg:
            factor = 10 if cfg["variant"] == "piatto" else 1
            min_bet = cfg.get("min_bet", 100)
            cfg["min_bank"] = min_bet * factor if type(min_bet) is int else min_bet
        return super().validate_config(cfg)

    # -- premove -------------------------------------------------------------------------------

    def _waiting(self, state: State, seat: int) -> bool:
        """Tell whether the seat still has a decision to come in this banco (not now)."""
        if (
            state["phase"] not in ("bet", "punta", "banker")
            or state["actor"] == seat
            or state["sitout"][k(seat)]
        ):
            return False
        if seat == state["banker"]:
            return True
        hand = state["hands"].get(k(seat))
        return hand is not None and hand["status"] in ("wait", "bet")

    def premove_specs(self, state: State, seat: int) -> list[dict[str, Any]]:
        """List the Premove decisions a waiting seat may set (and clearing the one it set)."""
        if str(seat) not in state["chips"] or not self._waiting(state, seat):
            return []
        specs: list[dict[str, Any]] = []
        for decision in PREMOVE_DECISIONS:
            spec: dict[str, Any] = {
                "type": PREMOVE,
                "label": f"Premove: {decision.upper()}",
                "decision": decision,
            }
            if seat != state["banker"] and state["hands"][k(seat)]["status"] in ("wait", "bet"):
                cap = state["chips"][k(seat)]
                spec["amount"] = {"min": min(state["config"]["min_bet"], cap), "max": cap}  # the bet too
            specs.append(spec)
        if k(seat) in state.get("premoves", {}):
            specs.append({"type": PREMOVE, "label": "Annulla premove", "decision": None})
        return specs

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """List what this seat may do now: its decision, or while it waits a Premove."""
        if state["phase"] != "over" and state["actor"] != seat:
            return self.premove_specs(state, seat)
        return super().legal_actions(state, seat)

    def apply(self, state: State, seat: int, action: dict[str, Any], rng: Rng) -> list[Event]:
        """Apply a decision (then the Premoves of the seats whose turn comes) or set a Premove."""
        if isinstance(action, dict) and action.get("type") == PREMOVE:
            if state["phase"] == "over":
                raise HandOver()
            if not any(spec_matches(spec, action) for spec in self.premove_specs(state, seat)):
                raise IllegalAction("Premove non ammesso ora")
            premoves = state.setdefault("premoves", {})
            if action["decision"] is None:
                premoves.pop(k(seat), None)
            else:
                premoves[k(seat)] = {key: v for key, v in action.items() if key != "type"}
            return [{"type": PREMOVE, "seat": seat, "decision": action["decision"], "to": [seat]}]
        events = super().apply(state, seat, action, rng)
        self._play_premoves(state, events, rng)
        return events

    def _play_premoves(self, state: State, events: list[Event], rng: Rng) -> None:
        """Play the Premove of each seat whose turn has come, while it is allowed then."""
        premoves = state.get("premoves")
        while premoves and state["phase"] != "over" and state["actor"] is not None:
            seat = state["actor"]
            chosen = premoves.pop(k(seat), None)
            if chosen is None:
                return
            decision = {
                "type": chosen["decision"],
                **({"amount": chosen["amount"]} if "amount" in chosen else {}),
            }
            specs = super().legal_actions(state, seat)
            if "amount" in decision and state["phase"] != "bet":
                del decision["amount"]  # no bet to place at this turn: the amount does not apply
            if not any(spec_matches(spec, decision) for spec in specs):
                events.append({"type": "premove_annullato", "seat": seat, "to": [seat]})
                continue
            events.append({"type": PREMOVE, "seat": seat, "decision": decision["type"], "played": True})
            self.play_apply(state, seat, decision, events, rng)
            self.run_auto(state, events, rng)

    def extra_prefs(self, prefs: dict[str, Any]) -> dict[str, Any]:
        """Keep the two automatic-play thresholds, in half points."""
        return {
            "punta": threshold(prefs, PREF_PUNTA, ALLOWED_THRESHOLDS, DEFAULT_THRESHOLD),
            "banco": threshold(prefs, PREF_BANCO, ALLOWED_THRESHOLDS, DEFAULT_THRESHOLD),
        }

    def classic_cover(self, state: State) -> bool:
        """Classica: ACCETTO sets the maximum bet; piatto: it sets the piatto."""
        return bool(state["config"]["variant"] == "classica")

    def banker_penalty(self, state: State) -> int:
        """A tournament banker in sitout loses half the minimum piatto."""
        return int(state["config"]["min_bank"]) // 2

    # -- cards ---------------------------------------------------------------------------------

    @staticmethod
    def _can_draw(state: State) -> bool:
        return bool(state["deck"] or state["discards"])

    def _draw(self, state: State, rng: Rng, events: list[Event]) -> str:
        """Take the top card; an empty deck is refilled by shuffling the discards (documented here)."""
        if not state["deck"]:
            state["deck"] = shuffled(sorted(state["discards"], key=CARD_INDEX.__getitem__), rng)
            state["discards"] = []
            state["deck_log"].append(list(state["deck"]))
            events.append({"type": "shuffle", "cards": len(state["deck"])})
        card: str = state["deck"].pop(0)
        if card == MATTA:
            state["matta_out"] = True
        return card

    def _deal_down(self, state: State, seat: int, rng: Rng, events: list[Event]) -> None:
        card = self._draw(state, rng, events)
        if seat == state["banker"]:
            state["bank"]["down"].append(card)
        else:
            state["hands"][k(seat)]["down"].append(card)
        events.append({"type": "deal", "seat": seat, "covered": True})
        events.append({"type": "deal", "seat": seat, "card": card, "to": [seat]})

    def _deal_up(self, state: State, seat: int, rng: Rng, events: list[Event]) -> None:
        card = self._draw(state, rng, events)
        if seat == state["banker"]:
            state["bank"]["up"].append(card)
        else:
            state["hands"][k(seat)]["up"].append(card)
        events.append({"type": "deal", "seat": seat, "card": card})

    # -- start ---------------------------------------------------------------------------------

    def start_banco(self, state: State, events: list[Event], rng: Rng) -> None:
        """Shuffle (every banco starts with a shuffle) and deal the first coup or the classica round."""
        state["deck"] = fresh_deck(rng)
        state["deck_log"].append(list(state["deck"]))
        state["discards"] = []
        state["matta_out"] = False
        state["hands"] = {
            k(p): {"down": [], "up": [], "status": "wait", "shown": False} for p in state["punte"]
        }
        state["bank"] = {"down": [], "up": [], "shown": False}
        state["turn"] = 0
        events.append({"type": "shuffle", "cards": 40})
        if state["config"]["variant"] == "piatto":
            self._next_coup(state, events, rng)
            return
        for p in state["punte"]:
            if state["caps"][k(p)] > 0:
                self._deal_down(state, p, rng, events)
            else:
                state["hands"][k(p)]["status"] = "out"  # all-in banker: not covered (see punta_caps)
        self._deal_down(state, state["banker"], rng, events)
        self._next_classica(state, events, rng)

    # -- piatto variant ------------------------------------------------------------------------

    def _next_coup(self, state: State, events: list[Event], rng: Rng) -> None:
        """Start the coup of the next punta, or end the banco."""
        tournament = state["config"]["mode"] == "tournament"
        while state["turn"] < len(state["punte"]) and state["piatto"] > 0:
            p = state["punte"][state["turn"]]
            if state["chips"][k(p)] == 0:  # lost everything as a penalised banker earlier in this hand
                state["hands"][k(p)]["status"] = "out"
                state["turn"] += 1
                continue
            if state["sitout"][k(p)]:
                # In sitout when its turn to bet comes: tournaments take half the minimum bet;
                # at cash tables the punta simply gets no cards.
                if tournament:
                    self.penalise_punta(state, p, events)
                state["hands"][k(p)]["status"] = "penalty" if tournament else "out"
                state["turn"] += 1
                continue
            state["bank"] = {"down": [], "up": [], "shown": False}
            self._deal_down(state, p, rng, events)
            self._deal_down(state, state["banker"], rng, events)
            state["hands"][k(p)]["status"] = "bet"
            state["phase"] = "bet"
            state["actor"] = p
            return
        state["chips"][k(state["banker"])] += state["piatto"]
        events.append({"type": "piatto_al_banco", "seat": state["banker"], "amount": state["piatto"]})
        state["piatto"] = 0
        self._collect_all(state)
        self._finish(state, events)

    def _collect_all(self, state: State) -> None:
        """Put every card still in a hand on the discards (end of the banco)."""
        for h in state["hands"].values():
            state["discards"] += h["down"] + h["up"]
            h["down"], h["up"] = [], []
        state["discards"] += state["bank"]["down"] + state["bank"]["up"]
        state["bank"]["down"], state["bank"]["up"] = [], []

    def _settle_coup(self, state: State, p: int, events: list[Event], rng: Rng) -> None:
        """Pay one coup of the piatto variant, discard its cards, reshuffle if the matta came out."""
        h = state["hands"][k(p)]
        bank = state["bank"]
        punta_cards, bank_cards = h["down"] + h["up"], bank["down"] + bank["up"]
        bet = state["bets"].pop(k(p))
        bp = state["config"]["rake_bp"]
        won = punta_wins(punta_cards, bank_cards)
        rk = rake_of(bet, bp)  # piatto variant: whoever wins the coup pays vincita × 2 × %
        if won:
            state["piatto"] -= bet
            state["chips"][k(p)] += 2 * bet - rk
        else:
            state["piatto"] += bet - rk
        state["rake"] += rk
        h["status"] = "won" if won else "lost"
        result = {
            "punta": p,
            "bet": bet,
            "punta_cards": punta_cards,
            "banco_cards": bank_cards,  # every card of a settled coup is shown
            "punta_points": points(punta_cards),
            "banco_points": points(bank_cards),
            "winner": "punta" if won else "banco",
            "rake": rk,
        }
        state["results"].append(result)
        events.append({"type": "result", **result})
        self._end_coup(state, p, events, rng)

    def _end_coup(self, state: State, p: int, events: list[Event], rng: Rng) -> None:
        """Discard the coup's cards, reshuffle if the matta came out, go on to the next punta."""
        h, bank = state["hands"][k(p)], state["bank"]
        state["discards"] += h["down"] + h["up"] + bank["down"] + bank["up"]
        h["down"], h["up"] = [], []
        bank["down"], bank["up"], bank["shown"] = [], [], False
        state["turn"] += 1
        more = state["turn"] < len(state["punte"]) and state["piatto"] > 0
        if state["matta_out"] and more:
            # The matta came out in this coup: the cards are shuffled at the end of it.
            state["deck"] = fresh_deck(rng)
            state["deck_log"].append(list(state["deck"]))
            state["discards"] = []
            events.append({"type": "shuffle", "cards": 40})
        state["matta_out"] = False
        self._next_coup(state, events, rng)

    def _skip_punta(self, state: State, p: int, events: list[Event], rng: Rng) -> None:
        """A cash punta who goes sitout when asked for the bet does not play: cards discarded unseen."""
        h = state["hands"][k(p)]
        state["discards"] += h["down"]
        h["down"] = []
        h["status"] = "out"
        state["results"].append({"punta": p, "bet": 0, "winner": None})
        events.append({"type": "non_gioca", "seat": p})
        if state["config"]["variant"] == "piatto":
            self._end_coup(state, p, events, rng)
        else:
            state["turn"] += 1
            self._next_classica(state, events, rng)

    # -- classica ------------------------------------------------------------------------------

    def _next_classica(self, state: State, events: list[Event], rng: Rng) -> None:
        """Ask the next punta for its bet, or let the banker play, or settle."""
        while state["turn"] < len(state["punte"]):
            p = state["punte"][state["turn"]]
            if state["hands"][k(p)]["status"] == "wait" and state["sitout"][k(p)]:
                self._skip_punta(state, p, events, rng)  # went sitout during this banco (cash only)
                return
            if state["hands"][k(p)]["status"] == "wait":
                state["hands"][k(p)]["status"] = "bet"
                state["phase"] = "bet"
                state["actor"] = p
                return
            state["turn"] += 1
        if any(h["status"] == "sto" for h in state["hands"].values()):
            self._banker_turn(state, events)
            return
        self._settle_classica(state, events)

    def _settle_classica(self, state: State, events: list[Event]) -> None:
        """Pay every punta, then the banker takes the piatto less rake on a positive balance."""
        bank_cards = state["bank"]["down"] + state["bank"]["up"]
        for p in state["punte"]:
            if k(p) not in state["bets"]:
                continue
            h = state["hands"][k(p)]
            cards = h["down"] + h["up"]
            won = punta_wins(cards, bank_cards)
            extra = {"punta_cards": cards, "punta_points": points(cards), "banco_points": points(bank_cards)}
            self.pay_punta(state, p, won, events, extra)
            h["status"] = "won" if won else "lost"
        saldo, rk = self.close_cover(state, events)
        events.append({"type": "banco_cards", "cards": bank_cards})
        state["bank_result"] = {"cards": bank_cards, "points": points(bank_cards), "saldo": saldo, "rake": rk}
        self._collect_all(state)
        self._finish(state, events)

    # -- the banker ----------------------------------------------------------------------------

    def _banker_turn(self, state: State, events: list[Event]) -> None:
        """The banker turns his covered card up and decides."""
        state["bank"]["shown"] = True
        events.append({"type": "reveal", "seat": state["banker"], "cards": list(state["bank"]["down"])})
        state["phase"] = "banker"
        state["actor"] = state["banker"]

    def _banker_done(self, state: State, events: list[Event], rng: Rng) -> None:
        if state["config"]["variant"] == "piatto":
            self._settle_coup(state, state["punte"][state["turn"]], events, rng)
        else:
            self._settle_classica(state, events)

    # -- actions -------------------------------------------------------------------------------

    def _bet_range(self, state: State, p: int) -> tuple[int, int]:
        cap = state["piatto"] if state["config"]["variant"] == "piatto" else state["caps"][k(p)]
        return self.bet_range(state, p, int(cap))

    def play_specs(self, state: State, seat: int) -> list[dict[str, Any]]:
        """STO / TIRO (with the amount when betting), SITOUT."""
        phase = state["phase"]
        specs: list[dict[str, Any]] = []
        if phase == "bet":
            lo, hi = self._bet_range(state, seat)
            amount = {"min": lo, "max": hi}
            specs.append({"type": "sto", "label": "STO", "amount": amount})
            if self._can_draw(state):
                specs.append({"type": "tiro", "label": "TIRO", "amount": dict(amount)})
        else:
            specs.append({"type": "sto", "label": "STO"})
            if self._can_draw(state):
                specs.append({"type": "tiro", "label": "TIRO"})
        specs.append({"type": "sitout", "label": "SITOUT"})
        return specs

    def play_apply(
        self, state: State, seat: int, action: dict[str, Any], events: list[Event], rng: Rng
    ) -> None:
        """Apply a bet, STO, TIRO or SITOUT."""
        kind = action["type"]
        phase = state["phase"]
        if kind == "sitout":
            state["sitout"][k(seat)] = True
            events.append({"type": "sitout", "seat": seat})
            if phase == "bet":
                if state["config"]["mode"] == "cash":
                    self._skip_punta(state, seat, events, rng)
                    return
                # Tournament: the minimum bet is obligatory, then the system plays alla regola.
                lo, _ = self._bet_range(state, seat)
                self._place_bet(state, seat, lo, events)
            return  # run_auto plays the seat from now on
        if phase == "bet":
            self._place_bet(state, seat, action["amount"], events)
        if phase == "banker":
            self._banker_move(state, kind, events, rng)
        else:
            self._punta_move(state, seat, kind, events, rng)

    def _place_bet(self, state: State, p: int, amount: int, events: list[Event]) -> None:
        state["chips"][k(p)] -= amount
        state["bets"][k(p)] = amount
        state["hands"][k(p)]["status"] = "play"
        state["phase"] = "punta"
        self.mark_played(state, p)
        events.append({"type": "puntata", "seat": p, "amount": amount})

    def _punta_move(self, state: State, p: int, kind: str, events: list[Event], rng: Rng) -> None:
        h = state["hands"][k(p)]
        events.append({"type": kind, "seat": p})
        if kind == "sto":
            h["status"] = "sto"
            self._after_punta(state, p, events, rng)
            return
        self._deal_up(state, p, rng, events)
        if busted(h["down"] + h["up"]):
            h["status"] = "bust"
            h["shown"] = True  # a punta who busts shows his cards
            events.append({"type": "sballa", "seat": p, "cards": h["down"] + h["up"]})
            self._after_punta(state, p, events, rng)

    def _after_punta(self, state: State, p: int, events: list[Event], rng: Rng) -> None:
        h = state["hands"][k(p)]
        if state["config"]["variant"] == "piatto":
            if h["status"] == "bust":
                self._settle_coup(state, p, events, rng)  # the banker need not play
            else:
                self._banker_turn(state, events)
            return
        state["turn"] += 1
        self._next_classica(state, events, rng)

    def _banker_move(self, state: State, kind: str, events: list[Event], rng: Rng) -> None:
        events.append({"type": kind, "seat": state["banker"]})
        if kind == "tiro":
            self._deal_up(state, state["banker"], rng, events)
            if not busted(state["bank"]["down"] + state["bank"]["up"]):
                return
            events.append({"type": "sballa", "seat": state["banker"]})
        self._banker_done(state, events, rng)

    # -- automatic play ------------------------------------------------------------------------

    def banker_stands(self, state: State) -> bool:
        """Tell whether the automatic banker stands now (RULINGS B1 thresholds).

        Against a punta that stood without drawing: from the banker's threshold. Against one that
        drew: once he exceeds the punta's seen (up) cards by ½ point. Classica (several punte,
        the rules only describe one): he must satisfy every live punta, the target being the
        highest of those values.
        """
        total = points(state["bank"]["down"] + state["bank"]["up"])
        if total > SETTE_E_MEZZO:
            return True
        live = [
            h for h in state["hands"].values() if h["status"] in ("sto", "play") and (h["down"] or h["up"])
        ]
        target = 0
        for h in live:
            if h["up"]:
                target = max(target, points(h["up"]) + 1)
            else:
                target = max(target, state["prefs"][k(state["banker"])]["banco"])
        return total >= min(target, SETTE_E_MEZZO)

    def auto_step(self, state: State, events: list[Event], rng: Rng) -> bool:
        """Play one decision of a sitout punta or banker alla regola."""
        seat = state["actor"]
        if seat is None or not state["sitout"][k(seat)] or state["phase"] not in ("punta", "banker"):
            return False
        if state["phase"] == "punta":
            h = state["hands"][k(seat)]
            stand = points(h["down"] + h["up"]) >= state["prefs"][k(seat)]["punta"] or not self._can_draw(
                state
            )
            self._punta_move(state, seat, "sto" if stand else "tiro", events, rng)
        else:
            stand = self.banker_stands(state) or not self._can_draw(state)
            self._banker_move(state, "sto" if stand else "tiro", events, rng)
        return True

    # -- view ----------------------------------------------------------------------------------

    def game_view(self, state: State, seat: int | None, out: dict[str, Any]) -> None:
        """Hands: up cards for all, covered cards only to their owner (the banker's once shown)."""
        hands: dict[str, Any] = {}
        for key, h in state.get("hands", {}).items():
            mine = (seat is not None and key == k(seat)) or h["shown"]
            hands[key] = {
                "down": list(h["down"]) if mine else ["??"] * len(h["down"]),
                "up": list(h["up"]),
                "status": h["status"],
            }
            if mine and (h["down"] or h["up"]):
                hands[key]["points"] = points(h["down"] + h["up"])
        out["hands"] = hands
        premove = state.get("premoves", {}).get(k(seat)) if seat is not None else None
        if premove is not None:
            out["premove"] = dict(premove)  # only its own: a Premove is never shown to the others
        bank = state.get("bank")
        if bank is not None:
            sees = bank["shown"] or seat == state["banker"]
            out["bank"] = {
                "down": list(bank["down"]) if sees else ["??"] * len(bank["down"]),
                "up": list(bank["up"]),
                "shown": bank["shown"],
            }
            if sees and (bank["down"] or bank["up"]):
                out["bank"]["points"] = points(bank["down"] + bank["up"])
        out["variant"] = state["config"]["variant"]
        out["turn"] = state.get("turn", 0)
        if "bank_result" in state:
            out["bank_result"] = state["bank_result"]
