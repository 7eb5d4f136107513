"""Telesina: the engine (rules 001, the Telesina chapters of 000 and 004; RULINGS G*, P1–P6, P11–P15, T1–T6).

Phases: ``scelta`` (the dealer's panel when the table leaves the vele or the distribution
"Libera"), ``invito``, then deal rounds and girate, each followed by a betting round
(``puntata``); in the variants with covered cards the players first choose at once which covered
card to turn up (``scopri``); ``mostra`` (showdown choices); then ``fine``. Decisions that need
nobody (a preference, a sitout seat, a deal-out) are taken by the engine itself, so ``to_act``
only names the seats the table must really wait for.

Actions (``type``, with the label the table shows): ``scelta`` with ``vele`` and
``distribuzione`` (the dealer's panel, CONFERMA); ``invito`` INVITO / ``sitout`` SITOUT (cash);
``scopro`` with ``card`` (the covered card to turn up, CONFERMA); ``busso`` BUSSO, ``punto`` PUNTO,
``vedo`` VEDO, ``rilancio`` RILANCIO, ``passo`` PASSO (with ``confirm`` when nothing is bet);
``mostro`` MOSTRO / ``nascondo`` NASCONDO. Chip-moving actions carry ``amount`` = the chips put in
now; RESTO is the label of a spec whose only amount is the whole credit. Any action may carry
``"timeout": True`` (what ``timeout_action`` gives, sent by the runtime's clock): in a betting
phase the seat then goes sitout (P14). The time bank is ``games.poker_common.use_time_bank``.

``outcome``: ``chips`` per seat, ``rake``, ``pots`` (amount, eligible, winners, shares, rake),
``carried_in`` / ``carried_out``, ``sitout`` and ``stand_up`` (P15) seats, ``vele`` and
``distribuzione`` played. Conservation: Σ chips before + carried_in == Σ chips after + rake +
carried_out. ``view`` shows every seat's up cards and number of covered cards, the viewer's own
cards (and pending choice), the revealed vele only, the shown hands with the five cards played,
``leader`` (best hand showing, T4) and ``first`` (who speaks first) of the round.

Seats are table seat numbers that grow clockwise; the dealer's left is the next higher seat
(RULINGS G2). Pots, limits, side pots, rake and odd chips are ``games.betting``; hands are
``games.telesina.hand`` on the evaluator's tables; vele layouts are data in
``games.telesina.vele``; the table conventions shared with Poker 5 carte are
``games.poker_common``.

Decisions taken here where the rules and the rulings are silent (each also commented in place):

* The dealer's panel comes before the invito ("all'inizio della mano"). A dealer with "usa
  sempre" and a preferred variant is not asked for that part. On timeout, or for a sitout dealer,
  the preferred variant applies, else Nessuna vela and Mai (the classic game).
* Deal order: one card to each player, a second card to each, then the vele face down from the
  same deck (the rules lay them out "dopo la distribuzione delle prime due carte"), then one
  card per round to each player still in the hand.
* The covered-card choice (T5) is simultaneous: choices stay private until every player has
  chosen, then all turned cards are shown together. In a deal-out without betting (T6, or when
  fewer than two players can still bet) nobody is asked: the newest card is turned up, as on
  timeout. A timeout in the choice does not send the player sitout (only betting phases do).
* Speaking order (T4): the best hand showing speaks first; if it cannot act (all-in) the word
  goes clockwise from it. Equal showing hands (only possible from shared vele): the first of them
  clockwise from the dealer's left speaks.
* Showdown order (P11) starts from the last bettor or raiser of the last betting round played,
  else from that round's first speaker.
* A seat left alone because every other seat folded wins every pot at once and may show or hide.
* Tournament (``mode`` "tournament"): the invito is taken from every seat with chips, sitout seats
  included, and they fold (P14, RULINGS L1); when at most one seat is left not in sitout it takes the
  whole pot at once, nothing dealt or shown, and the dealer's panel is not shown; with nobody left
  the pot, inviti included, waits for the next hand.
* A pot carried in (``carry["pot"]``, only from a Poker 5 carte hand of the giro pazzo that was
  not opened) is dead money of this hand's main pot.
* Giro pazzo (P13): ``new`` accepts the carry of a Poker 5 carte hand that handed the deal over
  (``carry["handoff"]``): the poker table's options (poker-only ones dropped), the dealer's vele
  and distribution; ``carry`` then answers with a Poker 5 carte carry (``games.telesina.giro_pazzo``).
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

from games import betting, evaluator
from games import poker_common as pc
from games.cards import poker_deck, poker_lowest_rank
from games.engine import CASH, TOURNAMENT, Action, ConfigError, Event, IllegalAction, Option, SeatSpec, State
from games.registry import register
from games.rng import Rng, shuffled
from games.telesina.hand import ViewOfVele, showing_key
from games.telesina.vele import LAYOUTS, LIBERA, NESSUNA, Layout

MAI, PRIMO_GIRO, SEMPRE = "mai", "primo_giro", "sempre"
DISTRIBUZIONI = (MAI, PRIMO_GIRO, SEMPRE)
DISTRIBUZIONE_LABELS = {MAI: "Mai", PRIMO_GIRO: "Solo al primo giro", SEMPRE: "Sempre"}
DEAL_ROUNDS = 4  # the first round deals two cards, then three rounds of one (RULINGS T2)
BETTING = "puntata"
_k = pc.k


class TelesinaError(IllegalAction):
    code = "telesina_illegal"
    default_message = "Giocata non ammessa"


def seat_prefs(prefs: Any) -> dict[str, Any]:
    """A seat's Telesina preferences (keys of ``games.options``), unknown or bad values as defaults."""
    prefs = prefs if isinstance(prefs, dict) else {}
    vele = prefs.get("vele_preferite", "")
    dist = prefs.get("distribuzione_preferita", "")
    return {
        **pc.table_prefs(prefs),
        "vele_preferite": vele if vele in LAYOUTS else "",
        "usa_sempre_vele": prefs.get("usa_sempre_vele", False) is True,
        "distribuzione_preferita": dist if dist in DISTRIBUZIONI else "",
        "usa_sempre_distribuzione": prefs.get("usa_sempre_distribuzione", False) is True,
    }


