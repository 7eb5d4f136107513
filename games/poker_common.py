"""The poker family's one implementation of what its games share (Poker 5 carte, Telesina).

Both engines call these helpers, so that each rule lives in one place: table options and seat
specs, seat order (G2), the time bank (G5), the invito round (P14, P15), the turn check and spec
matching (G6), the betting buttons and their automatic decision (P6, P9, P14), P11 showdown order
and showing, settlement with rake (P4, P12; pots, limits and odd chips are ``games.betting``), the
hand's result and the common parts of a view. ``PokerTable`` is the engine frame both subclass
(``apply``, ``timeout_action``, the showdown queue, award). Where the games differ for a rules
reason a helper takes a parameter or a hook, documented there (poker's PAROL, opening and blind
buttons, P5/P7/P10; its giro pazzo trigger, P13; the cards of its cambio).

Every helper works on plain state data with these keys: ``cfg`` (the validated table options),
``b`` (the ``games.betting`` state), ``seats``, ``order``, ``prefs``, ``sitout``, ``missed``,
``time_bank``, ``pending``, ``turn``, ``phase``; at showdown ``values``, ``shown``, ``hidden``,
``show_queue``, ``allin_raisers``, ``pots``.
"""

from __future__ import annotations

import copy
from abc import abstractmethod
from bisect import bisect_right
from collections.abc import Callable
from typing import Any, ClassVar

from games import betting, evaluator
from games.engine import (
    CASH,
    MODE_OPTION,
    SPEC_META_KEYS,
    Action,
    ConfigError,
    Engine,
    Event,
    HandOver,
    IllegalAction,
    InvalidAmount,
    InvalidCards,
    NotYourTurn,
    Option,
    SeatSpec,
    State,
    UnknownAction,
    check_table_config,
)
from games.rng import Rng

SHOW_PREFS = ("chiedi", "mostra", "nascondi")
CONFIRM_PASSO = "Vuoi davvero passare? Nessuno ha puntato."

# Table options of every poker-family game (RULINGS G5, P6, P12, P15), with defaults.
TABLE_DEFAULTS: dict[str, Any] = {
    "limit": betting.NL,
    "invito": 100,
    "mode": CASH,
    "rake_percent": 0,  # basis points, at most 1000 (10 %: the rules pay out at least 90 %)
    "rake_cap": None,
    "decision_seconds": 30,
    "time_bank": 0,
}

# The table's own settings each poker-family engine takes (``Engine.table_settings``): the lobby's
# Table columns on the left, these options on the right.
TABLE_SETTINGS: dict[str, str] = {
    "mode": "mode",
    "rake_bp": "rake_percent",
    "rake_cap": "rake_cap",
    "tempo_giocata": "decision_seconds",
    "time_bank": "time_bank",
}

TABLE_OPTIONS: tuple[Option, ...] = (
    Option(
        "limit",
        "Limite di puntata",
        "choice",
        betting.NL,
        ((betting.NL, "No limit"), (betting.PL, "Pot limit"), (betting.FL, "Limite fisso")),
    ),
    Option("invito", "Invito", "int", 100, min=1),
    MODE_OPTION,
    Option("rake_percent", "Rake in punti base (1000 = 10 %)", "int", 0, min=0, max=1000),
    Option("rake_cap", "Tetto del rake per mano", "int", None, min=0, nullable=True),
    Option("decision_seconds", "Tempo per decisione (s)", "int", 30, min=1),
    Option("time_bank", "Time bank (s)", "int", 0, min=0),
    Option("min_credit", "Credito residuo minimo", "int", 100, min=1, help="Se assente: l'invito"),
)

# The string key of a seat in state dicts (JSON keeps string keys only): ``k(seat)``. The builtin
# itself, not a function calling it: it runs many times per action.
k = str


def table_prefs(prefs: dict[str, Any]) -> dict[str, Any]:
    """A seat's preferences at every poker-family table (automatic invito, P11 show); bad ones: defaults."""
    show = prefs.get("mostra_nascondi", "chiedi")
    return {
        "invito_automatico": prefs.get("invito_automatico", False) is True,
        "mostra_nascondi": show if show in SHOW_PREFS else "chiedi",
    }


def with_table_prefs(prefs: Any) -> dict[str, Any]:
    """``{**prefs, **table_prefs(prefs)}`` (same keys in the same order) in one dict (per seat, per hand).

    Anything but a dict counts as ``{}`` (no preferences given).
    """
    out = dict(prefs) if isinstance(prefs, dict) else {}
    show = out.get("mostra_nascondi", "chiedi")
    out["invito_automatico"] = out.get("invito_automatico", False) is True
    out["mostra_nascondi"] = show if show in SHOW_PREFS else "chiedi"
    return out


