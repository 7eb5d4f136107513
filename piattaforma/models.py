"""The platform core's data: players and staff, their game options, the audit log."""

from __future__ import annotations

import uuid
from datetime import time
from typing import Any, ClassVar

from django.contrib.auth.base_user import AbstractBaseUser, BaseUserManager
from django.contrib.auth.models import PermissionsMixin
from django.core.files.storage import Storage, storages
from django.core.validators import MaxValueValidator, RegexValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

NICKNAME_VALIDATOR = RegexValidator(
    r"^[A-Za-z0-9_.-]{3,20}$",
    _("Il nickname deve avere da 3 a 20 caratteri: lettere, cifre, punto, trattino o trattino basso."),
    code="invalid_nickname",
)


class UserManager(BaseUserManager["User"]):
    """Create players and superusers; nicknames and e-mails are unique regardless of case."""

    use_in_migrations = True

    def get_by_natural_key(self, username: str | None) -> User:
        return self.get(nickname__iexact=username)

    def create_user(self, nickname: str, email: str, password: str | None = None, **extra: Any) -> User:
        if not nickname or not email:
            raise ValueError("nickname and email are required")
        from piattaforma.identity import codice_fiscale_base

        extra.setdefault("codice_fiscale_base", codice_fiscale_base(extra.get("codice_fiscale", "")))
        user = self.model(nickname=nickname, email=self.normalize_email(email).lower(), **extra)
        user.set_password(password)
        user.full_clean(exclude=["password"])
        user.save(using=self._db)
        return user

    def create_superuser(self, nickname: str, email: str, password: str | None = None, **extra: Any) -> User:
        extra.setdefault("is_staff", True)
        extra.setdefault("is_superuser", True)
        extra.setdefault("date_of_birth", timezone.localdate().replace(year=timezone.localdate().year - 30))
        return self.create_user(nickname, email, password, **extra)


class Sex(models.TextChoices):
    MALE = "M", _("maschile")
    FEMALE = "F", _("femminile")


