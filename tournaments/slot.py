"""Slot tournaments: every entrant alone at "Pierino Tenta la Fortuna" with the same credit and time
(rules 004, "Regole della slot tornei"; RULINGS S8).

The machine is ``games.slot.engine`` (pure; the RNG passed in); this module keeps one
``SlotSession`` per entrant and applies the tournament's clock to it:

* **Start** (``running.tournament_start``, the tournament row locked): every admitted entrant gets a
  session with the tournament's credit; every clock starts together and ends at
  ``progress["ends_at"]``. The ``tournaments.advance`` task is sent for that moment (the beat's
  sweep retries it every 10 s).
* **Play** (``slot_act``): the player's session row locked, nothing else (so a spin never waits for
  another player's), the action checked against the clock and the session's version, then applied
  with the platform RNG; the engine journals every draw, so every spin replays exactly
  (``games.slot.engine.replay``). A refusal changes nothing.
* **The end of time** (``advance``, the tournament row then the sessions locked): a spin accepted
  before the end counted in full when it was made; a choice still pending is answered negatively
  (``engine.expire``). The players tied for first play one extra minute from their credit, in a
  new engine session (``SlotSession.extra_state``); then ``formats.slot.slot_placings`` ranks
  everyone, and the common end (``running.finish``) gives PT and sends the prizes' payout.

Lock order: the tournament row, then its sessions (``advance``); ``slot_act`` takes one session row
and no tournament row, so the two never cross. Progress keys: ``lines`` and ``registration_order``
(as every tournament), ``ends_at``, ``credits`` (each player's credit at the end of time) and
``extra`` (the extra minute: ``players``, ``ends_at``, ``credits`` after it).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import BooleanField, Case, Value, When
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games.rng import SystemRng
from games.slot import engine
from piattaforma.models import User
from tournaments import calls, errors
from tournaments.actions.common import task_send_on_commit
from tournaments.formats.money import format_euro
from tournaments.formats.slot import slot_placings, tied_for_first
from tournaments.formats.standings import Placings
from tournaments.models import Registration, SlotSession, Tournament

EXTRA_TIME_S = 60  # S8: "the tied players play one extra minute"
STANDINGS_BEST = 10  # S8: "Standings (the best 10, the player's own position, time left)"
# The 5-second pushes of one tournament's players share one ranking per process for this long
# (each player's own credit and time are read fresh): one query per tournament, not per player.
STANDINGS_SHARED_S = 4.0


def _at(value: str) -> datetime:
    moment = parse_datetime(value)
    assert moment is not None
    return moment


def _advance_at(t: Tournament, seconds: float) -> None:
    """Ask for ``advance`` when a clock runs out (after commit; the sweep covers a lost task)."""
    task_send_on_commit("tournaments.advance", robust=True, countdown=seconds, tournament_id=t.pk)


# --- the start -----------------------------------------------------------------------------------


def start(t: Tournament, regs: list[Registration], now: datetime) -> None:
    """Every entrant's session at the machine, every clock started together."""
    ends = now + timedelta(minutes=t.slot_minutes)
    order = [str(r.user_id) for r in regs]
    t.progress = {
        "lines": {uid: [int(uid)] for uid in order},
        "registration_order": order,  # who gets a split's odd chip cent (K2)
        "ends_at": ends.isoformat(),
        "credits": None,
        "extra": None,
    }
    t.turn = 1  # one round of play: the training PT's participation bonus counts it as one smazzata
    SlotSession.objects.bulk_create(
        SlotSession(
            tournament=t,
            user_id=r.user_id,
            state=engine.new(t.starting_chips),
            credit=t.starting_chips,
            started_at=now,
            ends_at=ends,
        )
        for r in regs
    )
    _advance_at(t, t.slot_minutes * 60)
    calls.slot_calls_on_commit(t, [r.user_id for r in regs])  # every page of each person: "to your slot"


# --- play ----------------------------------------------------------------------------------------


@transaction.atomic
def slot_act(
    *, tournament_id: int, user: User, action: Any, version: Any, now: datetime | None = None
) -> dict[str, Any]:
    """Play one action of the player's session: ``{"events", "view", "version"}``.

    Refused, with nothing changed: ``slot_not_playing`` (no session of his in this running
    tournament), ``time_over`` (his clock has run out), ``stale_version`` (the session moved since
    the view he answers), and the engine's own codes (``bet_out_of_range``,
    ``insufficient_credit``, ``choice_pending``, ``no_choice_pending``, ``invalid_choice``,
    ``unknown_action``).
    """
    now = now or timezone.now()
    session = (  # his row only: the tournament's stays free for ``advance`` (which locks it first)
        SlotSession.objects.select_for_update(of=("self",))
        .filter(tournament_id=tournament_id, user_id=user.pk, tournament__state=Tournament.State.RUNNING)
        .first()
    )
    if session is None:
        raise errors.SlotNotPlaying()
    playing = session.playing
    if playing["over"] or now >= session.ends_at:
        raise errors.SlotTimeOver()
    if type(version) is not int or version != session.version:
        raise errors.SlotStaleVersion()
    if not isinstance(action, dict):
        raise engine.UnknownSlotAction()
    events = engine.apply(playing, action, SystemRng())
    _saved(session)
    return {"events": events, "view": engine.view(playing), "version": session.version}


def _saved(session: SlotSession) -> None:
    """Store a session whose engine state changed: its credit, a new version."""
    session.credit = session.playing["credit"]
    session.version += 1
    session.save(update_fields=["state", "extra_state", "credit", "version", "ends_at"])


