"""The ledger: accounts, transactions, postings; holds, payments, deposit limits, idempotency.

Invariants held BY THE DATABASE (see wallet/migrations/0002_ledger_triggers.py for the SQL):

- every posting amount is non-zero (CHECK);
- accounts of kinds that may not go negative cannot: ``held >= 0`` and ``balance >= held`` (CHECK);
- a closed account has a zero balance (CHECK);
- a transaction's postings sum to zero and there are at least two of them, and every posting's
  account belongs to the transaction's realm (real money and play money never mix).
  PostgreSQL: a DEFERRABLE INITIALLY DEFERRED constraint trigger on the transaction row checks it
  at COMMIT, once per transaction; a posting can only be inserted while its transaction row is not
  visible, under an advisory lock on the transaction id held to the end of the database transaction
  (so no other session can add postings to a transaction being written: migration 0006).
  SQLite (no deferred triggers): postings are written FIRST, then the transaction row, whose
  AFTER INSERT trigger checks the sum, the count and the realms; a posting may only be inserted
  while its transaction row does not exist yet (BEFORE INSERT trigger), and the posting's foreign
  key to the transaction is DEFERRABLE INITIALLY DEFERRED, so postings whose transaction row never
  arrives fail at COMMIT. The same write order is used on PostgreSQL, so the code has one path.
- postings are append-only and transactions cannot be deleted or rewritten (triggers refuse
  UPDATE and DELETE); a correction is a new reversing transaction.

Stored balance = sum of postings is kept by the actions (guarded UPDATE in the same transaction)
and verified every night by ``wallet.tasks.reconcile``.
"""

from __future__ import annotations

import uuid
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from wallet.money import format_eur


class Realm(models.TextChoices):
    REAL = "real", _("Denaro reale")
    PLAY = "play", _("Gioco di allenamento")


class AccountKind(models.TextChoices):
    PLAYER_CASH = "player_cash", _("Conto di gioco")
    PLAYER_BONUS = "player_bonus", _("Bonus")
    TABLE_CREDIT = "table_credit", _("Credito al tavolo")
    TABLE_POT = "table_pot", _("Piatto riportato al tavolo")
    TOURNAMENT_POOL = "tournament_pool", _("Montepremi del torneo")
    HOUSE_RAKE = "house_rake", _("Rake del concessionario")
    HOUSE_PROMOTIONS = "house_promotions", _("Promozioni del concessionario")
    HOUSE_ADJUSTMENTS = "house_adjustments", _("Rettifiche manuali")
    PAYMENTS_CLEARING = "payments_clearing", _("Transito pagamenti")
    PLAY_BANK = "play_bank", _("Banca del gioco di allenamento")


# Kinds whose balance may go negative: the house's funding accounts and the outside world.
NEGATIVE_KINDS = (
    AccountKind.HOUSE_PROMOTIONS,
    AccountKind.HOUSE_ADJUSTMENTS,
    AccountKind.PAYMENTS_CLEARING,
    AccountKind.PLAY_BANK,
)
# Kinds that exist in the play-money realm (the training section).
PLAY_KINDS = (
    AccountKind.PLAYER_CASH,
    AccountKind.TABLE_CREDIT,
    AccountKind.TABLE_POT,
    AccountKind.TOURNAMENT_POOL,
    AccountKind.PLAY_BANK,
)


class TransactionKind(models.TextChoices):
    DEPOSIT = "deposit", _("Deposito")
    WITHDRAWAL = "withdrawal", _("Prelievo")
    BUY_IN = "buy_in", _("Ingresso al tavolo")
    REBUY = "rebuy", _("Ricarica al tavolo")
    CASH_OUT = "cash_out", _("Uscita dal tavolo")
    HAND = "hand", _("Mano al tavolo")
    TOURNAMENT_ENTRY = "tournament_entry", _("Iscrizione al torneo")
    TOURNAMENT_REFUND = "tournament_refund", _("Rimborso iscrizione")
    PRIZE = "prize", _("Vincita torneo")
    GUARANTEE = "guarantee", _("Integrazione garantito")
    PLAY_TOP_UP = "play_top_up", _("Ricarica allenamento")
    ADJUSTMENT = "adjustment", _("Rettifica")
    REVERSAL = "reversal", _("Storno")
    TRANSFER = "transfer", _("Trasferimento")


