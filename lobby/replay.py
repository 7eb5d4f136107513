"""Rebuild a hand step by step from its history (for staff, audits and tests), and bring a runtime
row up to date from the journal (``recover``)."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from typing import Any

from django.core.cache import cache
from django.db.models import F, Q
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_

from games import options as game_options
from games import registry
from games.engine import CodedError, private_to
from games.rng import ReplayRng
from lobby.models import Hand, HandStep, TableRuntime
from lobby.narration import Namer, action_words, hand_step_events, step_lines

# What of a seat the engine receives when a hand is dealt (lobby.actions) and replayed (here).
ENGINE_SPEC_KEYS = ("seat", "chips", "sitout", "prefs", "new")


def replay_hand(hand: Hand, steps: Sequence[HandStep] | None = None) -> list[dict[str, Any]]:
    """Return the engine state at the start of the hand and after each step, replayed exactly.

    The deal is rebuilt from the recorded RNG draws, so the replay needs no stored state: any
    difference from what was played raises (``ReplayError`` or the engine's own error).
    ``steps``: the hand's steps in order (``lobby.selectors.hand_steps``); read here if not given.
    """
    return [copy.deepcopy(state) for state in walk_hand(hand, steps)]


def walk_hand(hand: Hand, steps: Sequence[HandStep] | None = None) -> Iterator[dict[str, Any]]:
    """Yield the one live state of the replay at the start and after each step (mutated in place:
    copy what must outlive the next step). ``replay_hand`` without a deep copy of every state."""
    engine = registry.get(hand.game)
    specs = [{k: s[k] for k in ENGINE_SPEC_KEYS if k in s} for s in hand.seats]
    state = engine.new(hand.config, specs, ReplayRng(hand.start_draws), hand.carry_in)
    yield state
    for step in hand.steps.order_by("seq") if steps is None else steps:
        engine.apply(state, step.seat, step.action, ReplayRng(step.draws))
        yield state


# --- Frames of a visual replay ------------------------------------------------------------------
#
# A frame is what one viewer saw at one moment of the hand: frame 0 after the deal, frame i after
# step i. A player's frames come from ``engine.view(state, his_seat)`` only, and his step list
# from the events ``private_to`` him (another seat's action reaches him as its type only), so a
# covered card of another seat or the deck never reaches his browser. Staff see every seat's own
# view side by side with the public one, the deck orders and the RNG draws.

MAX_WINDOW = 200  # frames per request: a long match is fetched in windows
VIEW_KEYS_DROPPED = ("legal", "legal_actions")  # what the seat could do then: not part of a replay


class BadReplayWindow(CodedError):
    code = "bad_step"
    default_message = "Passo non valido"


def _view(engine: Any, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    view = engine.view(state, seat)
    for key in VIEW_KEYS_DROPPED:
        view.pop(key, None)
    return view


def _lines(engine: Any, state: dict[str, Any]) -> list[list[int]]:
    """The lines of a match as lists of seats (giochi a partite); empty for other games."""
    seats = state.get("seats")
    if not hasattr(engine, "lines") or not isinstance(seats, list):
        return []
    n = engine.lines(state)
    return [[seats[p] for p in range(len(seats)) if p % n == k] for k in range(n)]


PHASES = {
    "invito": N_("Invito"),
    "apertura": N_("Apertura"),
    "buio": N_("Buio"),
    "cambio": N_("Cambio carte"),
    "puntata": N_("Puntate"),
    "puntate": N_("Puntate"),
    "parola": N_("Parola"),
    "showdown": N_("Carte in tavola"),
    "scelta": N_("Scelta del gioco"),
    "fine": N_("Fine della mano"),
    "over": N_("Fine"),
    "mostra": N_("Mostra"),
    "scopri": N_("Scopri"),
    "gioco": N_("Gioco"),
    "dichiarazione": N_("Dichiarazioni"),
    "accept": N_("Scelta del banco"),
    "accetta": N_("Scelta del banco"),
    "build": N_("Mazzetti"),
    "bet": N_("Puntate"),
    "punta": N_("Gioco del punto"),
    "banker": N_("Gioco del banco"),
    "banco": N_("Gioco del banco"),
    "decisione": N_("Decisione"),
    "asta": N_("Asta del banco"),
    "seguito": N_("Seguito"),
}


def _chapter(view: dict[str, Any]) -> tuple[Any, str]:
    """Where a moment of the hand stands (its key) and that stretch's name ("Smazzata 2", "Giro 3")."""
    if isinstance(view.get("deal"), dict) or "deal_no" in view:
        number = view.get("deal_no")
        deal = view.get("deal") if isinstance(view.get("deal"), dict) else {}
        if isinstance(deal.get("round"), int) and deal.get("round", 0) > 1:  # Scopa & co.: each deal of 3
            label = _("Smazzata %(n)s · giro %(r)s") % {"n": number, "r": deal["round"]}
            return ("smazzata", number, deal["round"]), label
        return ("smazzata", number), _("Smazzata %(n)s") % {"n": number}
    phase = view.get("phase")
    street = view.get("street")
    name = _(PHASES[phase]) if phase in PHASES else str(phase or "").replace("_", " ").capitalize()
    if isinstance(street, int) and street > 0 and phase not in ("fine", "over"):
        girate = view.get("girate") or 0
        if girate:
            return (phase, street, girate), _("Girata %(n)s · %(phase)s") % {"n": girate, "phase": name}
        return (phase, street, girate), _("Giro %(n)s · %(phase)s") % {"n": street, "phase": name}
    return (phase,), name


def _window(start: Any, count: Any, total: int) -> tuple[int, int]:
    """Check a requested window of frames: whole numbers, inside the hand; else BadReplayWindow."""
    from piattaforma.converters import small_int

    first = 0 if start in (None, "") else small_int(start)
    size = MAX_WINDOW if count in (None, "") else small_int(count)
    if first is None or size is None or size < 1 or size > MAX_WINDOW:
        raise BadReplayWindow()
    if first >= total:
        raise BadReplayWindow("Passo oltre la fine della mano", last=total - 1)
    return first, min(total, first + size)


def plain_copy(value: Any) -> Any:
    """A copy of a view (JSON-like data) sharing nothing mutable with the state: ``copy.deepcopy``'s
    value at a fraction of its cost (no memo, no dispatch per object); other objects deep-copied."""
    kind = type(value)
    if kind is dict:
        return {k: plain_copy(v) for k, v in value.items()}
    if kind is list:
        return [plain_copy(v) for v in value]
    if kind in _SCALARS:
        return value
    if kind is tuple:
        return tuple(plain_copy(v) for v in value)
    return copy.deepcopy(value)


_SCALARS = (str, int, float, bool, type(None))

# The whole-hand part of a replay (its steps in words, its chapters, the final deck orders) is the
# same for every window a viewer fetches: kept in the cache, so that a later window replays only up
# to its own end. An ended hand's steps never change; the key holds their count all the same.
INDEX_SECONDS = 3600


def _index_key(hand: Hand, steps: Sequence[HandStep], seat: int | None, staff: bool) -> str:
    viewer = "staff" if staff else f"seat{seat}"
    return f"replay-index:v2:{hand.game}:{hand.pk}:{len(steps)}:{viewer}:{get_language() or ''}"


def replay_frames(
    hand: Hand,
    steps: Sequence[HandStep],
    *,
    seat: int | None,
    staff: bool = False,
    start: Any = None,
    count: Any = None,
) -> dict[str, Any]:
    """Return a hand's replay for one viewer: its steps in words and a window of its frames.

    ``seat``: the player's own seat (his projection only); ``staff``: every seat's cards, the deck
    orders and the RNG draws. ``start``/``count``: which frames (strings from a query are checked:
    a bad value raises ``BadReplayWindow`` and nothing is computed).
    """
    if not staff and seat is None:
        raise ValueError("a player's replay needs his seat")
    engine = registry.get(hand.game)
    first, end = _window(start, count, len(steps) + 1)
    names = {int(s["seat"]): str(s.get("nickname") or s["seat"]) for s in hand.seats}
    key = _index_key(hand, steps, seat, staff) if hand.pk else ""
    index: dict[str, Any] | None = cache.get(key) if key else None
    namer: Namer | None = None
    chapters: list[dict[str, Any]] = []
    # each step's action as its button said it, read from the state it met: in full, and its label
    # alone (what another seat may read of it)
    words: list[tuple[str, str]] = []
    frames = []
    last_key: Any = object()
    final: dict[str, Any] = {}
    # One pass over the live state: a chapter key from each moment's public view, and the frames
    # of the window copied out (a view may share lists with the state the next step changes). With
    # the hand's index cached, the pass stops at the window's end.
    for at, state in enumerate(walk_hand(hand, steps)):
        if index is None:
            if namer is None:
                namer = Namer(
                    names,
                    _lines(engine, state),
                    italian="stile_mazzo" in game_options.defaults(hand.game),
                    realm=hand.table.realm,
                )
            public = _view(engine, state, None)
            chapter, label = _chapter(public)
            if chapter != last_key:
                # frame ``at`` opens the stretch; step ``at`` (which led to it) belongs to the one
                # before, so the step list heads the stretch before step ``at + 1``, its first move
                chapters.append({"index": at, "step": at + 1 if at else 0, "label": label})
                last_key = chapter
            if at < len(steps):
                step = steps[at]
                legal = engine.legal_actions(state, step.seat)
                words.append(
                    (
                        action_words(step.action, legal, namer),
                        action_words({"type": step.action.get("type")}, legal, namer),
                    )
                )
        if first <= at < end:
            frame: dict[str, Any] = {
                "index": at,
                "to_act": list(engine.to_act(state)),
                "over": engine.is_over(state),
            }
            if staff:
                frame["view"] = plain_copy(public if index is None else _view(engine, state, None))
                frame["views"] = {str(n): plain_copy(_view(engine, state, n)) for n in names}
                frame["decks"] = len(state.get("deck_log") or [])  # the deck orders drawn so far
            else:
                frame["view"] = plain_copy(_view(engine, state, seat))
            frames.append(frame)
        elif index is not None and at >= end:
            break
        final = state
    if index is None:
        assert namer is not None  # walk_hand yields the dealt state first
        index = {
            "steps": _steps_in_words(steps, seat=seat, staff=staff, namer=namer, words=words),
            "chapters": chapters,
        }
        if staff:
            index["deck_log"] = plain_copy(final.get("deck_log", hand.deck_log))
        if key:
            cache.set(key, index, INDEX_SECONDS)
    payload: dict[str, Any] = {
        "hand": hand.pk,
        "number": hand.number,
        "table": hand.table.name,
        "game": hand.game,
        "title": engine.title,
        "family": engine.family,
        "viewer": "staff" if staff else seat,
        "seats": [{"number": n, "nickname": names[n]} for n in sorted(names)],
        "total": len(steps) + 1,
        "start": first,
        "frames": frames,
        "steps": index["steps"],
        "chapters": index["chapters"],
    }
    if staff:
        payload["deck_log"] = index["deck_log"]
        payload["start_draws"] = hand.start_draws
    return payload


def _steps_in_words(
    steps: Sequence[HandStep], *, seat: int | None, staff: bool, namer: Namer, words: list[tuple[str, str]]
) -> list[dict[str, Any]]:
    """Each step of the hand as its viewer may read it (another seat's action: its type only, and
    in words its button's label only)."""
    out_steps = []
    told = hand_step_events(
        [step.events if staff else [e for e in step.events if private_to(e, seat)] for step in steps]
    )
    for number, (step, events) in enumerate(zip(steps, told, strict=True), start=1):
        mine = staff or step.seat == seat
        action = step.action if mine else {"type": step.action.get("type")}
        row: dict[str, Any] = {
            "index": number,
            "seat": step.seat,
            "name": namer.seat(step.seat),
            "lines": step_lines(seat=step.seat, action=action, events=events, namer=namer),
            "automatic": step.automatic,
            "action": action,
            "action_words": words[number - 1][0 if mine else 1],
        }
        if staff:
            row["draws"] = step.draws
        out_steps.append(row)
    return out_steps


def recover(rt: TableRuntime) -> int:
    """Apply the journal's steps the runtime row does not have yet (a takeover, a reader of the row
    behind its owner); return how many.

    Each step is applied with the RNG draws it recorded, so the state is the one its players saw;
    the deadline and the lines' clocks are the step's, so the clocks resume with the time left.
    """
    if rt.state is None:
        return 0
    steps = list(
        HandStep.objects.filter(
            hand__table_id=rt.pk, hand__number=rt.hand_no, version__gt=rt.version
        ).order_by("seq")
    )
    return _apply_steps(rt, steps)


def recover_many(rows: Sequence[TableRuntime]) -> list[TableRuntime]:
    """``recover`` of several runtime rows, their journals read in one query; returns the rows
    that had steps to apply."""
    live = [rt for rt in rows if rt.state is not None]
    if not live:
        return []
    behind = Q()
    for rt in live:
        behind |= Q(hand__table_id=rt.pk, hand__number=rt.hand_no, version__gt=rt.version)
    steps: dict[int, list[HandStep]] = {}
    for step in HandStep.objects.filter(behind).annotate(table_id=F("hand__table_id")).order_by("seq"):
        steps.setdefault(step.table_id, []).append(step)  # type: ignore[attr-defined]  # annotated
    return [rt for rt in live if rt.pk in steps and _apply_steps(rt, steps[rt.pk])]


def _apply_steps(rt: TableRuntime, steps: Sequence[HandStep]) -> int:
    engine = registry.get(rt.game or rt.table.game)
    for step in steps:
        engine.apply(rt.state, step.seat, step.action, ReplayRng(step.draws))
        rt.version, rt.steps = step.version, step.seq
        rt.deadline, rt.clocks, rt.turn_started = step.deadline, step.clocks, step.created_at
    return len(steps)