def validate_table(config: dict[str, Any], extra: tuple[Option, ...]) -> dict[str, Any]:
    """Check the shared table options plus a game's ``extra`` ones; fill defaults.

    Keys, kinds and values are checked against the declared options (games.engine.check_table_config).
    """
    check_table_config((*TABLE_OPTIONS, *extra), config)
    out = {key: config.get(key, default) for key, default in TABLE_DEFAULTS.items()}
    out |= {o.key: config.get(o.key, o.default) for o in extra}
    out["min_credit"] = config.get("min_credit", out["invito"])
    if out["limit"] not in betting.LIMITS:
        raise ConfigError("Limite di puntata non valido (NL, PL, FL)")
    for key in ("invito", "min_credit", "decision_seconds"):
        if type(out[key]) is not int or out[key] < 1:
            raise ConfigError(f"{key}: serve un intero positivo")
    for key in tuple(o.key for o in extra if o.kind == "bool"):
        if type(out[key]) is not bool:
            raise ConfigError(f"{key}: serve un booleano")
    rp = out["rake_percent"]
    if type(rp) is not int or not 0 <= rp <= 1000:
        raise ConfigError("rake_percent: intero in punti base da 0 a 1000 (10%)")
    cap = out["rake_cap"]
    if cap is not None and (type(cap) is not int or cap < 0):
        raise ConfigError("rake_cap: intero non negativo o nullo")
    if type(out["time_bank"]) is not int or out["time_bank"] < 0:
        raise ConfigError("time_bank: intero non negativo")
    if out["mode"] != CASH:
        out["rake_percent"], out["rake_cap"] = 0, None  # P12: rake on cash tables only
    return out


def check_seats(seats: list[SeatSpec], title: str) -> dict[int, SeatSpec]:
    """Check the seat specs (2 to 6, distinct int seats, int chips ≥ 0); return them by seat."""
    if not isinstance(seats, list) or not 2 <= len(seats) <= 6:
        raise ConfigError(f"{title} si gioca da 2 a 6 giocatori")
    out: dict[int, SeatSpec] = {}
    for spec in seats:
        if not isinstance(spec, dict):
            raise ConfigError("Posto non valido")
        seat, chips = spec.get("seat"), spec.get("chips")
        if (
            type(seat) is not int
            or seat not in betting.SEAT_KEY  # betting.SEATS: the numbers a table uses
            or type(chips) is not int
            or chips < 0
            or seat in out
        ):
            raise ConfigError("Posto non valido")
        out[seat] = spec
    return out


def next_after(order: list[int], seat: int) -> int:
    """The first seat clockwise after ``seat`` (which need not be in ``order``); seats grow clockwise."""
    ordered = sorted(order)
    i = bisect_right(ordered, seat)  # the first seat number above ``seat``, else wrap around
    return ordered[i] if i < len(ordered) else ordered[0]


def clockwise(seats: list[int], dealer: int) -> list[int]:
    """The seats clockwise from the dealer's left, the dealer last (RULINGS G2)."""
    ordered = sorted(seats)
    i = ordered.index(dealer)
    return ordered[i + 1 :] + ordered[: i + 1]


def ring(order: list[int], start: int, inclusive: bool) -> list[int]:
    """The seats of ``order`` (a clockwise list) going round from ``start``."""
    i = order.index(start)
    return order[i:] + order[:i] if inclusive else order[i + 1 :] + order[:i]


def use_time_bank(state: State, seat: int, seconds: int) -> int:
    """Spend time-bank seconds of a seat (it never regenerates, RULINGS G5); return the seconds left.

    Exported as ``games.poker5.use_time_bank`` and ``games.telesina.use_time_bank``.
    """
    key = k(seat)
    left = max(0, int(state["time_bank"].get(key, 0)) - max(0, seconds))
    state["time_bank"][key] = left
    return left


def table_state(
    cfg: dict[str, Any],
    specs: dict[int, SeatSpec],
    carry: dict[str, Any],
    rng: Rng,
    prefs: Callable[[Any], dict[str, Any]],
) -> State:
    """The first keys of a hand's state: the seats, the dealer (G2) and what each seat brings.

    The dealer is drawn for the first hand (sorteggio), else the seat after the previous dealer;
    ``prefs`` reads a seat's preferences (each game has its own); missed hands (P15) and the time
    bank (G5) come from ``carry``.
    """
    all_seats = sorted(specs)
    if carry.get("dealer") is None:
        dealer = all_seats[rng.randbelow(len(all_seats))]  # first hand: sorteggio
    else:
        dealer = next_after(all_seats, int(carry["dealer"]))
    banks = carry.get("time_bank", {})
    missed = carry.get("missed", {})
    bank = cfg["time_bank"]
    # one pass over the seats fills the five per-seat books (a new hand's hot path); int() is
    # called only where it would change something (an int is its own int())
    chips0, seat_prefs, sitout, missed_out, bank_out = {}, {}, {}, {}, {}
    for s in all_seats:
        key, spec = betting.SEAT_KEY[s], specs[s]
        chips0[key] = spec["chips"]
        seat_prefs[key] = prefs(spec.get("prefs"))
        sitout[key] = bool(spec.get("sitout", False))
        n = missed.get(key, 0)
        missed_out[key] = n if type(n) is int else int(n)
        n = banks.get(key, bank)
        bank_out[key] = n if type(n) is int else int(n)
    return {
        "v": 1,
        "cfg": cfg,
        "seats": all_seats,
        "dealer": dealer,
        "order": clockwise(all_seats, dealer),
        "chips0": chips0,
        "prefs": seat_prefs,
        "sitout": sitout,
        "missed": missed_out,
        "time_bank": bank_out,
    }


