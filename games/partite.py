"""The match engine of the giochi a partite: two lines play a match of smazzate (RULINGS I5, C1).

Scopa, Asso piglia tutto, Cirulla, Briscola and Tresette (later Burraco and Scala 40) share
everything above the single deal: who sits in which line, the dealer's rotation, when the match
ends, the KO spareggi, forfeits, MP/VP and the cash inputs. A game supplies only a small
``DealRules`` object for one smazzata; ``PartiteEngine`` wraps it into a registered ``Engine``.

Positions and seats
    The engine works with *positions* ``0 .. n-1`` in playing order: position ``p + 1`` sits at
    the right of ``p`` (play and the deal go counter-clockwise, RULINGS G2), so the player after
    the dealer is ``(dealer + 1) % n``. The two *lines* alternate: line of ``p`` is ``p % 2``
    (testa a testa: 0 vs 1; a coppie and 4 in 2: 0+2 vs 1+3, partners sit opposite). Each
    position is moved by one table seat (``state["seats"][p]``): a coppie four seats, testa a
    testa two, 4 in 2 two seats moving two positions each. Deal rules see only positions; the
    engine turns an event's ``"pos"`` into ``"seat"`` and ``"to_pos"`` into ``"to"`` (seats).

Formats (config)
    ``format``: ``"testa_a_testa"`` | ``"coppie"`` | ``"4in2"``; ``pairs``: ``"fisse"`` (partners
    opposite in seat order, or ``partners=[[a, b], [c, d]]``) | ``"casuali"`` (drawn with the rng).
    ``mode``: ``"smazzate"`` (``deals`` fixed; ``count="punti"`` sums points, ``count="vinte"``
    is a best-of on smazzate won, as Briscola) | ``"punti"`` (``target``: a line that reaches it
    with more points than the other wins; both there and level: another smazzata, RULINGS I5).
    ``lower_wins`` (Tresette a perdere), ``vinco_subito`` (the line that just took reaches the
    target: the match ends at once; needs ``DealRules.running``; in partite a smazzate a deal
    may end its smazzata itself when a line reaches 61), ``ko`` (a winner is needed:
    ``spareggi`` extra smazzate, default 3, then the ``decider`` line of the last one
    ``"loses"``/``"wins"``; ``decider_always`` applies the decider to any tie, as a perdere).
    ``vp`` (win/draw/loss, default 20/10/0) or a graded ``vp_table``; ``forfeit_min_vp`` (14);
    ``penalty_cap`` (timeout/abandon penalty cap, per game); ``cash_divisor`` (C1: 1, Briscola 10,
    Burraco 100); ``carte_viste``, ``carte_scoperte`` (pairs only); ``on_timeout``:
    ``"forfeit"`` (the rules: the line loses) | ``"autoplay"`` (training tables: the deal's
    automatic move). Game keys are validated by ``DealRules.validate_config``.

Example: a game plugs in with a DealRules subclass and a four-line engine::

    class MyDeal(DealRules):
        def start(self, st, rng):            # st: match state (config, seats, dealer, prefs, ...)
            deck = shuffled(italian_deck(), rng)
            deal = {"hands": [...], "turn": (st["dealer"] + 1) % len(st["seats"]), ...}
            return deal, [deck], [{"type": "carte", "pos": 0, "cards": [...], "to_pos": [0]}]
        def to_act(self, st): ...            # position to move now, None when the deal is over
        def legal_actions(self, st, pos): ...
        def apply(self, st, pos, action, rng): ...   # validate first; mutate st["deal"] only
        def view(self, st, visible, carte_viste): ...
        def auto_action(self, st, pos): ...
        def result(self, st): ...            # {"points": [a, b], "decider": line, ...}

    @register
    class MyEngine(PartiteEngine):
        name, title, min_seats, max_seats = "mio", "Mio", 2, 4
        rules = MyDeal()
        defaults = {"mode": "punti", "target": 11, "penalty_cap": 6}

The next smazzata is dealt inside ``apply`` with the rng passed in, and every shuffled deck
(redeals included) is appended to ``state["deck_log"]`` (RULINGS G4), never shown in a view.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from dataclasses import replace
from typing import Any, ClassVar

from games.engine import (
    Action,
    ConfigError,
    Engine,
    Event,
    HandOver,
    IllegalAction,
    NotYourTurn,
    Option,
    SeatSpec,
    State,
    UnknownAction,
    action_from_spec,
    check_table_config,
)
from games.rng import Rng, shuffled

FORMATS = ("testa_a_testa", "coppie", "4in2")

ABBANDONA = "abbandona"
TEMPO_SCADUTO = "tempo_scaduto"
ABBANDONA_SPEC: dict[str, Any] = {
    "type": ABBANDONA,
    "label": "Abbandona",
    "confirm": "Vuoi abbandonare la partita? La partita sarà persa.",
}

COMMON_DEFAULTS: dict[str, Any] = {
    "format": "testa_a_testa",
    "pairs": "fisse",
    "partners": None,
    "mode": "punti",
    "target": 11,
    "deals": 1,
    "count": "punti",
    "lower_wins": False,
    "vinco_subito": False,
    "ko": False,
    "spareggi": 3,
    "decider": "loses",
    "decider_always": False,
    "vp": {"win": 20, "draw": 10, "loss": 0},
    "vp_table": None,
    "forfeit_min_vp": 14,
    "penalty_cap": None,
    "cash_divisor": 1,
    "carte_viste": False,
    "carte_scoperte": False,
    "on_timeout": "forfeit",
}

ON_TIMEOUT = Option(
    "on_timeout",
    "Tempo scaduto",
    "choice",
    "forfeit",
    (("forfeit", "La linea perde la partita"), ("autoplay", "Giocata automatica (allenamento)")),
)
PAIRS = Option("pairs", "Coppie", "choice", "fisse", (("fisse", "Fisse"), ("casuali", "Casuali")))
PARTNERS = Option(
    "partners", "Compagni delle coppie fisse", "data", None, help="[[posto, posto], [posto, posto]]"
)
CARTE_SCOPERTE = Option(
    "carte_scoperte", "A coppie a carte scoperte", "bool", False, requires=(("format", "coppie"),)
)
MODE = Option(
    "mode", "Tipo di partita", "choice", "punti", (("punti", "A punti"), ("smazzate", "A smazzate"))
)
# Every option of the match engine; a game leaves out those it does not implement (``inert``).
COMMON_OPTIONS: tuple[Option, ...] = (
    Option(
        "format",
        "Formato",
        "choice",
        "testa_a_testa",
        (("testa_a_testa", "Testa a testa"), ("coppie", "A coppie"), ("4in2", "4 in 2")),
    ),
    PAIRS,
    PARTNERS,
    MODE,
    Option("target", "Punti da raggiungere", "int", 11, min=1),
    Option("deals", "Numero di smazzate", "int", 1, min=1),
    Option(
        "count", "A smazzate conta", "choice", "punti", (("punti", "I punti"), ("vinte", "Le smazzate vinte"))
    ),
    Option("lower_wins", "Vince chi fa meno punti", "bool", False),
    Option("vinco_subito", "Vinco subito (chiamata fuori)", "bool", False),
    Option("ko", "Partita a eliminazione diretta (spareggi)", "bool", False),
    Option("spareggi", "Spareggi", "int", 3, min=0, max=3),
    Option(
        "decider",
        "Dopo gli spareggi la linea dell'ultima presa",
        "choice",
        "loses",
        (("loses", "Perde"), ("wins", "Vince")),
    ),
    Option("decider_always", "L'ultima presa decide ogni parità", "bool", False),
    Option("vp", "VP di vittoria, pareggio, sconfitta", "data", {"win": 20, "draw": 10, "loss": 0}),
    Option("vp_table", "Tabella dei VP a scaglioni", "data", None),
    Option("forfeit_min_vp", "VP minimi a chi vince per tempo scaduto o abbandono", "int", 14, min=0),
    Option(
        "penalty_cap", "Tetto della penalità per tempo scaduto o abbandono", "int", None, min=0, nullable=True
    ),
    Option("cash_divisor", "Divisore della differenza punti (C1)", "int", 1, min=1),
    Option("carte_viste", "A carte viste", "bool", False),
    CARTE_SCOPERTE,
    ON_TIMEOUT,
)


def _whole(value: Any) -> bool:
    return type(value) is int and value >= 0


def check_vp_options(cfg: dict[str, Any]) -> None:
    """Raise ConfigError unless ``vp`` and ``vp_table`` have the shape a match's end reads: the
    scoring runs when the match is over, so a malformed table is refused when the table is set up."""
    vp = cfg["vp"]
    if not (
        isinstance(vp, dict) and set(vp) == {"win", "draw", "loss"} and all(_whole(v) for v in vp.values())
    ):
        raise ConfigError(
            'VP di vittoria, pareggio, sconfitta: {"win": 20, "draw": 10, "loss": 0}, interi', key="vp"
        )
    table = cfg["vp_table"]
    if table is None:
        return
    rows_ok = (
        isinstance(table, list)
        and bool(table)
        and all(
            isinstance(r, dict)
            and set(r) == {"mp", "vp"}
            and _whole(r["mp"])
            and isinstance(r["vp"], list)
            and len(r["vp"]) == 2
            and all(_whole(v) for v in r["vp"])
            for r in table
        )
    )
    if not rows_ok or not any(r["mp"] == 0 for r in table):
        raise ConfigError(
            'Tabella dei VP a scaglioni: righe {"mp": scarto minimo, "vp": [vincitore, perdente]}, '
            "interi, con una riga per lo scarto 0",
            key="vp_table",
        )


def declared_options(options: tuple[Option, ...], defaults: dict[str, Any]) -> tuple[Option, ...]:
    """Return the options with each default replaced by the game's own (e.g. Burraco's 2005)."""
    return tuple(replace(o, default=defaults[o.key]) if o.key in defaults else o for o in options)


class DealRules(ABC):
    """One smazzata of a gioco a partite, seen through positions (see the module docstring).

    Every method receives the whole match state ``st``; the deal lives in ``st["deal"]``.
    Config keys of the game are in ``st["config"]``; player preferences by position in
    ``prefs(st, pos)``.
    """

    game_defaults: ClassVar[dict[str, Any]] = {}
    # the table options of the game itself (one per key of game_defaults), beside the match's
    game_options: ClassVar[tuple[Option, ...]] = ()
    # options of the match engine this game does not implement (accepted only at their default)
    not_implemented: ClassVar[frozenset[str]] = frozenset(
        {"lower_wins", "decider_always", "carte_viste", "vinco_subito"}
    )

    def validate_config(self, config: dict[str, Any]) -> None:  # noqa: B027  # optional hook
        """Raise ConfigError if a game-specific key of the (defaults-filled) config is invalid."""

    @abstractmethod
    def start(self, st: State, rng: Rng) -> tuple[dict[str, Any], list[list[str]], list[Event]]:
        """Deal a smazzata for ``st["dealer"]``: return the deal, every deck shuffled, the events."""

    @abstractmethod
    def to_act(self, st: State) -> int | None:
        """Return the position that must move now; None when the deal is over."""

    @abstractmethod
    def legal_actions(self, st: State, pos: int) -> list[dict[str, Any]]:
        """List the specs this position may play now (called only for the position to act)."""

    @abstractmethod
    def apply(self, st: State, pos: int, action: Action, rng: Rng) -> list[Event]:
        """Apply the action; raise IllegalAction before changing anything if it is refused."""

    @abstractmethod
    def view(self, st: State, visible: frozenset[int], carte_viste: bool) -> dict[str, Any]:
        """Return the deal as seen by a viewer who may see the hands of ``visible`` positions."""

    @abstractmethod
    def auto_action(self, st: State, pos: int) -> Action:
        """Return the automatic move for this position (timeouts at training tables, bots)."""

    @abstractmethod
    def result(self, st: State) -> dict[str, Any]:
        """Score the ended deal.

        Keys: ``points`` [line0, line1] (required); ``decider``: the line the KO rule looks at
        (last capture, last move) or None; ``cappotto``: a line whose deal ends the match with
        its win (Cirulla), or None; ``cappotti`` [n0, n1]: extra poste won (Tresette); ``detail``:
        anything shown in the score sheet.
        """

    def is_over(self, st: State) -> bool:
        """Tell whether the deal has ended (default: nobody has to move)."""
        return self.to_act(st) is None

    def running(self, st: State) -> tuple[list[int], int | None] | None:
        """Return the points taken so far per line and the line that just took (vinco subito)."""
        return None

    def penalty(self, st: State, offender: int) -> int:
        """Return the points the other line receives when ``offender`` forfeits (before the cap)."""
        return 0

    def points_so_far(self, st: State) -> list[int] | None:
        """Return the points each line has already taken in the smazzata in progress, if they count.

        A forfeit adds them to the totals before the penalty: "if the score is still in favour of
        the offender, the difference is zero" (rules 004, penalties for timeout or abandon).
        """
        return None

    def hands_known(self, st: State) -> bool:
        """Tell whether every hand is known to both sides (carte viste, testa a testa: last hand)."""
        return False


def prefs(st: State, pos: int) -> dict[str, Any]:
    """Return the preferences of the player moving this position."""
    p: dict[str, Any] = st["prefs"].get(str(st["seats"][pos]), {})
    return p


def line_of(pos: int) -> int:
    """Return the line (0 or 1) of a position."""
    return pos % 2


def round_half_down(numerator: int, divisor: int) -> int:
    """Divide a non-negative integer, rounding x.5 down and above x.5 up (RULINGS C1)."""
    q, r = divmod(numerator, divisor)
    return q + 1 if 2 * r > divisor else q


def cash_settlement(
    outcome: dict[str, Any],
    *,
    posta_partita: int,
    posta_unitaria: int,
    perdita_massima: int,
    rake_bp: int,
) -> dict[str, Any]:
    """Return what the loser pays and the winner receives at a cash table (RULINGS C1, cents).

    amount = posta partita + posta unitaria × differenza punti + posta partita × net cappotti,
    capped at the perdita massima (a Cirulla cappotto wins the perdita massima); rake =
    floor(amount × 2 × rake %) with the rake in basis points; the winner receives amount − rake.
    A draw moves nothing.
    """
    cash = outcome["cash"]
    winner = cash["winner"]
    if winner is None:
        return {"winner": None, "loser": None, "amount": 0, "rake": 0, "won": 0}
    if cash["cappotto"]:
        amount = perdita_massima
    else:
        extra = cash["cappotti"][winner] - cash["cappotti"][1 - winner]
        amount = posta_partita + posta_unitaria * cash["differenza_punti"] + posta_partita * extra
        amount = max(0, min(amount, perdita_massima))
    rake = amount * 2 * rake_bp // 10000
    return {"winner": winner, "loser": 1 - winner, "amount": amount, "rake": rake, "won": amount - rake}


class MatchReport(Engine):
    """What every match engine answers the same way: over or not, and the stored report."""

    def is_over(self, state: State) -> bool:
        """Tell whether the match has ended."""
        return bool(state["over"])

    def outcome(self, state: State) -> dict[str, Any]:
        """Return the match report: points, MP, VP, forfeit, cash inputs (RULINGS C1)."""
        if not state["over"]:
            raise IllegalAction("La partita non è terminata")
        return copy.deepcopy(state["result"])


def seat_positions(cfg: dict[str, Any], numbers: list[int], rng: Rng) -> list[int]:
    """Return the table seat moving each position, in playing order, for the config's ``format``.

    ``numbers`` are the seats dealt in, in the order play goes round the table. Testa a testa (or
    Scala 40's ``individuale``): one position each. ``4in2``: two seats moving two positions each.
    ``coppie``: partners at positions p and p + 2 (opposite), ``pairs`` ``fisse`` (the seats in
    order, or ``partners=[[a, b], [c, d]]``) or ``casuali`` (drawn with the rng).
    """
    fmt = cfg["format"]
    if fmt == "4in2":
        if len(numbers) != 2:
            raise ConfigError("il formato 4in2 vuole 2 giocatori", players=len(numbers))
        return [numbers[0], numbers[1], numbers[0], numbers[1]]
    if fmt != "coppie":
        return list(numbers)
    if len(numbers) != 4:
        raise ConfigError("il formato coppie vuole 4 giocatori", players=len(numbers))
    if cfg["pairs"] == "casuali":
        order = shuffled(numbers, rng)
        return [order[0], order[2], order[1], order[3]]
    if cfg["partners"] is not None:
        (a, b), (c, d) = cfg["partners"]
        if sorted([a, b, c, d]) != sorted(numbers):
            raise ConfigError("coppie non corrispondenti ai posti", partners=cfg["partners"])
        return [a, c, b, d]
    return list(numbers)  # partners sit opposite: 1st+3rd vs 2nd+4th in playing order


class LineMatch(MatchReport):
    """The contract every match engine answers alike: seats moving positions, lines, Abbandona.

    ``state["seats"][p]`` is the seat moving position ``p``; the line of a position is ``p %
    lines(state)``. A subclass supplies the deal's turn, moves and automatic move, and the forfeit.
    """

    family = "partite"

    # -- what a game supplies --------------------------------------------------------------------

    @abstractmethod
    def deal_turn(self, state: State) -> int | None:
        """Return the position that must move now; None when nobody must (match or deal over)."""

    @abstractmethod
    def deal_specs(self, state: State, pos: int) -> list[dict[str, Any]]:
        """List the moves of the position to act."""

    @abstractmethod
    def deal_move(self, state: State, pos: int, action: Action, rng: Rng) -> list[Event]:
        """Apply a move of the position to act (validated first); return the events with seats."""

    @abstractmethod
    def auto_move(self, state: State, pos: int) -> Action:
        """Return the automatic move of this position (timeouts at training tables)."""

    @abstractmethod
    def forfeit(self, state: State, line: int, kind: str, *, seat: int | None = None) -> list[Event]:
        """End the match lost by ``line`` (timeout or abandon) by ``seat``; return the events with seats."""

    def lines(self, state: State) -> int:
        """Return the number of lines of the match (two unless a game says otherwise)."""
        return 2

    def check_player(self, state: State, seat: int) -> None:
        """Refuse a seat that does not (or no longer) play this match."""
        if seat not in state["seats"]:
            raise IllegalAction()

    # -- the contract ------------------------------------------------------------------------------

    def seat_line(self, state: State, seat: int) -> int:
        """Return the line of a seat that plays the match."""
        return int(state["seats"].index(seat) % self.lines(state))

    def turn_of(self, state: State, seat: int) -> int:
        """Return the position this seat moves now; raise NotYourTurn if it is not his turn."""
        pos = None if state["over"] else self.deal_turn(state)
        if pos is None or state["seats"][pos] != seat:
            raise NotYourTurn()
        return pos

    def to_act(self, state: State) -> list[int]:
        """Return the seat that moves the position to act (empty when the match is over)."""
        pos = None if state["over"] else self.deal_turn(state)
        return [] if pos is None else [state["seats"][pos]]

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """List the deal's moves for the seat to act, plus "Abbandona" for every player."""
        try:
            self.check_player(state, seat)
        except IllegalAction:
            return []
        if state["over"]:
            return []
        pos = self.deal_turn(state)
        specs = self.deal_specs(state, pos) if pos is not None and state["seats"][pos] == seat else []
        return [*specs, dict(ABBANDONA_SPEC)]

    def apply(self, state: State, seat: int, action: Action, rng: Rng) -> list[Event]:
        """Apply a move (or a forfeit); the game deals on or ends the match when due."""
        if state["over"]:
            raise HandOver()
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise UnknownAction()
        if action["type"] in (ABBANDONA, TEMPO_SCADUTO):
            self.check_player(state, seat)
            if set(action) != {"type"}:
                raise IllegalAction()
            return self.forfeit(state, self.seat_line(state, seat), action["type"], seat=seat)
        return self.deal_move(state, self.turn_of(state, seat), action, rng)

    def timeout_action(self, state: State, seat: int) -> Action:
        """Return the timeout decision: the line loses (rules), or the automatic move if configured."""
        if state["config"]["on_timeout"] == "autoplay" and not state["over"]:
            pos = self.deal_turn(state)
            if pos is not None and state["seats"][pos] == seat:
                return self.auto_move(state, pos)
        return {"type": TEMPO_SCADUTO}

    def carry(self, state: State) -> dict[str, Any] | None:
        """Return the next dealer (rotation goes on across matches at the same table)."""
        return {"dealer_seat": state["seats"][(state["dealer"] + 1) % len(state["seats"])]}

    def line_of(self, state: State, seat: int) -> str:
        """Return the line of a seat: partners share a line, and its tempo partita (rules 004)."""
        return str(self.seat_line(state, seat)) if seat in state["seats"] else str(seat)

    def visible_positions(self, state: State, seat: int | None) -> frozenset[int]:
        """Return the positions whose hands this seat may see: its own, and with the optional rule
        "a carte scoperte" its partner's ("i compagni, senza essere visti dagli avversari, giocano
        a carte scoperte"); a spectator none."""
        if seat is None:
            return frozenset()
        seats = state["seats"]
        own = {p for p in range(len(seats)) if seats[p] == seat}
        if state["config"].get("carte_scoperte") and len(seats) == 4 and self.lines(state) == 2:
            own |= {(p + 2) % 4 for p in own}  # partners only; opponents never (optional rule)
        return frozenset(own)

    @staticmethod
    def seat_events(st: State, events: list[Event]) -> list[Event]:
        """Name the seat of every position an event mentions (``pos`` -> ``seat``, ``to_pos`` -> ``to``)."""
        seats = st["seats"]
        for ev in events:
            if "pos" in ev:
                ev["seat"] = seats[ev["pos"]]
            if "to_pos" in ev:
                ev["to"] = sorted({seats[p] for p in ev.pop("to_pos")})
        return events

    def match_state(
        self, cfg: dict[str, Any], positions: list[int], seats: list[SeatSpec], dealer: int, **counts: Any
    ) -> State:
        """Return a new match's state before its first deal (``counts``: the per-line tallies)."""
        return {
            "game": self.name,
            "config": cfg,
            "seats": positions,
            "prefs": {str(s["seat"]): dict(s.get("prefs") or {}) for s in seats},
            "dealer": dealer,
            "deal_no": 0,
            **counts,
            "history": [],
            "deck_log": [],
            "deal": {},
            "over": False,
            "result": None,
        }

    def match_view(self, state: State, seat: int | None, deal: Any, **extra: Any) -> dict[str, Any]:
        """Return the match as this seat (None: spectator) may see it, around the deal's view."""
        public_cfg = {k: v for k, v in state["config"].items() if k != "partners"}  # public settings
        return {
            "game": state["game"],
            "seat": seat,
            "config": copied(public_cfg),
            "positions": list(state["seats"]),
            "dealer": state["seats"][state["dealer"]],
            "deal_no": state["deal_no"],
            **extra,
            "totals": list(state["totals"]),
            "deals_won": list(state["deals_won"]),
            "history": copied(state["history"]),
            "to_act": self.to_act(state),
            "legal": [] if seat is None else self.legal_actions(state, seat),
            "deal": deal,
            "over": state["over"],
            "result": copied(state["result"]),
        }


_SCALARS = (str, int, float, bool, type(None))


def copied(value: Any) -> Any:
    """A copy of JSON-like data that shares nothing mutable with it: ``copy.deepcopy``'s value.

    Dicts, lists and tuples are copied item by item, scalars kept (immutable), anything else
    deep-copied. Every seat's view of every version copies the match's history and result: with
    ``deepcopy`` (its memo, its dispatch per object) that was most of a Scopa view's cost.
    """
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is dict:
        return {k: copied(v) for k, v in value.items()}
    if kind is list:
        return [copied(v) for v in value]
    if kind is tuple:
        return tuple(copied(v) for v in value)
    return copy.deepcopy(value)


class PartiteEngine(LineMatch):
    """A match of smazzate between two lines, for the DealRules in ``rules``."""

    min_seats = 2
    max_seats = 4
    rules: ClassVar[DealRules]
    defaults: ClassVar[dict[str, Any]] = {}

    # -- configuration -------------------------------------------------------------------------

    def _not_implemented(self) -> frozenset[str]:
        return self.rules.not_implemented

    def config_options(self) -> tuple[Option, ...]:
        """Return the match options this game implements, then the game's own, with its defaults."""
        skip = self._not_implemented() | {o.key for o in self.rules.game_options}  # a game's own replaces
        common = tuple(o for o in COMMON_OPTIONS if o.key not in skip)
        return declared_options(
            (*common, *self.rules.game_options), {**self.rules.game_defaults, **self.defaults}
        )

    def inert_config(self) -> dict[str, Any]:
        """Return the match options this game leaves out, at the value a filled config carries."""
        return {k: COMMON_DEFAULTS[k] for k in self._not_implemented()}

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """Fill defaults (common, game, engine) and check the match configuration."""
        check_table_config(self.config_options(), config, self.inert_config())
        cfg = {**COMMON_DEFAULTS, **self.rules.game_defaults, **self.defaults, **config}
        if cfg["format"] not in FORMATS:
            raise ConfigError("formato non valido", format=cfg["format"])
        if cfg["pairs"] not in ("fisse", "casuali"):
            raise ConfigError("coppie non valide", pairs=cfg["pairs"])
        if cfg["mode"] not in ("punti", "smazzate"):
            raise ConfigError("tipo di partita non valido", mode=cfg["mode"])
        if cfg["count"] not in ("punti", "vinte"):
            raise ConfigError("conteggio non valido", count=cfg["count"])
        for key in ("target", "deals", "cash_divisor"):
            if type(cfg[key]) is not int or cfg[key] < 1:
                raise ConfigError(f"{key} deve essere un intero positivo", **{key: cfg[key]})
        if cfg["mode"] == "smazzate" and cfg["count"] == "vinte" and cfg["deals"] % 2 == 0:
            raise ConfigError("il numero di smazzate deve essere dispari")  # Briscola rules
        if type(cfg["spareggi"]) is not int or not 0 <= cfg["spareggi"] <= 3:
            raise ConfigError("spareggi da 0 a 3", spareggi=cfg["spareggi"])
        if cfg["decider"] not in ("loses", "wins"):
            raise ConfigError("decider non valido", decider=cfg["decider"])
        if cfg["on_timeout"] not in ("forfeit", "autoplay"):
            raise ConfigError("on_timeout non valido", on_timeout=cfg["on_timeout"])
        if cfg["carte_scoperte"] and cfg["format"] == "testa_a_testa":
            raise ConfigError("le carte scoperte sono solo per le partite a coppie")
        if cfg["vinco_subito"] and cfg["mode"] != "punti":
            raise ConfigError("il vinco subito della partita vale nelle partite a punti")
        check_vp_options(cfg)
        self.rules.validate_config(cfg)
        return cfg

    # -- the match -----------------------------------------------------------------------------

    def new(
        self, config: dict[str, Any], seats: list[SeatSpec], rng: Rng, carry: dict[str, Any] | None = None
    ) -> State:
        """Seat the lines, pick the first dealer (random, or rotated from ``carry``) and deal."""
        cfg = self.validate_config(config)
        numbers = sorted(s["seat"] for s in seats)
        if len(set(numbers)) != len(numbers):
            raise ConfigError("posti ripetuti")
        fmt = cfg["format"]
        if fmt == "testa_a_testa" and len(numbers) != 2:
            raise ConfigError("il formato testa_a_testa vuole 2 giocatori", players=len(numbers))
        positions = seat_positions(cfg, numbers, rng)
        n = len(positions)
        dealer_seat = (carry or {}).get("dealer_seat")
        if dealer_seat in positions:
            dealer = positions.index(dealer_seat)
        else:
            dealer = rng.randbelow(n)  # "il mazziere viene stabilito casualmente dal sistema"
        st = self.match_state(cfg, positions, seats, dealer, spareggio=0, totals=[0, 0], deals_won=[0, 0])
        self._start_deal(st, rng)
        return st

    def _start_deal(self, st: State, rng: Rng) -> list[Event]:
        deal, decks, events = self.rules.start(st, rng)
        st["deal"] = deal
        st["deck_log"].extend([list(d) for d in decks])
        st["deal_no"] += 1
        head: Event = {
            "type": "smazzata",
            "number": st["deal_no"],
            "spareggio": st["spareggio"],
            "dealer": st["seats"][st["dealer"]],
        }
        return [head, *self.seat_events(st, events)]

    # -- the contract ----------------------------------------------------------------------------

    def deal_turn(self, state: State) -> int | None:
        """Return the position the deal waits for."""
        return self.rules.to_act(state)

    def deal_specs(self, state: State, pos: int) -> list[dict[str, Any]]:
        """List the deal's moves of the position to act."""
        return self.rules.legal_actions(state, pos)

    def auto_move(self, state: State, pos: int) -> Action:
        """Return the deal's automatic move."""
        return self.rules.auto_action(state, pos)

    def sample_action(self, state: State, seat: int, rng: Rng) -> Action:
        """Pick a uniformly random move of the deal (never "Abbandona": bots and property tests)."""
        specs = [s for s in self.legal_actions(state, seat) if s["type"] != ABBANDONA]
        if not specs:
            raise NotYourTurn()
        return action_from_spec(specs[rng.randbelow(len(specs))], rng)

    def deal_move(self, state: State, pos: int, action: Action, rng: Rng) -> list[Event]:
        """Apply the deal's move; end the match at once on vinco subito, deal on at the deal's end."""
        events = self.seat_events(state, self.rules.apply(state, pos, action, rng))
        cfg = state["config"]
        if cfg["vinco_subito"]:
            run = self.rules.running(state)
            if run is not None:
                pts, taker = run
                if taker is not None and state["totals"][taker] + pts[taker] >= cfg["target"]:
                    totals = [state["totals"][i] + pts[i] for i in (0, 1)]
                    events.append(self._finish(state, taker, "vinco_subito", totals))
                    return events
        if self.rules.is_over(state):
            events.extend(self._end_deal(state, rng))
        return events

    # -- end of a deal and of the match ------------------------------------------------------------

    def _end_deal(self, state: State, rng: Rng) -> list[Event]:
        cfg = state["config"]
        res = self.rules.result(state)
        pts = [int(res["points"][0]), int(res["points"][1])]
        decider = res.get("decider")
        if decider is None:
            decider = line_of(state["dealer"])  # no capture at all: the dealer's line (documented)
        record = {
            "number": state["deal_no"],
            "spareggio": state["spareggio"],
            "dealer": state["seats"][state["dealer"]],
            "points": pts,
            "decider": decider,
            "cappotto": res.get("cappotto"),
            "cappotti": list(res.get("cappotti") or [0, 0]),
            "detail": res.get("detail", {}),
        }
        state["history"].append(record)
        state["totals"] = [state["totals"][0] + pts[0], state["totals"][1] + pts[1]]
        deal_winner = self._better(pts, cfg["lower_wins"])
        if deal_winner is not None:
            state["deals_won"][deal_winner] += 1
        events: list[Event] = [
            {"type": "fine_smazzata", **copy.deepcopy(record), "totals": list(state["totals"])}
        ]
        decision = self._decide(state, record)
        if decision is not None:
            winner, reason = decision
            events.append(self._finish(state, winner, reason, list(state["totals"])))
            return events
        state["dealer"] = (state["dealer"] + 1) % len(state["seats"])  # counter-clockwise, G2
        events.extend(self._start_deal(state, rng))
        return events

    @staticmethod
    def _better(values: list[int], lower_wins: bool) -> int | None:
        if values[0] == values[1]:
            return None
        best = 0 if values[0] > values[1] else 1
        return 1 - best if lower_wins else best

    def _decide(self, state: State, record: dict[str, Any]) -> tuple[int | None, str] | None:
        """Return (winner line or None for a draw, reason) if the match ends now, else None."""
        cfg = state["config"]
        if record["cappotto"] is not None:
            return record["cappotto"], "cappotto"
        decider_line = record["decider"]
        by_decider = decider_line if cfg["decider"] == "wins" else 1 - decider_line
        if state["spareggio"]:  # RULINGS I5: a spareggio is won by more points in that smazzata
            w = self._better(record["points"], cfg["lower_wins"])
            if w is not None:
                return w, "spareggio"
            if state["spareggio"] < cfg["spareggi"]:
                state["spareggio"] += 1
                return None
            return by_decider, "ultima_presa"
        totals = state["totals"]
        if cfg["mode"] == "punti":
            target = cfg["target"]
            if max(totals) < target:
                return None
            w = self._better(totals, cfg["lower_wins"])
            if w is not None:
                return w, "punti"
            if cfg["decider_always"] or cfg["lower_wins"]:
                return by_decider, "ultima_presa"
            return None  # both past the target and level: another smazzata (RULINGS I5)
        # a smazzate
        if cfg["count"] == "vinte":
            won = state["deals_won"]
            if max(won) * 2 <= cfg["deals"] and state["deal_no"] < cfg["deals"]:
                return None
            w = self._better(won, False)
        else:
            if state["deal_no"] < cfg["deals"]:
                return None
            w = self._better(totals, cfg["lower_wins"])
        if w is not None:
            return w, "smazzate"
        if cfg["decider_always"]:
            return by_decider, "ultima_presa"
        if cfg["ko"]:
            if cfg["spareggi"] > 0:
                state["spareggio"] = 1
                return None
            return by_decider, "ultima_presa"
        return None, "pareggio"

    def forfeit(self, state: State, line: int, kind: str, *, seat: int | None = None) -> list[Event]:
        """End the match lost by ``line`` (timeout or abandon) with the game's penalty.

        ``seat``: the player who timed out or abandoned (in pairs his partner is not to blame: the
        automatic warnings go to him alone).
        """
        offender = line
        cfg = state["config"]
        penalty = max(0, int(self.rules.penalty(state, offender)))
        if cfg["penalty_cap"] is not None:
            penalty = min(penalty, cfg["penalty_cap"])
        totals = list(state["totals"])
        so_far = (
            self.rules.points_so_far(state) if state.get("deal") and not state["deal"].get("over") else None
        )
        if so_far is not None:
            totals = [totals[0] + so_far[0], totals[1] + so_far[1]]
        totals[1 - offender] += penalty
        state["forfeit"] = {"line": offender, "kind": kind, "penalty": penalty}
        if seat is not None:
            state["forfeit"]["seat"] = seat
        if so_far is not None:
            state["forfeit"]["deal_points"] = so_far
        return [
            {"type": kind, "line": offender, "penalty": penalty},
            self._finish(state, 1 - offender, kind, totals),
        ]

    def _finish(self, state: State, winner: int | None, reason: str, totals: list[int]) -> Event:
        state["over"] = True
        state["final_totals"] = totals
        state["result"] = self._report(state, winner, reason, totals)
        return {"type": "fine_partita", "winner": winner, "reason": reason, "points": list(totals)}

    def _vp(self, cfg: dict[str, Any], mp: int, won: bool | None) -> int:
        table = cfg["vp_table"]
        if table:  # graded table rows {"mp": minimum MP margin, "vp": [winner, loser]}
            margin = abs(mp)
            row = max((r for r in table if r["mp"] <= margin), key=lambda r: r["mp"])
            return int(row["vp"][0 if won or (won is None and mp >= 0) else 1])
        vp = cfg["vp"]
        return int(vp["draw"] if won is None else vp["win"] if won else vp["loss"])

    def _report(self, state: State, winner: int | None, reason: str, totals: list[int]) -> dict[str, Any]:
        cfg = state["config"]
        mp = [totals[0] - totals[1], totals[1] - totals[0]]
        forfeit = state.get("forfeit")
        cappotto = reason == "cappotto"
        vp = [self._vp(cfg, mp[i], None if winner is None else winner == i) for i in (0, 1)]
        if cappotto and winner is not None:
            vp[winner] = self._max_vp(cfg)  # "vince con il massimo numero di VP previsto"
            vp[1 - winner] = self._min_vp(cfg)
            margin = self._min_mp(cfg, vp[winner])  # "... e il corrispondente numero minimo di MP"
            mp = [margin if i == winner else -margin for i in (0, 1)]
        if winner is None:
            diff = 0
        else:
            # lower_wins: the winner has fewer points; a forfeit may leave the winner behind: 0.
            raw = (
                totals[1 - winner] - totals[winner]
                if cfg["lower_wins"]
                else totals[winner] - totals[1 - winner]
            )
            diff = max(0, raw)
        if forfeit is not None and winner is not None:
            # Tournament rule: the offender 0 VP, the other line at least 14 VP; both lines' MP
            # are the minimum MP of those VP, never the real score (RULINGS K6).
            vp[winner] = max(self._vp(cfg, diff, True), cfg["forfeit_min_vp"])
            vp[1 - winner] = 0
            margin = self._min_mp(cfg, vp[winner])
            mp = [margin if i == winner else -margin for i in (0, 1)]
        cappotti = [0, 0]
        for rec in state["history"]:
            cappotti = [cappotti[0] + rec["cappotti"][0], cappotti[1] + rec["cappotti"][1]]
        seats = state["seats"]
        lines = [sorted({seats[p] for p in range(len(seats)) if p % 2 == i}) for i in (0, 1)]
        per_seat = {
            str(s): {"line": i, "points": totals[i], "mp": mp[i], "vp": vp[i], "won": winner == i}
            for i in (0, 1)
            for s in lines[i]
        }
        return {
            "winner": winner,
            "draw": winner is None,
            "reason": reason,
            "lines": lines,
            "points": list(totals),
            "mp": mp,
            "vp": vp,
            "deals": len(state["history"]),
            "deals_won": list(state["deals_won"]),
            "forfeit": copy.deepcopy(forfeit),
            "cash": {
                "winner": winner,
                "loser": None if winner is None else 1 - winner,
                "differenza_effettiva": diff,
                "differenza_punti": round_half_down(diff, cfg["cash_divisor"]),
                "cappotti": cappotti,
                "cappotto": cappotto,
            },
            "per_seat": per_seat,
        }

    @staticmethod
    def _min_mp(cfg: dict[str, Any], vp: int) -> int:
        """Return the smallest MP margin that earns at least ``vp`` (RULINGS K6): a graded table's
        row minimum; with win/draw/loss, 1 for a win's VP (0 for a draw's)."""
        table = cfg["vp_table"]
        if table:
            rows = [int(r["mp"]) for r in table if int(r["vp"][0]) >= vp]
            return min(rows) if rows else max(int(r["mp"]) for r in table)
        return 1 if vp > int(cfg["vp"]["draw"]) else 0

    @staticmethod
    def _max_vp(cfg: dict[str, Any]) -> int:
        if cfg["vp_table"]:
            return max(int(r["vp"][0]) for r in cfg["vp_table"])
        return int(cfg["vp"]["win"])

    @staticmethod
    def _min_vp(cfg: dict[str, Any]) -> int:
        if cfg["vp_table"]:
            return min(int(r["vp"][1]) for r in cfg["vp_table"])
        return int(cfg["vp"]["loss"])

    # -- views ---------------------------------------------------------------------------------

    def visible_positions(self, state: State, seat: int | None) -> frozenset[int]:
        """Return the positions whose hands this seat may see (own, carte scoperte, carte viste)."""
        own = super().visible_positions(state, seat)
        cfg = state["config"]
        if cfg["carte_viste"] and cfg["format"] == "testa_a_testa" and own and self.rules.hands_known(state):
            own = frozenset(range(len(state["seats"])))  # "l'ultima mano ... si gioca a carte scoperte"
        return own

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Return the match as this seat (None: spectator) may see it."""
        cfg = state["config"]
        deal = (
            None
            if state["over"]
            else self.rules.view(state, self.visible_positions(state, seat), cfg["carte_viste"])
        )
        return self.match_view(state, seat, deal, spareggio=state["spareggio"])
