"""Scala 40 (rules 004, RULINGS R2, G2, C1): 2 to 4 individual players, registered ``"scala40"``.

games.partite is built for two lines; Scala 40 is played by 2-4 *linee* of one player each, so
this engine subclasses ``Engine`` directly and reuses partite's pieces (the Abbandona spec, the
C1 rounding, preferences). One smazzata is ``games.scala40.deal``.

Positions: ``0 .. n-1`` in clockwise playing order (G2). Seat numbers grow counter-clockwise at
the table (games.partite: position p+1 sits at the right of p), so the clockwise order is the
seats in decreasing order: the player after position p, at its left, is p+1.

Config: ``mode`` ``"punti"`` (``target`` 101 or 151: a player reaching it is out, the last one
left wins, R2) or ``"smazzate"`` (``deals``, odd, default 3: the player who closes more smazzate
wins; a smazzata without a closer is won by nobody; a tie after the last one: another smazzata,
as I5). ``on_timeout``: ``"forfeit"`` (rules) | ``"autoplay"`` (training tables). ``vp``
(win 20, loss 0), ``forfeit_min_vp`` 14, ``cash_divisor`` 10.

Points are what a player pays (lower is better). MP (rules: "i punti totalizzati da ogni giocatore
vengono attribuiti all'avversario"): MP of a player = the sum over the others of (their points −
his points); with two players that is the rules' 0 vs 70 → +70 / −70. Cash (C1): the winner's MP
/ 10, half down (a smazzate the winner of more smazzate may have paid more points: then 0).
Timeout or abandon ends the match: the offender pays his hand plus 50 and loses; the winner is
the other player with the fewest points (ties: the first after the dealer); a negative
difference counts 0. With three or four players the lobby settles each loser's share: the
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
    HandOver,
    IllegalAction,
    NotYourTurn,
    SeatSpec,
    State,
    UnknownAction,
)
from games.melds import Meld, scala40_hand_points
from games.partite import ABBANDONA, ABBANDONA_SPEC, TEMPO_SCADUTO, MatchReport, round_half_down
from games.registry import register
from games.rng import Rng
from games.scala40.deal import Scala40Deal, new_deal

TIMEOUT_PENALTY = 50

DEFAULTS: dict[str, Any] = {
    "mode": "punti",
    "target": 101,
    "deals": 3,
    "vp": {"win": 20, "loss": 0},
    "forfeit_min_vp": 14,
    "cash_divisor": 10,
    "on_timeout": "forfeit",
    "linee": None,  # the number of players the table sets (2-4); None: as many as are seated
}


@register
class Scala40Engine(MatchReport):
    """A match of Scala 40 among 2-4 players (see the module docstring)."""

    name = "scala40"
    title = "Scala 40"
    family = "partite"
    min_seats = 2
    max_seats = 4
    rules: ClassVar[Scala40Deal] = Scala40Deal()

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """Fill defaults and check the table settings."""
        cfg = {**DEFAULTS, **config}
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
        return cfg

    # -- the match -----------------------------------------------------------------------------

    def new(
        self, config: dict[str, Any], seats: list[SeatSpec], rng: Rng, carry: dict[str, Any] | None = None
    ) -> State:
        """Seat 2-4 players clockwise, pick the dealer (random, or rotated from ``carry``), deal."""
        cfg = self.validate_config(config)
        numbers = sorted((s["seat"] for s in seats), reverse=True)  # clockwise order (docstring)
        if len(set(numbers)) != len(numbers) or not 2 <= len(numbers) <= 4:
            raise ConfigError("la scala 40 si gioca da 2 a 4 giocatori", players=len(numbers))
        n = len(numbers)
        if cfg["linee"] is not None and cfg["linee"] != n:
            raise ConfigError(f"il tavolo è da {cfg['linee']} giocatori", players=n)
        dealer_seat = (carry or {}).get("dealer_seat")
        dealer = numbers.index(dealer_seat) if dealer_seat in numbers else rng.randbelow(n)
        st: State = {
            "game": self.name,
            "config": cfg,
            "seats": numbers,
            "prefs": {str(s["seat"]): dict(s.get("prefs") or {}) for s in seats},
            "dealer": dealer,
            "deal_no": 0,
            "totals": [0] * n,
            "out": [False] * n,
            "deals_won": [0] * n,
            "history": [],
            "deck_log": [],
            "deal": {},
            "over": False,
            "result": None,
        }
        self._start_deal(st, rng)
        return st

    def _active(self, st: State) -> list[int]:
        return [p for p in range(len(st["seats"])) if not st["out"][p]]

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
        return self._seat_events(st, events)

    @staticmethod
    def _seat_events(st: State, events: list[Event]) -> list[Event]:
        seats = st["seats"]
        for ev in events:
            if "pos" in ev:
                ev["seat"] = seats[ev.pop("pos")]
            if "to_pos" in ev:
                ev["to"] = sorted({seats[p] for p in ev.pop("to_pos")})
        return events

    # -- the contract ----------------------------------------------------------------------------

    def _pos(self, state: State) -> int | None:
        if state["over"] or state["deal"]["ended"]:
            return None
        return int(state["deal"]["turn"])

    def to_act(self, state: State) -> list[int]:
        """Return the seat to move (empty when the match is over)."""
        pos = self._pos(state)
        return [] if pos is None else [state["seats"][pos]]

    def _my_pos(self, state: State, seat: int) -> int:
        pos = self._pos(state)
        if pos is None or state["seats"][pos] != seat:
            raise NotYourTurn()
        return pos

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """List the moves of the seat to act (structured meld specs) plus "Abbandona" for everyone."""
        if state["over"] or seat not in state["seats"] or state["out"][state["seats"].index(seat)]:
            return []
        pos = self._pos(state)
        specs = (
            self.rules.legal_actions(state, pos) if pos is not None and state["seats"][pos] == seat else []
        )
        return [*specs, dict(ABBANDONA_SPEC)]

    def can_apply(self, state: State, seat: int, action: Action) -> bool:
        """Tell whether ``apply`` would accept the action (validated, never changing the state)."""
        if isinstance(action, dict) and action.get("type") in (ABBANDONA, TEMPO_SCADUTO):
            return not state["over"] and seat in state["seats"] and set(action) == {"type"}
        try:
            self.rules.plan(state, self._my_pos(state, seat), action)
        except IllegalAction:
            return False
        return True

    def sample_action(self, state: State, seat: int, rng: Rng) -> Action:
        """Pick a random legal move that favours opening and melding (never "Abbandona")."""
        return self.rules.sample(state, self._my_pos(state, seat), rng)

    def options(self, state: State, seat: int, action: Action) -> list[Meld]:
        """Return the layouts the chosen cards may take (ace low/high, the jolly's place or suit)."""
        return copy.deepcopy(self.rules.options(state, self._my_pos(state, seat), action))

    def layouts(self, state: State, seat: int, request: Action) -> list[dict[str, Any]]:
        """Return the layouts ``apply`` accepts for a meld request sent without one (the chooser).

        cala, attacca, the last part of apri, the ``use`` of sostituisci: see
        ``Scala40Deal.layouts``; the state is left untouched.
        """
        if state["over"]:
            raise HandOver()
        return copy.deepcopy(self.rules.layouts(state, self._my_pos(state, seat), request))

    def apply(self, state: State, seat: int, action: Action, rng: Rng) -> list[Event]:
        """Apply a move (or a forfeit); score the smazzata and deal the next one when due."""
        if state["over"]:
            raise HandOver()
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise UnknownAction()
        if action["type"] in (ABBANDONA, TEMPO_SCADUTO):
            if seat not in state["seats"] or set(action) != {"type"}:
                raise IllegalAction()
            pos = state["seats"].index(seat)
            if state["out"][pos]:
                raise IllegalAction("Sei già fuori dalla partita")
            return self._forfeit(state, pos, action["type"])
        pos = self._my_pos(state, seat)
        events = self._seat_events(state, self.rules.apply(state, pos, action, rng))
        if state["deal"]["ended"]:
            events.extend(self._end_deal(state, rng))
        return events

    # -- end of a smazzata and of the match ----------------------------------------------------------

    def _end_deal(self, st: State, rng: Rng) -> list[Event]:
        d = st["deal"]
        pts = self.rules.points(d)
        closer = d["closed_by"]
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
            st["deals_won"][closer] += 1
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
        """Return the winner if the match ends now (updating who is out), else None."""
        cfg = st["config"]
        active = self._active(st)
        if cfg["mode"] == "punti":
            target = cfg["target"]
            staying = [p for p in active if st["totals"][p] < target]
            if not staying:  # everyone reached it at once: the fewest points stay in (as I5)
                low = min(st["totals"][p] for p in active)
                staying = [p for p in active if st["totals"][p] == low]
            for p in active:
                if p not in staying:
                    st["out"][p] = True
            return staying[0] if len(staying) == 1 else None
        won = st["deals_won"]
        ranked = sorted(active, key=lambda p: -won[p])
        remaining = max(0, cfg["deals"] - st["deal_no"])
        lead, second = won[ranked[0]], won[ranked[1]]
        if lead > second + remaining:
            return ranked[0]
        return None

    def _forfeit(self, st: State, offender: int, kind: str) -> list[Event]:
        """End the match lost by ``offender``: his hand plus 50 points (rules), then the difference."""
        hand = st["deal"]["hands"][offender] if st["deal"] else []
        penalty = TIMEOUT_PENALTY + scala40_hand_points(hand)
        totals = list(st["totals"])
        totals[offender] += penalty
        st["forfeit"] = {
            "position": offender,
            "seat": st["seats"][offender],
            "kind": kind,
            "penalty": penalty,
        }
        others = [p for p in self._active(st) if p != offender]
        n = len(st["seats"])
        order = sorted(others, key=lambda p: (totals[p], (p - st["dealer"] - 1) % n))
        return self._seat_events(
            st,
            [
                {"type": kind, "pos": offender, "penalty": penalty},
                self._finish(st, order[0], kind, totals),
            ],
        )

    def _finish(self, st: State, winner: int, reason: str, totals: list[int]) -> Event:
        st["over"] = True
        st["final_totals"] = totals
        st["result"] = self._report(st, winner, reason, totals)
        return {
            "type": "fine_partita",
            "winner": st["seats"][winner],
            "reason": reason,
            "points": list(totals),
        }

    def _report(self, st: State, winner: int, reason: str, totals: list[int]) -> dict[str, Any]:
        cfg = st["config"]
        n = len(totals)
        total = sum(totals)
        mp = [total - n * totals[p] for p in range(n)]  # sum over the others of (theirs - mine)
        forfeit = st.get("forfeit")
        vp = [int(cfg["vp"]["win"]) if p == winner else int(cfg["vp"]["loss"]) for p in range(n)]
        if forfeit is not None:
            vp[winner] = max(vp[winner], int(cfg["forfeit_min_vp"]))
            vp[forfeit["position"]] = 0
        diff = max(0, mp[winner])
        seats = st["seats"]
        losers = [p for p in range(n) if p != winner]
        return {
            "winner": winner,
            "winner_seat": seats[winner],
            "draw": False,
            "reason": reason,
            "lines": [[s] for s in seats],
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
                    str(p): {"line": p, "differenza_effettiva": max(0, totals[p] - totals[winner])}
                    for p in losers
                },
                "cappotti": [0] * n,
                "cappotto": False,
            },
            "per_seat": {
                str(seats[p]): {"line": p, "points": totals[p], "mp": mp[p], "vp": vp[p], "won": p == winner}
                for p in range(n)
            },
        }

    def carry(self, state: State) -> dict[str, Any] | None:
        """Return the next dealer: the seat at the left of this match's last dealer (clockwise)."""
        seats = state["seats"]
        return {"dealer_seat": seats[(state["dealer"] + 1) % len(seats)]}

    def timeout_action(self, state: State, seat: int) -> Action:
        """Return the timeout decision: the player loses (rules), or the automatic move if configured."""
        if state["config"]["on_timeout"] == "autoplay" and not state["over"]:
            pos = self._pos(state)
            if pos is not None and state["seats"][pos] == seat:
                return self.rules.auto_action(state, pos)
        return {"type": TEMPO_SCADUTO}

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Return the match as this seat (None: spectator) may see it: own hand only."""
        seats = state["seats"]
        visible = frozenset(p for p in range(len(seats)) if seats[p] == seat)
        deal = None if state["over"] else self.rules.view(state, visible)
        return {
            "game": state["game"],
            "seat": seat,
            "config": copy.deepcopy(state["config"]),
            "positions": list(seats),
            "dealer": seats[state["dealer"]],
            "deal_no": state["deal_no"],
            "totals": list(state["totals"]),
            "out": list(state["out"]),
            "deals_won": list(state["deals_won"]),
            "history": copy.deepcopy(state["history"]),
            "to_act": self.to_act(state),
            "legal": [] if seat is None else self.legal_actions(state, seat),
            "deal": deal,
            "over": state["over"],
            "result": copy.deepcopy(state["result"]),
        }