def rng_of(state: State) -> Rng:
    """The Rng of the action being applied (kept in ``state["_rng"]`` only while it runs)."""
    rng = state.get("_rng")
    if rng is None:
        raise RuntimeError("poker_common: no rng available")
    return rng  # type: ignore[no-any-return]  # State values are Any; new() stored the hand's Rng there


def check_turn(
    state: State, seat: Any, action: Any, may_act: Callable[[State, int], bool]
) -> tuple[Action, bool]:
    """Refuse an action out of turn or without a type (G6), without changing anything.

    Return the action without its ``"timeout": True`` marker (sent by the runtime's clock with
    ``timeout_action``) and whether it was there. ``may_act(state, seat)`` tells whether the seat
    is among ``to_act`` (each engine knows how to tell it cheaply).
    """
    if state["phase"] == "fine":
        raise HandOver()
    if type(seat) is not int or not may_act(state, seat):
        raise NotYourTurn()
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise UnknownAction()
    if "timeout" in action:
        if action["timeout"] is not True:
            raise UnknownAction()
        return {key: v for key, v in action.items() if key != "timeout"}, True
    return action, False


def match_spec(
    specs: list[dict[str, Any]],
    action: Action,
    refused: type[IllegalAction],
    card_keys: tuple[str, ...] = ("card", "cards"),
) -> None:
    """Refuse an action that no legal spec allows, with the most telling error.

    ``UnknownAction`` when no spec has its type; ``InvalidCards`` when it names cards (a key of
    ``card_keys``) the specs do not allow; ``InvalidAmount`` when it has an amount; else
    ``refused`` (the game's own error). Poker 5 carte checks its cambio cards before asking (its
    only card action, too many combinations to list) and passes no ``card_keys``, so any other
    wrong action of its is refused by amount or as a poker error.
    """
    typ = action["type"]
    same_type = False
    for sp in specs:
        # spec_matches compares the type first, so only the specs of this type can match
        if sp["type"] == typ:
            if spec_matches(sp, action):
                return
            same_type = True
    if not same_type:
        raise UnknownAction()
    if any(key in action for key in card_keys):
        raise InvalidCards()
    raise InvalidAmount() if "amount" in action else refused()


def spec_matches(spec: dict[str, Any], action: Action) -> bool:
    """``games.engine.spec_matches`` in one pass, without temporary dicts and sets (same answers).

    tests/games/poker5/test_poker5_speedups.py checks the two agree.
    """
    for key, value in spec.items():
        if key not in SPEC_META_KEYS and action.get(key) != value:
            return False
    has_amount = "amount" in spec
    for key in action:
        if key == "amount" and has_amount:
            continue
        if key in SPEC_META_KEYS or key not in spec:
            return False  # a key the spec does not name
    if has_amount:
        amount = action.get("amount")
        bounds = spec["amount"]
        return type(amount) is int and bounds["min"] <= amount <= bounds["max"]
    return True


def may_act(state: State, seat: int) -> bool:
    """Tell whether ``seat`` must decide now: among the pending seats, else the one whose turn it is."""
    if state["phase"] == "fine":
        return False
    pending = state["pending"]
    if pending:
        return seat in pending
    turn = state["turn"]
    return turn is not None and turn == seat


