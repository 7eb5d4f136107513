"""Loss and session-time limits, the reality check, and a player's stop."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from piattaforma import hooks
from piattaforma.actions import audit_record
from piattaforma.models import User
from wallet import selectors
from wallet.actions.common import amount_checked, limit_change
from wallet.errors import InvalidAmount, InvalidState, LossLimitReached, PlayTimeLimitReached
from wallet.models import Account, AccountKind, PlayLimit, Realm
from wallet.money import format_eur

MAX_PLAY_MINUTES = {"day": 24 * 60, "week": 7 * 24 * 60, "month": 31 * 24 * 60}


@transaction.atomic
def play_limit_set(
    *, user: User, kind: str, period: str, amount: int | None, now: datetime | None = None
) -> dict[str, Any]:
    """Set a loss limit (cents) or a session-time limit (minutes): as the deposit limits, a lowering
    (or a first limit) applies now, a raise or a removal after 7 days. Audited."""
    if kind not in PlayLimit.Kind.values or period not in PlayLimit.Period.values:
        raise InvalidState("Limite non valido.")
    if amount is not None:
        amount_checked(amount)
        if kind == PlayLimit.Kind.TIME and amount > MAX_PLAY_MINUTES[period]:
            raise InvalidAmount("Il limite di tempo supera la durata del periodo.")
    now = now or timezone.now()
    limit, _ = PlayLimit.objects.select_for_update().get_or_create(user=user, kind=kind, period=period)
    applies_from = limit_change(limit, amount, now)
    limit.save()
    audit_record(
        actor=user,
        action="wallet.play_limit_set",
        target=limit,
        data={"kind": kind, "period": period, "amount": amount},
    )
    return {
        "kind": kind,
        "period": period,
        "amount": limit.amount,
        "requested": amount,
        "applies_from": applies_from.isoformat(),
    }


def check_play_limits(*, user: User, stake: int, now: datetime | None = None) -> None:
    """Refuse to put ``stake`` cents at play (sitting down, a rebuy, a tournament entry) when it
    could take the player's net loss past a loss limit, or when his time at the tables reached a
    session-time limit. The one check the lobby and tournaments reach through the wallet.

    Worst case of a period = its net result so far (hands, tournament entries, refunds, prizes)
    minus the money still at the tables minus the stake: a player who keeps to his limit can never
    lose more than it, whatever happens at the tables he sits at.
    """
    now = now or timezone.now()
    limits = [
        (lim.kind, lim.period, value)
        for lim in PlayLimit.objects.filter(user=user)
        if (value := selectors.limit_in_force(lim, now)) is not None
    ]
    if not limits:
        return
    starts = selectors.period_starts(now)
    at_tables = selectors.money_at_tables(user=user)
    for kind, period, value in sorted(limits, key=lambda x: (x[0] != PlayLimit.Kind.TIME, x[1])):
        label = PlayLimit.Period(period).label
        if kind == PlayLimit.Kind.TIME:
            played = selectors.play_seconds(user=user, since=starts[period], now=now)
            if played >= value * 60:
                raise PlayTimeLimitReached(
                    f"Hai raggiunto il tuo limite di tempo di gioco {label} ({value} minuti): "
                    "potrai tornare al tavolo nel prossimo periodo.",
                    period=period,
                    limit=value,
                )
        else:
            # the worst case: the period's result so far, minus everything still at the tables
            # (open table credits and rebuys waiting for the end of a hand), minus this stake
            exposed = -selectors.net_result(user=user, since=starts[period]) + at_tables
            if exposed + stake > value:
                left = max(0, value - exposed)
                raise LossLimitReached(
                    f"Questa giocata potrebbe superare il tuo limite di perdita {label} di "
                    f"{format_eur(value)}: puoi mettere in gioco ancora {format_eur(left)}.",
                    period=period,
                    limit=value,
                    remaining=left,
                )


def play_time_enforce(*, now: datetime | None = None) -> list[int]:
    """Stand up, at the end of their hand, the seated players past a session-time limit.

    Run every minute by the beat; each player in his own transaction through the core hook
    ``player_leave_tables`` (the lobby registers its handler). Returns the players sent away.
    """
    now = now or timezone.now()
    seated = Account.objects.filter(
        kind=AccountKind.TABLE_CREDIT, realm=Realm.REAL, closed_at__isnull=True, owner__isnull=False
    ).values("owner_id")
    candidates = (
        PlayLimit.objects.filter(kind=PlayLimit.Kind.TIME, user_id__in=seated)
        .values_list("user_id", flat=True)
        .distinct()
    )
    sent: list[int] = []
    for user in User.objects.filter(pk__in=list(candidates)).order_by("pk"):
        try:
            check_play_limits(user=user, stake=0, now=now)
        except PlayTimeLimitReached:
            pass
        except LossLimitReached:
            continue  # a loss limit does not end a session already paid for
        else:
            continue
        with transaction.atomic():
            hooks.player_leave_tables(user)
        sent.append(user.pk)
    return sent


@transaction.atomic
def reality_check_set(*, user: User, minutes: int) -> None:
    """Set how often the reality check reminds the player during play (0 = never). Audited."""
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 0 <= minutes <= 240:
        raise InvalidAmount("Intervallo del promemoria non valido.")
    User.objects.filter(pk=user.pk).update(reality_check_minutes=minutes)
    user.reality_check_minutes = minutes
    audit_record(actor=user, action="wallet.reality_check_set", target=user, data={"minutes": minutes})


@transaction.atomic
def play_stop(*, user: User) -> None:
    """The player stops playing ("Esci" of a reality check): he leaves every table after the hand."""
    hooks.player_leave_tables(user)
    audit_record(actor=user, action="wallet.play_stop", target=user)
