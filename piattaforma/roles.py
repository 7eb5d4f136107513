"""Roles are groups: players, moderators, staff. One place says what each role may touch."""

from __future__ import annotations

from typing import Any

PLAYERS = "players"
MODERATORS = "moderators"
STAFF = "staff"
ROLES = (PLAYERS, MODERATORS, STAFF)

# Apps whose models each back-office role may manage. Moderators see only moderation models.
ROLE_APPS: dict[str, tuple[str, ...]] = {
    PLAYERS: (),
    MODERATORS: ("moderation",),
    STAFF: ("piattaforma", "wallet", "lobby", "tournaments", "moderation", "axes"),
}
# Permissions staff never get through the role (superusers only): the audit log is read-only.
STAFF_EXCLUDED = {"piattaforma.add_auditlog", "piattaforma.change_auditlog", "piattaforma.delete_auditlog"}
# What moderators may only look at: staff keep the watched list; reports and sanctions change only
# through the moderators' queue (moderation/views.py), never by editing rows.
MODERATORS_EXCLUDED = {
    f"moderation.{verb}_{model}"
    for verb in ("add", "change", "delete")
    for model in ("watchedentry", "chatline", "report", "reportentry", "sanction", "notice")
}
# Tournament conduct changes only through the tournaments' hooks; the collusion signals are the
# staff's alone (moderators see chat, not money): not even to look at.
MODERATORS_EXCLUDED |= {
    f"moderation.{verb}_{model}"
    for verb in ("add", "change", "delete")
    for model in ("conductevent", "conductrecord", "conductmeasure")
}
MODERATORS_EXCLUDED |= {
    f"moderation.{verb}_{model}"
    for verb in ("add", "change", "delete", "view")
    for model in ("signalhand", "signalseat", "playersignal", "pairsignal")
}
ROLE_EXCLUDED: dict[str, set[str]] = {MODERATORS: MODERATORS_EXCLUDED}


def sync_role_permissions(group_model: Any, permission_model: Any) -> None:
    """Create the role groups if missing and give each the permissions of its apps."""
    for role in ROLES:
        group, _ = group_model.objects.get_or_create(name=role)
        apps = ROLE_APPS[role]
        perms = permission_model.objects.filter(content_type__app_label__in=apps).select_related(
            "content_type"
        )
        excluded = STAFF_EXCLUDED | ROLE_EXCLUDED.get(role, set())
        wanted = [p for p in perms if f"{p.content_type.app_label}.{p.codename}" not in excluded]
        group.permissions.set(wanted)


# What a user's role is made of: only superusers change these (the back office shows them read-only
# to staff), and every change is in the audit log (``actions.user_audit_roles``).
ROLE_FIELDS = ("is_staff", "is_superuser", "groups", "user_permissions")
NO_ROLE: dict[str, Any] = {"is_staff": False, "is_superuser": False, "groups": [], "permissions": []}


def role_snapshot(user: Any) -> dict[str, Any]:
    """Return the user's role as plain data: the two flags, the groups and the direct permissions."""
    permissions = user.user_permissions.values_list("content_type__app_label", "codename")
    return {
        "is_staff": bool(user.is_staff),
        "is_superuser": bool(user.is_superuser),
        "groups": sorted(user.groups.values_list("name", flat=True)),
        "permissions": sorted(f"{app}.{codename}" for app, codename in permissions),
    }


def may_manage_user(actor: Any, target: Any) -> bool:
    """Tell whether ``actor`` may change ``target``'s account (data, status) in the back office.

    Superusers manage everyone. Staff manage players only: not their own account, not another staff
    member's or moderator's, not a superuser's (their credentials are a superuser's business).
    """
    if actor.is_superuser:
        return True
    return not (target.is_staff or target.is_superuser)


def may_set_password(actor: Any, target: Any) -> bool:
    """Tell whether ``actor`` may set ``target``'s password in the back office.

    Nobody sets a player's password: a player who lost his resets it himself through the e-mail
    link, so that nobody of the staff ever knows it and signs in as him. A superuser may set a
    staff member's or moderator's (maintenance, audited); staff set nobody's.
    """
    return bool(actor.is_superuser) and bool(target.is_staff or target.is_superuser)


def backoffice_allowed(user: Any) -> bool:
    """Tell whether a user may open the back office (staff, moderators, superusers)."""
    if not (user.is_active and user.is_authenticated):
        return False
    if user.is_superuser:
        return True
    return bool(user.is_staff) and user.groups.filter(name__in=(MODERATORS, STAFF)).exists()


def can_moderate(user: Any) -> bool:
    """Tell whether a user may work the moderators' queue (moderators, staff, superusers)."""
    return backoffice_allowed(user)


def works_for_the_site(user: Any) -> bool:
    """Tell whether the user is staff, a moderator or a superuser: the people who see what players do
    not (back office, hands, chat, reports). They hold no game money and take no seat at a money
    table or in a tournament (``wallet.actions.check_player_can_play`` refuses them every entry).

    The back-office flag decides it (no query): every way into what players cannot see passes
    through it (``backoffice_allowed``), and ``user_set_role`` sets it for moderators and staff."""
    return bool(user.is_superuser or user.is_staff)


def has_staff_role(user: Any) -> bool:
    """Tell whether a user is staff (or a superuser): escalated reports, account suspensions."""
    if not (user.is_active and user.is_authenticated):
        return False
    return bool(user.is_superuser) or (bool(user.is_staff) and user.groups.filter(name=STAFF).exists())
