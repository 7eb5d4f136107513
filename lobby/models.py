"""Cash tables: configuration, the live runtime row, seats, hand history, chat, waiting list."""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from piattaforma.entry import EntryRules

# The law caps what a player may bring to one cash table (rules 004, "I tavoli cash").
LEGAL_TABLE_CAP_CENTS = 100_000
MAX_RAKE_BP = 1_000  # 10 %


class TableSettings(models.Model):
    """What a cash table is played with: game, options, stakes, rake, clocks, seats (tables and templates)."""

    class Realm(models.TextChoices):
        REAL = "real", _("Denaro reale")
        PLAY = "play", _("Allenamento")

    game = models.CharField(_("gioco"), max_length=32, db_index=True)
    config = models.JSONField(_("opzioni del gioco"), default=dict, blank=True)
    realm = models.CharField(_("tipo"), max_length=8, choices=Realm.choices, default=Realm.REAL)
    seats = models.PositiveSmallIntegerField(
        _("posti"), validators=[MinValueValidator(2), MaxValueValidator(10)]
    )
    min_players = models.PositiveSmallIntegerField(_("giocatori minimi per iniziare"), default=2)
    min_buy_in = models.PositiveIntegerField(_("entrata minima (centesimi)"))
    max_buy_in = models.PositiveIntegerField(
        _("entrata massima (centesimi)"), validators=[MaxValueValidator(LEGAL_TABLE_CAP_CENTS)]
    )
    rake_bp = models.PositiveIntegerField(
        _("rake (punti base)"),
        default=0,
        validators=[MaxValueValidator(MAX_RAKE_BP)],
        help_text=_("500 = 5 %"),
    )
    rake_cap = models.PositiveIntegerField(_("tetto del rake per mano (centesimi)"), default=0)
    # Giochi a partite (RULINGS C1): the stakes of a match, in cents.
    posta_partita = models.PositiveIntegerField(_("posta partita (centesimi)"), default=0)
    posta_unitaria = models.PositiveIntegerField(_("posta unitaria (centesimi)"), default=0)
    perdita_massima = models.PositiveIntegerField(_("perdita massima (centesimi)"), default=0)
    tempo_giocata = models.PositiveSmallIntegerField(_("tempo giocata (s)"), default=30)
    tempo_partita = models.PositiveIntegerField(
        _("tempo partita (s)"), default=0, help_text=_("giochi a partite")
    )
    time_bank = models.PositiveSmallIntegerField(_("time bank (s)"), default=0)
    observers_allowed = models.BooleanField(_("osservatori ammessi"), default=True)

    class Meta:
        abstract = True


# The settings a template hands to the tables opened from it
# (lobby.actions.operations.table_open_from_template).
TABLE_SETTINGS_FIELDS = (
    "game", "config", "realm", "seats", "min_players", "min_buy_in", "max_buy_in", "rake_bp", "rake_cap",
    "posta_partita", "posta_unitaria", "perdita_massima", "tempo_giocata", "tempo_partita", "time_bank",
    "observers_allowed",
)  # fmt: skip


class Table(TableSettings, EntryRules):
    """A cash table as staff configure it in the back office; its seats may be reserved
    (``piattaforma.entry.EntryRules``: a password, a "Ristretto" entry; ``invited``: "A inviti")."""

    name = models.CharField(_("nome"), max_length=60)
    is_open = models.BooleanField(_("aperto"), default=True)
    created_at = models.DateTimeField(default=timezone.now)
    # A tournament's table (lobby/actions/tournament_tables.py): no buy-in, rake or waiting list, one match,
    # no money at the table. The id of the tournament, not a key: the lobby knows no tournament.
    tournament_id = models.PositiveBigIntegerField(_("torneo"), null=True, blank=True, db_index=True)
    invited = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("invitati"),
        blank=True,
        related_name="table_invitations",
        help_text=_("Se indicati, il tavolo è riservato: siedono solo gli invitati."),
    )

    class Meta:
        verbose_name = _("tavolo cash")
        verbose_name_plural = _("tavoli cash")
        ordering = ("game", "name")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.CheckConstraint(condition=Q(rake_bp__lte=MAX_RAKE_BP), name="table_rake_at_most_10pc"),
            models.CheckConstraint(
                condition=Q(max_buy_in__lte=LEGAL_TABLE_CAP_CENTS), name="table_buy_in_within_legal_cap"
            ),
            models.CheckConstraint(
                condition=Q(min_buy_in__lte=models.F("max_buy_in")), name="table_buy_in_range"
            ),
            models.CheckConstraint(condition=Q(min_players__gte=2), name="table_min_players"),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """A reserved entry's settings (``piattaforma.entry``), with Italian messages."""
        errors = self.clean_entry_rules()
        if errors:
            raise ValidationError(errors)


