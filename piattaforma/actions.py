"""Writes of the platform core: accounts, roles, status, game options, audit."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.utils import timezone

from games import options as game_options
from games.engine import CodedError
from piattaforma import hooks, metrics, roles
from piattaforma.audit import audit_append
from piattaforma.compiledquery import CompiledQuery, Read
from piattaforma.identity import document_content_type, normalise_codice_fiscale
from piattaforma.models import ActivitySample, AuditLog, GamePreference, IdentityDocument, User


def audit_record(
    *,
    actor: User | None,
    action: str,
    target: Any = None,
    reason: str = "",
    data: dict[str, Any] | None = None,
) -> AuditLog:
    """Append one line to the audit log's hash chain (``piattaforma.audit``)."""
    return audit_append(
        actor=actor,
        action=action,
        target_type=target._meta.label if target is not None else "",
        target_id=str(target.pk) if target is not None else "",
        reason=reason,
        data=data,
    )


@transaction.atomic
def user_sign_up(
    *,
    nickname: str,
    email: str,
    date_of_birth: date,
    password: str,
    first_name: str = "",
    last_name: str = "",
    sex: str = "",
    codice_fiscale: str = "",
    city: str = "",
) -> User:
    """Open a game account with the players role (identity data checked by the sign-up form);
    ``city``: the comune of residence (the tournaments and tables reserved by city)."""
    user = User.objects.create_user(
        nickname=nickname,
        email=email,
        password=password,
        date_of_birth=date_of_birth,
        first_name=first_name.strip(),
        last_name=last_name.strip(),
        sex=sex,
        codice_fiscale=normalise_codice_fiscale(codice_fiscale),
        city=city.strip(),
    )
    user.groups.add(Group.objects.get(name=roles.PLAYERS))
    audit_record(actor=user, action="user.sign_up", target=user)
    transaction.on_commit(metrics.signed_up)
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
    if roles.works_for_the_site(user):
        hooks.player_blocked(user)  # the site's people hold no seat and no registration


def user_audit_roles(*, user: User, actor: User | None, before: dict[str, Any]) -> AuditLog | None:
    """Record a change of the user's role since ``before`` (a ``roles.role_snapshot``), if any."""
    after = roles.role_snapshot(user)
    if after == before:
        return None
    line = audit_record(
        actor=actor, action="user.change_roles", target=user, data={"from": before, "to": after}
    )
    if roles.works_for_the_site(user):
        hooks.player_blocked(user)  # the site's people hold no seat and no registration
    return line


def user_email_changed(*, user: User, old_email: str, actor: User | None) -> AuditLog | None:
    """Record a change of a player's e-mail by someone else, and tell the old address after commit.

    The e-mail is where a password reset link goes: a player whose address the staff changed hears
    of it at the one he had, so that nobody takes his account over unseen.
    """
    if old_email == user.email or (actor is not None and actor.pk == user.pk):
        return None
    line = audit_record(
        actor=actor, action="user.change_email", target=user, data={"from": old_email, "to": user.email}
    )
    if old_email:
        from django.core.mail import send_mail

        body = (
            f"Ciao {user.nickname},\n\nlo staff della piattaforma ha cambiato l'indirizzo e-mail del tuo "
            "conto di gioco. Se non l'hai chiesto tu, scrivi subito all'assistenza (HELP)."
        )
        transaction.on_commit(
            lambda: send_mail(
                "Il tuo indirizzo e-mail è stato cambiato", body, settings.DEFAULT_FROM_EMAIL, [old_email]
            )
        )
    return line


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
    return _preferences_complete(game, stored)


# read at every deal of every table: its SQL compiled once per number of players
_STORED_PREFERENCES = CompiledQuery(
    lambda game, ids: GamePreference.objects.filter(game=game, user_id__in=ids).only("user_id", "values"),
    lambda game, ids: (game, *ids),
    shape=lambda game, ids: len(ids),
)


def preferences_read(*, user_ids: Iterable[int], game: str) -> Read:
    """``preferences_of``'s read, for a caller that knows it in advance (``compiledquery.along``)."""
    return Read(_STORED_PREFERENCES, (game, list(user_ids)))


def preferences_of(*, user_ids: Iterable[int], game: str) -> dict[int, dict[str, Any]]:
    """Each of these players' complete options for a game (``preferences_get``), in one query."""
    ids = list(user_ids)
    stored = {p.user_id: p.values for p in _STORED_PREFERENCES(game, ids)} if ids else {}
    return {uid: _preferences_complete(game, stored.get(uid)) for uid in ids}


def _preferences_complete(game: str, stored: dict[str, Any] | None) -> dict[str, Any]:
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


def self_exclusions_lift(*, now: datetime | None = None) -> list[int]:
    """Reactivate every player whose self-exclusion ended (``self_excluded_until`` passed).

    A permanent self-exclusion (no end date) never ends here. Each player in his own transaction,
    locked and re-read, so a player who changed state meanwhile is left alone. Audited, actor None
    (the scheduled job).
    """
    now = now or timezone.now()
    lifted: list[int] = []
    due = User.objects.filter(
        status=User.Status.SELF_EXCLUDED, self_excluded_until__isnull=False, self_excluded_until__lte=now
    ).order_by("pk")
    for pk in due.values_list("pk", flat=True):
        with transaction.atomic():
            user = User.objects.select_for_update(no_key=True).filter(pk=pk).first()
            if (
                user is None
                or user.status != User.Status.SELF_EXCLUDED
                or user.self_excluded_until is None
                or user.self_excluded_until > now
            ):
                continue
            until = user.self_excluded_until
            user_set_status(
                user=user,
                status=User.Status.ACTIVE,
                actor=None,
                reason=f"Autoesclusione terminata il {timezone.localtime(until):%d/%m/%Y %H:%M}",
            )
            lifted.append(pk)
    return lifted