class PokerTable(Engine):
    """What every poker-family engine does the same way: the frame of ``apply`` and the showdown.

    A game supplies ``_may_act`` (is the seat among ``to_act``), ``_check`` (refuse what its specs
    do not allow), ``_do`` (apply a checked action), ``_auto`` (the decisions nobody is waited for,
    P14), ``_show`` (its MOSTRO event), ``_award`` and ``_end``.
    """

    family: ClassVar[str] = "puntate"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 6

    _may_act = staticmethod(may_act)  # a game whose to_act is not pending/turn overrides it

    def apply(self, state: State, seat: int, action: Action, rng: Rng) -> list[Event]:
        """Apply one seat's action; raise IllegalAction and change nothing if it is refused."""
        action, timeout = check_turn(state, seat, action, self._may_act)
        self._check(state, seat, action)
        events: list[Event] = []
        state["_rng"] = rng
        try:
            if timeout:
                self._do(state, seat, action, events, timeout=True)
            else:
                self._do(state, seat, action, events)  # no keyword argument: the common call
            self._auto(state, events)
        finally:
            state.pop("_rng", None)
        return events

    def timeout_action(self, state: State, seat: int) -> Action:
        """Return the automatic decision of the rules for this seat (P14; hide at showdown).

        No invito (sitout), NASCONDO, BUSSO or else PASSO in a betting round; the decisions of a
        game's own phases come from ``_own_timeout``.
        """
        phase = state["phase"]
        if phase == "invito":
            return {"type": "sitout"}
        if phase == "mostra":
            return {"type": "nascondo"}
        own = self._own_timeout(state, seat)
        return own if own is not None else betting_timeout(self._betting_specs(state, seat))

    def _own_timeout(self, state: State, seat: int) -> Action | None:
        """The automatic decision in a phase of the game's own, None in a betting round."""
        return None

    def _betting_specs(self, state: State, seat: int) -> list[dict[str, Any]]:
        """The betting buttons of this seat (a game adds its own, see poker)."""
        return betting_specs(state, seat)

    def outcome(self, state: State) -> dict[str, Any]:
        """Chips per seat, rake, pots awarded, pot carried in and out (chips conserve with these)."""
        if state["phase"] != "fine":
            raise IllegalAction("La mano non è terminata")
        res = state["result"]
        out = {
            **res,
            "chips": dict(res["chips"]),
            "pots": copy_pots(res["pots"]),
            "sitout": list(res["sitout"]),
            "stand_up": list(res["stand_up"]),
        }
        if "handoff" in res:  # poker's giro pazzo (P13)
            out["handoff"] = dict(res["handoff"])
        return out

    def carry(self, state: State) -> dict[str, Any] | None:
        """What the next hand starts from: dealer, a pot still waiting, time bank, missed hands.

        Poker's carry also has the opening minimum, the parol players and the giro pazzo (P5, P10,
        P13); a Telesina deal of the giro pazzo answers with the same keys (``games.telesina``).
        """
        if state["phase"] != "fine":
            return None
        c = state["carry_out"]
        out = {**c, "time_bank": dict(c["time_bank"]), "missed": dict(c["missed"])}
        if c.get("parol"):
            out["parol"] = {"seats": list(c["parol"]["seats"])}
        if "handoff" in c:
            out["handoff"] = dict(c["handoff"])
        return out

    def is_over(self, state: State) -> bool:
        """Tell whether the hand has ended."""
        phase: str = state["phase"]  # typed, so the comparison needs no bool() call (every action)
        return phase == "fine"

    @abstractmethod
    def _check(self, state: State, seat: int, action: Action) -> None:
        """Implemented by each game."""

    @abstractmethod
    def _do(
        self, state: State, seat: int, action: Action, events: list[Event], *, timeout: bool = False
    ) -> None:
        """Implemented by each game."""

    @abstractmethod
    def _auto(self, state: State, events: list[Event]) -> None:
        """Implemented by each game."""

    @abstractmethod
    def _show(self, state: State, seat: int, events: list[Event], auto: bool = False) -> None:
        """Implemented by each game."""

    @abstractmethod
    def _end(self, state: State, events: list[Event]) -> None:
        """Implemented by each game."""

    def _continue_showdown(self, state: State, events: list[Event]) -> None:
        """Go on with the showdown queue (P11): ask the next seat, or award the pots once all spoke."""
        state["turn"] = next_to_show(state, events, self._show)
        if state["turn"] is None:
            self._award(state, events)

    def _award(self, state: State, events: list[Event]) -> None:
        """Pay every pot to its best shown hands (P4, P12 rake), then end the hand."""
        self._before_award(state, events)
        pots = settle_showdown(state)
        events.append({"type": "piatti", "pots": copy_pots(pots)})
        state["pots"] = pots
        self._end(state, events)

    def _before_award(self, state: State, events: list[Event]) -> None:
        """A game's own step once every hand is shown or hidden (poker: the giro pazzo trigger)."""

    def _win_uncontested(self, state: State, events: list[Event]) -> None:
        """Pay every pot to the one seat left in the hand; it may show or hide, then the hand ends."""
        (winner,) = betting.in_hand(state["b"])
        pots = settle(state, lambda _e: [winner])
        events.append({"type": "piatti", "pots": copy_pots(pots), "uncontested": True})
        state["pots"] = pots
        if self._has_cards(state) and offer_show(state, winner, events, self._show):
            return
        self._end(state, events)

    def _win_on_invito(self, state: State, events: list[Event], winner: int) -> None:
        """RULINGS L1: the one seat of a tournament hand not in sitout takes the whole pot at once
        (every invito and a carried pot: nothing is handed back); no cards are dealt or shown. With
        every seat in sitout, the first to speak of those who paid into the hand (``invito_winner``)."""
        b = state["b"]
        whole = [{"amount": betting.pot_total(b), "eligible": [winner]}]
        pots = settle(state, lambda _e: [winner], whole)
        events.append({"type": "piatti", "pots": copy_pots(pots), "uncontested": True})
        state["pots"] = pots
        self._end(state, events)

    def _has_cards(self, state: State) -> bool:
        """Tell whether cards were dealt (a hand can be won before the deal in poker, P10)."""
        return True

    def _answer_show(self, state: State, seat: int, typ: str, events: list[Event]) -> None:
        """Apply a MOSTRO / NASCONDO and go on (an uncontested winner's answer ends the hand)."""
        if answer_show(state, seat, typ, events, self._show):
            self._end(state, events)
        else:
            self._continue_showdown(state, events)