class TableRuntime(models.Model):
    """The live state of a table: the row every action locks (ARCHITECTURE.md, "Live tables")."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, primary_key=True, related_name="runtime")
    version = models.BigIntegerField(default=0)
    game = models.CharField(
        max_length=32, blank=True
    )  # engine of the hand in progress (giro pazzo: telesina)
    state = models.JSONField(null=True, blank=True)  # engine state of the hand in progress
    # the seats dealt into that hand (its Hand row's seats, kept here so a broadcast reads one row
    # less); None: read them from the Hand row (a hand dealt before this field existed)
    dealt = models.JSONField(null=True, blank=True)
    # the steps recorded for that hand (the next HandStep's seq - 1); None: count its HandStep rows
    steps = models.PositiveIntegerField(null=True, blank=True)
    carry = models.JSONField(null=True, blank=True)  # what the next hand starts from
    hand_no = models.PositiveIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # Giochi a partite: what is left of each line's tempo partita (ms), and when the turn began.
    clocks = models.JSONField(null=True, blank=True)
    turn_started = models.DateTimeField(null=True, blank=True)
    # The seat deciding on its time bank now, and since when (RULINGS G5).
    bank_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    bank_started = models.DateTimeField(null=True, blank=True)
    # Giochi a partite: the "Sono pronto per iniziare" / end-of-match countdown (rules 004, tavoli cash).
    ready_deadline = models.DateTimeField(null=True, blank=True)
    # When the table's pending deadline task fires (one at a time, at or before ``deadline``; it
    # re-arms itself when the deadline moved on): None when no task is pending.
    timer_at = models.DateTimeField(null=True, blank=True)
    # When the next deal is due (a start task is pending): None when none is. The beat sweeper starts
    # a table whose start task was lost (a Redis restart, a dead worker) once this has passed.
    start_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # The owner runtime's fencing token (``lobby.runtime.ownership``): raised when an owner starts
    # (its lease claimed) and when it goes on after a park its caller overran; a parked caller's
    # writes are refused unless the row still has the epoch it was parked under.
    epoch = models.PositiveBigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("stato del tavolo")
        verbose_name_plural = _("stati dei tavoli")

    def __str__(self) -> str:
        return f"{self.table} v{self.version}"


class Seat(models.Model):
    """One seat of a table and the player sitting there (one table session per sit-down)."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("In gioco")
        SITOUT = "sitout", _("Sitout")

    table = models.ForeignKey(
        Table, verbose_name=_("tavolo"), on_delete=models.CASCADE, related_name="seat_rows"
    )
    number = models.PositiveSmallIntegerField(_("posto"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("giocatore"), on_delete=models.PROTECT, related_name="seats"
    )
    session_ref = models.CharField(
        _("sessione al tavolo"), max_length=64, unique=True
    )  # the wallet's table-credit account ref
    status = models.CharField(_("stato"), max_length=8, choices=Status.choices, default=Status.PLAYING)
    leave_after_hand = models.BooleanField(_("esce a fine mano"), default=False)
    ready = models.BooleanField(default=False)  # giochi a partite: "Sono pronto per iniziare"
    connections = models.PositiveSmallIntegerField(default=0)  # his live SeatSocket rows, counted
    time_bank = models.PositiveIntegerField(default=0)  # seconds left; never regenerates in a session (G5)
    away = models.BooleanField(default=False)  # sitout because every connection dropped
    sitout_since = models.DateTimeField(null=True, blank=True)
    missed_hands = models.PositiveSmallIntegerField(_("mani saltate"), default=0)
    joined_at = models.DateTimeField(_("seduto il"), default=timezone.now)
    # the player's options as he sat down, for a game whose options change only at the next
    # sit-down (games.options "join": Sette e mezzo); None: read at every deal
    prefs = models.JSONField(_("opzioni di gioco della sessione"), null=True, blank=True)

    class Meta:
        verbose_name = _("posto")
        verbose_name_plural = _("posti")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_one_player_per_seat"),
            models.UniqueConstraint(fields=["table", "user"], name="seat_one_seat_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.number} {self.user}"


class SeatSocket(models.Model):
    """One open WebSocket counted for a seat, owned by one server process (presence).

    The owning process refreshes ``seen_at`` of all its rows on its heartbeat; the beat sweeper
    deletes rows whose process stopped beating (killed, crashed) and sits out a seat left with
    none, as a closed connection does. A process that dies takes only its own rows with it.
    """

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="sockets")
    process = models.CharField(max_length=100, db_index=True)
    seen_at = models.DateTimeField(default=timezone.now, db_index=True)

    def __str__(self) -> str:
        return f"{self.seat} @ {self.process}"


class ConnectionRecord(models.Model):
    """One counted connection of a seated player, kept after it closed: when, and who ended it.

    Rules 004, "Rimborsi per disconnessioni": an entry is refunded only when the platform
    interrupted the player's session, never for his own connection. The record is the staff's
    evidence: a connection lost with its server process (the sweep of a process that stopped
    beating) is the platform's; one the browser closed (page left, window closed) is the player's;
    one cut without a closing handshake (a network, a device, or the server's own network) says
    only that, and the staff read it beside the others of the same minute and process.
    """

    class EndedBy(models.TextChoices):
        PLAYER = "player", _("Chiusa dal giocatore (pagina lasciata o chiusa)")
        NETWORK = "network", _("Interrotta senza chiusura (rete o dispositivo)")
        SERVER = "server", _("Chiusa dal server (sessione terminata o esclusione)")
        PLATFORM = "platform", _("Persa dalla piattaforma (processo del server fermo)")

    table = models.ForeignKey(Table, verbose_name=_("tavolo"), on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("giocatore"), on_delete=models.PROTECT, related_name="+"
    )
    seat_number = models.PositiveSmallIntegerField(_("posto"))
    # the SeatSocket row that counted it (gone once closed)
    socket_id = models.BigIntegerField(_("connessione (socket)"), unique=True)
    process = models.CharField(_("processo del server"), max_length=100)
    opened_at = models.DateTimeField(_("aperta il"), default=timezone.now)
    hand_at_open = models.PositiveIntegerField(_("mano all'apertura"), default=0)
    closed_at = models.DateTimeField(_("chiusa il"), null=True, blank=True, db_index=True)
    hand_at_close = models.PositiveIntegerField(_("mano alla chiusura"), null=True, blank=True)
    ended_by = models.CharField(_("chiusa da"), max_length=8, choices=EndedBy.choices, blank=True)
    close_code = models.PositiveIntegerField(_("codice di chiusura"), null=True, blank=True)

    class Meta:
        verbose_name = _("connessione al tavolo")
        verbose_name_plural = _("connessioni ai tavoli")
        indexes: ClassVar[list[models.Index]] = [models.Index(fields=["user", "opened_at"])]

    def __str__(self) -> str:
        return f"{self.table} #{self.seat_number} {self.user} {self.opened_at:%Y-%m-%d %H:%M:%S}"


class Hand(models.Model):
    """The history of one hand (or match): its deck orders, steps and result."""

    table = models.ForeignKey(Table, verbose_name=_("tavolo"), on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveIntegerField(_("numero"))
    game = models.CharField(_("gioco"), max_length=32)
    config = models.JSONField(_("opzioni del gioco"), default=dict)
    seats = models.JSONField(_("posti"), default=list)  # the seat specs dealt in, with user ids and nicknames
    carry_in = models.JSONField(
        _("riporto dalla mano precedente"), null=True, blank=True
    )  # what the hand started from (previous carry)
    start_draws = models.JSONField(
        _("estrazioni della distribuzione"), default=list
    )  # RNG draws of new(): with the seats, rebuilds the deal
    deck_log = models.JSONField(
        _("ordine dei mazzi"), default=list
    )  # every deck order of the hand (RULINGS G4)
    outcome = models.JSONField(_("esito"), null=True, blank=True)
    cancelled = models.BooleanField(_("annullata"), default=False)
    started_at = models.DateTimeField(_("iniziata il"), default=timezone.now)
    ended_at = models.DateTimeField(_("finita il"), null=True, blank=True)

    class Meta:
        verbose_name = _("mano")
        verbose_name_plural = _("storico mani")
        ordering = ("-started_at",)
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_per_table")
        ]

    def __str__(self) -> str:
        return f"{self.table} mano {self.number}"


class HandPlayer(models.Model):
    """A player dealt into a hand (the index of each player's own hand history)."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hands_played")
    seat = models.PositiveSmallIntegerField()

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["hand", "user"], name="handplayer_once_per_hand")
        ]

    def __str__(self) -> str:
        return f"{self.hand} · {self.user}"


class MatchFaultRefund(models.Model):
    """One player's loss in one match at a cash table given back for a fault of the platform
    (rules 004, "Rimborsi per disconnessioni"): once per match and player (``lobby.faults``)."""

    hand = models.ForeignKey(
        Hand, verbose_name=_("partita"), on_delete=models.PROTECT, related_name="fault_refunds"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("giocatore"), on_delete=models.PROTECT, related_name="+"
    )
    record = models.ForeignKey(
        ConnectionRecord, verbose_name=_("connessione interrotta"), on_delete=models.PROTECT, related_name="+"
    )
    amount = models.PositiveBigIntegerField(_("importo (centesimi)"))
    reason = models.TextField(_("motivazione"))
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("staff"), on_delete=models.PROTECT, related_name="+"
    )
    result = models.JSONField(_("rettifica"), default=dict)  # wallet.adjustment_request's answer
    created_at = models.DateTimeField(_("creato il"), default=timezone.now)

    class Meta:
        verbose_name = _("rimborso di partita per guasto")
        verbose_name_plural = _("rimborsi di partita per guasto")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["hand", "user"], name="match_fault_refund_once")
        ]

    def __str__(self) -> str:
        return f"{self.hand} · {self.user}"


class HandStep(models.Model):
    """One applied action of a hand: who, what, the RNG draws it consumed, the events it produced."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="steps")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    automatic = models.BooleanField(default=False)  # a timeout or sitout decision, not the player's
    draws = models.JSONField(default=list)
    events = models.JSONField(default=list)
    version = models.BigIntegerField()
    # The owner runtime's journal (lobby.runtime): the decision deadline and the lines' tempo
    # partita after this step, so a takeover resumes the clocks with the time that was left.
    deadline = models.DateTimeField(null=True, blank=True)
    clocks = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("hand", "seq")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["hand", "seq"], name="handstep_seq_per_hand")
        ]

    def __str__(self) -> str:
        return f"{self.hand} #{self.seq}"