# --- identity documents ---------------------------------------------------------------------------


class IdentityError(CodedError):
    """An identity-document action was refused; nothing was written."""

    code = "identity_error"
    default_message = "Operazione sul documento non riuscita."


class DocumentInvalid(IdentityError):
    code = "document_invalid"
    default_message = "Il file deve essere un PDF, un'immagine JPEG o PNG."


class DocumentTooLarge(IdentityError):
    code = "document_too_large"
    default_message = "Il file è troppo grande."


class DocumentPending(IdentityError):
    code = "document_pending"
    default_message = "Hai già un documento in revisione: attendi l'esito prima di caricarne un altro."


class AlreadyVerified(IdentityError):
    code = "identity_already_verified"
    default_message = "La tua identità è già verificata."


class ReviewNotAllowed(IdentityError):
    code = "permission_denied"
    default_message = "Non hai il permesso di esaminare i documenti d'identità."


class ReviewInvalid(IdentityError):
    code = "invalid_state"
    default_message = "Il documento è già stato esaminato."


def identity_document_upload(*, user: User, kind: str, upload: UploadedFile[bytes]) -> IdentityDocument:
    """Store a player's identity document for staff review (PDF, JPEG or PNG, within the size cap).

    The type is read from the file's first bytes and must match its extension; the file is kept in
    the private storage under a random name. One document in review at a time.
    """
    if kind not in IdentityDocument.Kind.values:
        raise DocumentInvalid("Scegli il tipo di documento.")
    limit = settings.IDENTITY_DOCUMENT_MAX_BYTES
    size = upload.size or 0
    if size > limit:
        raise DocumentTooLarge(
            f"Il file è troppo grande: al massimo {limit // (1024 * 1024)} MB.", limit=limit
        )
    if size == 0:
        raise DocumentInvalid("Il file è vuoto.")
    upload.seek(0)
    head = upload.read(16)
    upload.seek(0)
    content_type = document_content_type(upload.name or "", head)
    if content_type is None:
        raise DocumentInvalid()
    if user.identity_verified:
        raise AlreadyVerified()
    document = IdentityDocument(
        user=user, kind=kind, original_name=(upload.name or "")[-200:], content_type=content_type, size=size
    )
    document.file.save("documento", upload, save=False)  # written before the row: removed on failure
    try:
        with transaction.atomic():
            User.objects.select_for_update(no_key=True).filter(pk=user.pk).first()  # one upload at a time
            if IdentityDocument.objects.filter(user=user, status=IdentityDocument.Status.PENDING).exists():
                raise DocumentPending()
            document.save()
            audit_record(
                actor=user,
                action="identity.document_upload",
                target=document,
                data={"kind": kind, "size": size, "content_type": content_type},
            )
    except BaseException:
        if document.file.name:
            document.file.storage.delete(document.file.name)
        raise
    return document


@transaction.atomic
def identity_document_review(
    *, document_id: int, actor: User, approve: bool, reason: str = ""
) -> IdentityDocument:
    """Approve (the player is verified: he may withdraw) or reject with a reason a document in review.

    Needs ``piattaforma.review_identitydocument`` (staff; moderators and players never), never on
    one's own document; audited.
    """
    if not actor.has_perm("piattaforma.review_identitydocument"):
        raise ReviewNotAllowed()
    document = IdentityDocument.objects.select_for_update().select_related("user").get(pk=document_id)
    if document.user_id == actor.pk:
        raise ReviewNotAllowed("Il proprio documento lo esamina un altro membro dello staff.")
    if document.status != IdentityDocument.Status.PENDING:
        raise ReviewInvalid()
    reason = reason.strip()
    if not approve and len(reason) < 5:
        raise ReviewInvalid("Indica la motivazione del rifiuto.")
    now = timezone.now()
    document.status = IdentityDocument.Status.APPROVED if approve else IdentityDocument.Status.REJECTED
    document.reviewed_at, document.reviewed_by, document.reason = now, actor, "" if approve else reason
    document.save(update_fields=["status", "reviewed_at", "reviewed_by", "reason"])
    if approve:
        User.objects.filter(pk=document.user_id).update(identity_verified_at=now)
    audit_record(
        actor=actor,
        action="identity.document_approve" if approve else "identity.document_reject",
        target=document,
        reason=reason,
        data={"user": document.user_id},
    )
    return document


def activity_sample_record(*, now: datetime | None = None) -> ActivitySample:
    """Record how many tables are open and how many players sit at them now (the reports' time series)."""
    per_game = hooks.open_tables()
    return ActivitySample.objects.create(
        sampled_at=now or timezone.now(),
        tables=sum(t for t, _ in per_game.values()),
        seated=sum(s for _, s in per_game.values()),
        per_game={game: {"tables": t, "seated": s} for game, (t, s) in sorted(per_game.items())},
    )
