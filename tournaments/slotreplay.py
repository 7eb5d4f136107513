"""The replay of one player's spins at the tournament slot, for staff (the back office's page).

Built from the session's journal alone (``SlotSession.state["journal"]``, and the extra minute's):
each entry is applied again to a new session with the draws it recorded
(``games.slot.engine``: ``apply``/``expire`` with a ``ReplayRng``), so every step shows what the
machine did then: the reels' stops and symbols, the lines won, the bonus doors, the free-spin
slates and spins, the Pierino wheel, what it paid and the credit after it. The rebuilt session is
checked against the stored one: a journal that does not replay to it is reported, not shown as true.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.rng import ReplayRng
from games.slot import engine, table
from tournaments.models import SlotSession


def chips(n: int) -> str:
    return f"{n:,}".replace(",", ".")


def _symbols(window: list[str], names: dict[str, str]) -> list[list[str]]:
    """The window's three rows, left to right, each symbol by name."""
    return [[names.get(column[row], column[row]) for column in window] for row in range(table.ROWS)]


def _line(w: dict[str, Any]) -> str:
    return _("Linea %(line)s: %(count)s × %(symbol)s, %(pay)s chips") % {
        "line": w["line"],  # numbered from 1, as the paytable names them
        "count": w["count"],
        "symbol": table.SYMBOLS.get(w["symbol"], w["symbol"]),
        "pay": chips(w["pay"]),
    }


def _event(event: dict[str, Any]) -> str | None:
    """One of the machine's events in words (the spin itself is shown apart)."""
    kind = event["type"]
    if kind == "bonus":
        return _("Bonus: si parte dal livello %(level)s") % {"level": event["level"]}
    if kind == "porta":
        found = _("la Maestra (si sale di livello)") if event["found"] == "maestra" else _("il Preside")
        return _("Porta %(door)s: %(found)s") % {"door": event["door"] + 1, "found": found}
    if kind == "bonus_vinto":
        return _("Bonus finito al livello %(level)s: %(win)s chips") % {
            "level": event["level"],
            "win": chips(event["win"]),
        }
    if kind == "free_spin":
        return _("Giri gratis: %(n)s assegnati, moltiplicatore ×%(m)s; si scelgono le lavagnette") % {
            "n": event["awarded"],
            "m": event["multiplier"],
        }
    if kind == "lavagnetta":
        if (event["spins"], event["multiplier"]) == table.PRESIDE_SLATE:
            return _("Lavagnetta %(n)s: il Preside, si giocano i giri gratis") % {"n": event["slate"] + 1}
        return _("Lavagnetta %(n)s: +%(spins)s giri, +%(m)s al moltiplicatore") % {
            "n": event["slate"] + 1,
            "spins": event["spins"],
            "m": event["multiplier"],
        }
    if kind == "free_spin_finiti":
        return _("Giri gratis giocati: %(n)s a ×%(m)s, %(win)s chips") % {
            "n": event["played"],
            "m": event["multiplier"],
            "win": chips(event["win"]),
        }
    if kind == "ruota_pierino":
        return _("Ruota di Pierino: entra con probabilità %(p)s su 100") % {"p": event["chance"]}
    if kind == "ruota":
        return _("Ruota: entra nella modalità Pierino") if event["entered"] else _("Ruota: non entra")
    if kind == "pierino":
        return _("Modalità Pierino: %(points)s punti, %(prize)s chips") % {
            "points": event["points"],
            "prize": chips(event["prize"]),
        }
    if kind == "fine_tempo":
        return _("Fine del tempo: le scelte in sospeso si chiudono, credito %(c)s") % {
            "c": chips(event["credit"])
        }
    return None


def _action(action: dict[str, Any]) -> str:
    kind = action["type"]
    if kind == "gira":
        unit = action["amount"]
        return _("Giro a puntata %(unit)s (%(bet)s chips)") % {
            "unit": unit,
            "bet": chips(engine.total_bet(unit)),
        }
    if kind == "porta":
        return _("Sceglie la porta %(n)s") % {"n": action["door"] + 1}
    if kind == "lavagnetta":
        return _("Gira la lavagnetta %(n)s") % {"n": action["slate"] + 1}
    if kind == "ruota":
        return _("Inizia la ruota")
    return _("Fine del tempo")


def _free_spins(spin: dict[str, Any]) -> list[dict[str, Any]]:
    free = spin.get("free") or {}
    return [
        {
            "n": i,
            "rows": _symbols(s["window"], table.SYMBOLS),
            "stops": s["stops"],
            "lines": [_line({**w, "pay": w["pay"] * spin["unit"] * free["multiplier"]}) for w in s["lines"]],
            "win": s["win"],
            "added": s["added"],
        }
        for i, s in enumerate(free.get("spins", []), start=1)
    ]


def _wheel_spins(spin: dict[str, Any]) -> list[dict[str, Any]]:
    wheel = spin.get("wheel") or {}
    return [
        {
            "n": i,
            "rows": _symbols(s["window"], table.POINT_SYMBOLS),
            "stops": s["stops"],
            "points": s["points"],
        }
        for i, s in enumerate(wheel.get("spins", []), start=1)
    ]


def _steps(stored: dict[str, Any], part: str) -> tuple[list[dict[str, Any]], bool]:
    """Each journal entry of one engine session replayed: its step, and whether the rebuilt
    session is the stored one."""
    state = engine.new(stored["start_credit"])
    steps = []
    for entry in stored["journal"]:
        action = dict(entry["action"])
        rng = ReplayRng(entry["draws"])
        before = state["credit"]
        events = (
            engine.expire(state, rng) if action["type"] == engine.EXPIRE else engine.apply(state, action, rng)
        )
        spin = state["spin"] or {}
        giro = next((e for e in events if e["type"] == "giro"), None)
        free_done = any(e["type"] == "free_spin_finiti" for e in events)
        wheel_done = any(e["type"] == "pierino" for e in events)
        bet = giro["bet"] if giro else 0
        steps.append(
            {
                "part": part,
                "action": _action(action),
                "spin": spin.get("n"),
                "stops": giro["stops"] if giro else None,
                "rows": _symbols(giro["window"], table.SYMBOLS) if giro else None,
                "lines": [_line(w) for w in giro["lines"]] if giro else [],
                "details": [text for text in map(_event, events) if text],
                "free_spins": _free_spins(spin) if free_done else [],
                "wheel_spins": _wheel_spins(spin) if wheel_done else [],
                "bet": bet,
                "win": state["credit"] - before + bet,
                "credit": state["credit"],
            }
        )
    return steps, state == stored


def session_replay(session: SlotSession) -> dict[str, Any]:
    """The replay of a player's session (and of his extra minute, if he played one)."""
    steps, exact = _steps(session.state, str(_("tempo di gioco")))
    if session.extra_state is not None:
        extra, extra_exact = _steps(session.extra_state, str(_("minuto supplementare")))
        steps += extra
        exact = exact and extra_exact
    for n, step in enumerate(steps, start=1):
        step.update(n=n, win_label=chips(step["win"]), credit_label=chips(step["credit"]))
    bet, won = sum(s["bet"] for s in steps), sum(s["win"] for s in steps)
    return {
        "steps": steps,
        "exact": exact,
        "start_credit": session.state["start_credit"],
        "credit": session.credit,
        "spins": sum(1 for s in steps if s["stops"] is not None),
        "bet": bet,
        "won": won,
        "start_credit_label": chips(session.state["start_credit"]),
        "credit_label": chips(session.credit),
        "bet_label": chips(bet),
        "won_label": chips(won),
    }