class ChatMessage(models.Model):
    """A table chat line, kept for moderation."""

    table = models.ForeignKey(Table, verbose_name=_("tavolo"), on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("giocatore"), on_delete=models.PROTECT, related_name="+"
    )
    text = models.CharField(_("testo"), max_length=200)
    created_at = models.DateTimeField(_("scritto il"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("messaggio della chat del tavolo")
        verbose_name_plural = _("chat dei tavoli")
        ordering = ("created_at", "id")

    def __str__(self) -> str:
        return f"{self.user}: {self.text[:40]}"


class WaitingEntry(models.Model):
    """A player waiting for a seat; the first in line is offered a freed seat for one minute."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="waiting")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    offered_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    offer_expires_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("giocatore in attesa")
        verbose_name_plural = _("lista d'attesa")
        ordering = ("created_at", "id")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["table", "user"], name="waiting_once_per_table")
        ]

    def __str__(self) -> str:
        return f"{self.table} · {self.user}"


class TableTemplate(TableSettings):
    """A model of cash table staff open tables from ("Tavoli da modello"): every setting but the name."""

    name = models.CharField(_("nome del modello"), max_length=60, unique=True)
    table_name = models.CharField(
        _("nome dei tavoli"),
        max_length=50,
        help_text=_("I tavoli aperti si chiamano così, seguito da un numero."),
    )
    active = models.BooleanField(_("in uso"), default=True)
    created_at = models.DateTimeField(_("creato il"), default=timezone.now)

    class Meta:
        verbose_name = _("modello di tavolo")
        verbose_name_plural = _("modelli di tavolo")
        ordering = ("game", "name")

    def __str__(self) -> str:
        return self.name


class TableLease(models.Model):
    """Which server process owns a live table now (``lobby.runtime.ownership``).

    The owner renews ``expires_at`` on its heartbeat; a lease past it belongs to a process that
    died, and any process may take the table over (from the runtime row and the journal).
    """

    table = models.OneToOneField(Table, on_delete=models.CASCADE, primary_key=True, related_name="lease")
    process = models.CharField(max_length=100, db_index=True)
    channel = models.CharField(max_length=200, blank=True)  # the owner's channel-layer name
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = _("proprietario del tavolo")
        verbose_name_plural = _("proprietari dei tavoli")

    def __str__(self) -> str:
        return f"{self.table_id} @ {self.process}"
