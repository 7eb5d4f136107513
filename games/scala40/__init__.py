"""Scala 40 (rules 004, RULINGS R2, G2, C1): 2 to 4 linee, registered ``"scala40"``.

The match sits on games.partite's ``LineMatch`` (seats moving positions, lines, Abbandona, the
timeout decision, the view's frame); one smazzata is ``games.scala40.deal``.

Positions: ``0 .. n-1`` in clockwise playing order (G2). Seat numbers grow counter-clockwise at
the table (games.partite: position p+1 sits at the right of p), so the clockwise order is the
seats in decreasing order: the player after position p, at its left, is p+1.

Formats (``format``): ``"individuale"`` (default: 2-4 players, each his own line; ``linee`` fixes
how many, None: as many as are seated), ``"coppie"`` (four players, two lines of partners sitting
opposite, ``pairs`` ``fisse``/``casuali`` and ``partners`` as games.partite) and ``"4in2"`` (two
players moving two positions each). The line of position p is p % (number of lines).
``carte_scoperte`` (pairs only, rules 004 "Regole opzionali – Partite a coppie a carte scoperte":
"i compagni, senza essere visti dagli avversari, giocano a carte scoperte"): partners see each
other's hand, the opponents and spectators never.

Config: ``mode`` ``"punti"`` (``target`` 101 or 151: a line reaching it is out, the last one left
wins, R2; "il totale dei punti che un giocatore o una coppia deve raggiungere per uscire dal
gioco") or ``"smazzate"`` (``deals``, odd, default 3: the line that closes more smazzate wins; a
smazzata without a closer is won by nobody; a tie after the last one: another smazzata, as I5).
``on_timeout``: ``"forfeit"`` (rules) | ``"autoplay"`` (training tables). ``vp`` (win 20, loss
0), ``forfeit_min_vp`` 14, ``cash_divisor`` 10.

Points are what a line pays (lower is better): "Il giocatore o la linea che ha chiuso la partita
avrà come punteggio 0"; every other line pays the hands of its players (a player who never
opened 100, "chiusura in mano" doubles). Decided where the rules are silent: in pairs each
player opens for himself with 40 points (the rules speak of the player who opens), and may
attach to any meld on the table as in the individual game. MP (rules: "i punti totalizzati da
ogni giocatore vengono attribuiti all'avversario"): MP of a line = the sum over the others of
(their points − its points); with two lines that is the rules' 0 vs 70 → +70 / −70. Cash (C1):
the winner's MP / 10, half down (a smazzate the winner of more smazzate may have paid more
points: then 0). Timeout or abandon ends the match: the offending line pays its players' hands
plus 50 and loses; the winner is the other line with the fewest points (ties: the first after
the dealer); a negative difference counts 0; for tournaments the MP are the VP's minimum (K6:
±1 with the 20/0 table). With three or four lines the lobby settles each loser's share: the
outcome lists them in ``cash["losers"]`` and ``cash["per_loser"]`` (games.partite's
``cash_settlement`` assumes two lines).

Besides the contract, ``options`` lists the layouts chosen cards may take and ``layouts`` those
``apply`` accepts for a meld request (cala, attacca, a part of apri, the use of sostituisci),
with the fields that select each: the table's chooser asks for them through the lobby.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

from games.engine import (
    Action,
    ConfigError,
    Event,
    IllegalAction,
    Option,
    SeatSpec,
    State,
    check_table_config,
)
from games.melds import scala40_hand_points
from games.partite import CARTE_SCOPERTE, MODE, ON_TIMEOUT, PAIRS, PARTNERS, round_half_down, seat_positions
from games.registry import register
from games.rng import Rng
from games.rummy import RummyMoves, RummyRules
from games.scala40.deal import Scala40Deal, new_deal

TIMEOUT_PENALTY = 50
FORMATS = ("individuale", "coppie", "4in2")

DEFAULTS: dict[str, Any] = {
    "format": "individuale",
    "pairs": "fisse",
    "partners": None,
    "carte_scoperte": False,
    "mode": "punti",
    "target": 101,
    "deals": 3,
    "vp": {"win": 20, "loss": 0},
    "forfeit_min_vp": 14,
    "cash_divisor": 10,
    "on_timeout": "forfeit",
    "linee": None,  # individuale: the number of players the table sets (2-4); None: as many as seated
}

OPTIONS: tuple[Option, ...] = (
    Option(
        "format",
        "Formato",
        "choice",
        "individuale",
        (("individuale", "Individuale (da 2 a 4 linee)"), ("coppie", "A coppie"), ("4in2", "4 in 2")),
    ),
    PAIRS,
    PARTNERS,
    CARTE_SCOPERTE,
    MODE,
    Option("target", "Punti per uscire dal gioco", "int", 101, min=1, help="Di norma 101 o 151"),
    Option("deals", "Numero di smazzate (dispari)", "int", 3, min=1),
    Option("vp", "VP di vittoria e sconfitta", "data", {"win": 20, "loss": 0}),
    Option("forfeit_min_vp", "VP minimi a chi vince per tempo scaduto o abbandono", "int", 14, min=0),
    Option("cash_divisor", "Divisore della differenza punti (C1)", "int", 10, min=1),
    ON_TIMEOUT,
    Option("linee", "Linee (individuale)", "int", None, min=2, max=4, nullable=True),
)


@register
class Scala40Engine(RummyMoves):
    """A match of Scala 40 among 2-4 linee (see the module docstring)."""

    name = "scala40"
    # a turn (draw, melds, discard) of an 11–15 card hand, and the time to come back after a drop:
    # the rules want the tempo giocata "sempre relativamente lungo" (docs/live-tables.md, Clocks)
    default_tempo_giocata = 90
    title = "Scala 40"
    min_seats = 2
    max_seats = 4
    rules: ClassVar[Scala40Deal] = Scala40Deal()

    def moves(self) -> RummyRules:
        """Return the smazzata's rules (they plan every move)."""
        return self.rules

    def config_options(self) -> tuple[Option, ...]:
        """Return the table options of Scala 40 (formats, carte scoperte, match, timeout)."""
        return OPTIONS

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """Fill defaults and check the table settings."""
        check_table_config(OPTIONS, config)
        cfg = {**DEFAULTS, **config}
        if cfg["format"] not in FORMATS:
            raise ConfigError("formato non valido", format=cfg["format"])
        if cfg["pairs"] not in ("fisse", "casuali"):
            raise ConfigError("coppie non valide", pairs=cfg["pairs"])
        if type(cfg["carte_scoperte"]) is not bool:
            raise ConfigError("carte_scoperte non valido", carte_scoperte=cfg["carte_scoperte"])
        if cfg["carte_scoperte"] and cfg["format"] != "coppie":
            raise ConfigError("le carte scoperte sono solo per le partite a coppie")
        if cfg["mode"] not in ("punti", "smazzate"):
            raise ConfigError("tipo di partita non valido", mode=cfg["mode"])
        if cfg["mode"] == "punti" and (type(cfg["target"]) is not int or cfg["target"] < 1):
            raise ConfigError("punteggio di uscita non valido", target=cfg["target"])
        if type(cfg["deals"]) is not int or cfg["deals"] < 1 or cfg["deals"] % 2 == 0:
            raise ConfigError("il numero di smazzate deve essere dispari", deals=cfg["deals"])
        if cfg["on_timeout"] not in ("forfeit", "autoplay"):
            raise ConfigError("on_timeout non valido", on_timeout=cfg["on_timeout"])
        if type(cfg["cash_divisor"]) is not int or cfg["cash_divisor"] < 1:
            raise ConfigError("cash_divisor non valido")
        if cfg["linee"] is not None and cfg["linee"] not in (2, 3, 4):
            raise ConfigError("la scala 40 si gioca da 2 a 4 linee", linee=cfg["linee"])
        if cfg["linee"] not in (None, 2) and cfg["format"] != "individuale":
            raise ConfigError("a coppie e 4 in 2 si gioca a due linee", linee=cfg["linee"])
        return cfg

    # -- the match -----------------------------------------------------------------------------

    def new(
        self, config: dict[str, Any], seats: list[SeatSpec], rng: Rng, carry: dict[str, Any] | None = None
    ) -> State:
        """Seat the linee clockwise, pick the dealer (random, or rotated from ``carry``), deal."""
        cfg = self.validate_config(config)
        numbers = sorted((s["seat"] for s in seats), reverse=True)  # clockwise order (docstring)
        if len(set(numbers)) != len(numbers) or not 2 <= len(numbers) <= 4:
            raise ConfigError("la scala 40 si gioca da 2 a 4 giocatori", players=len(numbers))
        if cfg["linee"] is not None and cfg["format"] == "individuale" and cfg["linee"] != len(numbers):
            raise ConfigError(f"il tavolo è da {cfg['linee']} giocatori", players=len(numbers))
        positions = seat_positions(cfg, numbers, rng)
        n = len(positions)
        lines = n if cfg["format"] == "individuale" else 2
        dealer_seat = (carry or {}).get("dealer_seat")
        dealer = positions.index(dealer_seat) if dealer_seat in positions else rng.randbelow(n)
        st = self.match_state(
            cfg, positions, seats, dealer, totals=[0] * lines, out=[False] * lines, deals_won=[0] * lines
        )
        self._start_deal(st, rng)
        return st

    def lines(self, state: State) -> int:
        """Return the number of linee: every player his own, or two pairs."""
        return len(state["totals"])

    def _active(self, st: State) -> list[int]:
        lines = self.lines(st)
        return [p for p in range(len(st["seats"])) if not st["out"][p % lines]]

    def _start_deal(self, st: State, rng: Rng) -> list[Event]:
        active = self._active(st)
        deal, deck = new_deal(len(st["seats"]), active, st["dealer"], rng)
        st["deal"] = deal
        st["deck_log"].append(deck)
        st["deal_no"] += 1
        events: list[Event] = [
            {"type": "smazzata", "number": st["deal_no"], "dealer": st["seats"][st["dealer"]]},
        ]
        events += [
            {"type": "carte", "pos": p, "cards": list(deal["hands"][p]), "to_pos": [p]} for p in active
        ]
        events.append({"type": "primo_scarto", "card": deal["scarti"][-1]})
        return self.seat_events(st, events)

    # -- the contract ----------------------------------------------------------------------------

    def deal_turn(self, state: State) -> int | None:
        """Return the position to move; None once the smazzata (or the match) has ended."""
        if state["over"] or state["deal"]["ended"]:
            return None
        return int(state["deal"]["turn"])

    def deal_specs(self, state: State, pos: int) -> list[dict[str, Any]]:
        """List the structured meld specs and the concrete moves of the position to act."""
        return self.rules.legal_actions(state, pos)

    def auto_move(self, state: State, pos: int) -> Action:
        """Return the automatic move: pesca, then the discard the rules allow."""
        return self.rules.auto_action(state, pos)

    def check_player(self, state: State, seat: int) -> None:
        """Refuse a seat that does not play the match, or whose line is already out."""
        super().check_player(state, seat)
        if state["out"][self.seat_line(state, seat)]:
            raise IllegalAction("Sei già fuori dalla partita")

    def deal_move(self, state: State, pos: int, action: Action, rng: Rng) -> list[Event]:
        """Apply a move; score the smazzata and deal the next one when due."""
        events = self.seat_events(state, self.rules.apply(state, pos, action, rng))
        if state["deal"]["ended"]:
            events.extend(self._end_deal(state, rng))
        return events

    # -- end of a smazzata and of the match ----------------------------------------------------------

    def line_points(self, st: State, by_position: list[int], closer: int | None) -> list[int]:
        """Return what each line pays: its players' hands, 0 for the line that closed."""
        lines = self.lines(st)
        out = [0] * lines
        for p, pts in enumerate(by_position):
            out[p % lines] += pts
        if closer is not None:
            out[closer % lines] = 0  # "Il giocatore o la linea che ha chiuso ... avrà come punteggio 0"
        return out

    def _end_deal(self, st: State, rng: Rng) -> list[Event]:
        d = st["deal"]
        closer = d["closed_by"]
        pts = self.line_points(st, self.rules.points(d), closer)
        lines = self.lines(st)
        record = {
            "number": st["deal_no"],
            "dealer": st["seats"][st["dealer"]],
            "points": pts,
            "closed_by": None if closer is None else st["seats"][closer],
            "in_mano": d["in_mano"],
            "end": d["ended"],
            "hands": [list(h) for h in d["hands"]],
            "opened": list(d["opened"]),
            "active": list(d["active"]),
        }
        st["history"].append(record)
        st["totals"] = [t + p for t, p in zip(st["totals"], pts, strict=True)]
        if closer is not None:
            st["deals_won"][closer % lines] += 1
        events: list[Event] = [
            {"type": "fine_smazzata", **copy.deepcopy(record), "totals": list(st["totals"])}
        ]
        winner = self._decide(st)
        if winner is not None:
            events.append(self._finish(st, winner, st["config"]["mode"], list(st["totals"])))
            return events
        active = self._active(st)
        later = [p for p in active if p > st["dealer"]]
        st["dealer"] = later[0] if later else active[0]  # clockwise, G2
        events.extend(self._start_deal(st, rng))
        return events

    def _decide(self, st: State) -> int | None:
        """Return the winning line if the match ends now (updating who is out), else None."""
        cfg = st["config"]
        active = [line for line in range(self.lines(st)) if not st["out"][line]]
        if cfg["mode"] == "punti":
            target = cfg["target"]
            staying = [line for line in active if st["totals"][line] < target]
            if not staying:  # everyone reached it at once: the fewest points stay in (as I5)
                low = min(st["totals"][line] for line in active)
                staying = [line for line in active if st["totals"][line] == low]
            for line in active:
                if line not in staying:
                    st["out"][line] = True
            return staying[0] if len(staying) == 1 else None
        won = st["deals_won"]
        ranked = sorted(active, key=lambda line: -won[line])
        remaining = max(0, cfg["deals"] - st["deal_no"])
        if won[ranked[0]] > won[ranked[1]] + remaining:
            return ranked[0]
        return None

    def forfeit(self, state: State, line: int, kind: str, *, seat: int | None = None) -> list[Event]:
        """End the match lost by ``line``: its hands plus 50 points (rules), then the difference."""
        st = state
        lines = self.lines(st)
        n = len(st["seats"])
        mine = [p for p in range(n) if p % lines == line]
        hands = st["deal"]["hands"] if st["deal"] else [[] for _ in range(n)]
        penalty = TIMEOUT_PENALTY + sum(scala40_hand_points(hands[p]) for p in mine)
        totals = list(st["totals"])
        totals[line] += penalty
        st["forfeit"] = {"line": line, "seats": sorted({st["seats"][p] for p in mine}), "kind": kind}
        st["forfeit"]["penalty"] = penalty
        if seat is not None:  # who timed out or left (his partner is not to blame)
            st["forfeit"]["seat"] = seat
        others = [x for x in range(lines) if x != line and not st["out"][x]]
        order = sorted(others, key=lambda x: (totals[x], (x - st["dealer"] - 1) % n))
        return [
            {"type": kind, "line": line, "penalty": penalty},
            self._finish(st, order[0], kind, totals),
        ]

    def _finish(self, st: State, winner: int, reason: str, totals: list[int]) -> Event:
        st["over"] = True
        st["final_totals"] = totals
        st["result"] = self._report(st, winner, reason, totals)
        return {
            "type": "fine_partita",
            "winner": winner,
            "winner_seats": st["result"]["lines"][winner],
            "reason": reason,
            "points": list(totals),
        }

    def _report(self, st: State, winner: int, reason: str, totals: list[int]) -> dict[str, Any]:
        cfg = st["config"]
        n = len(totals)
        total = sum(totals)
        real_mp = [total - n * totals[x] for x in range(n)]  # sum over the others of (theirs - mine)
        mp = list(real_mp)
        forfeit = st.get("forfeit")
        vp = [int(cfg["vp"]["win"]) if x == winner else int(cfg["vp"]["loss"]) for x in range(n)]
        if forfeit is not None:
            vp[winner] = max(vp[winner], int(cfg["forfeit_min_vp"]))
            vp[forfeit["line"]] = 0
            # RULINGS K6: the MP come from the VP's minimum (a win's, 1 MP, in the 20/0 table)
            mp = [0] * n
            mp[winner], mp[forfeit["line"]] = 1, -1
        diff = max(0, real_mp[winner])
        seats = st["seats"]
        lines = [sorted({seats[p] for p in range(len(seats)) if p % n == x}) for x in range(n)]
        losers = [x for x in range(n) if x != winner]
        return {
            "winner": winner,
            "winner_seat": lines[winner][0],
            "draw": False,
            "reason": reason,
            "lines": lines,
            "points": list(totals),
            "mp": mp,
            "vp": vp,
            "deals": len(st["history"]),
            "deals_won": list(st["deals_won"]),
            "out": list(st["out"]),
            "forfeit": copy.deepcopy(forfeit),
            "cash": {
                "winner": winner,
                "loser": losers[0] if n == 2 else None,
                "losers": losers,
                "differenza_effettiva": diff,
                "differenza_punti": round_half_down(diff, cfg["cash_divisor"]),
                # each loser's share of the winner's MP (his points − the winner's) for the lobby
                # to settle 3-4 players; they add up to the winner's MP unless a forfeit left a
                # loser below the winner
                "per_loser": {
                    str(x): {"line": x, "differenza_effettiva": max(0, totals[x] - totals[winner])}
                    for x in losers
                },
                "cappotti": [0] * n,
                "cappotto": False,
            },
            "per_seat": {
                str(s): {"line": x, "points": totals[x], "mp": mp[x], "vp": vp[x], "won": x == winner}
                for x in range(n)
                for s in lines[x]
            },
        }

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Return the match as this seat (None: spectator) may see it: own hand (and the partner's
        with carte scoperte)."""
        deal = None if state["over"] else self.rules.view(state, self.visible_positions(state, seat))
        return self.match_view(state, seat, deal, out=list(state["out"]))
