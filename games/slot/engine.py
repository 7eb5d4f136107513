"""The slot machine "Pierino Tenta la Fortuna": one player's session as a pure state machine.

Rules 004 "Regole della slot tornei" and RULINGS S1–S8; the numbers are ``games.slot.table``'s.

A session is one player's credit at the machine (a slot tournament entry). The state is plain
JSON data; every function here is pure but for the ``rng`` passed in. Actions:

* ``{"type": "gira", "amount": unit}``: a paid spin at unit bet 1–100; it costs unit × 30 and needs
  that much credit (the credit never goes below zero). Line wins, and 50 × total bet for 4–5 Pierino,
  are credited at once; the features it starts follow in order: bonus, free spins, Pierino wheel.
* ``{"type": "porta", "door": 0..5}``: a door of the bonus game. Maestra: one level up (the top
  level ends the game); Preside: the game ends. Win: total bet × the level's multiplier (S4).
* ``{"type": "lavagnetta", "slate": 0..11}``: a slate of the free-spin game, not yet turned; it adds
  spins and/or multiplier, the Preside ends the picks and the free spins are played at once, at the
  triggering unit bet and the multiplier reached, retriggers adding spins up to 100 in all (S5).
* ``{"type": "ruota"}``: the Pierino wheel ("inizia"): it enters the mode with probability unit / 100;
  the mode's 10 spins are played at once and their points' band is credited (S6).

What is behind a door or a slate is drawn when the player turns it (a door hides the Preside with
probability Preside doors / 6; a slate is drawn from those not yet turned), so no state holds a
hidden outcome and the choice of door or slate cannot change the odds.

A refused action raises a ``SlotError`` with a stable code and changes nothing. Every accepted
action is journaled with the draws it made (``state["journal"]``: the reel stops, doors, slates and
the wheel), so ``replay`` rebuilds a session exactly from its starting credit and journal (S8).
``expire`` is the end of the player's time: a pending choice is answered negatively (the bonus
pays the level reached, the free spins are played at the multiplier reached) and the wheel of a spin
already played still turns; no action is accepted after it.

This is not a table game: it has no seats and creates its wins, so it is not in
``games.registry`` (whose consumers open cash tables of every registered engine).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from functools import cache
from typing import Any

from games.engine import IllegalAction, InvalidAmount, UnknownAction
from games.rng import RecordingRng, ReplayError, ReplayRng, Rng
from games.slot import lines, table

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]
Payline = tuple[int, int, int, int, int]

SPIN = "spin"
BONUS = "bonus"
SLATES = "slates"
WHEEL = "wheel"
EXPIRE = "scadenza"  # the journal's name for the end of time


class SlotError(IllegalAction):
    """A refused slot action: nothing changed."""

    code = "slot_error"
    default_message = "Giocata non ammessa"


class BetOutOfRange(SlotError, InvalidAmount):
    code = "bet_out_of_range"
    default_message = "La puntata unitaria va da 1 a 100 chips"


class InsufficientCredit(SlotError):
    code = "insufficient_credit"
    default_message = "Credito insufficiente per questa puntata"


class ChoicePending(SlotError):
    code = "choice_pending"
    default_message = "Completa prima la scelta in corso"


class NoChoicePending(SlotError):
    code = "no_choice_pending"
    default_message = "Nessuna scelta in corso"


class InvalidChoice(SlotError):
    code = "invalid_choice"
    default_message = "Scelta non valida"


class SessionOver(SlotError):
    code = "session_over"
    default_message = "Il tempo di gioco è terminato"


class UnknownSlotAction(SlotError, UnknownAction):
    code = "unknown_action"
    default_message = "Giocata non ammessa"


def new(credit: int) -> State:
    """Return a session at the machine with this starting credit."""
    if type(credit) is not int or credit < 0:
        raise ValueError("credit must be a non-negative int")
    return {
        "game": "slot",
        "start_credit": credit,
        "credit": credit,
        "phase": SPIN,
        "queue": [],
        "spin": None,
        "spins": 0,
        "bet": 0,
        "won": 0,
        "over": False,
        "journal": [],
    }


def total_bet(unit: int) -> int:
    """Return the total bet of a spin at this unit bet (30 fixed lines)."""
    return unit * table.LINES


def legal_actions(state: State) -> list[dict[str, Any]]:
    """List what the player may do now (specs as in ``games.engine``); empty if nothing."""
    if state["over"]:
        return []
    phase = state["phase"]
    if phase == SPIN:
        top = min(table.MAX_UNIT, state["credit"] // table.LINES)
        if top < table.MIN_UNIT:
            return []
        return [{"type": "gira", "label": "GIRA", "amount": {"min": table.MIN_UNIT, "max": top}}]
    if phase == BONUS:
        return [{"type": "porta", "door": d} for d in range(table.BONUS_DOORS)]
    if phase == SLATES:
        revealed = state["spin"]["free"]["slates"]
        return [{"type": "lavagnetta", "slate": i} for i, s in enumerate(revealed) if s is None]
    return [{"type": "ruota", "label": "INIZIA"}]


# Each action: the phase that accepts it and its keys.
_PHASE_OF = {"gira": SPIN, "porta": BONUS, "lavagnetta": SLATES, "ruota": WHEEL}
_KEYS_OF = {
    "gira": {"type", "amount"},
    "porta": {"type", "door"},
    "lavagnetta": {"type", "slate"},
    "ruota": {"type"},
}


def _check(state: State, action: Action) -> None:
    """Raise the SlotError that refuses ``action``, if any (changes nothing)."""
    if state["over"]:
        raise SessionOver()
    kind = action.get("type")
    if kind not in _PHASE_OF:
        raise UnknownSlotAction()
    if action.keys() != _KEYS_OF[kind]:
        raise UnknownSlotAction("Parametri della giocata non validi")
    phase = state["phase"]
    if kind == "gira":
        if phase != SPIN:
            raise ChoicePending()
        unit = action["amount"]
        if type(unit) is not int or not table.MIN_UNIT <= unit <= table.MAX_UNIT:
            raise BetOutOfRange()
        if state["credit"] < total_bet(unit):
            raise InsufficientCredit()
        return
    if phase != _PHASE_OF[kind]:
        raise NoChoicePending()
    if kind == "porta":
        door = action["door"]
        if type(door) is not int or not 0 <= door < table.BONUS_DOORS:
            raise InvalidChoice("Scegli una delle 6 porte")
    elif kind == "lavagnetta":
        slate = action["slate"]
        slates = state["spin"]["free"]["slates"]
        if type(slate) is not int or not 0 <= slate < len(slates) or slates[slate] is not None:
            raise InvalidChoice("Scegli una lavagnetta non ancora girata")


def can_apply(state: State, action: Action) -> bool:
    """Tell whether ``apply`` would accept this action (never changes ``state``)."""
    try:
        _check(state, action)
    except SlotError:
        return False
    return True


def apply(state: State, action: Action, rng: Rng) -> list[Event]:
    """Apply the player's action and journal it; raise SlotError and change nothing if refused."""
    _check(state, action)
    recording = RecordingRng(rng)
    kind = action["type"]
    if kind == "gira":
        events = _spin(state, action["amount"], recording)
    elif kind == "porta":
        events = _door(state, action["door"], recording)
    elif kind == "lavagnetta":
        events = _slate(state, action["slate"], recording)
    else:
        events = _wheel(state, recording)
    state["journal"].append({"action": dict(action), "draws": recording.draws})
    return events


