"""The engine contract every game implements (ARCHITECTURE.md, "The engine contract").

An engine is a stateless object; the game lives in ``state``, plain JSON data (dicts with string
keys, lists, ints, strings, booleans, None: no tuples, no int keys, no floats for money) that
round-trips through ``json`` exactly. Conventions shared by all games:

* Seats are the table's seat numbers (ints). ``new`` receives one ``SeatSpec`` per player dealt in:
  ``{"seat": 3, "chips": 1500, "sitout": False, "prefs": {...}}`` (``chips`` for giochi a
  puntate; ``prefs`` are the player's "opzioni di gioco", keys from ``games.options``).
* An action is a dict ``{"type": "<key>", ...parameters}``. ``legal_actions`` returns *specs*:
  ``{"type": "punto", "label": "PUNTO", "amount": {"min": 20, "max": 160}}``. A spec without
  ``amount`` is concrete: the action is the spec minus ``label``/``confirm``/``amount``. A spec
  with ``amount`` needs an integer ``amount`` in that range. ``confirm`` holds the Italian question
  the table asks before sending (e.g. PASSO when nothing is bet).
* ``apply`` validates completely before it changes anything: a refused action raises an
  ``IllegalAction`` subclass and leaves ``state`` exactly as it was. On success it mutates
  ``state`` in place and returns the events, full-information records for the hand history.
  An event carrying ``"to": [seats]`` is private to those seats; every other event must be free
  of hidden information, so the runtime may show it to anyone.
* ``view(state, seat)`` is the only thing that reaches a client; ``seat=None`` is a spectator.
* The deck order of every deal is kept in ``state["deck_log"]`` (a list of card lists) for audit
  and replay (RULINGS G4); no view ever includes it.
* Table options: ``config_options()`` lists the options a game implements (``Option``: key,
  Italian label, kind, default, values); ``validate_config`` refuses any other key
  (``unknown_config_key``), a value outside an option's values (``invalid_config``) and an option
  of the game's family it does not implement set to a working value (``unsupported_config``),
  through ``check_table_config``. The back office offers the same list.
* Money: ``outcome()`` has ``chips`` (the credit at the end of each seat dealt in, string keys),
  ``rake``, ``carried_in`` / ``carried_out`` (chips that belong to no seat's credit and pass from
  hand to hand: piatto di parol, bestia, a held banco) and ``paid_out`` (``{seat: chips}`` paid to
  a seat no longer dealt in: Chemin de fer's banco held for a banker who left, paid back); a key
  a game does not report counts 0. One formula holds for every hand of every game::

      sum(starting chips) + carried_in == sum(chips) + rake + carried_out + sum(paid_out)

  (``money_out`` computes its right side). Giochi a partite move no chips inside the engine (every
  term is 0): their report gives the match (points, MP/VP) and the C1 cash inputs the lobby
  settles (games.partite).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games.rng import Rng

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]
SeatSpec = dict[str, Any]

SPEC_META_KEYS = frozenset({"label", "confirm", "amount"})


class CodedError(Exception):
    """A refusal with a stable ``code`` (API) and an Italian ``message`` (UI); nothing changed.

    The one base of the platform's refusals: engines here, the lobby and the wallet subclass it.
    """

    code: ClassVar[str] = "error"
    default_message: ClassVar[str] = "Operazione non ammessa"

    def __init__(self, message: str | None = None, **details: Any) -> None:
        self.message = message or self.default_message
        self.details = details
        super().__init__(self.message)

    def as_dict(self) -> dict[str, Any]:
        """Return the error as sent to a client: stable code, Italian message, details."""
        return {
            "code": self.code,
            "message": self.message,
            **({"details": self.details} if self.details else {}),
        }


class EngineError(CodedError):
    """Base of every error an engine raises."""

    code = "engine_error"
    default_message = "Errore del gioco"


class ConfigError(EngineError):
    """A table configuration the game does not allow."""

    code = "invalid_config"
    default_message = "Configurazione del tavolo non valida"


class UnknownConfigKey(ConfigError):
    """A table option the game does not have."""

    code = "unknown_config_key"
    default_message = "Opzione del tavolo sconosciuta per questo gioco"


class UnsupportedConfig(ConfigError):
    """An option the game carries in its config but does not implement, set to another value."""

    code = "unsupported_config"
    default_message = "Opzione non prevista per questo gioco"


class IllegalAction(EngineError):
    """An action the rules do not allow now ("Congruenza dei dati trasmessi", RULINGS G6)."""

    code = "illegal_action"
    default_message = "Giocata non ammessa"


class NotYourTurn(IllegalAction):
    code = "not_your_turn"
    default_message = "Non è il tuo turno"


class UnknownAction(IllegalAction):
    code = "unknown_action"
    default_message = "Giocata non ammessa"


class InvalidAmount(IllegalAction):
    code = "invalid_amount"
    default_message = "Importo non ammesso"


class InvalidCards(IllegalAction):
    code = "invalid_cards"
    default_message = "Carte non ammesse"


class HandOver(IllegalAction):
    code = "hand_over"
    default_message = "La mano è terminata"


@dataclass(frozen=True)
class Option:
    """One preference: its key, Italian label, kind, default and allowed values."""

    key: str
    label: str
    kind: str  # "bool" | "choice" | "int" | "data"
    default: Any
    choices: tuple[tuple[Any, str], ...] = ()
    min: int | None = None
    max: int | None = None
    help: str = ""
    nullable: bool = False  # None is allowed too (e.g. no rake cap)
    # the other options its values assume (carte scoperte: a coppie; a banco minimo of 2: a
    # puntata minima of 2), set with it when each value is tried
    requires: tuple[tuple[str, Any], ...] = ()

    def accepts(self, value: Any) -> bool:
        """Tell whether ``value`` is of this option's kind and among its values."""
        if value is None and self.nullable:
            return True
        if self.kind == "bool":
            return type(value) is bool
        if self.kind == "choice":
            return any(type(value) is type(c) and value == c for c, _ in self.choices)
        if self.kind == "int":
            return (
                type(value) is int
                and (self.min is None or value >= self.min)
                and (self.max is None or value <= self.max)
            )
        return True  # "data": the engine checks it

    def sample_values(self) -> list[Any]:
        """Return the documented values to try: every choice, both booleans, an int's ends, None."""
        if self.kind == "bool":
            values: list[Any] = [False, True]
        elif self.kind == "choice":
            values = [c for c, _ in self.choices]
        elif self.kind == "int":
            values = [v for v in (self.min, self.default, self.max) if v is not None]
        else:
            values = [self.default]
        if self.nullable:
            values.append(None)
        out: list[Any] = []
        for v in values:
            if not any(type(v) is type(o) and v == o for o in out):
                out.append(v)
        return out