def snapshot(
    *, tournament_id: int, user_id: int, now: datetime | None = None, shared: bool = False
) -> dict[str, Any] | None:
    """The player's own session as his client shows it, with the standings (None: he has no
    session in this tournament). ``shared``: the standings' ranking may be the one computed for
    the tournament within the last ``STANDINGS_SHARED_S`` (the 5-second pushes of every player)."""
    session = (
        SlotSession.objects.filter(tournament_id=tournament_id, user_id=user_id)
        .select_related("tournament")
        .first()
    )
    if session is None:
        return None
    return {
        "type": "slot.view",
        "view": engine.view(session.playing),
        "version": session.version,
        "extra": session.extra_state is not None,
        "standings": standings(session, now, shared=shared),
    }


def standings(session: SlotSession, now: datetime | None = None, *, shared: bool = False) -> dict[str, Any]:
    """The standings as the player sees them every 5 s (S8): the best 10, his own position and
    credit, his time left."""
    now = now or timezone.now()
    t = session.tournament
    if shared:
        table = cache.get_or_set(f"slot-ranking:{t.pk}", lambda: ranking(t), STANDINGS_SHARED_S)
    else:
        table = ranking(t)
    return {
        "best": [{k: v for k, v in row.items() if k != "user_id"} for row in table["best"]],
        "position": table["positions"].get(session.user_id),
        "credit": session.credit,
        "entrants": table["entrants"],
        "seconds_left": max(0, int((session.ends_at - now).total_seconds() + 0.999)),
        "running": t.state == Tournament.State.RUNNING,
        "result": result(t, session.user_id),
    }


def result(t: Tournament, user_id: int) -> dict[str, Any] | None:
    """The player's end of a finished tournament, as his machine's page shows it: his placing
    among the entrants, and his prize once the prizes are paid (None: not finished yet)."""
    if t.state != Tournament.State.FINISHED:
        return None
    reg = t.registrations.filter(user_id=user_id, position__isnull=False).first()
    if reg is None:
        return None
    return {
        "position": reg.position,
        "entrants": t.registrations.filter(state=Registration.State.ADMITTED).count(),
        "prize": format_euro(reg.prize) if reg.prize else "",
        "paid": t.paid_at is not None,
    }


def ranking(t: Tournament, best: int | None = STANDINGS_BEST) -> dict[str, Any]:
    """The tournament's standings now, ranked as the final ranking will be: the players of the
    extra minute first, then by credit; equal keys share a position (K2). ``best``: the first 10
    (``best=None``: everyone) with nickname, credit and position; ``positions``: every player's
    position."""
    outside = Case(
        When(extra_state__isnull=True, then=Value(True)), default=Value(False), output_field=BooleanField()
    )
    rows = list(
        SlotSession.objects.filter(tournament=t)
        .annotate(outside=outside)
        .values_list("user_id", "credit", "outside")
    )
    rows.sort(key=lambda r: (r[2], -r[1], r[0]))
    positions: dict[int, int] = {}
    previous: tuple[bool, int] | None = None
    for index, (uid, credit, not_extra) in enumerate(rows, start=1):
        if (not_extra, credit) != previous:
            position, previous = index, (not_extra, credit)
        positions[uid] = position
    best = rows[:best]
    names = dict(User.objects.filter(pk__in=[r[0] for r in best]).values_list("pk", "nickname"))
    return {
        "best": [
            {"position": positions[uid], "nickname": names.get(uid, ""), "credit": c, "user_id": uid}
            for uid, c, _o in best
        ],
        "positions": positions,
        "entrants": len(rows),
    }


# --- the end of time (the tournament row locked) -------------------------------------------------


def advance(t: Tournament, now: datetime) -> bool:
    """At the end of time: close every session, then the extra minute or the end. Idempotent:
    before a clock runs out it changes nothing. Returns whether anything changed."""
    from tournaments import running

    p = t.progress
    extra = p.get("extra")
    ends = _at(extra["ends_at"] if extra else p["ends_at"])
    if now < ends:
        return False
    sessions = list(SlotSession.objects.select_for_update().filter(tournament=t).order_by("pk"))
    if extra is None:
        _expire(sessions)
        p["credits"] = {str(s.user_id): s.credit for s in sessions}
        tied = tied_for_first(p["credits"])
        if tied:
            _extra_minute(t, [s for s in sessions if str(s.user_id) in tied], now)
            return True
    else:
        playing = [s for s in sessions if s.extra_state is not None]
        _expire(playing)
        extra["credits"] = {str(s.user_id): s.credit for s in playing}
    running.finish(t, now)
    return True


def _expire(sessions: list[SlotSession]) -> None:
    """The end of each player's time (S8): a pending bonus pays the level reached, pending slates
    play the free spins at the multiplier reached, a pending wheel turns; nothing more is accepted."""
    for s in sessions:
        if not s.playing["over"]:
            engine.expire(s.playing, SystemRng())
            _saved(s)


def _extra_minute(t: Tournament, tied: list[SlotSession], now: datetime) -> None:
    """The players tied for first play one more minute from their credit (S8)."""
    ends = now + timedelta(seconds=EXTRA_TIME_S)
    t.progress["extra"] = {
        "players": [str(s.user_id) for s in tied],
        "started_at": now.isoformat(),
        "ends_at": ends.isoformat(),
        "credits": None,
    }
    for s in tied:
        s.extra_state = engine.new(s.credit)
        s.ends_at = ends
        _saved(s)
    t.save(update_fields=["progress"])
    _advance_at(t, EXTRA_TIME_S)


def placings(t: Tournament) -> Placings:
    """The final ranking (``formats.slot``): by credit at the end of time, the extra minute
    separating the players tied for first; still equal, ex aequo."""
    p = t.progress
    extra = p.get("extra")
    return slot_placings(p["credits"], extra["credits"] if extra else None)