def expire(state: State, rng: Rng) -> list[Event]:
    """End the player's time (S8): answer a pending choice negatively, turn a pending wheel, close."""
    if state["over"]:
        raise SessionOver()
    recording = RecordingRng(rng)
    events: list[Event] = []
    while state["phase"] != SPIN:
        phase = state["phase"]
        if phase == BONUS:
            events += _end_bonus(state, recording)
        elif phase == SLATES:
            events += _play_free_spins(state, recording)
        else:
            events += _wheel(state, recording)
    state["over"] = True
    events.append({"type": "fine_tempo", "credit": state["credit"]})
    state["journal"].append({"action": {"type": EXPIRE}, "draws": recording.draws})
    return events


def replay(start_credit: int, journal: Sequence[dict[str, Any]]) -> State:
    """Rebuild a session from its starting credit and journal, drawing only the recorded draws."""
    state = new(start_credit)
    for entry in journal:
        rng = ReplayRng(entry["draws"])
        if entry["action"]["type"] == EXPIRE:
            expire(state, rng)
        else:
            apply(state, dict(entry["action"]), rng)
        if not rng.exhausted:
            raise ReplayError("a journal entry has draws its action did not use")
    return state


def view(state: State) -> dict[str, Any]:
    """Return what the player's client sees: everything but the journal and the unturned slates.

    A copy: nothing done to it reaches the state.
    """
    out = copy.deepcopy({k: v for k, v in state.items() if k != "journal"})
    if out["spin"] is not None and out["spin"]["free"] is not None:
        del out["spin"]["free"]["pool"]
    out["legal_actions"] = legal_actions(state)
    return out