def check_table_config(
    options: Sequence[Option], config: Any, inert: Mapping[str, Any] | None = None
) -> None:
    """Refuse a table config with a key, value or option the engine does not implement.

    ``inert``: keys an engine's filled config carries but does not implement, each accepted only
    at its one inert value (a stored config keeps them; setting one to anything else is refused).
    """
    if not isinstance(config, dict):
        raise ConfigError("Configurazione del tavolo non valida")
    known = {o.key: o for o in options}
    for key, value in config.items():
        if inert and key in inert:
            if type(value) is not type(inert[key]) or value != inert[key]:
                raise UnsupportedConfig(key=key, value=value)
            continue
        option = known.get(key)
        if option is None:
            raise UnknownConfigKey(key=key)
        if not option.accepts(value):
            raise ConfigError(f"{option.label} ({key}): valore non ammesso", key=key, value=value)


# The tournament switch of every gioco a puntate: the option ``mode``, "cash" (a cash table) or
# "tournament" (a level tournament's table: no rake, eliminations, the rules' tournament lines). The
# lobby sets it from the table (platform key "mode" in ``Engine.table_settings``); any other key or
# value is refused by ``check_table_config`` like every option.
CASH, TOURNAMENT = "cash", "tournament"
MODE_OPTION = Option("mode", "Tavolo", "choice", CASH, ((CASH, "Cash"), (TOURNAMENT, "Torneo")))