def chips_view(b: betting.Betting) -> dict[str, Any]:
    """The public chips of a view: stacks, this round's bets, each seat's total, the pot, who folded."""
    return {
        "stacks": dict(b["stack"]),
        "bets": dict(b["round"]),
        "put_in": dict(b["total"]),
        "pot": betting.pot_total(b),
        "folded": list(b["folded"]),
    }


def seats_view(state: State, hands: dict[str, Any]) -> dict[str, Any]:
    """The last keys of a view: the hands as the viewer may see them, sitout, time bank, result."""
    return {
        "hands": hands,
        "hidden": list(state["hidden"]),
        "sitout": dict(state["sitout"]),
        "time_bank": dict(state["time_bank"]),
        "result": copy.deepcopy(state["result"]),
    }


def show_specs() -> list[dict[str, Any]]:
    """The MOSTRO / NASCONDO specs of the showdown (a timeout hides)."""
    return [spec_of(button) for button in SHOW_BUTTONS]


# ---------------------------------------------------------------------- invito (P14, P15)


def start_invito(state: State, events: list[Event]) -> list[int]:
    """Take or ask the invito from every seat; return the seats that must still answer INVITO/SITOUT.

    Cash: sitout seats and seats below the credito residuo minimo are not dealt in (missed hand
    counted, P15); automatic invito posts it; the others are asked. Tournament: the invito is taken
    from everyone with chips, sitout seats included, and sitout seats then fold (P14, RULINGS L1).
    """
    cfg, b = state["cfg"], state["b"]
    stack, folded = b["stack"], b["folded"]
    sitout, missed, prefs = state["sitout"], state["missed"], state["prefs"]
    cash = cfg["mode"] == CASH
    pending = []
    for s in state["order"]:
        key = betting.SEAT_KEY[s]
        chips = stack[key]
        if cash:
            if sitout[key] or chips < cfg["min_credit"] or chips == 0:
                if not sitout[key]:
                    sitout[key] = True
                    events.append({"type": "sitout", "seat": s, "reason": "credito"})
                missed[key] += 1
                folded.append(s)
            elif prefs[key]["invito_automatico"]:
                post_invito(state, s, events)
            else:
                pending.append(s)
        elif chips == 0:
            folded.append(s)  # eliminated from the tournament
        else:
            post_invito(state, s, events)
            if sitout[key]:
                folded.append(s)
                events.append({"type": "passo", "seat": s, "auto": True})
    return pending


def invito_winner(state: State) -> int | None:
    """The seat a tournament hand's pot goes to on the invito, or None when the hand goes on (two
    or more seats playing): the one seat not in sitout (RULINGS L1), or with every seat in sitout
    the first to speak of those who paid into the hand (the product's decision, where L1 names
    none): a pot nobody may win is never carried, so a table of absent players still blinds them
    off to a winner."""
    b = state["b"]
    players = betting.in_hand(b)
    if len(players) >= 2:
        return None
    if players:
        return players[0]
    return next((s for s in b["order"] if b["total"][betting.SEAT_KEY[s]] > 0), None)


def walkover(state: State) -> bool:
    """Tell whether at most one seat with chips is not in sitout: a tournament hand then ends on the
    invito, that seat taking the pot with no cards dealt (RULINGS L1)."""
    stack, sitout = state["b"]["stack"], state["sitout"]
    return sum(1 for s in state["order"] if stack[k(s)] > 0 and not sitout[k(s)]) < 2


