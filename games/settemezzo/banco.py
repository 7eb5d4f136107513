"""What the two banking games of the 40-card deck share: Sette e mezzo and Mazzetti.

Both are giochi a puntate where one player (the *banchiere* / *mattaro*) plays against every
other player (the *punte*). The shared part is written once here and used by
``games.settemezzo.engine`` and ``games.mazzetti.engine``:

* the table order: seat numbers increase counter-clockwise, so a seat's right is the next higher
  seat number dealt in (wrapping). Play and the banco move to the right (RULINGS G2);
* choosing the first banker by dealing one card at a time until the re di denari (the matta of
  Sette e mezzo) appears, then rotating to the right at every new hand;
* the offer of the banco (ACCETTO with an amount, or all-in; RIFIUTO only at cash tables; the
  tournament penalty of a sitout banker split among the others, RULINGS G1);
* the classica / Mazzetti coverage: the banker puts ``max_bet × punte`` (or, all-in, his whole
  credit) in the piatto, and the per-punta caps of an all-in banker;
* the rake: ``vincita × 2 × % rake``, floored to the cent;
* ``carry`` (who held the banco, who was seated, who has already bet), outcome and the parts of
  the view every banking game has.

State (plain JSON, string keys) common to both games, besides each game's own keys:
``config``, ``order`` (seats, ascending), ``chips`` (credit in front of each seat, cents),
``start_chips``, ``sitout`` (now), ``sitout_start`` (when the hand began), ``new`` (seats that
have never bet: the newcomer rule), ``phase``, ``actor`` (the seat that must decide, or None),
``offers`` (seats still to be offered the banco, in order), ``banker``, ``piatto`` (the banker's
money at risk, plus what the punte lost into it), ``cover`` (what the banker put in), ``caps``,
``bets`` (the punte's stakes on the table), ``rake``, ``skipped`` (seats that refused or were
skipped as banker: the cash tables' "three turns" rule), ``penalties``, ``deck``, ``deck_log``.

Money is conserved after every action: ``sum(chips) + sum(bets) + piatto + rake`` never changes.

Seat specs: ``{"seat", "chips" (> 0), "sitout", "prefs", "new"}``; ``new: True`` tells that the
player has just sat down and has not bet yet (the rotation's newcomer exception); without it the
engine infers it from ``carry["played"]``. The table sets ``carry["resumed"] = True`` when it
restarts a game interrupted for want of players: the banco then goes to the first of those present
at the interruption, or is dealt for again if none of them is left.

Every decision is one seat's (``to_act`` has at most one seat). ``SITOUT`` is offered at every
decision and is also the timeout action: the seat goes sitout and the rules decide for it (see
each game's docstring); sitout seats are then played automatically, so ``to_act`` never names one.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, ClassVar

from games import betting
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
    InvalidAmount,
    NotYourTurn,
    Option,
    SeatSpec,
    State,
    UnknownAction,
    check_table_config,
    seat_books,
    spec_matches,
)
from games.rng import Rng, shuffled

MATTA = "Kd"  # re di denari: the matta of Sette e mezzo and the card that designates the mattaro
MAX_RAKE_BP = 1000  # rake is at most 10 %
BANCO_OPTIONS: tuple[Option, ...] = (
    MODE_OPTION,
    Option("min_bet", "Puntata minima", "int", 100, min=2),
    Option(
        "min_bank",
        "Banco minimo",
        "int",
        100,
        min=2,
        help="Almeno la puntata minima; se assente: dalla puntata minima",
        requires=(("min_bet", 2),),
    ),
    Option("rake_bp", "Rake in punti base (1000 = 10 %)", "int", 0, min=0, max=MAX_RAKE_BP),
)
CANONICAL = italian_deck()
CARD_INDEX = {c: i for i, c in enumerate(CANONICAL)}


def k(seat: int) -> str:
    """Return the JSON key of a seat."""
    return str(seat)


def ring_after(order: list[int], seat: int) -> list[int]:
    """Return the other seats in playing order, starting with the one at ``seat``'s right.

    ``seat`` need not be in ``order`` (a banker who has left the table): the ring still starts
    at the first seat after his place.
    """
    return [s for s in order if s > seat] + [s for s in order if s < seat]


def rake_of(amount: int, rake_bp: int) -> int:
    """Return the rake on a win: vincita × 2 × % rake, floored to the cent (rules' examples)."""
    if amount <= 0:
        return 0
    return amount * 2 * rake_bp // 10_000


def fresh_deck(rng: Rng) -> list[str]:
    """Return the 40 cards shuffled from the canonical order (so a deck can be replayed)."""
    return shuffled(CANONICAL, rng)


def deal_for_king(order: list[int], rng: Rng) -> dict[str, Any]:
    """Deal one card at a time from a random seat until the re di denari appears.

    Returns ``{"start": seat, "deck": [...], "dealt": [[seat, card], ...], "seat": designated}``.
    """
    start = order[rng.randbelow(len(order))]
    seq = [start, *ring_after(order, start)]
    deck = fresh_deck(rng)
    dealt: list[list[Any]] = []
    for i, card in enumerate(deck):
        seat = seq[i % len(seq)]
        dealt.append([seat, card])
        if card == MATTA:
            return {"start": start, "deck": deck, "dealt": dealt, "seat": seat}
    raise AssertionError("the deck has no re di denari")  # pragma: no cover


def punta_caps(
    cover: int, punte: list[int], min_bet: int, max_bet: int | None, *, tournament: bool = False
) -> dict[str, int]:
    """Return the most each punta may bet against the banker's coverage.

    Normal banco: ``max_bet`` each. All-in banker (``max_bet`` None): the credit divided by the
    punte, the remainder on the first punta's bet (Sette e mezzo, cash rules of the classica);
    when that share is below the minimum bet, the first punte play the minimum bet until the
    credit is covered and the last covered one plays what is left ("le prime punte sono obbligate
    a giocare la puntata minima fino a copertura totale"); punte beyond it do not play (cap 0).
    In a tournament (Mazzetti) an all-in banker's punte always play so, whatever the share: "non
    è possibile puntare una cifra maggiore della puntata minima"; what no punta covers goes back
    to the banker with the piatto.
    """
    if max_bet is not None:
        return {k(p): max_bet for p in punte}
    if not punte:
        return {}
    share, rest = divmod(cover, len(punte))
    if share >= min_bet and not tournament:
        caps = {k(p): share for p in punte}
        caps[k(punte[0])] += rest
        return caps
    caps = {}
    left = cover
    for p in punte:
        caps[k(p)] = min(min_bet, left)
        left -= caps[k(p)]
    return caps


def threshold(prefs: dict[str, Any], key: str, allowed: frozenset[int], default: int) -> int:
    """Read an automatic-play threshold in half points from a seat's prefs (RULINGS B1)."""
    value = prefs.get(key, default)
    if type(value) is not int or value not in allowed:
        raise ConfigError(f"soglia non ammessa: {key}={value!r}")
    return int(value)


class BancoEngine(Engine):
    """The parts of a banking game shared by Sette e mezzo and Mazzetti (see the module docstring)."""

    family = "puntate"
    min_seats: ClassVar[int] = 2
    # The table's rake is the engine's, in both banking games (rules 004: "i giocatori di punta pagano
    # il rake"), so the rake the side panel shows (the table's) is the one taken.
    table_settings: ClassVar[dict[str, str]] = {"mode": "mode", "rake_bp": "rake_bp"}
    #: the newcomer rule ("non ha ancora effettuato almeno una puntata") applies at cash tables too
    newcomer_rule_cash: ClassVar[bool] = True

    # -- configuration -------------------------------------------------------------------------

    def config_options(self) -> tuple[Option, ...]:
        """Return the table options every banking game shares (tavolo, puntata e banco minimi, rake)."""
        return BANCO_OPTIONS

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """Return the configuration with defaults; raise ConfigError if invalid.

        Keys: ``mode`` ("cash" | "tournament"), ``min_bet`` (puntata minima, cents or chips),
        ``min_bank`` (the least banco the banker may offer), ``rake_bp`` (basis points of the
        rake %, cash only, at most 1000 = 10 %).
        """
        check_table_config(self.config_options(), config)
        cfg = {"mode": "cash", "min_bet": 100, "rake_bp": 0, **config}
        cfg.setdefault("min_bank", cfg["min_bet"])
        if cfg["mode"] not in (CASH, TOURNAMENT):
            raise ConfigError("modalità non valida")
        for key in ("min_bet", "min_bank", "rake_bp"):
            if type(cfg[key]) is not int or cfg[key] < 0:
                raise ConfigError(f"{key} deve essere un intero non negativo")
        if cfg["min_bet"] < 2 or cfg["min_bank"] < cfg["min_bet"]:
            raise ConfigError("puntata minima o banco minimo non validi")
        if cfg["rake_bp"] > MAX_RAKE_BP or (cfg["mode"] == "tournament" and cfg["rake_bp"]):
            raise ConfigError("rake non valido (solo tavoli cash, al massimo 10 %)")
        return cfg

    # -- hooks the games fill in ---------------------------------------------------------------

    @abstractmethod
    def banker_penalty(self, state: State) -> int:
        """Return what a tournament banker in sitout loses without playing (before capping)."""
        ...

    @abstractmethod
    def start_banco(self, state: State, events: list[Event], rng: Rng) -> None:
        """Begin play once the banker has accepted (cover is in the piatto)."""
        ...

    @abstractmethod
    def play_specs(self, state: State, seat: int) -> list[dict[str, Any]]:
        """Return the legal actions of the phases after the acceptance."""
        ...

    @abstractmethod
    def play_apply(
        self, state: State, seat: int, action: dict[str, Any], events: list[Event], rng: Rng
    ) -> None:
        """Apply an already validated action of the phases after the acceptance."""

    def auto_step(self, state: State, events: list[Event], rng: Rng) -> bool:
        """Make one automatic decision for a sitout actor; return False if there is none."""
        return False

    def classic_cover(self, state: State) -> bool:
        """Tell whether ACCETTO sets a maximum bet per punta (True) or a piatto (False)."""
        return True

    def game_view(self, state: State, seat: int | None, out: dict[str, Any]) -> None:
        """Add the game's own public and private parts to a view."""

    def extra_prefs(self, prefs: dict[str, Any]) -> dict[str, Any]:
        """Return the prefs this game keeps for a seat (checked)."""
        return {}

    # -- new hand ------------------------------------------------------------------------------

    def new(
        self, config: dict[str, Any], seats: list[SeatSpec], rng: Rng, carry: dict[str, Any] | None = None
    ) -> State:
        """Start a banco: designate the banker (deal for the re di denari, or rotate) and offer it."""
        cfg = self.validate_config(config)
        order = sorted(int(s["seat"]) for s in seats)
        if len(set(order)) != len(order) or not self.min_seats <= len(order) <= self.max_seats:
            raise ConfigError("numero di posti non valido")
        by_seat = {int(s["seat"]): s for s in seats}
        for s in seats:
            if type(s.get("chips")) is not int or s["chips"] <= 0:
                raise ConfigError("ogni giocatore deve avere credito")
        played = set(carry.get("played", [])) if carry else set()
        state: State = {
            "game": self.name,
            "config": cfg,
            "order": order,
            **seat_books(order, by_seat),
            "new": {
                k(s): bool(by_seat[s].get("new", False)) or (carry is not None and s not in played)
                for s in order
            },
            "prefs": {k(s): self.extra_prefs(dict(by_seat[s].get("prefs") or {})) for s in order},
            "played": sorted(played & set(order)),
            "took_part": [],
            "phase": "accept",
            "actor": None,
            "offers": [],
            "banker": None,
            "designation": None,
            "piatto": 0,
            "cover": 0,
            "max_bet": None,
            "punte": [],
            "caps": {},
            "bets": {},
            "rake": 0,
            "skipped": [],
            "penalties": [],
            "results": [],
            "deck": [],
            "discards": [],
            "deck_log": [],
            "log": [],
        }
        events: list[Event] = []
        first = self._designate(state, carry, rng, events)
        if first is None:
            self._finish(state, events)
        else:
            state["offers"] = [first, *self._offer_ring(state, first)]
            self._offer_next(state, events, rng)
        state["log"] = events
        return state

    def _offer_ring(self, state: State, first: int) -> list[int]:
        """The seats the banco is offered to after ``first``, in turn. Where the newcomers' rule
        applies (tournaments, and the cash tables of a game whose rules say so) a player who has
        not yet bet at the table is passed over while a player who has can take it: whoever the
        banco would go to, after a refusal or a sit-out as at the end of a giro."""
        ring = ring_after(state["order"], first)
        if state["config"]["mode"] == "tournament" or self.newcomer_rule_cash:
            ring = [s for s in ring if not state["new"][k(s)]] + [s for s in ring if state["new"][k(s)]]
        return ring

    def _designate(
        self, state: State, carry: dict[str, Any] | None, rng: Rng, events: list[Event]
    ) -> int | None:
        """Return the seat the banco goes to first, or None when nobody can hold it."""
        order: list[int] = state["order"]
        tournament = state["config"]["mode"] == "tournament"
        previous = carry.get("banker") if carry else None
        present = set(carry.get("seats", [])) if carry else set()
        if previous is not None and present & set(order):
            ring = [*ring_after(order, previous), *([previous] if previous in order else [])]
            if carry and carry.get("resumed"):
                # Resuming a game interrupted for want of players: the first of those present then.
                ring = [s for s in ring if s in present]
            if tournament or self.newcomer_rule_cash:
                veterans = [s for s in ring if not state["new"][k(s)]]
                ring = veterans or ring
            return int(ring[0])
        candidates = [s for s in order if not state["sitout"][k(s)]]
        if not candidates:
            return None
        deal = deal_for_king(candidates, rng)
        state["deck_log"].append(deal["deck"])
        state["designation"] = {"start": deal["start"], "dealt": deal["dealt"], "seat": deal["seat"]}
        events.append({"type": "designation", **state["designation"]})
        return int(deal["seat"])

    # -- the offer of the banco ----------------------------------------------------------------

    def punte_for(self, state: State, banker: int) -> list[int]:
        """Return the punte of a banco held by ``banker``, in playing order from his right.

        Cash tables: only those not in sitout when the hand began. Tournaments: everybody (a punta
        in sitout pays the penalty when its turn comes).
        """
        ring = [s for s in ring_after(state["order"], banker) if state["chips"][k(s)] > 0]
        if state["config"]["mode"] == "tournament":
            return ring
        return [s for s in ring if not state["sitout_start"][k(s)]]

    def _offer_next(self, state: State, events: list[Event], rng: Rng) -> None:
        """Offer the banco to the next seat in line; penalise or skip those in sitout."""
        tournament = state["config"]["mode"] == "tournament"
        while state["offers"]:
            seat = state["offers"].pop(0)
            if state["chips"][k(seat)] == 0 or not self.punte_for(state, seat):
                continue
            if state["sitout"][k(seat)]:
                if tournament:
                    self._penalise_banker(state, seat, events)
                else:
                    state["skipped"].append(seat)
                    events.append({"type": "skip_banco", "seat": seat})
                continue
            state["phase"] = "accept"
            state["actor"] = seat
            events.append({"type": "offer", "seat": seat})
            return
        self._finish(state, events)

    def _penalise_banker(self, state: State, seat: int, events: list[Event]) -> None:
        """Charge a tournament banker in sitout; the amount is split among all the others (G1)."""
        amount = min(self.banker_penalty(state), state["chips"][k(seat)])
        others = ring_after(state["order"], seat)
        shares = betting.split(amount, others, others) if amount else {}
        state["chips"][k(seat)] -= amount
        for key, share in shares.items():
            state["chips"][key] += share
        state["penalties"].append({"seat": seat, "amount": amount, "to": shares, "as": "banco"})
        events.append({"type": "penalty", "seat": seat, "amount": amount, "shares": shares, "as": "banco"})

    def penalise_punta(self, state: State, seat: int, events: list[Event]) -> None:
        """Charge a tournament punta in sitout half the minimum bet, into the banker's piatto."""
        amount = min(state["config"]["min_bet"] // 2, state["chips"][k(seat)])
        state["chips"][k(seat)] -= amount
        state["piatto"] += amount
        state["penalties"].append({"seat": seat, "amount": amount, "as": "punta"})
        events.append({"type": "penalty", "seat": seat, "amount": amount, "as": "punta"})

    def accept_specs(self, state: State, seat: int) -> list[dict[str, Any]]:
        """Return ACCETTO (with its amount, or ALL IN), RIFIUTO at cash tables, SITOUT."""
        cfg = state["config"]
        chips = state["chips"][k(seat)]
        specs: list[dict[str, Any]] = []
        if self.classic_cover(state):
            n = len(self.punte_for(state, seat))
            if chips >= cfg["min_bank"] * n:
                specs.append(
                    {
                        "type": "accetto",
                        "label": "ACCETTO",
                        "amount": {"min": cfg["min_bank"], "max": chips // n},
                    }
                )
            else:
                specs.append({"type": "all_in", "label": "ACCETTO (ALL IN)"})
        else:
            lo = min(cfg["min_bank"], chips)
            specs.append({"type": "accetto", "label": "ACCETTO", "amount": {"min": lo, "max": chips}})
        if cfg["mode"] == "cash":
            specs.append({"type": "rifiuto", "label": "RIFIUTO"})
        specs.append({"type": "sitout", "label": "SITOUT"})
        return specs

    def _accept_apply(
        self, state: State, seat: int, action: dict[str, Any], events: list[Event], rng: Rng
    ) -> None:
        """Apply ACCETTO / ALL IN / RIFIUTO / SITOUT of the designated banker."""
        kind = action["type"]
        if kind in ("rifiuto", "sitout"):
            if kind == "sitout":
                state["sitout"][k(seat)] = True
                events.append({"type": "sitout", "seat": seat})
            if state["config"]["mode"] == "tournament":
                self._penalise_banker(state, seat, events)  # tournaments: the banco cannot be refused
            else:
                state["skipped"].append(seat)
                events.append({"type": "rifiuto", "seat": seat})
            self._offer_next(state, events, rng)
            return
        state["banker"] = seat
        state["offers"] = []
        punte = self.punte_for(state, seat)
        state["punte"] = punte
        chips = state["chips"][k(seat)]
        if self.classic_cover(state):
            if kind == "accetto":
                state["max_bet"] = action["amount"]
                cover = action["amount"] * len(punte)
            else:
                cover = chips
            state["caps"] = punta_caps(
                cover,
                punte,
                state["config"]["min_bet"],
                state["max_bet"],
                tournament=state["config"]["mode"] == TOURNAMENT,
            )
        else:
            cover = action["amount"]
        state["chips"][k(seat)] -= cover
        state["piatto"] = cover
        state["cover"] = cover
        self.mark_played(state, seat)
        events.append({"type": "accetto", "seat": seat, "cover": cover, "max_bet": state["max_bet"]})
        self.start_banco(state, events, rng)

    @staticmethod
    def bet_range(state: State, p: int, cap: int) -> tuple[int, int]:
        """Return a punta's bet range: the minimum bet up to the cap; all-in below the minimum."""
        hi = min(cap, state["chips"][k(p)])
        return min(state["config"]["min_bet"], hi), hi

    def pay_punta(
        self, state: State, p: int, won: bool, events: list[Event], extra: dict[str, Any]
    ) -> dict[str, Any]:
        """Settle one punta against a covering banker: even money less the punta's rake, or lost."""
        bet = state["bets"].pop(k(p))
        rk = rake_of(bet, state["config"]["rake_bp"]) if won else 0
        if won:
            state["piatto"] -= bet
            state["chips"][k(p)] += 2 * bet - rk
        else:
            state["piatto"] += bet
        state["rake"] += rk
        result = {"punta": p, "bet": bet, **extra, "winner": "punta" if won else "banco", "rake": rk}
        state["results"].append(result)
        events.append({"type": "result", **result})
        return result

    def close_cover(self, state: State, events: list[Event]) -> tuple[int, int]:
        """Give the banker the piatto less rake on his positive balance ("saldo × 2 × rake")."""
        saldo = state["piatto"] - state["cover"]
        rk = rake_of(saldo, state["config"]["rake_bp"])  # nothing when the balance is negative
        state["rake"] += rk
        banker = state["banker"]
        state["chips"][k(banker)] += state["piatto"] - rk
        events.append({"type": "piatto_al_banco", "seat": banker, "amount": state["piatto"] - rk, "rake": rk})
        state["piatto"] = 0
        return saldo, rk

    @staticmethod
    def mark_played(state: State, seat: int) -> None:
        """Record that a seat has bet in this hand (so it is no longer a newcomer)."""
        if seat not in state["played"]:
            state["played"] = sorted([*state["played"], seat])
        if seat not in state["took_part"]:
            state["took_part"] = sorted([*state["took_part"], seat])

    # -- the contract --------------------------------------------------------------------------

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """List what this seat may do now."""
        if state["phase"] == "over" or state["actor"] != seat:
            return []
        if state["phase"] == "accept":
            return self.accept_specs(state, seat)
        return self.play_specs(state, seat)

    def to_act(self, state: State) -> list[int]:
        """Return the seat that must decide now (one at a time in these games)."""
        return [] if state["actor"] is None else [state["actor"]]

    def apply(self, state: State, seat: int, action: dict[str, Any], rng: Rng) -> list[Event]:
        """Validate and apply one action; refused actions leave the state unchanged."""
        if state["phase"] == "over":
            raise HandOver()
        if state["actor"] != seat:
            raise NotYourTurn()
        specs = self.legal_actions(state, seat)
        if not any(spec_matches(spec, action) for spec in specs):
            same_type = [s for s in specs if s.get("type") == action.get("type")]
            if not same_type:
                raise UnknownAction(type=str(action.get("type")))
            amount_only = [s for s in same_type if "amount" in s and _same_but_amount(s, action)]
            if amount_only:
                raise InvalidAmount(allowed=amount_only[0]["amount"])
            raise IllegalAction()
        events: list[Event] = []
        if state["phase"] == "accept":
            self._accept_apply(state, seat, action, events, rng)
        else:
            self.play_apply(state, seat, action, events, rng)
        self.run_auto(state, events, rng)
        return events

    def run_auto(self, state: State, events: list[Event], rng: Rng) -> None:
        """Play the decisions of sitout seats automatically until a present seat must decide."""
        while state["phase"] != "over" and self.auto_step(state, events, rng):
            pass

    def timeout_action(self, state: State, seat: int) -> dict[str, Any]:
        """Return the timeout decision: the seat goes sitout and the rules decide for it."""
        if state["actor"] != seat:
            raise NotYourTurn()
        return {"type": "sitout"}

    def is_over(self, state: State) -> bool:
        """Tell whether the banco is over."""
        return bool(state["phase"] == "over")

    def _finish(self, state: State, events: list[Event]) -> None:
        """Close the hand: the banker takes back what is left of the piatto."""
        state["phase"] = "over"
        state["actor"] = None
        state["offers"] = []
        events.append({"type": "end", "banker": state["banker"], "chips": dict(state["chips"])})

    def outcome(self, state: State) -> dict[str, Any]:
        """Return the result: final credit and change per seat, rake, banker, sitout and skipped seats.

        ``skipped``: seats that refused the banco or were passed over in sitout; ``missed``: seats
        that neither held the banco nor bet in this hand (the cash tables' "salta tre turni
        consecutivi" rule is counted by the table from these).

        ``eliminated`` (tournaments) lists the seats left without chips, with the chips each had
        before the banco, for ``games.settemezzo.engine.elimination_ranking``.
        """
        if state["phase"] != "over":
            raise IllegalAction("La mano non è terminata")
        chips = state["chips"]
        return {
            "chips": dict(chips),
            "delta": {s: chips[s] - state["start_chips"][s] for s in chips},
            "rake": state["rake"],
            "banker": state["banker"],
            "sitout": [int(s) for s, v in state["sitout"].items() if v],
            "skipped": list(state["skipped"]),
            "missed": [s for s in state["order"] if s not in state["took_part"]],
            "penalties": list(state["penalties"]),
            "eliminated": [
                {"seat": int(s), "chips_before": state["start_chips"][s], "banker": int(s) == state["banker"]}
                for s in chips
                if chips[s] == 0
            ],
        }

    def carry(self, state: State) -> dict[str, Any] | None:
        """Return the rotation: who held (or was last offered) the banco, who sat, who has bet."""
        last = state["banker"]
        if last is None and state["skipped"]:
            last = state["skipped"][-1]
        if last is None and state["penalties"]:
            bankers = [p["seat"] for p in state["penalties"] if p["as"] == "banco"]
            last = bankers[-1] if bankers else None
        return {"banker": last, "seats": list(state["order"]), "played": list(state["played"])}

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Return the public state plus this seat's own covered cards; never the deck."""
        out: dict[str, Any] = {
            "game": state["game"],
            "config": dict(state["config"]),
            "order": list(state["order"]),
            "chips": dict(state["chips"]),
            "sitout": dict(state["sitout"]),
            "phase": state["phase"],
            "actor": state["actor"],
            "banker": state["banker"],
            "designation": state["designation"],
            "piatto": state["piatto"],
            "cover": state["cover"],
            "max_bet": state["max_bet"],
            "punte": list(state["punte"]),
            "caps": dict(state["caps"]),
            "bets": dict(state["bets"]),
            "rake": state["rake"],
            "penalties": list(state["penalties"]),
            "results": list(state["results"]),
            "deck_size": len(state["deck"]),
            "legal_actions": [] if seat is None else self.legal_actions(state, seat),
        }
        self.game_view(state, seat, out)
        return out


def _same_but_amount(spec: dict[str, Any], action: dict[str, Any]) -> bool:
    """Tell whether an action fits a spec in everything but its amount (for InvalidAmount)."""
    without = {key: value for key, value in spec.items() if key != "amount"}
    return spec_matches(without, {key: value for key, value in action.items() if key != "amount"})


def total_money(state: State) -> int:
    """Return every cent in the hand: credits, stakes, piatto and rake (conserved by every action)."""
    return int(
        sum(state["chips"].values()) + sum(state["bets"].values()) + int(state["piatto"]) + int(state["rake"])
    )