class User(AbstractBaseUser, PermissionsMixin):
    """A person with a game account; the nickname is shown everywhere instead of the e-mail."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("Attivo")
        SUSPENDED = "suspended", _("Sospeso")
        SELF_EXCLUDED = "self_excluded", _("Autoescluso")

    nickname = models.CharField(_("nickname"), max_length=20, unique=True, validators=[NICKNAME_VALIDATOR])
    email = models.EmailField(_("e-mail"))
    date_of_birth = models.DateField(_("data di nascita"))
    # Identity (rules 004 / ADM: the conto di gioco is held by an identified adult). Blank only for
    # bots and accounts made outside the sign-up form (superusers); the sign-up form requires them.
    first_name = models.CharField(_("nome"), max_length=60, blank=True)
    last_name = models.CharField(_("cognome"), max_length=60, blank=True)
    sex = models.CharField(_("sesso"), max_length=1, choices=Sex.choices, blank=True)
    codice_fiscale = models.CharField(_("codice fiscale"), max_length=16, blank=True)
    # The comune of residence: a criterion of the tournaments and tables reserved by city (rules 004,
    # "Tornei riservati": "tutti coloro che abitano in una certa città").
    city = models.CharField(_("comune di residenza"), max_length=60, blank=True)
    # the code without omocodia (``identity.codice_fiscale_base``): one game account per person
    codice_fiscale_base = models.CharField(
        _("codice fiscale (senza omocodia)"), max_length=16, blank=True, editable=False
    )
    identity_verified_at = models.DateTimeField(
        _("identità verificata il"),
        null=True,
        blank=True,
        help_text=_("Impostata quando lo staff approva un documento d'identità: serve per prelevare."),
    )
    reality_check_minutes = models.PositiveSmallIntegerField(
        _("promemoria di gioco ogni (minuti)"),
        default=60,
        validators=[MaxValueValidator(240)],
        help_text=_("Durante il gioco ricorda il tempo passato e il risultato; 0 = mai."),
    )
    status = models.CharField(_("stato"), max_length=16, choices=Status.choices, default=Status.ACTIVE)
    status_changed_at = models.DateTimeField(_("stato cambiato il"), null=True, blank=True)
    self_excluded_until = models.DateTimeField(_("autoescluso fino al"), null=True, blank=True)
    is_bot = models.BooleanField(
        _("bot"), default=False, help_text=_("Giocatore automatico, segnalato a tutti.")
    )
    is_staff = models.BooleanField(_("accesso al back office"), default=False)
    is_active = models.BooleanField(_("attivo"), default=True)
    date_joined = models.DateTimeField(_("iscritto il"), default=timezone.now)

    objects = UserManager()

    USERNAME_FIELD = "nickname"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: ClassVar[list[str]] = ["email"]

    class Meta:
        verbose_name = _("utente")
        verbose_name_plural = _("utenti")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(Lower("nickname"), name="user_nickname_ci_unique"),
            models.UniqueConstraint(Lower("email"), name="user_email_ci_unique"),
            models.CheckConstraint(
                condition=models.Q(status__in=["active", "suspended", "self_excluded"]),
                name="user_status_valid",
            ),
            # one game account per person: the code as typed, and every omocodic variant of it
            models.UniqueConstraint(
                "codice_fiscale", condition=~models.Q(codice_fiscale=""), name="user_codice_fiscale_unique"
            ),
            models.UniqueConstraint(
                "codice_fiscale_base",
                condition=~models.Q(codice_fiscale_base=""),
                name="user_codice_fiscale_base_unique",
            ),
        ]

    def __str__(self) -> str:
        return self.nickname

    @property
    def identity_verified(self) -> bool:
        """Tell whether staff approved an identity document of this player (needed to withdraw)."""
        return self.identity_verified_at is not None

    @property
    def identity_state(self) -> str:
        """The identity check as the player sees it: "verified", "pending" (a document in review),
        "rejected" (the last document refused) or "none" (no document yet)."""
        if self.identity_verified:
            return "verified"
        documents = self.identity_documents.order_by("-uploaded_at", "-id")
        last = documents.values_list("status", flat=True).first()
        if last == "pending":
            return "pending"
        return "rejected" if last == "rejected" else "none"

    def get_full_name(self) -> str:
        return self.nickname

    def get_short_name(self) -> str:
        return self.nickname

    @property
    def can_play(self) -> bool:
        """Tell whether the player may deposit, enter tournaments and sit down."""
        return self.is_active and self.status == self.Status.ACTIVE

    def has_role(self, role: str) -> bool:
        """Tell whether the user belongs to the role group (players, moderators, staff)."""
        return self.groups.filter(name=role).exists()


class GamePreference(models.Model):
    """A player's "opzioni di gioco" for one game, validated against ``games.options``."""

    user = models.ForeignKey(
        User, on_delete=models.CASCADE, related_name="game_preferences", verbose_name=_("giocatore")
    )
    game = models.CharField(_("gioco"), max_length=32)
    values = models.JSONField(_("opzioni"), default=dict)
    updated_at = models.DateTimeField(_("aggiornato il"), auto_now=True)

    class Meta:
        verbose_name = _("opzioni di gioco")
        verbose_name_plural = _("opzioni di gioco")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["user", "game"], name="gamepreference_user_game_unique")
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.game}"


