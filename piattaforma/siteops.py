"""Site operations of the core: game switches, site hours, game notices (rules 004).

"Disattivazione giochi": staff switch a game off in the money section, in the training section or
in both; the apps that run tables and tournaments apply the effects the rules list through
``piattaforma.hooks`` (the lobby closes the game's tables after their hand or match, tournaments
cancel and refund the scheduled ones, refuse registrations and cancellations, and on reactivation
refund every sit&go registration). "Orari del sito": the site closes every day 05:30–05:45 and
takes no tournament registration 04:00–05:30 (both configurable, ``SiteHours``); connected players
are warned before the closing. "Avvisi di gioco": notices staff publish, shown on every page and
pushed live over the ``site-notices`` channel group (``piattaforma.consumers.NoticeConsumer``).
"""

from __future__ import annotations

import logging
from datetime import datetime, time, timedelta
from time import monotonic
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format

from games.engine import CodedError
from piattaforma import hooks
from piattaforma.actions import audit_record
from piattaforma.compiledquery import CompiledQuery, Read
from piattaforma.models import GameNotice, GameSwitch, SiteHours, User

NOTICES_GROUP = "site-notices"
REALMS = ("real", "play")  # lobby.models.Table.Realm: money and training sections
SWITCH_NOTICE = timedelta(hours=2)  # how long the notice of a deactivation stays up with no planned end

logger = logging.getLogger(__name__)


class SiteOpsError(CodedError):
    """Base of the refusals of site operations; nothing has changed when it is raised."""

    code = "site_ops_error"


class GameDisabled(SiteOpsError):
    code = "game_disabled"
    default_message = "Il gioco è momentaneamente disattivato."


class SiteClosed(SiteOpsError):
    code = "site_closed"
    default_message = "Il sito è chiuso per la pausa giornaliera."


class RegistrationsPaused(SiteOpsError):
    code = "registrations_paused"
    default_message = "In questa fascia oraria non è possibile iscriversi ai tornei."


# --- reads ----------------------------------------------------------------------------------------


# read before every deal of every table: compiled once (``piattaforma.compiledquery``)
_SWITCH = CompiledQuery(
    lambda game: (
        GameSwitch.objects.filter(game=game).only("money_enabled", "training_enabled").order_by("pk")[:1]
    ),
    lambda game: (str(game),),
)


def game_enabled_read(game: str) -> Read:
    """``game_enabled``'s read, for a caller that knows it in advance (``compiledquery.along``)."""
    return Read(_SWITCH, (game,))


def game_enabled(game: str, realm: str = "real") -> bool:
    """Tell whether ``game`` may be played in ``realm`` ("real": money section, "play": training)."""
    rows = _SWITCH(game)
    if not rows:
        return True
    switch = rows[0]
    return bool(switch.training_enabled if realm == "play" else switch.money_enabled)


def switchable_games() -> dict[str, str]:
    """Every game a switch turns on and off, with its title: the table games of ``games.registry``
    and the tournament slot (``games.slot``, played only in tournaments, registered nowhere else)."""
    from games import registry, slot

    return {**{name: registry.get(name).title for name in registry.names()}, slot.NAME: slot.TITLE}


def check_game_enabled(*, game: str, realm: str = "real") -> None:
    """Raise ``GameDisabled`` when the game is off in that realm."""
    if not game_enabled(game, realm):
        raise GameDisabled()


HOURS_CACHE_SECONDS = 10.0  # every page asks (the closing middleware): one read per process per 10 s
_hours_cache: dict[str, tuple[float, SiteHours]] = {}


def site_hours() -> SiteHours:
    """The site's hours (the one row, made by a migration with the rules' defaults), cached briefly.

    Only read: a page's way in never writes. Without the row (a database emptied by hand) the rules'
    defaults apply, unsaved, until staff save them (the back office's form creates the row).
    """
    cached = _hours_cache.get("hours")
    if cached is not None and cached[0] > monotonic():
        return cached[1]
    hours = SiteHours.objects.filter(pk=1).first() or SiteHours(pk=1)
    _hours_cache["hours"] = (monotonic() + HOURS_CACHE_SECONDS, hours)
    return hours


def site_hours_forget() -> None:
    """Drop this process's cached hours (after a change in the back office; tests)."""
    _hours_cache.clear()


def _within(now: datetime, start: time, end: time) -> bool:
    """Tell whether the local time of ``now`` falls in [start, end) (a window may span midnight)."""
    t = timezone.localtime(now).time()
    if start <= end:
        return start <= t < end
    return t >= start or t < end


