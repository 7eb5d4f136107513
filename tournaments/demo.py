"""The demo tournaments of ``make run`` (manage.py seed_demo): scheduled and sit&go, several games,
turn tournaments of the giochi a partite and level tournaments (freezeout) of poker and Telesina."""

from __future__ import annotations

import random
from datetime import datetime, time, timedelta
from typing import Any

from django.utils import timezone

from piattaforma import siteops
from piattaforma.models import User
from piattaforma.regulator import SimulatedRegulator
from tournaments import actions, errors
from tournaments.models import Tournament

SCHEDULED = "scheduled"
SITGO = "sitgo"
MONTHS = ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre",
          "ottobre", "novembre", "dicembre")  # fmt: skip
# name, kind, when (scheduled: the local time of day, and the weekday, 0 = Monday, or None for the
# next day it falls on; a scheduled satellite: an hour before its target), settings; "{mese}" in a
# name is the current month's.
DEMO_TOURNAMENTS: tuple[tuple[str, str, tuple[time, int | None] | None, dict[str, Any]], ...] = (
    ("Scopa della sera", SCHEDULED, (time(21, 0), None), {"game": "scopa", "pool_quota": 450,
     "fee": 50, "guaranteed": 10_000, "max_players": 64, "smazzate": 3, "turns": 4}),
    ("Burraco KO del giovedì", SCHEDULED, (time(21, 30), 3), {"game": "burraco", "format": "ko",
     "pool_quota": 900, "fee": 100, "max_players": 32, "points_to_win": 2005, "tempo_partita_min": 25}),
    ("Briscola freeroll", SCHEDULED, (time(18, 0), None), {"game": "briscola", "guaranteed": 2_000,
     "max_players": 32}),
    ("Tresette a coppie casuali", SCHEDULED, (time(22, 0), None), {"game": "tresette", "format": "danko",
     "ko_qualifiers": 8, "lines": "random_pairs", "table": "4", "pool_quota": 180, "fee": 20,
     "max_players": 64}),
    ("Asso piglia tutto - classifica di {mese}", SCHEDULED, (time(20, 30), 5), {"game": "asso",
     "format": "danel", "pool_quota": 270, "fee": 30, "max_players": 48,
     "special_leaderboard": "Classifica di {mese}"}),
    ("Satellite della Scopa della sera", SCHEDULED, None, {"game": "scopa",
     "pool_quota": 160, "fee": 40, "max_players": 32, "smazzate": 1, "turns": 3,
     "satellite_of": "Scopa della sera"}),
    ("Satellite Scopa sit&go 8", SITGO, None, {"game": "scopa", "format": "ko", "pool_quota": 100, "fee": 25,
     "max_players": 8, "repeat": True, "smazzate": 1, "satellite_of": "Scopa della sera"}),
    ("Scopa heads-up", SITGO, None, {"game": "scopa", "format": "ko", "pool_quota": 90, "fee": 10,
     "max_players": 2, "repeat": True, "smazzate": 3}),
    ("Cirulla sit&go 8", SITGO, None, {"game": "cirulla", "pool_quota": 180, "fee": 20, "max_players": 8,
     "repeat": True, "turns": 3}),
    ("Scopa danese sit&go 8", SITGO, None, {"game": "scopa", "format": "danese", "pool_quota": 90, "fee": 10,
     "max_players": 8, "repeat": True, "turns": 3, "smazzate": 1}),
    ("Briscola KO sit&go 4", SITGO, None, {"game": "briscola", "format": "ko", "pool_quota": 180, "fee": 20,
     "max_players": 4, "repeat": True, "smazzate": 1}),
    ("Burraco 4in2 sit&go 4", SITGO, None, {"game": "burraco", "format": "ko", "table": "4in2",
     "pool_quota": 450, "fee": 50, "max_players": 4, "repeat": True}),
    # Level tournaments of the giochi a puntate (rules 004, "I tornei a livelli"): the sit&go are small
    # and quick (superturbo, two tables, one broken as players go out), so one person plays one
    # through with the bots in well under half an hour.
    ("Poker freezeout sit&go 8", SITGO, None, {"game": "poker5", "format": "freezeout", "pool_quota": 450,
     "fee": 50, "max_players": 8, "repeat": True, "starting_chips": 500, "seats_per_table": 4,
     "speed": "superturbo", "first_invito": 20}),
    ("Telesina freezeout sit&go 6", SITGO, None, {"game": "telesina", "format": "freezeout",
     "pool_quota": 270, "fee": 30, "max_players": 6, "repeat": True, "starting_chips": 400,
     "seats_per_table": 4, "speed": "superturbo", "first_invito": 20}),
    ("Poker freezeout della sera", SCHEDULED, (time(21, 15), None), {"game": "poker5", "format": "freezeout",
     "pool_quota": 900, "fee": 100, "guaranteed": 50_000, "max_players": 120, "starting_chips": 3000,
     "seats_per_table": 6, "speed": "normale", "first_invito": 20}),
    ("Telesina turbo della domenica", SCHEDULED, (time(20, 0), 6), {"game": "telesina", "format": "freezeout",
     "pool_quota": 450, "fee": 50, "max_players": 60, "starting_chips": 1500, "seats_per_table": 5,
     "speed": "turbo", "first_invito": 20}),
    # The slot tournament (rules 004, "Regole della slot tornei"): four at "Pierino Tenta la Fortuna",
    # same credit and 3 minutes each; the demo's bots fill it and spin beside the person.
    ("Slot sit&go 4", SITGO, None, {"game": "slot", "format": "slot", "pool_quota": 90, "fee": 10,
     "max_players": 4, "repeat": True, "slot_minutes": 3}),
    # The training section (rules 004, "Tavoli e tornei di allenamento"): free, 10 PT fittizi.
    ("Allenamento Scopa sit&go 4", SITGO, None, {"game": "scopa", "format": "ko", "training": True,
     "max_players": 4, "repeat": True, "smazzate": 1}),
    ("Allenamento Briscola della sera", SCHEDULED, (time(19, 0), None), {"game": "briscola", "training": True,
     "confirmation_required": True, "cancellation_allowed": False, "max_players": 32, "turns": 3,
     "smazzate": 1}),
)  # fmt: skip
BOT_ENTRANTS = {"Cirulla sit&go 8": 3}  # demo bots already registered, so the list is not empty