class AuditLog(models.Model):
    """Who did what in the back office or on a player's account; append-only and hash-chained.

    Rows are written only by ``piattaforma.audit.audit_append`` (through ``actions.audit_record``),
    in the action's own transaction; right after its commit ``audit_seal`` gives each new row its
    place in the chain (``seq``, 1, 2, 3… with no gap), the previous row's hash and the SHA-256 of
    its own content plus that hash, so a row changed, removed or moved breaks the chain
    (``manage.py audit_verify``). Kept five years (README, "Audit log").
    """

    seq = models.PositiveBigIntegerField(_("numero progressivo"), null=True, blank=True, unique=True)
    created_at = models.DateTimeField(_("data e ora"), default=timezone.now, db_index=True)
    actor = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.PROTECT, related_name="+", verbose_name=_("autore")
    )
    action = models.CharField(_("azione"), max_length=64, db_index=True)
    target_type = models.CharField(_("tipo di oggetto"), max_length=64, blank=True)
    target_id = models.CharField(_("id dell'oggetto"), max_length=64, blank=True)
    reason = models.TextField(_("motivazione"), blank=True)
    data = models.JSONField(_("dati"), default=dict, blank=True)
    prev_hash = models.CharField(_("impronta della riga precedente"), max_length=64, blank=True, default="")
    row_hash = models.CharField(
        _("impronta"),
        max_length=64,
        blank=True,
        default="",
        help_text=_("SHA-256 del contenuto della riga e dell'impronta precedente."),
    )

    class Meta:
        verbose_name = _("voce del registro di audit")
        verbose_name_plural = _("voci del registro di audit")
        ordering = ("-seq",)

    def __str__(self) -> str:
        return f"{timezone.localtime(self.created_at):%d/%m/%Y %H:%M} {self.action}"


class AuditChain(models.Model):
    """The head of the audit chain (one row): the last sealed row's number and hash.

    Sealing locks this row (``SELECT … FOR UPDATE`` on PostgreSQL; on SQLite every transaction
    already holds the database write lock from its start), so sealers run one at a time.
    """

    last_seq = models.PositiveBigIntegerField(default=0)
    last_hash = models.CharField(max_length=64)

    class Meta:
        verbose_name = _("catena di audit")
        verbose_name_plural = _("catena di audit")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.CheckConstraint(condition=models.Q(id=1), name="auditchain_single_row")
        ]

    def __str__(self) -> str:
        return f"{self.last_seq} {self.last_hash[:12]}"


class ActivitySample(models.Model):
    """How busy the site was at one moment (beat, every five minutes): open tables, players seated."""

    sampled_at = models.DateTimeField(_("rilevato il"), default=timezone.now, db_index=True)
    tables = models.PositiveIntegerField(_("tavoli aperti"))
    seated = models.PositiveIntegerField(_("giocatori seduti"))
    per_game = models.JSONField(_("per gioco"), default=dict, blank=True)

    class Meta:
        verbose_name = _("rilevazione di attività")
        verbose_name_plural = _("rilevazioni di attività")
        ordering = ("-sampled_at",)

    def __str__(self) -> str:
        return f"{self.sampled_at:%Y-%m-%d %H:%M} {self.tables}/{self.seated}"


# --- site operations (rules 004, "Orari del sito", "Disattivazione giochi", "Avvisi di gioco") ---


class GameSwitch(models.Model):
    """Whether a game may be played, per section (money, training); a game with no row is on."""

    game = models.CharField(_("gioco"), max_length=32, unique=True)
    money_enabled = models.BooleanField(_("attivo nella sezione money"), default=True)
    training_enabled = models.BooleanField(
        _("attivo nella sezione allenamento"),
        default=True,
        help_text=_("Il concessionario può lasciare attivo il gioco in allenamento."),
    )
    reactivate_at = models.DateTimeField(
        _("riattivazione prevista"),
        null=True,
        blank=True,
        help_text=_(
            "Si annullano i tornei programmati che sarebbero iniziati prima di questa data (tutti se vuota)."
        ),
    )
    reason = models.TextField(_("motivazione"), blank=True)
    changed_by = models.ForeignKey(
        User,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("modificato da"),
    )
    changed_at = models.DateTimeField(_("modificato il"), default=timezone.now)

    class Meta:
        verbose_name = _("attivazione gioco")
        verbose_name_plural = _("attivazione giochi")
        ordering = ("game",)

    def __str__(self) -> str:
        return self.game