def post_invito(state: State, seat: int, events: list[Event]) -> None:
    """Put a seat's invito in the pot (all of its chips if fewer)."""
    paid = betting.post(state["b"], seat, state["cfg"]["invito"])
    state["missed"][betting.SEAT_KEY[seat]] = 0  # a seat of the hand (int)
    events.append({"type": "invito", "seat": seat, "amount": paid})


def answer_invito(state: State, seat: int, typ: str, events: list[Event]) -> None:
    """Apply a seat's INVITO or SITOUT answer."""
    state["pending"].remove(seat)
    if typ == "invito":
        post_invito(state, seat, events)
        return
    key = k(seat)
    state["sitout"][key] = True
    state["missed"][key] += 1
    state["b"]["folded"].append(seat)
    events.append({"type": "sitout", "seat": seat, "reason": "invito"})


def invito_buttons(state: State, seat: int) -> list[Button]:
    """The INVITO / SITOUT buttons of a cash table."""
    amt = min(state["cfg"]["invito"], state["b"]["stack"][k(seat)])
    return [("invito", "INVITO", amt, amt, None), ("sitout", "SITOUT", None, None, None)]


def invito_specs(state: State, seat: int) -> list[dict[str, Any]]:
    """The INVITO / SITOUT specs of a cash table."""
    return [spec_of(button) for button in invito_buttons(state, seat)]


def refund_inviti(b: betting.Betting) -> None:
    """Give the inviti of a hand that cannot start back (a carried pot keeps waiting)."""
    for s in b["order"]:
        key = k(s)
        b["stack"][key] += b["total"][key]
        b["total"][key] = 0


# ---------------------------------------------------------------------- betting buttons (P6, P9)


# A betting button: the light form of a legal-action spec that the hot paths use (listing,
# sampling and checking an action without building dicts): ``(type, label, min, max, confirm)``,
# ``min``/``max`` None for a button without an amount, ``confirm`` None without a question.
# ``spec_of`` turns it into the contract's spec; ``match_button`` checks an action against them.
Button = tuple[str, str, int | None, int | None, str | None]

BUSSO: Button = ("busso", "BUSSO", None, None, None)
PASSO: Button = ("passo", "PASSO", None, None, None)
PASSO_CONFIRM: Button = ("passo", "PASSO", None, None, CONFIRM_PASSO)
SHOW_BUTTONS: tuple[Button, ...] = (
    ("mostro", "MOSTRO", None, None, None),
    ("nascondo", "NASCONDO", None, None, None),
)


def spec_of(button: Button) -> dict[str, Any]:
    """The legal-action spec of a button (``games.engine``)."""
    typ, label, lo, hi, confirm = button
    if lo is not None:
        return {"type": typ, "label": label, "amount": {"min": lo, "max": hi}}
    if confirm is not None:
        return {"type": typ, "label": label, "confirm": confirm}
    return {"type": typ, "label": label}


def match_button(buttons: list[Button], action: Action, refused: type[IllegalAction]) -> None:
    """``match_spec(specs_of(buttons), action, refused, card_keys=())`` without building the specs.

    A button's spec has no key but ``type`` beside its meta keys, so an action matches it when its
    keys are exactly ``type`` (and ``amount``, an int in range, for a button with an amount).
    """
    typ = action["type"]
    same_type = False
    for t, _label, lo, hi, _confirm in buttons:
        if t == typ:
            if lo is None or hi is None:  # no amount (both None)
                if len(action) == 1:
                    return
            elif len(action) == 2:
                amount = action.get("amount")
                if type(amount) is int and lo <= amount <= hi:
                    return
            same_type = True
    if not same_type:
        raise UnknownAction()
    raise InvalidAmount() if "amount" in action else refused()


def amount_button(typ: str, label: str, lo: int, hi: int, stack: int) -> Button:
    """A button with an amount range; NB.1 of the rules: it reads RESTO for the whole credit."""
    if lo == hi == stack:
        label = "RESTO"
    return (typ, label, lo, hi, None)


def betting_buttons(
    state: State, seat: int, min_bet: int | None = None, after_busso: tuple[Button, ...] = ()
) -> list[Button]:
    """PASSO / BUSSO / PUNTO / RILANCIO / VEDO (RESTO) for a seat in an ordinary betting round.

    ``min_bet`` defaults to the invito (poker's parol hand opens for the pot, P10); ``after_busso``
    are the game's own buttons offered with BUSSO when nothing is bet (poker's PAROL, P10).
    """
    b, cfg = state["b"], state["cfg"]
    stack = b["stack"][betting.SEAT_KEY[seat] if type(seat) is int else k(seat)]  # as in ranges
    invito = cfg["invito"]
    check, call, kind, lo, hi = betting.ranges(b, seat, cfg["limit"], min_bet or invito, invito)
    # the buttons with an amount as amount_button builds them, inline (every betting listing)
    if check:
        if kind == "bet":
            punto = ("punto", "RESTO" if lo == hi == stack else "PUNTO", lo, hi, None)
            return [BUSSO, *after_busso, punto, PASSO_CONFIRM]
        return [BUSSO, *after_busso, PASSO_CONFIRM]
    vedo: Button = ("vedo", "RESTO" if call == stack else "VEDO", call, call, None)
    if kind == "raise":
        return [vedo, ("rilancio", "RESTO" if lo == hi == stack else "RILANCIO", lo, hi, None), PASSO]
    return [vedo, PASSO]