def next_start(
    now: datetime, at: time, weekday: int | None, lead: timedelta = timedelta(hours=2)
) -> datetime:
    """The first local ``at`` (on ``weekday``, when given) at least ``lead`` after ``now``: the demo's
    tournaments start in the evening, as a site's do, whatever the hour ``make run`` is started at."""
    local = timezone.localtime(now)
    day = local.date()
    while True:
        start = timezone.make_aware(datetime.combine(day, at), local.tzinfo)
        if start >= local + lead and (weekday is None or start.weekday() == weekday):
            return start
        day += timedelta(days=1)


def seed_tournaments(*, actor: User, bots: list[User], now: datetime | None = None) -> int:
    """Create the demo tournaments not yet open (idempotent by name); return how many were created."""
    now = now or timezone.now()
    month = MONTHS[timezone.localtime(now).month - 1]
    live = Tournament.objects.exclude(state__in=("finished", "cancelled"))
    created = 0
    for template, kind, when, spec in DEMO_TOURNAMENTS:
        name = template.format(mese=month)
        if live.filter(name=name).exists():
            continue
        values = {
            "name": name,
            "kind": kind,
            **{k: v.format(mese=month) if isinstance(v, str) else v for k, v in spec.items()},
        }
        if "satellite_of" in values:  # the target, created above it (its seat's cost decides the seats)
            values["satellite_of"] = live.filter(name=values["satellite_of"]).first()
        if kind == SCHEDULED:
            target = values.get("satellite_of")
            values["starts_at"] = (
                target.starts_at - timedelta(hours=1) if when is None and target else next_start(now, *when)
            )
            values["registration_opens_at"] = now - timedelta(minutes=1)
        tournament = actions.tournament_create(actor=actor, values=values)
        created += 1
        if siteops.registrations_paused(now):  # 04:00-05:30: the bots cannot enter either
            continue
        for bot in bots[: BOT_ENTRANTS.get(name, 0)]:
            reg = actions.registration_create(
                tournament_id=tournament.pk, user=bot, idempotency_key=f"demo-{tournament.pk}-{bot.pk}"
            )
            actions.registration_authorise(registration_id=reg.pk, authorizer=SimulatedRegulator(delay=0))
    return created


# Sit&go bots of the demo (settings.TOURNAMENTS_DEMO_BOTS): when a person has waited this long in
# an open sit&go, bots take the places left, so one person can play a sit&go through.
DEMO_BOT_WAIT = timedelta(seconds=10)
DEMO_BOT_FUNDS = 100_000


def _demo_bot(number: int) -> User:
    """The demo's n-th tournament bot (created and funded once)."""
    from datetime import date

    from wallet import actions as wallet

    nickname = f"bot.torneo{number}"
    bot = User.objects.filter(nickname__iexact=nickname).first()
    if bot is None:
        bot = User.objects.create_user(
            nickname=nickname, email=f"{nickname}@demo.invalid", password=None, date_of_birth=date(2000, 1, 1)
        )
        bot.is_bot = True
        bot.save(update_fields=["is_bot"])
    wallet.deposit_create(user=bot, amount=DEMO_BOT_FUNDS, idempotency_key=f"demo-bot-funds-{bot.pk}")
    return bot