def is_tournament(config: Mapping[str, Any]) -> bool:
    """Tell whether a validated config is a tournament table's (``mode`` "tournament")."""
    return config.get("mode") == TOURNAMENT


class Engine(ABC):
    """A game's rules as a pure, deterministic state machine."""

    name: ClassVar[str]  # registry key, e.g. "poker5"
    title: ClassVar[str]  # Italian name shown to players
    family: ClassVar[str]  # "puntate" (chips and pots) or "partite" (two lines play a match)
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    # How the platform's table settings reach this engine's config: platform key -> config key.
    # Platform keys: "mode" ("cash" or "tournament": ``MODE_OPTION``), "rake_bp" (int, basis points),
    # "rake_cap" (int cents or None), "tempo_giocata" (s), "time_bank" (s). Unmapped keys are not
    # passed (the lobby then settles them itself, e.g. the C1 rake of giochi a partite).
    table_settings: ClassVar[dict[str, str]] = {}
    # The tempo giocata (s) a table of this game gets when its staff set none: one decision's time,
    # which at a gioco a partite is also a dropped player's time to come back (RULINGS G5).
    default_tempo_giocata: ClassVar[int] = 30

    def config_options(self) -> tuple[Option, ...]:
        """Return the table options this game implements (games.options; the back office offers them).

        ``validate_config`` refuses any other key through ``games.options.check_table_config``.
        """
        return ()

    def inert_config(self) -> dict[str, Any]:
        """Return the keys a filled config carries that this game does not implement, and the one
        value each is accepted at (an option shared by a family of games, inert here)."""
        return {}

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """Return the table configuration with defaults filled in; raise ConfigError if invalid."""
        check_table_config(self.config_options(), config, self.inert_config())
        return dict(config)

    @abstractmethod
    def new(
        self, config: dict[str, Any], seats: list[SeatSpec], rng: Rng, carry: dict[str, Any] | None = None
    ) -> State:
        """Start a hand (or a match) for the seats dealt in, from the previous hand's carry."""

    @abstractmethod
    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """List what this seat may do now (specs, see the module docstring); empty if nothing."""

    @abstractmethod
    def to_act(self, state: State) -> list[int]:
        """Return the seats that must decide now (several at once is allowed); empty when over."""

    @abstractmethod
    def apply(self, state: State, seat: int, action: Action, rng: Rng) -> list[Event]:
        """Apply one seat's action, mutating ``state``; raise IllegalAction and change nothing if refused."""

    @abstractmethod
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Return what this seat (None: a spectator) may see of the state."""

    @abstractmethod
    def timeout_action(self, state: State, seat: int) -> Action:
        """Return the automatic decision the rules prescribe when this seat's time runs out."""

    @abstractmethod
    def is_over(self, state: State) -> bool:
        """Tell whether the hand (or match) has ended."""

    @abstractmethod
    def outcome(self, state: State) -> dict[str, Any]:
        """Return the result of an ended hand or match (chips per seat and rake, or match points)."""

    def carry(self, state: State) -> dict[str, Any] | None:
        """Return what the next hand starts from (dealer, piatto di parol…); None if nothing."""
        return None

    def line_of(self, state: State, seat: int) -> str:
        """Return the line a seat plays for (its own, unless partners share one: tempo partita)."""
        return str(seat)

    def deck_continues(self, carry: dict[str, Any] | None) -> bool:
        """Tell whether the next hand deals on from the cards ``carry`` holds (chemin de fer's sabot):
        then the deck orders of the hands before it still hold cards to come. False: each hand
        deals its own deck."""
        return False

    def release_seat(self, carry: dict[str, Any] | None, seat: int) -> tuple[dict[str, Any] | None, int]:
        """A seat leaves the table between hands: return the carry without it and what it takes away.

        Money a game holds for a seat across hands (a chemin de fer banker's posta and garage) goes
        back to that seat; money carried for everyone (a piatto di parol, a bestia) stays.
        """
        return carry, 0

    def can_apply(self, state: State, seat: int, action: Action) -> bool:
        """Tell whether ``apply`` would accept this action (never changes ``state``)."""
        return any(spec_matches(spec, action) for spec in self.legal_actions(state, seat))

    def sample_action(self, state: State, seat: int, rng: Rng) -> Action:
        """Pick a uniformly random legal action (for bots and property tests)."""
        specs = self.legal_actions(state, seat)
        if not specs:
            raise NotYourTurn()
        return action_from_spec(specs[rng.randbelow(len(specs))], rng)