def _enforced(hours: SiteHours) -> bool:
    # settings.SITE_HOURS_ENFORCED: the test settings turn the hours off, so that the suite does
    # not depend on the time of day it runs at; the site-hours tests turn them on.
    return hours.enabled and bool(getattr(settings, "SITE_HOURS_ENFORCED", True))


def site_closed(now: datetime | None = None, hours: SiteHours | None = None) -> bool:
    """Tell whether the site is in its daily closing ("dalle ore 5:30 alle ore 5:45")."""
    hours = hours or site_hours()
    return _enforced(hours) and _within(now or timezone.now(), hours.closed_from, hours.closed_until)


def registrations_paused(now: datetime | None = None, hours: SiteHours | None = None) -> bool:
    """Tell whether tournament registrations are paused now (04:00–05:30, or the site is closed)."""
    hours = hours or site_hours()
    now = now or timezone.now()
    if not _enforced(hours):
        return False
    return _within(now, hours.no_registration_from, hours.no_registration_until) or site_closed(now, hours)


def check_registration_allowed(*, game: str, realm: str = "real", now: datetime | None = None) -> None:
    """Refuse a tournament registration: game off in the tournament's section (rule 3 of
    "Disattivazione giochi"; ``realm`` "play" for a training tournament) or site hours."""
    check_game_enabled(game=game, realm=realm)
    if registrations_paused(now):
        raise RegistrationsPaused()


def check_cancellation_allowed(*, game: str, realm: str = "real") -> None:
    """Refuse a tournament cancellation while the game is off in its section (rule 4); site hours
    allow it."""
    check_game_enabled(game=game, realm=realm)