class SiteHours(models.Model):
    """The site's daily hours (one row): the closing and the pause of tournament registrations."""

    closed_from = models.TimeField(_("chiusura dalle"), default=time(5, 30))
    closed_until = models.TimeField(_("chiusura fino alle"), default=time(5, 45))
    no_registration_from = models.TimeField(_("iscrizioni ai tornei sospese dalle"), default=time(4, 0))
    no_registration_until = models.TimeField(_("iscrizioni ai tornei sospese fino alle"), default=time(5, 30))
    warn_minutes = models.PositiveSmallIntegerField(
        _("preavviso della chiusura (minuti)"),
        default=15,
        help_text=_("Da quanti minuti prima della chiusura i giocatori collegati ricevono un avviso."),
    )
    enabled = models.BooleanField(_("orari in vigore"), default=True)

    class Meta:
        verbose_name = _("orari del sito")
        verbose_name_plural = _("orari del sito")

    def __str__(self) -> str:
        return f"{self.closed_from:%H:%M}–{self.closed_until:%H:%M}"


class GameNotice(models.Model):
    """A game notice ("avviso di gioco") staff publish to the lobby and the tables, between two times."""

    class Level(models.TextChoices):
        INFO = "info", _("Informazione")
        WARNING = "warning", _("Attenzione")

    text = models.CharField(_("testo"), max_length=300)
    level = models.CharField(_("tipo"), max_length=8, choices=Level.choices, default=Level.INFO)
    starts_at = models.DateTimeField(_("visibile dal"), default=timezone.now)
    ends_at = models.DateTimeField(_("visibile fino al"))
    sent_at = models.DateTimeField(_("inviato ai collegati il"), null=True, blank=True)
    created_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.PROTECT, related_name="+", verbose_name=_("creato da")
    )
    created_at = models.DateTimeField(_("creato il"), default=timezone.now)

    class Meta:
        verbose_name = _("avviso di gioco")
        verbose_name_plural = _("avvisi di gioco")
        ordering = ("-starts_at", "-id")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("starts_at")), name="notice_ends_after_start"
            )
        ]

    def __str__(self) -> str:
        return self.text[:60]


def _document_storage() -> Storage:
    return storages["identity_documents"]


def _document_path(instance: IdentityDocument, filename: str) -> str:
    # a random name: the player's file name is kept in ``original_name`` only
    return f"documenti/{instance.user_id}/{uuid.uuid4().hex}"


class IdentityDocument(models.Model):
    """A player's identity document, uploaded for staff review; stored privately, never served publicly."""

    class Kind(models.TextChoices):
        IDENTITY_CARD = "carta_identita", _("Carta d'identità")
        DRIVING_LICENCE = "patente", _("Patente di guida")
        PASSPORT = "passaporto", _("Passaporto")

    class Status(models.TextChoices):
        PENDING = "pending", _("In revisione")
        APPROVED = "approved", _("Approvato")
        REJECTED = "rejected", _("Rifiutato")

    user = models.ForeignKey(
        User, on_delete=models.PROTECT, related_name="identity_documents", verbose_name=_("giocatore")
    )
    kind = models.CharField(_("tipo di documento"), max_length=16, choices=Kind.choices)
    file = models.FileField(_("file"), storage=_document_storage, upload_to=_document_path, max_length=200)
    original_name = models.CharField(_("nome del file"), max_length=200)
    content_type = models.CharField(_("formato"), max_length=32)
    size = models.PositiveIntegerField(_("dimensione (byte)"))
    status = models.CharField(_("stato"), max_length=10, choices=Status.choices, default=Status.PENDING)
    uploaded_at = models.DateTimeField(_("caricato il"), default=timezone.now, db_index=True)
    reviewed_at = models.DateTimeField(_("esaminato il"), null=True, blank=True)
    reviewed_by = models.ForeignKey(
        User,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("esaminato da"),
    )
    reason = models.TextField(_("motivazione del rifiuto"), blank=True)

    class Meta:
        verbose_name = _("documento d'identità")
        verbose_name_plural = _("documenti d'identità")
        ordering = ("uploaded_at", "id")
        permissions = [("review_identitydocument", _("Può approvare o rifiutare i documenti d'identità"))]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            # one document in review at a time per player
            models.UniqueConstraint(
                fields=["user"], condition=models.Q(status="pending"), name="identitydocument_one_pending"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_kind_display()} · {self.get_status_display()}"