class Account(models.Model):
    """One ledger account; ``ref`` names its holder ("user:12", "table:7", "tournament:3", "house")."""

    kind = models.CharField(_("tipo"), max_length=24, choices=AccountKind.choices)
    realm = models.CharField(_("ambito"), max_length=8, choices=Realm.choices, default=Realm.REAL)
    ref = models.CharField(_("riferimento"), max_length=64)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="wallet_accounts",
        verbose_name=_("titolare"),
    )
    balance = models.BigIntegerField(_("saldo (centesimi)"), default=0)
    held = models.BigIntegerField(_("vincolato (centesimi)"), default=0)
    # Table credit: cumulative amount transferred in from the conto (the €1.000 legal cap).
    transferred_in = models.BigIntegerField(_("versato (centesimi)"), default=0)
    created_at = models.DateTimeField(_("creato il"), default=timezone.now)
    closed_at = models.DateTimeField(_("chiuso il"), null=True, blank=True)

    class Meta:
        verbose_name = _("conto contabile")
        verbose_name_plural = _("conti contabili")
        permissions = [
            ("adjust_ledger", "Può registrare rettifiche manuali e storni"),
            ("approve_withdrawal", "Può approvare o rifiutare i prelievi"),
        ]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["kind", "realm", "ref"], name="account_kind_realm_ref_unique"),
            models.CheckConstraint(
                condition=Q(kind__in=NEGATIVE_KINDS) | (Q(held__gte=0) & Q(balance__gte=F("held"))),
                name="account_non_negative",
            ),
            models.CheckConstraint(
                condition=Q(closed_at__isnull=True) | (Q(balance=0) & Q(held=0)),
                name="account_closed_is_empty",
            ),
            models.CheckConstraint(
                condition=Q(realm=Realm.REAL, kind__in=[k for k in AccountKind if k != AccountKind.PLAY_BANK])
                | Q(realm=Realm.PLAY, kind__in=PLAY_KINDS),
                name="account_kind_realm_valid",
            ),
        ]
        indexes: ClassVar[list[models.Index]] = [models.Index(fields=["owner", "kind"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.ref} ({self.realm})"

    @property
    def available(self) -> int:
        """Balance not reserved by pending holds."""
        return self.balance - self.held


class Transaction(models.Model):
    """One movement of money: its postings sum to zero (enforced in the database)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(_("tipo"), max_length=24, choices=TransactionKind.choices)
    realm = models.CharField(_("ambito"), max_length=8, choices=Realm.choices, default=Realm.REAL)
    created_at = models.DateTimeField(_("data"), default=timezone.now, db_index=True)
    memo = models.CharField(_("descrizione"), max_length=200, blank=True)
    data = models.JSONField(_("dati"), default=dict, blank=True)
    # At most one reversal per transaction (partial unique index below). Both foreign keys are
    # indexed only where set: almost every transaction has neither, and an index entry for NULL
    # would cost every money movement a write for nothing.
    reverses = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="reversed_by",
        db_index=False,
        verbose_name=_("storna"),
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        db_index=False,
        verbose_name=_("eseguita da"),
    )

    class Meta:
        verbose_name = _("transazione")
        verbose_name_plural = _("transazioni")
        ordering = ("-created_at",)
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(
                fields=["reverses"], condition=Q(reverses__isnull=False), name="transaction_reverses_once"
            ),
        ]
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["actor"], condition=Q(actor__isnull=False), name="transaction_actor_set"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {str(self.id)[:8]}"


class Posting(models.Model):
    """One line of a transaction: ``amount`` cents added to ``account`` (negative = out). Append-only."""

    transaction = models.ForeignKey(
        Transaction, on_delete=models.PROTECT, related_name="postings", verbose_name=_("transazione")
    )
    # No index of its own: the (account, -id) index below serves lookups by account and the statement.
    account = models.ForeignKey(
        Account, on_delete=models.PROTECT, related_name="postings", db_index=False, verbose_name=_("conto")
    )
    amount = models.BigIntegerField(_("importo (centesimi)"))
    balance_after = models.BigIntegerField(_("saldo dopo (centesimi)"))

    class Meta:
        verbose_name = _("registrazione")
        verbose_name_plural = _("registrazioni")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.CheckConstraint(condition=~Q(amount=0), name="posting_amount_non_zero"),
        ]
        indexes: ClassVar[list[models.Index]] = [models.Index(fields=["account", "-id"])]

    def __str__(self) -> str:
        return f"{self.account_id}: {'+' if self.amount > 0 else ''}{format_eur(self.amount)}"


class HoldStatus(models.TextChoices):
    PENDING = "pending", _("In attesa")
    POSTED = "posted", _("Contabilizzato")
    VOIDED = "voided", _("Annullato")
    EXPIRED = "expired", _("Scaduto")


class Hold(models.Model):
    """Money reserved on ``account`` before a result is known; posted to ``destination`` or released."""

    class Purpose(models.TextChoices):
        WITHDRAWAL = "withdrawal", _("Prelievo")
        REBUY = "rebuy", _("Ricarica dopo la mano")
        TOURNAMENT = "tournament", _("Iscrizione in attesa")
        OTHER = "other", _("Altro")

    account = models.ForeignKey(
        Account, on_delete=models.PROTECT, related_name="holds", verbose_name=_("conto")
    )
    destination = models.ForeignKey(
        Account,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="incoming_holds",
        verbose_name=_("destinazione"),
    )
    amount = models.BigIntegerField(_("importo (centesimi)"))
    purpose = models.CharField(_("scopo"), max_length=16, choices=Purpose.choices)
    status = models.CharField(
        _("stato"), max_length=8, choices=HoldStatus.choices, default=HoldStatus.PENDING
    )
    created_at = models.DateTimeField(_("creato il"), default=timezone.now)
    expires_at = models.DateTimeField(_("scade il"), null=True, blank=True)
    settled_at = models.DateTimeField(null=True, blank=True)
    transaction = models.ForeignKey(Transaction, null=True, blank=True, on_delete=models.PROTECT)
    # the regulator's ticket of a rebuy made during a hand, carried onto the transaction it posts
    ticket = models.CharField(_("biglietto AAMS/ADM"), max_length=40, blank=True)

    class Meta:
        verbose_name = _("somma vincolata")
        verbose_name_plural = _("somme vincolate")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="hold_amount_positive"),
        ]
        indexes: ClassVar[list[models.Index]] = [models.Index(fields=["status", "expires_at"])]

    def __str__(self) -> str:
        return f"{_('Vincolo')} {self.pk}: {format_eur(self.amount)} ({self.get_status_display()})"


class Payment(models.Model):
    """A deposit or a withdrawal through a payment provider."""

    class Direction(models.TextChoices):
        DEPOSIT = "deposit", _("Deposito")
        WITHDRAWAL = "withdrawal", _("Prelievo")

    class Status(models.TextChoices):
        PENDING = "pending", _("In attesa")
        SETTLED = "settled", _("Completato")
        REJECTED = "rejected", _("Rifiutato")
        FAILED = "failed", _("Non riuscito")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="payments",
        verbose_name=_("giocatore"),
    )
    direction = models.CharField(_("tipo"), max_length=12, choices=Direction.choices)
    amount = models.BigIntegerField(_("importo (centesimi)"))
    status = models.CharField(_("stato"), max_length=10, choices=Status.choices, default=Status.PENDING)
    provider = models.CharField(_("fornitore"), max_length=32)
    provider_ref = models.CharField(_("riferimento fornitore"), max_length=64, blank=True)
    created_at = models.DateTimeField(_("richiesto il"), default=timezone.now, db_index=True)
    decided_at = models.DateTimeField(_("deciso il"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("deciso da"),
    )
    reason = models.TextField(_("motivazione"), blank=True)
    hold = models.OneToOneField(Hold, null=True, blank=True, on_delete=models.PROTECT)
    transaction = models.ForeignKey(Transaction, null=True, blank=True, on_delete=models.PROTECT)

    class Meta:
        verbose_name = _("pagamento")
        verbose_name_plural = _("pagamenti")
        ordering = ("-created_at", "-id")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="payment_amount_positive"),
        ]
        indexes: ClassVar[list[models.Index]] = [models.Index(fields=["user", "direction", "created_at"])]

    def __str__(self) -> str:
        status = self.get_status_display()
        return f"{self.get_direction_display()} {self.pk}: {format_eur(self.amount)} ({status})"


class Withdrawal(Payment):
    """Proxy for the back office's withdrawal-approval list."""

    class Meta:
        proxy = True
        verbose_name = _("prelievo da approvare")
        verbose_name_plural = _("prelievi da approvare")


class AdjustmentRequest(models.Model):
    """A manual adjustment above ``WALLET_ADJUSTMENT_APPROVAL_CENTS``, waiting for a second staff
    member (four eyes): posted only when another one approves it (``wallet.actions.adjustment_approve``)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("in attesa di approvazione")
        APPROVED = "approved", _("approvata e registrata")
        REJECTED = "rejected", _("respinta")

    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="+", verbose_name=_("conto"))
    amount = models.BigIntegerField(_("importo (centesimi)"))  # > 0 credit, < 0 debit
    reason = models.CharField(_("motivazione"), max_length=200)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("richiesta da")
    )
    requested_at = models.DateTimeField(_("richiesta il"), default=timezone.now)
    idempotency_key = models.CharField(max_length=128, unique=True)
    status = models.CharField(_("stato"), max_length=10, choices=Status.choices, default=Status.PENDING)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decisa da"),
    )
    decided_at = models.DateTimeField(_("decisa il"), null=True, blank=True)
    decision_reason = models.CharField(_("motivazione del rifiuto"), max_length=200, blank=True)
    transaction = models.ForeignKey(
        Transaction,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("movimento registrato"),
    )

    class Meta:
        verbose_name = _("rettifica da approvare")
        verbose_name_plural = _("rettifiche da approvare")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.CheckConstraint(condition=~Q(amount=0), name="adjustment_request_amount_nonzero"),
            # four eyes in the database too: whoever asked never decides
            models.CheckConstraint(
                condition=Q(decided_by__isnull=True) | ~Q(decided_by=F("requested_by")),
                name="adjustment_request_four_eyes",
            ),
            models.CheckConstraint(
                condition=Q(status="approved", transaction__isnull=False)
                | (~Q(status="approved") & Q(transaction__isnull=True)),
                name="adjustment_request_posted_iff_approved",
            ),
        ]

    def __str__(self) -> str:
        return f"Rettifica {self.pk} ({self.amount} cent., {self.get_status_display()})"


class ReversalRequest(models.Model):
    """A reversal of a ledger transaction asked by one staff member and executed only when another
    approves it (four eyes: ``wallet.actions.reversal_approve``)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("in attesa di approvazione")
        APPROVED = "approved", _("approvato e registrato")
        REJECTED = "rejected", _("respinto")

    original = models.ForeignKey(
        Transaction, on_delete=models.PROTECT, related_name="+", verbose_name=_("movimento da stornare")
    )
    reason = models.CharField(_("motivazione"), max_length=200)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("richiesto da")
    )
    requested_at = models.DateTimeField(_("richiesto il"), default=timezone.now)
    idempotency_key = models.CharField(max_length=128, unique=True)
    status = models.CharField(_("stato"), max_length=10, choices=Status.choices, default=Status.PENDING)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("deciso da"),
    )
    decided_at = models.DateTimeField(_("deciso il"), null=True, blank=True)
    decision_reason = models.CharField(_("motivazione del rifiuto"), max_length=200, blank=True)
    reversal = models.ForeignKey(
        Transaction,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("storno registrato"),
    )

    class Meta:
        verbose_name = _("storno da approvare")
        verbose_name_plural = _("storni da approvare")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            # four eyes in the database too: whoever asked never decides
            models.CheckConstraint(
                condition=Q(decided_by__isnull=True) | ~Q(decided_by=F("requested_by")),
                name="reversal_request_four_eyes",
            ),
            models.CheckConstraint(
                condition=Q(status="approved", reversal__isnull=False)
                | (~Q(status="approved") & Q(reversal__isnull=True)),
                name="reversal_request_posted_iff_approved",
            ),
            # one request waiting (or approved) per transaction: a second asker finds the first
            models.UniqueConstraint(
                fields=["original"],
                condition=Q(status__in=["pending", "approved"]),
                name="reversal_request_one_open",
            ),
        ]

    def __str__(self) -> str:
        return f"Storno {self.pk} di {str(self.original_id)[:8]} ({self.get_status_display()})"


