"""Poker 5 carte all'italiana: the engine (rules 000, 002, 003 and 004; RULINGS G*, P1–P15).

Phases, in the order of the rules: ``variante`` (giro pazzo only, the dealer's choice), ``invito``,
``buio`` (apertura al buio: BUIO, CONTROBUIO, OVER or DAI CARTE), ``apertura`` (the opening round),
``cambio``, ``puntata`` (the last betting round), ``mostra`` (showdown choices) and ``parol``
(adeguamento parol); then ``fine``. Decisions that need nobody (a pref, a sitout seat) are taken
by the engine itself as the automatic decision of the rules, so ``to_act`` only names the seats the
table must really wait for.

Seats are table seat numbers; seat numbers grow clockwise, so "the dealer's left" is the next
higher seat number, wrapping around (RULINGS G2).

Actions (``type``, with the label the table shows): ``invito`` INVITO / ``sitout`` SITOUT;
``buio`` BUIO / CONTROBUIO / OVER and ``dai_carte`` DAI CARTE; ``punto`` PUNTO (opening or bet),
``busso`` BUSSO, ``parol`` PAROL, ``vedo`` VEDO, ``rilancio`` RILANCIO, ``va_bene`` VA BENE,
``passo`` PASSO (with ``confirm`` when nothing is bet); ``cambio`` with ``cards`` (0–4 of the
hand; the table's CONFERMA); ``mostro`` MOSTRO / ``nascondo`` NASCONDO; ``partecipo`` PARTECIPO /
``passo`` PASSO; ``variante`` (giro pazzo). Chip-moving actions carry ``amount`` = the chips put
in now; a fixed amount is a spec with min = max. RESTO (rules NB.1) is the label of a spec whose
only amount is the whole credit; for a range reaching the credit the table shows RESTO when the
chosen amount equals it. Any action may carry ``"timeout": True`` (what ``timeout_action`` gives,
sent by the runtime's clock): in a betting phase the seat then goes sitout (P14).

Other public helpers: ``use_time_bank(state, seat, seconds)`` (G5: the bank never regenerates and
travels in ``carry``) and ``register_giro_pazzo_variant`` (P13, for Telesina). What Poker 5 carte
shares with Telesina (table options, invito, betting buttons, turn checks, showdown, settlement,
timeout) is ``games.poker_common``, whose ``PokerTable`` this engine subclasses; this module keeps
only poker's own rules (buio, opening, cambio, parol, giro pazzo).

``outcome``: ``chips`` per seat after the hand, ``rake``, ``pots`` (amount, eligible, winners,
shares, rake), ``carried_in`` / ``carried_out`` (a pot not won: nobody opened, piatto di parol),
``sitout`` and ``stand_up`` (P15) seats, ``handoff`` when a giro pazzo variant takes the deal.
Conservation: Σ chips before + carried_in == Σ chips after + rake + carried_out.

Decisions taken here where the rules and the rulings are silent (each also commented in place):

* Amounts are the chips a seat puts in with the action. Pot limit: at most pot + bets of the round
  + the call, the rules' 160 (``games.betting``).
* Fixed limit in a parol hand: the bet is the minimum, i.e. the pot (P10 beats "fixed = invito").
* A seat left alone because every other seat folded wins every pot at once, also before anyone
  opened.
* Cash: an all-in-on-invito seat is asked to open and opens for 0 ("RESTO" with amount 0); when
  nobody opens the cards are collected as usual. A seat with chips facing only all-in seats may
  also open for 0 (there is nobody to bet against). Tournament: all-in-on-invito seats are not asked
  and, if nobody with chips opens, the hand goes on to the cambio (rules, "Apertura").
* The blind raises go round the table once: with two players there is no over.
* After a blind, the last blind raiser speaks last in the final round even if someone else raised
  after the deal (P7 read literally).
* Showdown (P11): a seat shows automatically when it beats the best hand shown so far in some pot
  it may win (or nothing is shown yet there), so every pot has a shown winner. Giro pazzo (P13)
  starts only from a contested showdown, not from an uncontested winner who shows.
* Adeguamento parol happens at the end of the parol hand (its last phase in the rules): the seats
  of the hand that are not among the parol players pay the difference (PARTECIPO) or not (PASSO);
  the carry lists who may play the parol pot. If fewer than two of them sit at the next hand, the
  one present takes the pot uncontested (none present: the pot waits).
* Tournament (``mode`` "tournament"): the invito is taken from every seat with chips, sitout seats
  included, and they fold (P14, RULINGS L1); when at most one seat is left not in sitout it takes the
  whole pot at once, nothing dealt or shown (a seat all-in on the invito too; no invito is handed
  back); with nobody left the pot, inviti included, waits for the next hand. The hand after a piatto
  di parol takes the invito from every seat as usual, on top of the piatto (P10); only the parol
  players and those who paid the adeguamento play on, the others' inviti stay in the pot. With
  none of the parol players at the table the hand is an ordinary one, the piatto its dead money.
* The cambio reshuffle uses every card discarded so far, the drawer's own included, so the new
  stock is always large enough (P8).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import lru_cache
from itertools import combinations
from typing import Any, ClassVar

from games import betting, evaluator
from games import poker_common as pc
from games.cards import poker_deck, poker_lowest_rank
from games.engine import (
    CASH,
    TOURNAMENT,
    Action,
    Event,
    IllegalAction,
    InvalidCards,
    NotYourTurn,
    Option,
    SeatSpec,
    State,
    draw_amount,
)
from games.poker_common import use_time_bank
from games.registry import register
from games.rng import Rng, shuffled

MIN_PAIRS = ("J", "Q", "K")
_PAROL: pc.Button = ("parol", "PAROL", None, None, None)
_VA_BENE: pc.Button = ("va_bene", "VA BENE", None, None, None)
_DAI_CARTE: pc.Button = ("dai_carte", "DAI CARTE", None, None, None)
BETTING_PHASES = ("apertura", "puntata")

# Giro pazzo variants the dealer may choose (P13): name -> function(config, dealer's prefs) giving
# the dealer's choice specs ``{"type": "variante", "variant": name, ...parameters, "label": ...}``.
# Telesina plugs in with ``register_giro_pazzo_variant("telesina", choices)`` (one spec per vele ×
# distribuzione pair the table allows, or only the dealer's "usa sempre" preference). Choosing a
# variant other than Classica ends this state with a ``handoff`` (see ``Poker5._handoff``). When
# there is a single choice in all, it is taken automatically; today only Classica exists.
VariantChoices = Callable[[dict[str, Any], dict[str, Any]], list[dict[str, Any]]]


def _classica(config: dict[str, Any], prefs: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"type": "variante", "variant": "classica", "label": "CLASSICA"}]


GIRO_PAZZO_VARIANTS: dict[str, VariantChoices] = {"classica": _classica}


def register_giro_pazzo_variant(name: str, choices: VariantChoices) -> None:
    """Offer another variant to the dealer in giro pazzo (Telesina, when its engine exists)."""
    GIRO_PAZZO_VARIANTS[name] = choices


# The order of the validated options in the state (kept as it was, so stored states and their JSON
# stay byte for byte the same): the shared table options of ``games.poker_common`` plus giro_pazzo.
_CONFIG_ORDER = (
    "limit",
    "invito",
    "mode",
    "rake_percent",
    "rake_cap",
    "giro_pazzo",
    "decision_seconds",
    "time_bank",
    "min_credit",
)


GIRO_PAZZO = Option("giro_pazzo", "Giro pazzo", "bool", False, help="RULINGS P13")


def _validate_config(config: dict[str, Any]) -> dict[str, Any]:
    out = pc.validate_table(config, (GIRO_PAZZO,))
    return {key: out[key] for key in _CONFIG_ORDER}


@lru_cache(maxsize=64)
def _validated_config(key: tuple[tuple[tuple[str, Any], ...], tuple[type, ...]]) -> dict[str, Any]:
    """``_validate_config`` of the options in ``key`` ((name, value) pairs, the values' types), memoised.

    Callers copy what it returns.
    """
    return _validate_config(dict(key[0]))


class Poker5Error(IllegalAction):
    code = "poker5_illegal"
    default_message = "Giocata non ammessa"


@register
class Poker5(pc.PokerTable):
    """Poker 5 carte all'italiana, one hand per state; ``carry`` links the hands of a table."""

    name: ClassVar[str] = "poker5"
    title: ClassVar[str] = "Poker 5 carte all'italiana"
    table_settings: ClassVar[dict[str, str]] = pc.TABLE_SETTINGS

    # ------------------------------------------------------------------ configuration

    def config_options(self) -> tuple[Option, ...]:
        """Return the table options: the poker family's and the giro pazzo."""
        return (*pc.TABLE_OPTIONS, GIRO_PAZZO)

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """Return the table configuration with defaults filled in; raise ConfigError if invalid."""
        try:
            # every hand of a table validates the same options: remembered by name, type and value
            # (the type too, as True == 1 and 20 == 20.0 must still be told apart)
            key = (tuple(config.items()), tuple(map(type, config.values())))  # built in C
            return dict(_validated_config(key))
        except (AttributeError, TypeError):  # not a dict, or an unhashable value
            return _validate_config(config)

    # ------------------------------------------------------------------ new hand

    def new(
        self, config: dict[str, Any], seats: list[SeatSpec], rng: Rng, carry: dict[str, Any] | None = None
    ) -> State:
        """Start a hand for the seats at the table, from the previous hand's carry."""
        cfg = self.validate_config(config)
        specs = pc.check_seats(seats, "Il poker 5 carte")
        carry = carry or {}
        state = pc.table_state(cfg, specs, carry, rng, _prefs)
        all_seats, dealer, order = state["seats"], state["dealer"], state["order"]
        gp_left = int(carry.get("giro_pazzo", 0))
        pot = int(carry.get("pot", 0))
        # the hand's keys stored one by one, in the state's key order (its JSON unchanged): no
        # temporary dict of 31 keys merged in with |= (every new hand)
        state["min_pair"] = carry.get("min_pair", "J")
        state["carried_in"] = pot
        state["parol_hand"] = False
        state["giro_pazzo"] = gp_left > 0
        state["gp_left"] = gp_left
        state["gp_trigger"] = False
        state["variant"] = "classica"
        state["phase"] = "invito"
        state["turn"] = None
        state["pending"] = []
        state["players"] = []
        state["hands"] = {}
        state["stock"] = []
        state["discards"] = []
        state["changed"] = {}
        state["deck_log"] = []
        state["opened"] = None
        state["blind"] = None
        state["first"] = None
        state["parol"] = []
        state["parol_broken"] = False
        state["allin_raisers"] = []
        state["shown"] = {}
        state["hidden"] = []
        state["show_queue"] = []
        state["result"] = None
        state["carry_out"] = None
        state["b"] = betting.new_betting(order, {s: specs[s]["chips"] for s in all_seats}, pot)
        state["_rng"] = rng
        b = state["b"]
        parol = carry.get("parol")
        events: list[Event] = [{"type": "mano", "dealer": dealer, "seats": all_seats}]
        able = [s for s in order if not state["sitout"][pc.k(s)] and b["stack"][pc.k(s)] > 0]
        if parol and cfg["mode"] == TOURNAMENT and not any(s in parol["seats"] for s in able):
            # every parol player is gone or in sitout: nobody could ever play the piatto di parol,
            # and every hand would take the inviti into it. It is played as an ordinary hand by the
            # seats present (none: the first to speak takes it, ``pc.invito_winner``).
            parol = None
        if parol and cfg["mode"] == TOURNAMENT and any(s in parol["seats"] for s in order):
            # RULINGS P10 in a tournament: the invito is taken as usual, from every seat (L1, sitout
            # seats fold), on top of the piatto di parol; then only the parol players and those who
            # paid the adeguamento play on: the others' inviti stay in the pot.
            state["parol_hand"] = True
            state["min_pair"] = "K"
            state["events"] = events
            pc.start_invito(state, events)
            for s in order:
                if s not in parol["seats"] and s not in b["folded"]:
                    b["folded"].append(s)
                    events.append({"type": "passo", "seat": s, "auto": True})
            joined = betting.in_hand(b)
            state["players"] = joined
            if not joined:
                # every parol player is in sitout: the pot, inviti included, keeps waiting for them
                self._end(state, events, carry_pot=True, keep_parol=parol)
                return self._finish_new(state)
            self._after_invito(state, events)  # one left: L1, he takes the pot at once
            return self._finish_new(state)
        if parol and cfg["mode"] == CASH:
            # RULINGS P10: no invito; only the parol players and those who paid the adeguamento.
            state["parol_hand"] = True
            state["min_pair"] = "K"
            joined = [s for s in order if s in parol["seats"]]
            for s in order:
                if s not in joined:
                    b["folded"].append(s)
            state["players"] = joined
            state["events"] = events
            if len(joined) < 2:
                if joined:
                    self._win_uncontested(state, events)
                else:
                    self._end(state, events, carry_pot=True, keep_parol=parol)
                return self._finish_new(state)
            self._after_invito(state, events)
            return self._finish_new(state)
        state["events"] = events
        # RULINGS L1: a tournament hand that ends on the invito deals nothing: no variant panel
        walkover = cfg["mode"] == TOURNAMENT and pc.walkover(state)
        if state["giro_pazzo"] and not walkover and len(self._variant_specs(state, dealer)) > 1:
            state["phase"] = "variante"
            state["turn"] = dealer
        else:
            if state["giro_pazzo"]:
                events.append({"type": "variante", "seat": dealer, "variant": "classica", "auto": True})
            self._start_invito(state, events)
        return self._finish_new(state)

    def _finish_new(self, state: State) -> State:
        self._auto(state, state["events"])
        state.pop("events", None)
        state.pop("_rng", None)
        return state

    def _start_invito(self, state: State, events: list[Event]) -> None:
        state["phase"] = "invito"
        state["pending"] = pc.start_invito(state, events)  # P14/P15
        if not state["pending"]:
            self._after_invito(state, events)

    def _after_invito(self, state: State, events: list[Event]) -> None:
        b = state["b"]
        players = betting.in_hand(b)
        if not state["parol_hand"]:
            state["players"] = players
        if len(players) < 2:
            winner = pc.invito_winner(state) if state["cfg"]["mode"] == TOURNAMENT else None
            if winner is not None:
                self._win_on_invito(state, events, winner)  # RULINGS L1 (none playing: ``invito_winner``)
                return
            if state["cfg"]["mode"] == CASH:
                # Cash: not enough players, the inviti of this hand go back.
                pc.refund_inviti(b)
                events.append({"type": "annullata"})
            # A carried pot keeps waiting (in a tournament with this hand's inviti: never given back).
            self._end(state, events, carry_pot=True, keep_min=True)
            return
        if state["min_pair"] == "J" and not state["parol_hand"]:
            first = players[0]
            if b["stack"][str(first)] >= betting.pot_total(b):
                state["phase"] = "buio"
                state["turn"] = first
                state["blind"] = {"posts": [], "raiser": None, "stage": "offer"}
                return
        self._deal(state, events)

    # ------------------------------------------------------------------ deal and betting flow

    def _deal(self, state: State, events: list[Event]) -> None:
        players = state["players"]
        n = len(players)
        deck = shuffled(_poker_deck(n), pc.rng_of(state))
        state["deck_log"].append(list(deck))
        # five rounds of one card each, clockwise: the j-th player gets deck[j], deck[j + n], ...
        hands: dict[str, list[str]] = {}
        for j, s in enumerate(players):
            cards = deck[j : 5 * n : n]
            hands[betting.SEAT_KEY[s]] = cards
            events.append({"type": "carte", "seat": s, "cards": list(cards), "to": [s]})
        state["hands"] = hands
        state["stock"] = deck[5 * n :]
        state["low"] = poker_lowest_rank(len(players))
        events.append({"type": "distribuzione", "seats": list(players)})
        state["phase"] = "apertura"
        b = state["b"]
        b["acted"] = []
        blind = state["blind"]
        if blind and blind["raiser"] is not None:
            blind["stage"] = "see"
            b["closed"] = True  # P7: after the deal the others may only see or pass
            start = pc.next_after(b["order"], blind["raiser"])
            state["turn"] = pc.next_to_bet(state["b"], start, inclusive=True)
        else:
            state["blind"] = None
            state["turn"] = self._next_opening(state, players[0], inclusive=True)
        if state["turn"] is None:
            self._end_opening(state, events)

    def _next_opening(self, state: State, start: int, inclusive: bool = False) -> int | None:
        """The next seat that may still open: in the hand, not yet spoken, with chips (or cash)."""
        b = state["b"]
        folded, acted, stack = b["folded"], b["acted"], b["stack"]
        cash = state["cfg"]["mode"] == CASH
        order: list[int] = b["order"]
        n = len(order)
        i = order.index(start)
        # pc.ring(order, start, inclusive) walked by index, without its lists: order[j - n] for
        # j in [0, 2n) is order[j % n] (every opening action passes the word through here)
        for j in range(i, i + n) if inclusive else range(i + 1, i + n):
            s = order[j - n]
            if s not in folded and s not in acted and (stack[betting.SEAT_KEY[s]] > 0 or cash):
                return s
        return None

    def _end_opening(self, state: State, events: list[Event]) -> None:
        b = state["b"]
        if state["opened"] is None and state["blind"] is None:
            allin = [s for s in betting.in_hand(b) if b["stack"][betting.SEAT_KEY[s]] == 0]
            if state["cfg"]["mode"] == CASH or not allin:
                # P5: nobody opened; cards collected, the pot waits, the minimum rises J → Q → K.
                events.append({"type": "non_aperto", "min_pair": state["min_pair"]})
                self._end(state, events, carry_pot=True, escalate=True)
                return
        state["opening_aggressor"] = b["aggressor"]
        self._start_cambio(state, events)

    def _start_cambio(self, state: State, events: list[Event]) -> None:
        state["phase"] = "cambio"
        state["changed"] = {}
        state["fourth"] = []
        state["turn"] = betting.in_hand(state["b"])[0]

    def _draw(self, state: State, events: list[Event]) -> str:
        if not state["stock"]:
            # P8: only the discarded cards are reshuffled into a new stock
            state["stock"] = shuffled(state["discards"], pc.rng_of(state))
            state["discards"] = []
            state["deck_log"].append(list(state["stock"]))
            events.append({"type": "rimescolo", "cards": len(state["stock"])})
        card: str = state["stock"].pop(0)
        return card

    def _finish_cambio(self, state: State, events: list[Event]) -> None:
        for s in state["fourth"]:  # P8: the fourth cards come last, clockwise
            card = self._draw(state, events)
            state["hands"][betting.SEAT_KEY[s]].append(card)
            events.append({"type": "quarta", "seat": s, "cards": [card], "to": [s]})
        state["fourth"] = []
        self._start_last_round(state, events)

    def _start_last_round(self, state: State, events: list[Event]) -> None:
        b = state["b"]
        betting.new_round(b)
        state["phase"] = "puntata"
        state["parol"] = []
        state["parol_broken"] = False
        order = b["order"]
        if state["blind"]:
            start = pc.next_after(order, state["blind"]["raiser"])  # P7: the last blind raiser speaks last
        elif state.get("opening_aggressor") is not None:
            start = state["opening_aggressor"]  # P9
        elif state["opened"] is not None:
            start = state["opened"]
        else:
            start = state["players"][0]
        first = pc.next_to_bet(state["b"], start, inclusive=True)
        state["first"] = first
        state["turn"] = first
        if first is None:
            self._end_last_round(state, events)

    def _end_last_round(self, state: State, events: list[Event]) -> None:
        b = state["b"]
        live = betting.in_hand(b)
        if state["parol"] and set(live) <= set(state["parol"]) and b["current"] == 0:
            self._start_adeguamento(state, events)
            return
        self._showdown(state, events)

    # ------------------------------------------------------------------ showdown and settlement

    def _showdown(self, state: State, events: list[Event]) -> None:
        b = state["b"]
        betting.return_uncalled(b)
        live = betting.in_hand(b)
        low = state["low"]
        values = {s: evaluator.evaluate(state["hands"][betting.SEAT_KEY[s]], low) for s in live}
        state["values"] = {betting.SEAT_KEY[s]: v for s, v in values.items()}
        start = _first_of(b["aggressor"], state["first"], state.get("opening_aggressor"), live[0])
        pc.start_showdown(state, start, live)
        self._continue_showdown(state, events)

    def _show(self, state: State, seat: int, events: list[Event], auto: bool = False) -> None:
        state["show_queue"].remove(seat)
        key = betting.SEAT_KEY[seat]  # a seat of the showdown queue
        cards = list(state["hands"][key])
        state["shown"][key] = cards
        value = state.get("values", {}).get(key)
        if value is None:
            value = evaluator.evaluate(cards, state["low"])
        events.append(
            {"type": "mostro", "seat": seat, "cards": cards, "auto": auto, "punto": evaluator.describe(value)}
        )

    def _before_award(self, state: State, events: list[Event]) -> None:
        values = state["values"]
        full_shown = False
        for k in state["shown"]:  # a loop rather than any() over a generator (every showdown)
            if evaluator.category(values[k]) >= evaluator.FULL:
                full_shown = True
                break
        if state["cfg"]["giro_pazzo"] and not state["giro_pazzo"] and full_shown:
            # P13: a full or better shown at showdown starts the giro pazzo (not extended inside it)
            state["gp_trigger"] = True
            events.append({"type": "giro_pazzo"})

    def _has_cards(self, state: State) -> bool:
        # none dealt when a parol pot has only one of its players present (P10): nothing to show
        return bool(state["hands"])

    def _start_adeguamento(self, state: State, events: list[Event]) -> None:
        b = state["b"]
        group = betting.in_hand(b)
        events.append({"type": "piatto_di_parol", "seats": group, "pot": betting.pot_total(b)})
        state["parol_group"] = group
        # P10 / rules "Adeguamento parol": a joiner covers the difference, so that in the end he has
        # put in what each parol player put in (the parol players' totals are equal: no all-in).
        target = b["total"][str(group[0])]
        state["parol_due"] = {}
        pending = []
        for s in state["players"]:
            if s in group:
                continue
            k = str(s)
            due = target - b["total"][k]
            state["parol_due"][k] = due
            if state["sitout"][k] or b["stack"][k] < due:
                events.append({"type": "passo_parol", "seat": s, "auto": True})  # P10: not enough credit
                continue
            pending.append(s)
        state["phase"] = "parol"
        state["turn"] = None
        state["pending"] = pending
        state["joined"] = []
        if not pending:
            self._end_parol(state, events)

    def _end_parol(self, state: State, events: list[Event]) -> None:
        seats = [s for s in state["b"]["order"] if s in state["parol_group"] or s in state["joined"]]
        self._end(state, events, carry_pot=True, parol={"seats": seats})

    def _handoff(self, state: State, events: list[Event], choice: Action) -> None:
        """End this state so that the chosen giro pazzo variant's engine plays the deal (P13).

        Nothing has moved: chips are unchanged and the carry keeps the previous dealer, so the
        variant's engine, started with this carry, deals with the same dealer; the giro pazzo
        count, the carried pot and the escalation pass through untouched for it to use and return.
        """
        self._end(state, events, carry_pot=True, keep_min=True)
        carry = state["carry_out"]
        carry["dealer"] = _previous(state["seats"], state["dealer"])
        carry["giro_pazzo"] = state["gp_left"]
        carry["handoff"] = {**{k: v for k, v in choice.items() if k != "type"}, "dealer": state["dealer"]}
        state["result"]["handoff"] = dict(carry["handoff"])

    def _end(
        self,
        state: State,
        events: list[Event],
        *,
        carry_pot: bool = False,
        escalate: bool = False,
        keep_min: bool = False,
        parol: dict[str, Any] | None = None,
        keep_parol: dict[str, Any] | None = None,
    ) -> None:
        b = state["b"]
        carried = pc.close_hand(state, carry_pot=carry_pot)
        min_pair = state["min_pair"]
        if escalate:
            min_pair = MIN_PAIRS[min(MIN_PAIRS.index(min_pair) + 1, 2)]
        elif parol or keep_parol:
            min_pair = "K"
        elif not keep_min:
            min_pair = "J"  # the pot was won: back to a pair of J (P5)
        gp_left = max(state["gp_left"] - 1, 0) if state["giro_pazzo"] else 0
        if state["gp_trigger"]:
            gp_left = len(state["players"])  # P13: one deal per active player
        state["carry_out"] = {
            "dealer": state["dealer"],
            "min_pair": min_pair,
            "pot": carried,
            "parol": parol or keep_parol,
            "giro_pazzo": gp_left,
            "time_bank": dict(state["time_bank"]),
            "missed": dict(state["missed"]),
        }
        state["result"] = pc.hand_result(state, carried, state.get("pots", []))
        events.append({"type": "fine", "chips": dict(b["stack"]), "carried": carried})

    # ------------------------------------------------------------------ contract: who acts, what is legal

    def to_act(self, state: State) -> list[int]:
        """Return the seats that must decide now."""
        if state["phase"] == "fine":
            return []
        pending = state["pending"]
        if pending:
            return list(pending)
        turn = state["turn"]
        return [turn] if turn is not None else []

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """List what this seat may do now (specs with the rules' button names)."""
        if not pc.may_act(state, seat):
            return []
        return self._legal(state, seat)

    def _legal(self, state: State, seat: int) -> list[dict[str, Any]]:
        """``legal_actions`` for a seat known to be among ``to_act`` (``apply`` checked it)."""
        buttons = self._buttons(state, seat)
        if buttons is not None:
            return [pc.spec_of(button) for button in buttons]
        if state["phase"] == "variante":
            return self._variant_specs(state, seat)
        hand = state["hands"][str(seat)]  # the cambio: every choice of 0 to 4 of the cards,
        # by size, in combinations() order
        return [
            {"type": "cambio", "cards": [hand[i] for i in pick], "label": "CONFERMA"}
            for pick in _cambio_picks(len(hand))
        ]

    def _buttons(self, state: State, seat: int) -> list[pc.Button] | None:
        """What a seat among ``to_act`` may do, as buttons (``games.poker_common.Button``).

        None in the two phases whose specs name more than a type (``variante``: the variant and
        its parameters; ``cambio``: the cards). ``sample_action`` and ``_check`` use the buttons as
        they are, ``_legal`` turns them into specs.
        """
        phase = state["phase"]
        if phase == "apertura" or phase == "puntata":  # BETTING_PHASES, the common case first
            # the betting buttons: the shared ones (``games.poker_common``) and poker's own (P5,
            # P7, P10)
            min_bet = None  # the invito
            if phase == "apertura":
                if state["parol_hand"]:
                    min_bet = max(betting.pot_total(state["b"]), 1)  # P10: minimum opening bet = the pot
                blind = state["blind"]
                if blind is None:
                    if state["opened"] is None:
                        return self._opening_buttons(state, seat, min_bet)
                elif blind["stage"] == "see" and seat == blind["raiser"]:
                    return self._blind_raiser_buttons(state, seat)
            elif self._parol_allowed(state):
                return pc.betting_buttons(state, seat, min_bet, (_PAROL,))
            return pc.betting_buttons(state, seat, min_bet)
        if phase == "variante" or phase == "cambio":
            return None
        if phase == "invito":
            return pc.invito_buttons(state, seat)
        if phase == "parol":
            due = state["parol_due"][str(seat)]
            return [("partecipo", "PARTECIPO", due, due, None), pc.PASSO]
        if phase == "buio":
            amt = self._blind_amount(state)
            label = ("BUIO", "CONTROBUIO", "OVER")[len(state["blind"]["posts"])]
            return [("buio", label, amt, amt, None), _DAI_CARTE]
        if phase == "mostra":
            return list(pc.SHOW_BUTTONS)
        return pc.betting_buttons(state, seat)  # phase fine: asked by timeout_action only

    def _variant_specs(self, state: State, dealer: int) -> list[dict[str, Any]]:
        prefs = state["prefs"][str(dealer)]
        return [spec for choices in GIRO_PAZZO_VARIANTS.values() for spec in choices(state["cfg"], prefs)]

    def _blind_amount(self, state: State) -> int:
        posts = state["blind"]["posts"]
        if not posts:
            return betting.pot_total(state["b"])  # P7: buio = the pot
        return 2 * int(posts[-1]["amount"])  # controbuio / over = double the previous

    def _betting_specs(self, state: State, seat: int) -> list[dict[str, Any]]:
        """The betting buttons as specs (``_buttons`` in a betting phase)."""
        return [pc.spec_of(button) for button in self._buttons(state, seat) or ()]

    def _blind_raiser_buttons(self, state: State, seat: int) -> list[pc.Button]:
        """P7: the last blind raiser, once someone has seen, raises or says VA BENE."""
        b, cfg = state["b"], state["cfg"]
        invito = cfg["invito"]
        _check, _call, kind, lo, hi = betting.ranges(b, seat, cfg["limit"], invito, invito, reopen=True)
        buttons = [_VA_BENE]
        if kind == "raise":
            buttons.append(pc.amount_button("rilancio", "RILANCIO", lo, hi, b["stack"][str(seat)]))
        return buttons

    def _opening_buttons(self, state: State, seat: int, min_bet: int | None) -> list[pc.Button]:
        """P5: PUNTO only with the opening hand (RESTO for 0 all-in on the invito), BUSSO, PASSO."""
        key = betting.SEAT_KEY[seat] if type(seat) is int else str(seat)  # as in betting.ranges
        if not _can_open(tuple(state["hands"][key]), state["min_pair"], state["low"]):
            return [pc.BUSSO, pc.PASSO_CONFIRM]
        b, cfg = state["b"], state["cfg"]
        stack = b["stack"][key]
        if stack == 0:
            return [("punto", "RESTO", 0, 0, None), pc.BUSSO, pc.PASSO_CONFIRM]
        invito = cfg["invito"]
        _check, _call, kind, lo, hi = betting.ranges(b, seat, cfg["limit"], min_bet or invito, invito)
        if kind == "bet":  # pc.amount_button, inline (every opening listing)
            punto = ("punto", "RESTO" if lo == hi == stack else "PUNTO", lo, hi, None)
        else:
            # every other seat is all-in: nothing can be bet, but the game may be opened
            punto = ("punto", "PUNTO", 0, 0, None)
        return [punto, pc.BUSSO, pc.PASSO_CONFIRM]

    def _parol_allowed(self, state: State) -> bool:
        """P10: PAROL is offered with BUSSO while nobody has bet, unless broken or anyone is all-in."""
        b = state["b"]
        if state["parol_broken"] or b["current"] != 0:
            return False
        # P10: no parol with a side pot or anyone all-in
        folded, stack = b["folded"], b["stack"]
        for s in b["order"]:  # all() over the seats in the hand, as a loop: no generator
            if s not in folded and stack[betting.SEAT_KEY[s]] <= 0:
                break
        else:
            return True
        return False

    # ------------------------------------------------------------------ apply

    def _check(self, state: State, seat: int, action: Action) -> None:
        if action["type"] == "cambio" and state["phase"] == "cambio":  # checked here, no spec list
            cards = action.get("cards")
            hand = state["hands"][betting.SEAT_KEY[seat]]  # apply checked the seat
            if len(action) != 2 or not isinstance(cards, list) or len(cards) > 4:  # "type", "cards"
                raise InvalidCards()
            for c in cards:  # a loop rather than any() over a generator (every cambio)
                if not isinstance(c, str) or c not in hand:
                    raise InvalidCards()
            if len(set(cards)) != len(cards):  # the cards are strings here, so hashable
                raise InvalidCards()
        elif (buttons := self._buttons(state, seat)) is not None:
            pc.match_button(buttons, action, Poker5Error)  # no specs built (hot path)
        else:
            pc.match_spec(self._legal(state, seat), action, Poker5Error, card_keys=())

    def _do(
        self, state: State, seat: int, action: Action, events: list[Event], *, timeout: bool = False
    ) -> None:
        phase = state["phase"]
        if timeout:
            pc.timed_out(state, seat, events, phase in BETTING_PHASES)
        if phase == "apertura" or phase == "puntata":  # BETTING_PHASES, the common case first
            self._do_bet(state, seat, action, events)
            return
        typ = action["type"]
        b = state["b"]
        k = betting.SEAT_KEY[seat]  # apply checked that the seat is an int
        if phase == "variante":
            state["variant"] = action["variant"]
            events.append({**action, "seat": seat})
            if action["variant"] == "classica":
                self._start_invito(state, events)
            else:
                self._handoff(state, events, action)
            return
        if phase == "invito":
            pc.answer_invito(state, seat, typ, events)
            if not state["pending"]:
                self._after_invito(state, events)
            return
        if phase == "parol":
            state["pending"].remove(seat)
            if typ == "partecipo":
                paid = betting.post(b, seat, action["amount"])
                state["joined"].append(seat)
                events.append({"type": "partecipo", "seat": seat, "amount": paid})
            else:
                events.append({"type": "passo_parol", "seat": seat})
            if not state["pending"]:
                self._end_parol(state, events)
            return
        if phase == "buio":
            blind = state["blind"]
            if typ == "buio":
                amount = action["amount"]
                betting.post(b, seat, amount, live=True)
                blind["posts"].append({"seat": seat, "amount": amount})
                blind["raiser"] = seat
                label = ("buio", "controbuio", "over")[len(blind["posts"]) - 1]
                events.append({"type": label, "seat": seat, "amount": amount})
                if b["stack"][k] == 0:
                    state["allin_raisers"].append(seat)
                nxt = pc.next_after(state["players"], seat)
                more = len(blind["posts"]) < 3 and nxt != blind["posts"][0]["seat"]
                if more and b["stack"][str(nxt)] >= 2 * amount:  # P7: only with enough chips
                    state["turn"] = nxt
                    return
            else:
                events.append({"type": "dai_carte", "seat": seat})
            if blind["raiser"] is None:
                state["blind"] = None
            self._deal(state, events)
            return
        if phase == "cambio":
            self._do_cambio(state, seat, action["cards"], events)
            return
        if phase == "mostra":
            self._answer_show(state, seat, typ, events)
            return
        self._do_bet(state, seat, action, events)

    def _do_bet(self, state: State, seat: int, action: Action, events: list[Event]) -> None:
        b = state["b"]
        typ = action["type"]
        phase = state["phase"]
        ev: Event
        if typ == "va_bene" or typ == "parol":
            betting.act(b, seat, "check")  # P7: the blind raiser's VA BENE; P10: PAROL checks
            if typ == "parol":
                state["parol"].append(seat)
            ev = {"type": typ, "seat": seat}
        elif typ == "punto" and action["amount"] == 0:
            b["acted"].append(seat)  # opening with nothing to bet (module docstring: cash all-in)
            ev = {"type": typ, "seat": seat, "amount": 0}
        else:
            blind = state["blind"]
            if typ == "rilancio" and blind and blind["stage"] == "see":
                blind["stage"] = "open"  # P7: a raise after the blind reopens the betting
                b["closed"] = False
            ev = pc.apply_bet(state, seat, action)  # P11: all-in raisers show automatically
        if typ == "punto" or (typ == "busso" and phase == "puntata"):
            state["parol_broken"] = True  # P10: any busso or bet cancels the parol
        if typ == "punto" and phase == "apertura" and state["opened"] is None:
            state["opened"] = seat
            ev["type"] = "apro"
        events.append(ev)
        # pass the word after ``seat``, closing the round if it is over (inline: every bet's path);
        # a betting round always has two seats in the hand, so only a PASSO can leave one (and
        # only with n - 1 seats folded: counted first, as in_hand builds a list)
        if typ == "passo" and len(b["folded"]) >= len(b["order"]) - 1 and len(betting.in_hand(b)) == 1:
            self._win_uncontested(state, events)
            return
        if phase == "apertura" and state["opened"] is None and state["blind"] is None:
            nxt = self._next_opening(state, seat)
        else:
            nxt = betting.next_to_act_from(b, seat)  # pc.next_to_bet, without its call
        state["turn"] = nxt
        if nxt is None:
            if phase == "apertura":
                self._end_opening(state, events)
            else:
                self._end_last_round(state, events)

    def _do_cambio(self, state: State, seat: int, cards: list[str], events: list[Event]) -> None:
        k = betting.SEAT_KEY[seat]  # apply checked that the seat is an int
        hand = state["hands"][k]
        for c in cards:
            hand.remove(c)
        state["discards"].extend(cards)
        state["changed"][k] = len(cards)
        events.append({"type": "cambio", "seat": seat, "count": len(cards)})
        events.append({"type": "scarto", "seat": seat, "cards": list(cards), "to": [seat]})
        now = min(len(cards), 3)
        stock = state["stock"]
        if len(stock) >= now:  # the same cards as ``now`` draws, taken at once (hot path)
            new = stock[:now]
            del stock[:now]
        else:
            new = [self._draw(state, events) for _ in range(now)]
        hand.extend(new)
        if new:
            events.append({"type": "carte_cambio", "seat": seat, "cards": new, "to": [seat]})
        if len(cards) == 4:
            state["fourth"].append(seat)
        # the next seat in the hand that has not changed yet, clockwise after ``seat``: order walked
        # by index as in _next_opening (no in_hand and ring lists); order[j - n] is order[j % n]
        nxt = None
        b = state["b"]
        order, folded = b["order"], b["folded"]
        changed = state["changed"]
        n = len(order)
        i = order.index(seat)
        for j in range(i + 1, i + n):
            s = order[j - n]
            if s not in folded and betting.SEAT_KEY[s] not in changed:
                nxt = s
                break
        state["turn"] = nxt
        if nxt is None:
            self._finish_cambio(state, events)

    def sample_action(self, state: State, seat: int, rng: Rng) -> Action:
        """``Engine.sample_action`` (same draws, same action) without building the specs.

        It picks among the buttons (one per spec, in order; such a spec's action is its type and
        the amount drawn), in the cambio among the positions of every choice.
        """
        if not pc.may_act(state, seat):
            raise NotYourTurn()  # what Engine.sample_action raises for a seat with no action
        buttons = self._buttons(state, seat)
        if buttons is not None:
            typ, _label, lo, hi, _confirm = buttons[rng.randbelow(len(buttons))]
            if lo is None or hi is None:
                return {"type": typ}
            return {"type": typ, "amount": draw_amount(lo, hi, rng)}
        if state["phase"] == "cambio":
            hand = state["hands"][str(seat)]
            picks = _cambio_picks(len(hand))
            return {"type": "cambio", "cards": [hand[i] for i in picks[rng.randbelow(len(picks))]]}
        return super().sample_action(state, seat, rng)

    # ------------------------------------------------------------------ automatic decisions

    def _auto(self, state: State, events: list[Event]) -> None:
        """Take every decision that needs nobody: sitout seats (P14) and seats with nothing to decide."""
        seat = state["turn"]  # the common case first: a seat to wait for (no loop set up)
        if seat is None or state["phase"] == "fine" or state["pending"]:
            return
        if not state["sitout"][betting.SEAT_KEY[seat]]:
            return
        for _ in range(1000):
            seat = state["turn"]
            if seat is None:  # also in phase fine and while pending seats answer
                return
            if state["phase"] == "fine" or state["pending"]:
                return
            if not state["sitout"][betting.SEAT_KEY[seat]]:  # the seat whose turn it is
                return
            action = self.timeout_action(state, seat)
            self._do(state, seat, action, events)
        raise RuntimeError("poker5: automatic decisions do not terminate")  # pragma: no cover

    def _own_timeout(self, state: State, seat: int) -> Action | None:
        phase = state["phase"]
        if phase == "variante":
            return {"type": "variante", "variant": "classica"}
        if phase == "parol":
            return {"type": "passo"}
        if phase == "buio":
            return {"type": "dai_carte"}
        if phase == "cambio":
            return {"type": "cambio", "cards": []}
        return None

    # ------------------------------------------------------------------ views and results

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Return what this seat (None: a spectator) may see: own cards, shown cards, counts, chips."""
        b = state["b"]
        hands: dict[str, Any] = {}
        for k, cards in state["hands"].items():
            if k in state["shown"]:
                hands[k] = {"cards": list(state["shown"][k]), "shown": True}
            elif seat is not None and k == str(seat):
                hands[k] = {"cards": list(cards)}
            else:
                hands[k] = {"count": len(cards)}
        out: dict[str, Any] = {
            "game": self.name,
            "phase": state["phase"],
            "dealer": state["dealer"],
            "seats": list(state["seats"]),
            "players": list(state["players"]),
            "to_act": self.to_act(state),
            **pc.chips_view(b),
            "min_pair": state["min_pair"],
            "limit": state["cfg"]["limit"],
            "invito": state["cfg"]["invito"],
            "opened": state["opened"],
            "blind": copy.deepcopy(state["blind"]),
            "parol": list(state["parol"]),
            "parol_hand": state["parol_hand"],
            "giro_pazzo": state["giro_pazzo"],
            "variant": state["variant"],
            "changed": dict(state["changed"]),
            "stock_count": len(state["stock"]),
            **pc.seats_view(state, hands),
        }
        if seat is not None:
            out["seat"] = seat
            out["legal"] = self.legal_actions(state, seat)
            mine = state["hands"].get(str(seat))
            if mine and len(mine) == 5:
                out["punto"] = evaluator.describe(evaluator.evaluate(mine, state["low"]))
        return out


# ---------------------------------------------------------------------- helpers


@lru_cache(maxsize=8)
def _poker_deck(players: int) -> tuple[str, ...]:
    """The poker deck for this many players (``games.cards.poker_deck``), built once."""
    return tuple(poker_deck(players))


@lru_cache(maxsize=8)
def _cambio_picks(size: int) -> tuple[tuple[int, ...], ...]:
    """The positions of every cambio choice of a hand of ``size`` cards: 0 to 4 of them (P8)."""
    return tuple(pick for n in range(5) for pick in combinations(range(size), n))


@lru_cache(maxsize=4096)
def _can_open(hand: tuple[str, ...], min_pair: str, low: str) -> bool:
    """P5 opening requirement, memoised (a pure function of the cards; asked on every refresh)."""
    return evaluator.opening_ok(hand, min_pair, low)


# The seat's preferences as given (a variant plug-in reads its own keys), the poker keys checked;
# anything but a dict counts as no preferences.
_prefs = pc.with_table_prefs


def _previous(seats: list[int], seat: int) -> int:
    """The seat before ``seat`` (which must be in ``seats``), counter-clockwise."""
    ordered = sorted(seats)
    return ordered[ordered.index(seat) - 1]


_spec_matches = pc.spec_matches  # its former place (tests/games/poker5/test_poker5_speedups.py)


def _first_of(*seats: int | None) -> int:
    for s in seats:  # a loop rather than next() over a generator
        if s is not None:
            return s
    raise StopIteration  # what next() raised (never: the last seat given is an int)


__all__ = ["GIRO_PAZZO_VARIANTS", "Poker5", "register_giro_pazzo_variant", "use_time_bank"]