def action_from_spec(spec: dict[str, Any], rng: Rng) -> Action:
    """Instantiate a legal-action spec, drawing an amount when one is asked (ends are favoured)."""
    action = {k: v for k, v in spec.items() if k not in SPEC_META_KEYS}
    if "amount" in spec:
        action["amount"] = draw_amount(spec["amount"]["min"], spec["amount"]["max"], rng)
    return action


def draw_amount(lo: int, hi: int, rng: Rng) -> int:
    """The amount ``action_from_spec`` draws in [lo, hi]: either end one time in four, else uniform."""
    pick = rng.randbelow(4)
    return lo if pick == 0 else hi if pick == 1 else lo + rng.randbelow(hi - lo + 1)


def spec_matches(spec: dict[str, Any], action: Action) -> bool:
    """Tell whether an action is an instance of a legal-action spec."""
    concrete = {k: v for k, v in spec.items() if k not in SPEC_META_KEYS}
    if any(action.get(k) != v for k, v in concrete.items()):
        return False
    extra = set(action) - set(concrete) - ({"amount"} if "amount" in spec else set())
    if extra:
        return False
    if "amount" in spec:
        amount = action.get("amount")
        rng_ = spec["amount"]
        return type(amount) is int and rng_["min"] <= amount <= rng_["max"]
    return True


def money_out(outcome: dict[str, Any]) -> int:
    """Return where a hand's money ends (credits, rake, chips carried on, money paid out) less what
    it carried in: equal to the seats' starting chips by the contract's conservation formula."""
    return int(
        sum(outcome.get("chips", {}).values())
        + outcome.get("rake", 0)
        + outcome.get("carried_out", 0)
        + sum(outcome.get("paid_out", {}).values())
        - outcome.get("carried_in", 0)
    )


def dumps(state: State) -> str:
    """Serialise a state (compact, key order kept, so equal states give equal text)."""
    return json.dumps(state, separators=(",", ":"), ensure_ascii=False)


def loads(text: str) -> State:
    """Load a state serialised by ``dumps``."""
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError("a state is a JSON object")
    return value


def private_to(event: Event, seat: int | None) -> bool:
    """Tell whether an event may be shown to this seat (None: spectator)."""
    to = event.get("to")
    return to is None or (seat is not None and seat in to)


def seat_books(order: list[int], by_seat: dict[int, SeatSpec]) -> dict[str, dict[str, Any]]:
    """The per-seat money and sitout books a banking game starts a hand with (string seat keys)."""
    return {
        "chips": {str(s): by_seat[s]["chips"] for s in order},
        "start_chips": {str(s): by_seat[s]["chips"] for s in order},
        "sitout": {str(s): bool(by_seat[s].get("sitout", False)) for s in order},
        "sitout_start": {str(s): bool(by_seat[s].get("sitout", False)) for s in order},
    }