def minutes_to_closing(now: datetime | None = None, hours: SiteHours | None = None) -> int | None:
    """Whole minutes (rounded up) until today's closing when within the warning window, else None."""
    hours = hours or site_hours()
    now = timezone.localtime(now or timezone.now())
    if not _enforced(hours) or site_closed(now, hours):
        return None
    closing = now.replace(
        hour=hours.closed_from.hour, minute=hours.closed_from.minute, second=0, microsecond=0
    )
    if closing <= now:
        closing += timedelta(days=1)
    left = closing - now
    if left > timedelta(minutes=hours.warn_minutes):
        return None
    return max(1, -(-int(left.total_seconds()) // 60))


def notices_active(now: datetime | None = None) -> list[GameNotice]:
    """The game notices to show now, newest first."""
    now = now or timezone.now()
    return list(GameNotice.objects.filter(starts_at__lte=now, ends_at__gt=now).order_by("-starts_at", "-id"))


def notice_payload(notice: GameNotice) -> dict[str, Any]:
    """A notice as the page and the socket carry it."""
    return {
        "kind": "notice",  # (the socket also carries the closing warnings: kind "closing")
        "id": notice.pk,
        "text": notice.text,
        "level": notice.level,
        "ends_at": notice.ends_at.isoformat(),
    }


def notices_in_force() -> list[dict[str, Any]]:
    """The notices to show now, newest first, as the page and the socket carry them."""
    return [notice_payload(n) for n in notices_active()]


# --- writes ---------------------------------------------------------------------------------------


def _realms_of(switch: GameSwitch) -> set[str]:
    on = set()
    if switch.money_enabled:
        on.add("real")
    if switch.training_enabled:
        on.add("play")
    return on


@transaction.atomic
def game_switch_set(
    *,
    game: str,
    money_enabled: bool,
    training_enabled: bool,
    actor: User | None,
    reason: str,
    reactivate_at: datetime | None = None,
) -> GameSwitch:
    """Switch a game on or off per section; the apps apply the rules' effects (hooks); audited.

    Off: tables of the game in that section close after their hand or match, scheduled
    tournaments not yet started are cancelled and refunded, registrations and cancellations are
    refused; running tournaments go on. Back on (money): every sit&go registration is refunded.
    """
    titles = switchable_games()
    if game not in titles:
        raise SiteOpsError("Gioco sconosciuto.")
    if len((reason or "").strip()) < 5:
        raise SiteOpsError("Indica la motivazione.")
    switch, _created = GameSwitch.objects.select_for_update().get_or_create(game=game)
    before = _realms_of(switch)
    switch.money_enabled = money_enabled
    switch.training_enabled = training_enabled
    switch.reactivate_at = reactivate_at if not (money_enabled and training_enabled) else None
    switch.reason = reason
    switch.changed_by = actor
    switch.changed_at = timezone.now()
    switch.save()
    after = _realms_of(switch)
    audit_record(
        actor=actor,
        action="game.switch",
        target=switch,
        reason=reason,
        data={"game": game, "on": sorted(after), "was_on": sorted(before)},
    )
    if before - after:
        hooks.game_deactivated(game=game, realms=before - after, until=switch.reactivate_at, actor=actor)
        section = "money" if "real" in before - after else "allenamento"
        notice_publish(
            text=f"{titles[game]}: gioco disattivato nella sezione {section}. I tavoli si "
            "chiudono alla fine della mano o della partita in corso; i tornei programmati sono annullati "
            "e rimborsati.",
            ends_at=switch.reactivate_at or timezone.now() + SWITCH_NOTICE,
            actor=actor,
            level=GameNotice.Level.WARNING,
        )
    if after - before:
        hooks.game_reactivated(game=game, realms=after - before, actor=actor)
    return switch


def _group_send(message: dict[str, Any]) -> None:
    """Send to every socket of the notices group; a channel-layer outage loses only the push."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(NOTICES_GROUP, {"type": "site.notice", "payload": message})
    except Exception:  # the page shows the notice on its next load
        logger.exception("site notice not pushed")


@transaction.atomic
def notice_publish(
    *,
    text: str,
    ends_at: datetime,
    actor: User | None,
    starts_at: datetime | None = None,
    level: str = "info",
) -> GameNotice:
    """Publish a game notice; it is pushed to connected players when it starts (now or by the tick)."""
    now = timezone.now()
    starts_at = starts_at or now
    text = (text or "").strip()
    if not text or len(text) > 300:
        raise SiteOpsError("Il testo dell'avviso deve avere da 1 a 300 caratteri.")
    if ends_at <= starts_at:
        raise SiteOpsError("La fine dell'avviso deve seguire il suo inizio.")
    if level not in GameNotice.Level.values:
        raise SiteOpsError("Tipo di avviso non valido.")
    notice = GameNotice.objects.create(
        text=text, level=level, starts_at=starts_at, ends_at=ends_at, created_by=actor
    )
    audit_record(actor=actor, action="notice.publish", target=notice, data={"text": text})
    if starts_at <= now:
        _notice_send_on_commit(notice)
    return notice


def _notice_send_on_commit(notice: GameNotice) -> None:
    GameNotice.objects.filter(pk=notice.pk).update(sent_at=timezone.now())
    payload = notice_payload(notice)
    transaction.on_commit(lambda: _group_send(payload), robust=True)


def site_tick(*, now: datetime | None = None) -> dict[str, Any]:
    """Beat, every minute: push notices that started, warn before the closing, close tables at the closing."""
    now = now or timezone.now()
    hours = site_hours()
    sent = 0
    with transaction.atomic():
        due = GameNotice.objects.select_for_update().filter(
            sent_at__isnull=True, starts_at__lte=now, ends_at__gt=now
        )
        for notice in due:
            _notice_send_on_commit(notice)
            sent += 1
    left = minutes_to_closing(now, hours)
    if left is not None:
        closing = timezone.localtime(now) + timedelta(minutes=left)
        _group_send(
            {
                "kind": "closing",
                "id": f"closing-{closing:%Y%m%d}",
                "level": "warning",
                "text": f"Il sito chiude alle {hours.closed_from:%H:%M} (tra {left} min) e riapre alle "
                f"{hours.closed_until:%H:%M}: i tavoli si chiudono alla fine della mano o della partita.",
                "ends_at": (now + timedelta(minutes=left)).isoformat(),
            }
        )
    closed = 0
    if site_closed(now, hours):
        with transaction.atomic():
            closed = hooks.site_closing()
    return {"notices": sent, "warning_minutes": left, "closed": closed}


def switch_label(switch: GameSwitch) -> str:
    """How the back office says a switch's state."""
    if switch.money_enabled and switch.training_enabled:
        return "attivo"
    parts = []
    if not switch.money_enabled:
        parts.append("money")
    if not switch.training_enabled:
        parts.append("allenamento")
    until = (
        f" fino al {date_format(timezone.localtime(switch.reactivate_at), 'SHORT_DATETIME_FORMAT')}"
        if switch.reactivate_at
        else ""
    )
    return "disattivato: " + ", ".join(parts) + until