def sitgo_fill_with_bots(*, tournament_id: int, now: Any = None, wait: timedelta = DEMO_BOT_WAIT) -> int:
    """Fill an open sit&go with bots once a person has waited ``wait`` in it (demo only); return how many.

    Each bot registers through the ordinary action (it pays its entry) and the simulated regulator
    answers at once, so the sit&go closes and starts as any other.
    """
    from tournaments.models import Registration

    now = now or timezone.now()
    t = Tournament.objects.filter(pk=tournament_id, kind=Tournament.Kind.SITGO).first()
    if t is None or t.state not in Tournament.OPEN_STATES:
        return 0
    live = t.registrations.filter(state__in=Registration.ACTIVE)
    people = live.filter(user__is_bot=False)
    first = people.order_by("created_at").first()
    if first is None or first.created_at > now - wait:
        return 0
    taken = set(live.values_list("user_id", flat=True))
    added, number = 0, 1
    open_states = Tournament.OPEN_STATES
    while number <= 4 * t.max_players and live.count() < t.max_players:
        if not Tournament.objects.filter(pk=t.pk, state__in=open_states).exists():
            break  # full: it closed (and starts)
        bot = _demo_bot(number)
        number += 1
        if bot.pk in taken:
            continue
        try:
            reg = actions.registration_create(
                tournament_id=t.pk, user=bot, idempotency_key=f"demo-sitgo-{t.pk}-{bot.pk}"
            )
        except errors.TrainingSitgoLimit:
            continue  # this bot already plays 2 training sit&go: the next one comes
        actions.registration_authorise(registration_id=reg.pk, authorizer=SimulatedRegulator(delay=0))
        added += 1
    return added


def demo_bots_sweep(*, now: Any = None) -> int:
    """Beat, in the demo: fill every open sit&go a person is waiting in; the bots of every running
    slot tournament play a few actions at their machines."""
    ids = Tournament.objects.filter(kind=Tournament.Kind.SITGO, state__in=Tournament.OPEN_STATES)
    filled = sum(sitgo_fill_with_bots(tournament_id=pk, now=now) for pk in ids.values_list("pk", flat=True))
    slots = Tournament.objects.filter(format=Tournament.Format.SLOT, state=Tournament.State.RUNNING)
    for pk in slots.values_list("pk", flat=True):
        slot_bots_play(tournament_id=pk, now=now)
    return filled


# A demo bot at a slot tournament's machine: a few actions each sweep, a small unit bet (the
# cautious play the rules advise), every choice (door, slate, wheel) picked at random.
SLOT_BOT_ACTIONS = 3
SLOT_BOT_TOP_UNIT = 10


def slot_bot_action(state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """The action a demo bot takes at its machine (None: nothing to do, its session is over)."""
    from games.slot import engine

    legal = engine.legal_actions(state)
    if not legal:
        return None
    spec = rng.choice(legal)
    action = {k: v for k, v in spec.items() if k not in ("label", "amount")}
    if "amount" in spec:
        action["amount"] = rng.randint(spec["amount"]["min"], min(spec["amount"]["max"], SLOT_BOT_TOP_UNIT))
    return action


def slot_bots_play(
    *,
    tournament_id: int,
    now: Any = None,
    actions_each: int = SLOT_BOT_ACTIONS,
    rng: random.Random | None = None,
) -> int:
    """Every bot of a running slot tournament plays up to ``actions_each`` actions through the
    players' own action (``slot.slot_act``: its clock and credit rules); return how many were played."""
    from games.engine import CodedError
    from tournaments import slot
    from tournaments.models import SlotSession

    rng = rng or random.Random()  # a bot's whim, not the game's draws (those are the server's RNG)
    played = 0
    sessions = SlotSession.objects.filter(
        tournament_id=tournament_id, tournament__state=Tournament.State.RUNNING, user__is_bot=True
    ).select_related("user")
    for session in sessions:
        for _ in range(actions_each):
            session.refresh_from_db()
            action = slot_bot_action(session.playing, rng)
            if action is None:
                break
            try:
                slot.slot_act(
                    tournament_id=tournament_id,
                    user=session.user,
                    action=action,
                    version=session.version,
                    now=now,
                )
            except CodedError:
                break  # its time is over, or the session moved: the next sweep tries again
            played += 1
    return played