# ---------------------------------------------------------------------------------- the spin


@cache
def _column(strip: str, stop: int) -> str:
    return lines.window([strip], [stop])[0]


@cache
def _line_win(symbols: str) -> tuple[int, str, int]:
    return lines.line_win(symbols)


@cache
def _open_lines(
    strips: tuple[str, ...], s1: int, s2: int, s3: int
) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Return the paylines (index, rows) whose first three cells win at these stops of reels 1–3.

    A line wins only if its first three cells do, so only these lines are evaluated in full: the
    hot path of the benchmark, evaluated by ``lines.line_win`` all the same.
    """
    c1, c2, c3 = _column(strips[0], s1), _column(strips[1], s2), _column(strips[2], s3)
    return tuple(
        (index, line)
        for index, line in enumerate(table.PAYLINES, start=1)
        if _line_win(c1[line[0]] + c2[line[1]] + c3[line[2]])[0]
    )


def _reels(strips: tuple[str, ...], rng: Rng) -> tuple[list[int], list[str], list[dict[str, Any]], int]:
    """Draw the stops of the five reels; return stops, window, winning lines and line pay × unit."""
    stops = [rng.randbelow(len(strip)) for strip in strips]
    win = [_column(strip, stop) for strip, stop in zip(strips, stops, strict=True)]
    wins = []
    pay = 0
    for index, line in _open_lines(strips, stops[0], stops[1], stops[2]):
        amount, symbol, count = _line_win(
            win[0][line[0]] + win[1][line[1]] + win[2][line[2]] + win[3][line[3]] + win[4][line[4]]
        )
        wins.append({"line": index, "symbol": symbol, "count": count, "pay": amount})
        pay += amount
    return stops, win, wins, pay


def _spin(state: State, unit: int, rng: Rng) -> list[Event]:
    bet = total_bet(unit)
    stops, win, wins, pay = _reels(table.STRIPS, rng)
    line_pay = pay * unit
    shown = "".join(win)
    pierino = shown.count(table.PIERINO)
    pierino_pay = bet * table.PIERINO_PAY if pierino >= table.PIERINO_TRIGGER else 0
    bonus_count = shown[: table.ROWS * table.BONUS_REELS].count(table.BONUS)
    free_count = shown.count(table.FREE_SPIN)
    state["spins"] += 1
    state["bet"] += bet
    state["credit"] -= bet
    queue = []
    if bonus_count >= table.BONUS_TRIGGER:
        queue.append(BONUS)
    if free_count >= table.FREE_SPIN_TRIGGER:
        queue.append(SLATES)
    if pierino >= table.PIERINO_TRIGGER:
        queue.append(WHEEL)
    state["spin"] = {
        "n": state["spins"],
        "unit": unit,
        "bet": bet,
        "stops": stops,
        "window": win,
        "lines": [{**w, "pay": w["pay"] * unit} for w in wins],
        "line_win": line_pay,
        "pierino_pay": pierino_pay,
        "bonus": None,
        "free": None,
        "wheel": None,
        "features": list(queue),
        "win": 0,
    }
    _credit(state, line_pay + pierino_pay)
    state["queue"] = queue
    events: list[Event] = [
        {
            "type": "giro",
            "n": state["spins"],
            "unit": unit,
            "bet": bet,
            "stops": stops,
            "window": win,
            "lines": state["spin"]["lines"],
            "win": line_pay + pierino_pay,
            "features": list(queue),
        }
    ]
    return events + _next_feature(state, rng)


def _credit(state: State, chips: int) -> None:
    state["credit"] += chips
    state["won"] += chips
    state["spin"]["win"] += chips


def _next_feature(state: State, rng: Rng) -> list[Event]:
    """Start the next feature the spin won, or go back to the reels."""
    spin = state["spin"]
    if not state["queue"]:
        state["phase"] = SPIN
        return []
    feature = state["queue"].pop(0)
    state["phase"] = feature
    if feature == BONUS:
        spin["bonus"] = {"level": 1, "doors": [], "win": 0, "over": False}
        return [{"type": "bonus", "level": 1}]
    if feature == SLATES:
        count = min(5, lines.count_symbol(spin["window"], table.FREE_SPIN))
        spin["free"] = {
            "awarded": min(table.FREE_SPIN_CAP, table.FREE_SPINS_AWARDED[count]),
            "multiplier": 1,
            "slates": [None] * len(table.SLATES),
            "pool": [list(s) for s in table.SLATES],
            "spins": [],
            "win": 0,
            "over": False,
        }
        return [{"type": "free_spin", "awarded": spin["free"]["awarded"], "multiplier": 1}]
    spin["wheel"] = {"entered": None, "spins": [], "points": 0, "prize": 0}
    return [{"type": "ruota_pierino", "chance": spin["unit"]}]


# ---------------------------------------------------------------------------------- the bonus


def _door(state: State, door: int, rng: Rng) -> list[Event]:
    bonus = state["spin"]["bonus"]
    level = bonus["level"]
    preside = rng.randbelow(table.BONUS_DOORS) < table.BONUS_PRESIDE[level]
    bonus["doors"].append({"door": door, "level": level, "found": "preside" if preside else "maestra"})
    events: list[Event] = [{"type": "porta", "door": door, "found": "preside" if preside else "maestra"}]
    if not preside:
        bonus["level"] = level + 1
    if preside or bonus["level"] == table.BONUS_TOP_LEVEL:
        return events + _end_bonus(state, rng)
    return events


def _end_bonus(state: State, rng: Rng) -> list[Event]:
    spin = state["spin"]
    bonus = spin["bonus"]
    bonus["win"] = spin["bet"] * table.BONUS_MULTIPLIERS[bonus["level"]]
    bonus["over"] = True
    _credit(state, bonus["win"])
    return [{"type": "bonus_vinto", "level": bonus["level"], "win": bonus["win"]}, *_next_feature(state, rng)]


# ---------------------------------------------------------------------------------- free spins


def _slate(state: State, slate: int, rng: Rng) -> list[Event]:
    free = state["spin"]["free"]
    spins, mult = free["pool"].pop(rng.randbelow(len(free["pool"])))
    free["slates"][slate] = [spins, mult]
    event: Event = {"type": "lavagnetta", "slate": slate, "spins": spins, "multiplier": mult}
    if (spins, mult) == table.PRESIDE_SLATE:
        return [event, *_play_free_spins(state, rng)]
    free["awarded"] = min(table.FREE_SPIN_CAP, free["awarded"] + spins)
    free["multiplier"] += mult
    return [event]


def _play_free_spins(state: State, rng: Rng) -> list[Event]:
    """Play every free spin won, retriggers included (S5), and credit their wins."""
    spin = state["spin"]
    free = spin["free"]
    free["over"] = True
    unit, mult = spin["unit"], free["multiplier"]
    played = free["spins"]
    while len(played) < free["awarded"]:
        stops, win, wins, pay = _reels(table.FREE_SPIN_STRIPS, rng)
        count = min(5, "".join(win).count(table.FREE_SPIN))
        added = 0
        if count >= table.FREE_SPIN_TRIGGER:
            added = (
                min(table.FREE_SPIN_CAP, free["awarded"] + table.FREE_SPINS_AWARDED[count]) - free["awarded"]
            )
            free["awarded"] += added
        amount = pay * unit * mult
        played.append({"stops": stops, "window": win, "lines": wins, "win": amount, "added": added})
        free["win"] += amount
    _credit(state, free["win"])
    done: Event = {"type": "free_spin_finiti", "played": len(played), "multiplier": mult, "win": free["win"]}
    return [done, *_next_feature(state, rng)]


# ---------------------------------------------------------------------------------- Pierino


def _wheel(state: State, rng: Rng) -> list[Event]:
    spin = state["spin"]
    wheel = spin["wheel"]
    wheel["entered"] = rng.randbelow(table.PIERINO_ENTRY_DENOMINATOR) < spin["unit"]
    events: list[Event] = [{"type": "ruota", "entered": wheel["entered"]}]
    if wheel["entered"]:
        for _ in range(table.PIERINO_SPINS):
            stops = [rng.randbelow(len(strip)) for strip in table.POINT_STRIPS]
            win = [_column(strip, stop) for strip, stop in zip(table.POINT_STRIPS, stops, strict=True)]
            points = lines.points(win)
            wheel["spins"].append({"stops": stops, "window": win, "points": points})
            wheel["points"] += points
        wheel["prize"] = lines.band_prize(wheel["points"])
        _credit(state, wheel["prize"])
        events.append({"type": "pierino", "points": wheel["points"], "prize": wheel["prize"]})
    return events + _next_feature(state, rng)
