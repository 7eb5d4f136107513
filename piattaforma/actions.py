"""Writes of the platform core: accounts, roles, status, game options, audit."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone

from games import options as game_options
from piattaforma import hooks, roles
from piattaforma.models import AuditLog, GamePreference, User


def audit_record(
    *,
    actor: User | None,
    action: str,
    target: Any = None,
    reason: str = "",
    data: dict[str, Any] | None = None,
) -> AuditLog:
    """Append one line to the audit log."""
    return AuditLog.objects.create(
        actor=actor,
        action=action,
        target_type=target._meta.label if target is not None else "",
        target_id=str(target.pk) if target is not None else "",
        reason=reason,
        data=data or {},
    )


@transaction.atomic
def user_sign_up(*, nickname: str, email: str, date_of_birth: date, password: str) -> User:
    """Open a game account with the players role."""
    user = User.objects.create_user(
        nickname=nickname, email=email, password=password, date_of_birth=date_of_birth
    )
    user.groups.add(Group.objects.get(name=roles.PLAYERS))
    audit_record(actor=user, action="user.sign_up", target=user)
    return user


@transaction.atomic
def user_set_role(*, user: User, role: str, actor: User | None = None) -> None:
    """Give the user exactly one role; back-office access follows (moderators and staff)."""
    if role not in roles.ROLES:
        raise ValueError(f"unknown role {role!r}")
    user.groups.set([Group.objects.get(name=role)])
    user.is_staff = role in (roles.MODERATORS, roles.STAFF)
    user.save(update_fields=["is_staff"])
    audit_record(actor=actor, action="user.set_role", target=user, data={"role": role})


def user_audit_roles(*, user: User, actor: User | None, before: dict[str, Any]) -> AuditLog | None:
    """Record a change of the user's role since ``before`` (a ``roles.role_snapshot``), if any."""
    after = roles.role_snapshot(user)
    if after == before:
        return None
    return audit_record(
        actor=actor, action="user.change_roles", target=user, data={"from": before, "to": after}
    )


@transaction.atomic
def user_set_status(
    *, user: User, status: str, actor: User | None, reason: str, until: datetime | None = None
) -> None:
    """Suspend, self-exclude or reactivate a player, with a reason in the audit log.

    A player who may no longer play leaves every table through the handlers registered in
    ``piattaforma.hooks`` (the lobby stands him up and returns the table credit to the conto).
    """
    if status not in User.Status.values:
        raise ValueError(f"unknown status {status!r}")
    previous = user.status
    user.status = status
    user.status_changed_at = timezone.now()
    user.self_excluded_until = until if status == User.Status.SELF_EXCLUDED else None
    user.save(update_fields=["status", "status_changed_at", "self_excluded_until"])
    audit_record(
        actor=actor,
        action="user.set_status",
        target=user,
        reason=reason,
        data={"from": previous, "to": status, "until": until.isoformat() if until else None},
    )
    if status != User.Status.ACTIVE:
        hooks.player_blocked(user)


def preferences_get(*, user: User, game: str) -> dict[str, Any]:
    """Return the player's complete options for a game (defaults where unset)."""
    stored = GamePreference.objects.filter(user=user, game=game).values_list("values", flat=True).first()
    try:
        return game_options.validate(game, stored or {})
    except game_options.OptionError:  # a schema change made an old value invalid: fall back
        return game_options.defaults(game)


@transaction.atomic
def preferences_save(*, user: User, game: str, values: dict[str, Any]) -> dict[str, Any]:
    """Validate and store the player's options for a game; raise OptionError and store nothing if invalid."""
    clean = game_options.validate(game, values)
    GamePreference.objects.update_or_create(user=user, game=game, defaults={"values": clean})
    return clean