class LimitPeriod(models.TextChoices):
    DAY = "day", _("giornaliero")
    WEEK = "week", _("settimanale")
    MONTH = "month", _("mensile")


class SelfSetLimit(models.Model):
    """A limit the player sets himself for a period: a lowering applies at once, a raise or a removal
    waits 7 days (``pending_*``; ``wallet.actions.common.limit_change``)."""

    Period = LimitPeriod

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    period = models.CharField(_("periodo"), max_length=8, choices=LimitPeriod.choices)
    amount = models.BigIntegerField(_("limite"), null=True, blank=True)  # None = no limit
    pending_amount = models.BigIntegerField(_("limite in attesa"), null=True, blank=True)
    pending_remove = models.BooleanField(_("rimozione in attesa"), default=False)
    pending_from = models.DateTimeField(_("in vigore dal"), null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        shown = _("nessun limite") if self.amount is None else format_eur(self.amount)
        return f"{self.user_id} {self.get_period_display()}: {shown}"


class DepositLimit(SelfSetLimit):
    """A player's self-set deposit limit for a period (cents); raises wait, decreases apply at once."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="deposit_limits",
        verbose_name=_("giocatore"),
    )
    amount = models.BigIntegerField(_("limite (centesimi)"), null=True, blank=True)  # None = no limit

    class Meta:
        verbose_name = _("limite di deposito")
        verbose_name_plural = _("limiti di deposito")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["user", "period"], name="depositlimit_user_period_unique"),
            models.CheckConstraint(
                condition=Q(amount__isnull=True) | Q(amount__gt=0), name="depositlimit_amount_positive"
            ),
        ]


class PlayLimit(SelfSetLimit):
    """A player's self-set loss limit (cents of net loss) or session-time limit (minutes at the
    tables) for a period, beside the deposit limits and with the same 7-day rule for raises."""

    class Kind(models.TextChoices):
        LOSS = "loss", _("limite di perdita")
        TIME = "time", _("limite di tempo di gioco")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="play_limits")
    kind = models.CharField(_("tipo"), max_length=8, choices=Kind.choices)
    amount = models.BigIntegerField(_("limite (centesimi o minuti)"), null=True, blank=True)

    class Meta:
        verbose_name = _("limite di gioco")
        verbose_name_plural = _("limiti di gioco")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(
                fields=["user", "kind", "period"], name="playlimit_user_kind_period_unique"
            ),
            models.CheckConstraint(
                condition=Q(amount__isnull=True) | Q(amount__gt=0), name="playlimit_amount_positive"
            ),
        ]

    def __str__(self) -> str:
        if self.amount is None:
            shown = str(_("nessun limite"))
        elif self.kind == self.Kind.TIME:
            shown = f"{self.amount} min"
        else:
            shown = format_eur(self.amount)
        return f"{self.user_id} {self.get_kind_display()} {self.get_period_display()}: {shown}"


class IdempotencyKey(models.Model):
    """The first result of an action run under a key; the same key with other inputs is refused."""

    # The key is the primary key: one unique index, no id sequence (a row per money movement).
    key = models.CharField(max_length=128, primary_key=True)
    action = models.CharField(max_length=48)
    request_hash = models.CharField(max_length=64)
    result = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("chiave di idempotenza")
        verbose_name_plural = _("chiavi di idempotenza")

    def __str__(self) -> str:
        return self.key


class ReconciliationRun(models.Model):
    """One run of the ledger reconciliation: stored balances against the sum of postings."""

    created_at = models.DateTimeField(_("eseguita il"), default=timezone.now, db_index=True)
    ok = models.BooleanField(_("esito positivo"))
    accounts_checked = models.IntegerField(_("conti verificati"))
    mismatches = models.JSONField(_("differenze"), default=list, blank=True)
    realm_totals = models.JSONField(_("totali per ambito"), default=dict, blank=True)

    class Meta:
        verbose_name = _("riconciliazione")
        verbose_name_plural = _("riconciliazioni")
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {'OK' if self.ok else 'DIFFERENZE'}"