def betting_specs(state: State, seat: int, min_bet: int | None = None) -> list[dict[str, Any]]:
    """The specs of ``betting_buttons`` (Telesina's betting round)."""
    return [spec_of(button) for button in betting_buttons(state, seat, min_bet)]


def betting_timeout(specs: list[dict[str, Any]]) -> dict[str, Any]:
    """P14: a sitout or timed-out seat checks when it may (poker's blind raiser: VA BENE), else folds."""
    types = {sp["type"] for sp in specs}
    if "va_bene" in types:
        return {"type": "va_bene"}
    return {"type": "busso"} if "busso" in types else {"type": "passo"}


def apply_bet(state: State, seat: int, action: dict[str, Any]) -> Event:
    """Apply a validated PASSO / BUSSO / PUNTO / RILANCIO / VEDO; return its event.

    A bet or raise of the whole stack marks the seat as an all-in raiser, who shows at showdown
    (P11, ``state["allin_raisers"]``).
    """
    b = state["b"]
    typ = action["type"]
    amount = action.get("amount", 0)  # an int: the specs allow nothing else
    ev: Event = {"type": typ, "seat": seat}
    if typ == "passo":
        betting.act(b, seat, "fold")
    elif typ == "busso":
        betting.act(b, seat, "check")
    elif typ == "vedo":
        betting.act(b, seat, "call")
        ev["amount"] = amount
    else:
        betting.act(b, seat, "bet" if typ == "punto" else "raise", amount)
        ev["amount"] = amount
        if b["stack"][betting.SEAT_KEY[seat]] == 0:
            state["allin_raisers"].append(seat)
            ev["resto"] = True
    return ev


def next_to_bet(b: betting.Betting, start: int, inclusive: bool = False) -> int | None:
    """The next seat from ``start`` that must still speak in this round, or None."""
    return betting.next_to_act_from(b, start, inclusive)  # next_to_act(b, ring(...)) without the ring


# ---------------------------------------------------------------------- showdown (P11)


# An engine's MOSTRO: ``show(state, seat, events, auto)`` moves the seat from the showdown queue to
# ``state["shown"]`` and emits its ``mostro`` event (each game describes the hand its own way).
Show = Callable[[State, int, list[Event], bool], None]


def timed_out(state: State, seat: int, events: list[Event], betting_phase: bool) -> None:
    """Record a timeout; in a betting phase it also sends the seat sitout (RULINGS P14)."""
    events.append({"type": "timeout", "seat": seat})
    key = k(seat)
    if betting_phase and not state["sitout"][key]:
        state["sitout"][key] = True
        events.append({"type": "sitout", "seat": seat, "reason": "timeout"})


def start_showdown(state: State, start: int, live: list[int]) -> None:
    """Queue the live seats for MOSTRO / NASCONDO clockwise from ``start`` (or the next live seat)."""
    b = state["b"]
    if start not in live:
        start = next(s for s in ring(b["order"], start, False) if s in live)
    state["phase"] = "mostra"
    state["show_queue"] = [s for s in ring(b["order"], start, True) if s in live]
    state["turn"] = None
    state["pots_preview"] = betting.pots(b)


def next_to_show(state: State, events: list[Event], show: Show) -> int | None:
    """Go down the showdown queue, showing or hiding where the rules or a preference decide (P11).

    Return the seat to ask MOSTRO / NASCONDO, or None once every seat has shown or hidden.
    """
    queue: list[int] = state["show_queue"]
    while queue:
        s = queue[0]
        if must_show(state, s, state["pots_preview"]):
            show(state, s, events, True)
            continue
        pref = show_pref(state, s)
        if pref == "chiedi":
            return s
        if pref == "mostra":
            show(state, s, events, True)
        else:
            hide(state, s, events, auto=True)
    return None


def offer_show(state: State, winner: int, events: list[Event], show: Show) -> bool:
    """Let a seat that won uncontested show or hide (hidden on timeout); True if it must be asked."""
    state["phase"] = "mostra"
    state["show_queue"] = [winner]
    pref = show_pref(state, winner)
    if pref == "chiedi":
        state["turn"] = winner
        state["after_show"] = "end"
        return True
    if pref == "mostra":
        show(state, winner, events, True)
    else:
        hide(state, winner, events, auto=True)
    return False