def dealer_choices(cfg: dict[str, Any], prefs: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The vele and distribution variants the dealer may pick (one each when already decided)."""
    vele = [cfg["vele"]] if cfg["vele"] != LIBERA else list(LAYOUTS)
    dist = [cfg["distribuzione"]] if cfg["distribuzione"] != LIBERA else list(DISTRIBUZIONI)
    if len(vele) > 1 and prefs["usa_sempre_vele"] and prefs["vele_preferite"] in vele:
        vele = [prefs["vele_preferite"]]
    if len(dist) > 1 and prefs["usa_sempre_distribuzione"] and prefs["distribuzione_preferita"] in dist:
        dist = [prefs["distribuzione_preferita"]]
    return vele, dist


def default_choice(vele: list[str], dist: list[str], prefs: dict[str, Any]) -> tuple[str, str]:
    """The dealer's automatic choice: the preferred variants, else Nessuna vela and Mai."""
    v = prefs["vele_preferite"] if prefs["vele_preferite"] in vele else None
    v = v or (NESSUNA if NESSUNA in vele else vele[0])
    d = (
        prefs["distribuzione_preferita"]
        if prefs["distribuzione_preferita"] in dist
        else MAI
        if MAI in dist
        else dist[0]
    )
    return v, d


def telesina_options() -> tuple[Option, ...]:
    """The vele and distribution options (T3, T5), from the layouts defined now."""
    return (
        Option(
            "vele",
            "Variante vele",
            "choice",
            LIBERA,
            ((LIBERA, "Libera (sceglie il mazziere)"), *((key, lay.label) for key, lay in LAYOUTS.items())),
        ),
        Option(
            "distribuzione",
            "Distribuzione carta coperta",
            "choice",
            LIBERA,
            (
                (LIBERA, "Libera (sceglie il mazziere)"),
                *((d, DISTRIBUZIONE_LABELS[d]) for d in DISTRIBUZIONI),
            ),
        ),
    )


@register
class Telesina(pc.PokerTable):
    """Telesina, one hand per state; ``carry`` links the hands of a table."""

    name: ClassVar[str] = "telesina"
    title: ClassVar[str] = "Telesina"
    table_settings: ClassVar[dict[str, str]] = pc.TABLE_SETTINGS  # the table's rake, its cap, the clock

    # ------------------------------------------------------------------ configuration

    def config_options(self) -> tuple[Option, ...]:
        """Return the table options: the poker family's, the vele and the distribution (T3, T5)."""
        return (*pc.TABLE_OPTIONS, *telesina_options())

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """Return the table options with defaults (vele and distribution: Libera); ConfigError if invalid."""
        return pc.validate_table(config, telesina_options())

    # ------------------------------------------------------------------ new hand

    def new(
        self, config: dict[str, Any], seats: list[SeatSpec], rng: Rng, carry: dict[str, Any] | None = None
    ) -> State:
        """Start a hand for the seats at the table, from the previous hand's carry."""
        carry = carry or {}
        handoff = carry.get("handoff")
        poker: dict[str, Any] | None = None
        if isinstance(handoff, dict) and handoff.get("variant") == "telesina":
            # P13: a Poker 5 carte deal of the giro pazzo handed over (see games.telesina.giro_pazzo)
            config = {key: v for key, v in config.items() if key in (*pc.TABLE_DEFAULTS, "min_credit")}
            config["vele"], config["distribuzione"] = handoff.get("vele"), handoff.get("distribuzione")
            poker = {"min_pair": carry.get("min_pair", "J"), "gp_left": int(carry.get("giro_pazzo", 0))}
        cfg = self.validate_config(config)
        if poker is not None and LIBERA in (cfg["vele"], cfg["distribuzione"]):
            raise ConfigError("Nel giro pazzo il mazziere ha già scelto le varianti")
        specs = pc.check_seats(seats, "La telesina")
        state = pc.table_state(cfg, specs, carry, rng, seat_prefs)
        all_seats, dealer, order = state["seats"], state["dealer"], state["order"]
        state |= {
            "carried_in": int(carry.get("pot", 0)),
            "vele": None,
            "distribuzione": None,
            "phase": "scelta",
            "turn": None,
            "pending": [],
            "players": [],
            "low": None,
            "cards": {},
            "covered": {},
            "choices": {},
            "vele_cards": {},
            "revealed": [],
            "stock": [],
            "deck_log": [],
            "street": 0,
            "girate": 0,
            "dealout": False,
            "leader": None,
            "first": None,
            "show_from": None,
            "showing": {},
            "allin_raisers": [],
            "values": {},
            "best": {},
            "shown": {},
            "hidden": [],
            "show_queue": [],
            "pots": [],
            "result": None,
            "carry_out": None,
            "b": betting.new_betting(order, {s: specs[s]["chips"] for s in all_seats}, state_dead(carry)),
        }
        if poker is not None:
            state["poker"] = poker
        events: list[Event] = [{"type": "mano", "dealer": dealer, "seats": all_seats}]
        state["_rng"] = rng
        try:
            vele, dist = dealer_choices(cfg, state["prefs"][_k(dealer)])
            if len(vele) == 1 and len(dist) == 1:
                self._chosen(state, vele[0], dist[0], events, auto=True)
            elif cfg["mode"] == TOURNAMENT and pc.walkover(state):
                # RULINGS L1: the hand ends on the invito, nothing is dealt: the panel is not shown
                v, d = default_choice(vele, dist, state["prefs"][_k(dealer)])
                self._chosen(state, v, d, events, auto=True)
            else:
                state["turn"] = dealer  # the dealer's panel (Scelta variante)
            self._auto(state, events)
        finally:
            state.pop("_rng", None)
        return state

    def _chosen(self, state: State, vele: str, dist: str, events: list[Event], *, auto: bool) -> None:
        state["vele"], state["distribuzione"] = vele, dist
        state["turn"] = None
        events.append(
            {"type": "variante", "seat": state["dealer"], "vele": vele, "distribuzione": dist, "auto": auto}
        )
        state["phase"] = "invito"
        state["pending"] = pc.start_invito(state, events)
        if not state["pending"]:
            self._after_invito(state, events)

    def _after_invito(self, state: State, events: list[Event]) -> None:
        b = state["b"]
        players = betting.in_hand(b)
        state["players"] = players
        if len(players) < 2:
            winner = pc.invito_winner(state) if state["cfg"]["mode"] == TOURNAMENT else None
            if winner is not None:
                self._win_on_invito(state, events, winner)  # RULINGS L1 (none playing: ``invito_winner``)
                return
            if state["cfg"]["mode"] == CASH:
                # Cash: not enough players, the inviti go back.
                pc.refund_inviti(b)
                events.append({"type": "annullata"})
            # A carried pot keeps waiting (in a tournament with this hand's inviti: never given back).
            self._end(state, events, carry_pot=True)
            return
        state["low"] = poker_lowest_rank(len(players))  # RULINGS P1 / T1
        deck = shuffled(poker_deck(len(players)), pc.rng_of(state))
        state["deck_log"].append(list(deck))
        state["stock"] = deck
        dist = state["distribuzione"]
        state["cards"] = {_k(s): [] for s in players}
        state["covered"] = {_k(s): [] for s in players}
        for second in (False, True):
            # the first card is covered; the second too unless the distribution is Mai (T5)
            covered = not second or dist != MAI
            for s in players:
                self._give(state, s, covered, events)
        layout = self._layout(state)
        state["vele_cards"] = {x: state["stock"].pop(0) for x in layout.letters}
        if layout.letters:
            events.append({"type": "vele", "layout": layout.key, "count": len(layout.letters)})
        state["street"] = 1
        self._after_deal(state, events)

    def _layout(self, state: State) -> Layout:
        return LAYOUTS[state["vele"]]

    def _give(self, state: State, seat: int, covered: bool, events: list[Event]) -> None:
        card = state["stock"].pop(0)
        key = _k(seat)
        state["cards"][key].append(card)
        if covered:
            state["covered"][key].append(card)
            events.append({"type": "carta", "seat": seat, "card": card, "covered": True, "to": [seat]})
            events.append({"type": "carta_coperta", "seat": seat})
        else:
            events.append({"type": "carta", "seat": seat, "card": card})

    def _after_deal(self, state: State, events: list[Event]) -> None:
        """After cards are dealt: the covered-card choice if two are covered, then the betting round."""
        live = betting.in_hand(state["b"])
        choosers = [s for s in live if len(state["covered"][_k(s)]) > 1]
        if not choosers:
            self._start_round(state, events)
            return
        state["phase"] = "scopri"
        state["choices"] = {}
        if self._no_betting(state):
            # T6 deal-out: no betting follows, so nobody is asked; the newest card is turned up.
            for s in choosers:
                state["choices"][_k(s)] = state["covered"][_k(s)][-1]
            self._reveal_choices(state, events)
            return
        state["pending"] = choosers

    def _reveal_choices(self, state: State, events: list[Event]) -> None:
        turned = {}
        for key, card in state["choices"].items():
            state["covered"][key].remove(card)
            turned[key] = card
        state["choices"] = {}
        state["pending"] = []
        events.append({"type": "scoperte", "cards": turned})
        self._start_round(state, events)

    def _no_betting(self, state: State) -> bool:
        """Tell whether no betting is possible any more (T6: fewer than two seats can still bet)."""
        return len(betting.can_bet(state["b"])) < 2

    def _start_round(self, state: State, events: list[Event]) -> None:
        """Start the betting round after a deal or a girata; skip it when nobody can bet (T6)."""
        b = state["b"]
        betting.new_round(b)
        state["phase"] = BETTING
        live = betting.in_hand(b)
        layout = self._layout(state)
        view = ViewOfVele(layout, state["vele_cards"], state["revealed"], state["low"])
        keys = {}
        state["showing"] = {}
        for s in live:
            up = [c for c in state["cards"][_k(s)] if c not in state["covered"][_k(s)]]
            kind, key, desc = showing_key(up, view)
            keys[s] = (kind, key)
            state["showing"][_k(s)] = desc
        if self._no_betting(state):
            if not state["dealout"]:
                state["dealout"] = True
                events.append({"type": "senza_puntate"})  # T6: the rest is dealt without betting
            self._next_street(state, events)
            return
        # T4: the best hand showing speaks first; ties (shared vele only) go to the first clockwise.
        best = max(keys.values())
        leader = next(s for s in live if keys[s] == best)
        first = pc.next_to_bet(b, leader, inclusive=True)
        state["leader"] = leader
        state["first"] = first
        state["turn"] = first
        punto = state["showing"][_k(leader)]
        events.append({"type": "parola", "seat": leader, "punto": punto, "first": first})
        if first is None:
            self._end_round(state, events)

    def _end_round(self, state: State, events: list[Event]) -> None:
        b = state["b"]
        state["turn"] = None
        state["show_from"] = b["aggressor"] if b["aggressor"] is not None else state["first"]
        if len(betting.in_hand(b)) == 1:
            self._win_uncontested(state, events)
            return
        self._next_street(state, events)

    def _next_street(self, state: State, events: list[Event]) -> None:
        """Deal the next round, or turn the next girata of vele, or go to the showdown."""
        layout = self._layout(state)
        if state["street"] < DEAL_ROUNDS:
            state["street"] += 1
            covered = state["distribuzione"] == SEMPRE  # T5: Sempre deals every card covered
            for s in betting.in_hand(state["b"]):
                self._give(state, s, covered, events)
            self._after_deal(state, events)
            return
        if state["girate"] < len(layout.turns):
            turn = layout.turns[state["girate"]]
            state["girate"] += 1
            state["revealed"].extend(turn)
            events.append({"type": "girata", "vele": {x: state["vele_cards"][x] for x in turn}})
            self._start_round(state, events)
            return
        self._showdown(state, events)

    # ------------------------------------------------------------------ showdown and settlement

    def _showdown(self, state: State, events: list[Event]) -> None:
        b = state["b"]
        betting.return_uncalled(b)
        live = betting.in_hand(b)
        layout = self._layout(state)
        view = ViewOfVele(layout, state["vele_cards"], state["revealed"], state["low"])
        bit = view.t.bit
        for s in live:
            own = state["cards"][_k(s)]
            value, mask, letters = view.best(own)
            state["values"][_k(s)] = value
            five = [c for c in own if bit[c] & mask] + [state["vele_cards"][x] for x in letters]
            state["best"][_k(s)] = {"cards": five, "vele": list(letters), "punto": evaluator.describe(value)}
        start = state["show_from"] if state["show_from"] is not None else live[0]
        pc.start_showdown(state, start, live)
        self._continue_showdown(state, events)

    def _show(self, state: State, seat: int, events: list[Event], auto: bool = False) -> None:
        key = _k(seat)
        state["show_queue"].remove(seat)
        state["shown"][key] = list(state["cards"][key])
        ev: Event = {"type": "mostro", "seat": seat, "cards": list(state["cards"][key]), "auto": auto}
        if key in state["best"]:
            ev["punto"] = state["best"][key]["punto"]
            ev["best"] = list(state["best"][key]["cards"])
            ev["vele"] = list(state["best"][key]["vele"])
        events.append(ev)

    def _has_cards(self, state: State) -> bool:
        # none dealt when a tournament hand is won on the invito (RULINGS L1): nothing to show
        return bool(state["cards"])

    def _end(self, state: State, events: list[Event], *, carry_pot: bool = False) -> None:
        b = state["b"]
        carried = pc.close_hand(state, carry_pot=carry_pot)  # carried: only after the inviti went back
        state["carry_out"] = {
            "dealer": state["dealer"],
            "pot": carried,
            "time_bank": dict(state["time_bank"]),
            "missed": dict(state["missed"]),
        }
        poker = state.get("poker")
        if poker is not None:
            # Back to Poker 5 carte (P13): one deal of the giro pazzo done (a full shown here does
            # not extend it), no parol, the opening minimum back to J once the pot is won (P5).
            state["carry_out"].update(
                {
                    "min_pair": poker["min_pair"] if carried else "J",
                    "parol": None,
                    "giro_pazzo": max(poker["gp_left"] - 1, 0),
                }
            )
        state["result"] = {
            **pc.hand_result(state, carried, pc.copy_pots(state["pots"])),
            "vele": state["vele"],
            "distribuzione": state["distribuzione"],
        }
        events.append({"type": "fine", "chips": dict(b["stack"]), "carried": carried})

    # ------------------------------------------------------------------ contract: who acts, what is legal

    def to_act(self, state: State) -> list[int]:
        """Return the seats that must decide now (every chooser at once in the covered-card choice)."""
        if state["phase"] == "fine":
            return []
        if state["pending"]:
            if state["phase"] == "scopri":
                return [s for s in state["pending"] if _k(s) not in state["choices"]]
            return list(state["pending"])
        return [state["turn"]] if state["turn"] is not None else []

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """List what this seat may do now (specs with the rules' button names)."""
        if seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if phase == "scelta":
            vele, dist = dealer_choices(state["cfg"], state["prefs"][_k(seat)])
            return [
                {"type": "scelta", "vele": v, "distribuzione": d, "label": "CONFERMA"}
                for v in vele
                for d in dist
            ]
        if phase == "invito":
            return pc.invito_specs(state, seat)
        if phase == "scopri":
            return [{"type": "scopro", "card": c, "label": "CONFERMA"} for c in state["covered"][_k(seat)]]
        if phase == "mostra":
            return pc.show_specs()
        return self._betting_specs(state, seat)

    # ------------------------------------------------------------------ apply

    def _may_act(self, state: State, seat: int) -> bool:
        # in the covered-card choice a seat that has chosen waits for the others (see to_act)
        return seat in self.to_act(state)

    def _check(self, state: State, seat: int, action: Action) -> None:
        pc.match_spec(self.legal_actions(state, seat), action, TelesinaError)

    def _do(
        self, state: State, seat: int, action: Action, events: list[Event], *, timeout: bool = False
    ) -> None:
        phase = state["phase"]
        typ = action["type"]
        key = _k(seat)
        if timeout:
            pc.timed_out(state, seat, events, phase == BETTING)
        if phase == "scelta":
            self._chosen(state, action["vele"], action["distribuzione"], events, auto=timeout)
            return
        if phase == "invito":
            pc.answer_invito(state, seat, typ, events)
            if not state["pending"]:
                self._after_invito(state, events)
            return
        if phase == "scopri":
            state["choices"][key] = action["card"]
            events.append({"type": "scelta_carta", "seat": seat, "card": action["card"], "to": [seat]})
            events.append({"type": "scelto", "seat": seat, "auto": timeout})
            if len(state["choices"]) == len(state["pending"]):
                self._reveal_choices(state, events)
            return
        if phase == "mostra":
            self._answer_show(state, seat, typ, events)
            return
        events.append(pc.apply_bet(state, seat, action))
        b = state["b"]
        if len(betting.in_hand(b)) == 1:
            self._end_round(state, events)
            return
        state["turn"] = pc.next_to_bet(b, seat)
        if state["turn"] is None:
            self._end_round(state, events)

    # ------------------------------------------------------------------ automatic decisions

    def _auto(self, state: State, events: list[Event]) -> None:
        """Take every decision that needs nobody: the sitout seats' (P14) and the sitout dealer's."""
        for _ in range(1000):
            phase = state["phase"]
            if phase == "fine":
                return
            if phase == "scopri":
                idle = [s for s in self.to_act(state) if state["sitout"][_k(s)]]
                if not idle:
                    return
                self._do(state, idle[0], self.timeout_action(state, idle[0]), events)
                continue
            if state["pending"]:
                return
            seat = state["turn"]
            if seat is None or not state["sitout"][_k(seat)]:
                return
            action = self.timeout_action(state, seat)
            if phase == "scelta":
                self._chosen(state, action["vele"], action["distribuzione"], events, auto=True)
            else:
                self._do(state, seat, action, events)
        raise RuntimeError("telesina: automatic decisions do not terminate")  # pragma: no cover

    def _own_timeout(self, state: State, seat: int) -> Action | None:
        phase = state["phase"]
        if phase == "scelta":
            vele, dist = dealer_choices(state["cfg"], state["prefs"][_k(seat)])
            v, d = default_choice(vele, dist, state["prefs"][_k(seat)])
            return {"type": "scelta", "vele": v, "distribuzione": d}
        if phase == "scopri":
            return {"type": "scopro", "card": state["covered"][_k(seat)][-1]}  # T5: the newest card
        return None

    # ------------------------------------------------------------------ views and results

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Return what this seat (None: a spectator) may see: up cards, own covered cards, revealed vele."""
        b = state["b"]
        hands: dict[str, Any] = {}
        for key, cards in state["cards"].items():
            covered = state["covered"][key]
            entry: dict[str, Any] = {
                "up": [c for c in cards if c not in covered],
                "covered": len(covered),
            }
            if key in state["shown"]:
                entry["cards"] = list(state["shown"][key])
                entry["shown"] = True
                if key in state["best"]:
                    entry["best"] = copy.deepcopy(state["best"][key])
            elif seat is not None and key == _k(seat):
                entry["cards"] = list(cards)
                entry["covered_cards"] = list(covered)
                if key in state["choices"]:
                    entry["choice"] = state["choices"][key]
            hands[key] = entry
        layout = LAYOUTS.get(state["vele"]) if state["vele"] else None
        out: dict[str, Any] = {
            "game": self.name,
            "phase": state["phase"],
            "dealer": state["dealer"],
            "seats": list(state["seats"]),
            "players": list(state["players"]),
            "to_act": self.to_act(state),
            "chosen": [int(k) for k in state["choices"]],
            **pc.chips_view(b),
            "limit": state["cfg"]["limit"],
            "invito": state["cfg"]["invito"],
            "vele": layout.as_dict() if layout else None,
            "vele_cards": {x: c if x in state["revealed"] else None for x, c in state["vele_cards"].items()},
            "distribuzione": state["distribuzione"],
            "street": state["street"],
            "girate": state["girate"],
            "dealout": state["dealout"],
            "giro_pazzo": "poker" in state,
            "leader": state["leader"],
            "first": state["first"],
            "showing": dict(state["showing"]),
            "stock_count": len(state["stock"]),
            **pc.seats_view(state, hands),
        }
        if seat is not None:
            out["seat"] = seat
            out["legal"] = self.legal_actions(state, seat)
        return out


def state_dead(carry: dict[str, Any]) -> int:
    """The dead money a hand starts with: a pot carried from an earlier hand."""
    return int(carry.get("pot", 0))