def answer_show(state: State, seat: int, typ: str, events: list[Event], show: Show) -> bool:
    """Apply a seat's MOSTRO / NASCONDO; True if that ends the hand (an uncontested winner's answer)."""
    if typ == "mostro":
        show(state, seat, events, False)
    else:
        hide(state, seat, events)
    state["turn"] = None
    return bool(state.pop("after_show", None) == "end")


def hide(state: State, seat: int, events: list[Event], auto: bool = False) -> None:
    """NASCONDO: the seat leaves the showdown queue without showing (it wins no contested pot)."""
    state["show_queue"].remove(seat)
    state["hidden"].append(seat)
    events.append({"type": "nascondo", "seat": seat, "auto": auto})


def settle(
    state: State, winners_of: Callable[[list[int]], list[int]], built: list[betting.Pot] | None = None
) -> list[betting.Pot]:
    """Award every pot to ``winners_of(eligible)`` with the table's rake (P12; ``games.betting.settle``)."""
    cfg = state["cfg"]
    return betting.settle(
        state["b"], winners_of, rake_bp=cfg["rake_percent"], rake_cap=cfg["rake_cap"], built=built
    )


def settle_showdown(state: State) -> list[betting.Pot]:
    """Award every pot to its best shown hands (P4: a tie splits, G1 odd chips in ``games.betting``)."""
    values, shown = state["values"], state["shown"]

    def winners_of(eligible: list[int]) -> list[int]:
        contenders = [s for s in eligible if betting.SEAT_KEY[s] in shown]
        idx = evaluator.pot_winners([values[betting.SEAT_KEY[s]] for s in contenders])
        return [contenders[i] for i in idx]

    # the pots of start_showdown's preview: built after the uncalled chips went back, and showing
    # or hiding moves no chips, so they are the pots to settle (not built a second time)
    return settle(state, winners_of, state.pop("pots_preview", None))


def copy_pots(pots: list[betting.Pot]) -> list[dict[str, Any]]:
    """A copy of settled pots for an event or a result (same as a deep copy, faster)."""
    return [
        {**p, "eligible": list(p["eligible"]), "winners": list(p["winners"]), "shares": dict(p["shares"])}
        for p in pots
    ]


def close_hand(state: State, *, carry_pot: bool) -> int:
    """End the play of the hand (phase ``fine``); return the pot carried to a later hand, if any.

    A carried pot stays in the middle as dead money: out of this hand's stacks for good.
    """
    b = state["b"]
    state["phase"] = "fine"
    state["turn"] = None
    state["pending"] = []
    carried = betting.pot_total(b) if carry_pot else 0
    if carry_pot:
        for key in b["total"]:
            b["total"][key] = 0
            b["round"][key] = 0
        b["dead"] = carried
    return carried


def hand_result(state: State, carried: int, pots: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``outcome`` fields every poker-family hand reports (conservation: see the engines)."""
    seats, sitout, missed = state["seats"], state["sitout"], state["missed"]
    cash = state["cfg"]["mode"] == CASH
    return {
        "chips": dict(state["b"]["stack"]),
        "rake": sum([p["rake"] for p in pots]),  # a list, not a generator: faster
        "pots": pots,
        "carried_in": state["carried_in"],
        "carried_out": carried,
        "sitout": [s for s in seats if sitout[betting.SEAT_KEY[s]]],
        # P15: ten consecutive hands missed sitting out on a cash table: stood up
        "stand_up": [s for s in seats if missed[betting.SEAT_KEY[s]] >= 10] if cash else [],
    }


def must_show(state: State, seat: int, pots_preview: list[dict[str, Any]]) -> bool:
    """Tell whether a seat shows automatically at showdown (RULINGS P11).

    It does if it went all-in raising, or if it beats the best hand shown so far in some pot it may
    win (or nothing is shown there yet), so every pot has a shown winner. ``state["values"]`` holds
    the hands' values (``games.evaluator`` order), ``state["shown"]`` the seats that showed.
    """
    if seat in state["allin_raisers"]:
        return True
    values, shown = state["values"], state["shown"]
    mine = values[k(seat)]
    for pot in pots_preview:
        if seat not in pot["eligible"]:
            continue
        seen = [values[betting.SEAT_KEY[s]] for s in pot["eligible"] if betting.SEAT_KEY[s] in shown]
        if not seen or evaluator.beats(mine, seen[evaluator.pot_winners(seen)[0]]):
            return True
    return False


def show_pref(state: State, seat: int) -> str:
    """The MOSTRO / NASCONDO preference of a seat (a sitout seat hides)."""
    key = k(seat)
    return "nascondi" if state["sitout"][key] else str(state["prefs"][key]["mostra_nascondi"])
