"""Moderation's data: the watched list, the chat lines it judged, reports, sanctions, notices."""

from __future__ import annotations

import re
from typing import ClassVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from moderation import filters


class Category(models.TextChoices):
    """What a line or a player did wrong: the rules' list ("Regole della Chat", "Durante il gioco")."""

    INSULT = "insult", _("Insulti o linguaggio offensivo")
    BLASPHEMY = "blasphemy", _("Bestemmie")
    OBSCENITY = "obscenity", _("Linguaggio osceno")
    RACISM = "racism", _("Razzismo o discriminazione")
    INTIMIDATION = "intimidation", _("Intimidazione ad abbandonare il gioco o il sito")
    PROMOTION = "promotion", _("Promozione di altri siti o attività")
    FLOOD = "flood", _("Messaggi ripetuti o chat intasata")
    CAPITALS = "capitals", _("Scrittura in maiuscolo")
    COMPLAINT = "complaint", _("Polemiche sulla regolarità del gioco")
    GAME_TALK = "game_talk", _("Carte, punteggio o partita in corso rivelati")
    COLLUSION = "collusion", _("Accordo con l'avversario")


# How serious each kind of offence is (0-5): the queue's ranking weighs it.
SEVERITY: dict[str, int] = {
    "racism": 5,
    "blasphemy": 4,
    "intimidation": 4,
    "collusion": 4,
    "insult": 3,
    "obscenity": 3,
    "promotion": 3,
    "game_talk": 2,
    "complaint": 1,
    "flood": 1,
    "capitals": 1,
}


class WatchedEntry(models.Model):
    """A watched word, phrase or pattern and what happens to a line containing it (staff keep the list)."""

    class Kind(models.TextChoices):
        WORD = filters.WORD, _("Parola (* finale: qualsiasi desinenza)")
        PHRASE = filters.PHRASE, _("Frase (* al posto di una parola: qualsiasi parola)")
        REGEX = filters.REGEX, _("Espressione regolare (su testo minuscolo senza accenti)")

    class Action(models.TextChoices):
        BLOCK = filters.BLOCK, _("Blocca")
        CENSOR = filters.CENSOR, _("Censura")
        HOLD = filters.HOLD, _("Trattieni per revisione")
        FLAG = filters.FLAG, _("Mostra e segnala ai moderatori")

    pattern = models.CharField(_("parola o espressione"), max_length=200)
    kind = models.CharField(_("tipo"), max_length=8, choices=Kind.choices, default=Kind.WORD)
    category = models.CharField(_("categoria"), max_length=16, choices=Category.choices)
    action = models.CharField(_("azione"), max_length=8, choices=Action.choices, default=Action.BLOCK)
    language = models.CharField(_("lingua"), max_length=8, default="it")
    in_game_only = models.BooleanField(
        _("solo durante il gioco"),
        default=False,
        help_text=_("Vale solo per chi ha carte in una mano o partita in corso."),
    )
    active = models.BooleanField(_("attiva"), default=True)
    note = models.CharField(_("nota"), max_length=200, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("parola sorvegliata")
        verbose_name_plural = _("parole sorvegliate")
        ordering = ("category", "pattern")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["pattern", "kind", "language"], name="watched_entry_unique"),
        ]

    def __str__(self) -> str:
        return self.pattern

    def as_entry(self) -> filters.Entry:
        return filters.Entry(self.pk, self.pattern, self.kind, self.category, self.action, self.in_game_only)

    def clean(self) -> None:
        try:
            filters.entry_words(filters.Entry(0, self.pattern, self.kind, self.category, self.action))
        except re.error as exc:
            raise ValidationError(
                {"pattern": _("Espressione non valida: %(error)s") % {"error": exc}}
            ) from exc


class ChatLine(models.Model):
    """A line moderation judged, on any channel ("table:12", later "lobby", "help:…")."""

    class Outcome(models.TextChoices):
        SHOWN = "shown", _("Mostrato")
        CENSORED = "censored", _("Censurato")
        HELD = "held", _("Trattenuto")
        BLOCKED = "blocked", _("Bloccato")
        REJECTED = "rejected", _("Trattenuto e respinto")

    channel = models.CharField(_("canale"), max_length=40)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("autore")
    )
    text = models.CharField(_("testo"), max_length=400)  # what was written
    shown_text = models.CharField(max_length=400, blank=True)  # what the others saw (censored)
    norm = models.CharField(max_length=400, blank=True)
    outcome = models.CharField(_("esito"), max_length=8, choices=Outcome.choices)
    category = models.CharField(_("categoria"), max_length=16, blank=True)
    matches = models.JSONField(default=list, blank=True)
    in_hand = models.BooleanField(default=False)
    created_at = models.DateTimeField(_("creato il"), default=timezone.now)
    # a held line released (shown) or rejected by a moderator
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("messaggio di chat")
        verbose_name_plural = _("messaggi di chat")
        ordering = ("created_at", "id")
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["author", "created_at"], name="chatline_author_time"),
            models.Index(fields=["channel", "created_at"], name="chatline_channel_time"),
        ]

    def __str__(self) -> str:
        return f"{self.author}: {self.text[:40]}"


class Report(models.Model):
    """The open case about one player: every report on him merges here until a decision closes it."""

    class Status(models.TextChoices):
        OPEN = "open", _("Aperta")
        CLAIMED = "claimed", _("In esame")
        ESCALATED = "escalated", _("Inoltrata allo staff")
        CLOSED = "closed", _("Chiusa")

    class Decision(models.TextChoices):
        DISMISS = "dismiss", _("Archivia")
        WARN = "warn", _("Ammonisci")
        MUTE = "mute", _("Silenzia")
        SUSPEND_CHAT = "suspend_chat", _("Sospendi la chat")
        ESCALATE = "escalate", _("Inoltra allo staff")
        SUSPEND_ACCOUNT = "suspend_account", _("Sospendi il conto di gioco")

    target = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("giocatore segnalato"),
    )
    status = models.CharField(_("stato"), max_length=10, choices=Status.choices, default=Status.OPEN)
    severity = models.PositiveSmallIntegerField(default=0)
    score = models.IntegerField(_("punteggio"), default=0, db_index=True)
    entries_count = models.PositiveIntegerField(_("segnalazioni"), default=0)
    opened_at = models.DateTimeField(_("aperta il"), default=timezone.now)
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    claimed_at = models.DateTimeField(null=True, blank=True)
    decision = models.CharField(_("decisione"), max_length=16, choices=Decision.choices, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("deciso da"),
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True)

    class Meta:
        verbose_name = _("segnalazione")
        verbose_name_plural = _("segnalazioni")
        ordering = ("-score", "opened_at")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(
                fields=["target"],
                condition=~models.Q(status="closed"),
                name="report_one_open_case_per_player",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.target}"


class ReportEntry(models.Model):
    """One report merged into a case: who (None: the chat filter), about which line, why, the context."""

    report = models.ForeignKey(Report, on_delete=models.CASCADE, related_name="entries")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    line = models.ForeignKey(ChatLine, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    channel = models.CharField(max_length=40, blank=True)
    category = models.CharField(max_length=16, choices=Category.choices)
    note = models.CharField(max_length=500, blank=True)
    reliability = models.FloatField(default=0.5)  # the reporter's record when he reported
    context = models.JSONField(default=list)  # the conversation around the line at that moment
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("segnalazione ricevuta")
        verbose_name_plural = _("segnalazioni ricevute")
        ordering = ("created_at", "id")

    def __str__(self) -> str:
        return f"{self.report} · {self.category}"


class Sanction(models.Model):
    """A warning (ammonizione), a mute or a chat suspension; mutes end by time, checked at post time."""

    class Kind(models.TextChoices):
        WARNING = "warning", _("Ammonizione")
        MUTE = "mute", _("Silenziamento")
        CHAT_SUSPENSION = "chat_suspension", _("Sospensione della chat")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("giocatore")
    )
    kind = models.CharField(_("tipo"), max_length=16, choices=Kind.choices)
    starts_at = models.DateTimeField(_("inizio"), default=timezone.now)
    ends_at = models.DateTimeField(_("fine"), null=True, blank=True)
    reason = models.TextField()
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("deciso da"),
    )
    report = models.ForeignKey(
        Report, null=True, blank=True, on_delete=models.PROTECT, related_name="sanctions"
    )
    end_notified_at = models.DateTimeField(null=True, blank=True)  # the player was told it ended

    class Meta:
        verbose_name = _("provvedimento")
        verbose_name_plural = _("provvedimenti")
        ordering = ("-starts_at", "-id")
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["user", "kind", "ends_at"], name="sanction_user_kind_end"),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_kind_display()}"


class Notice(models.Model):
    """A message to one player from moderation (a warning, a mute and its end, a report handled)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    code = models.CharField(max_length=32)
    text = models.CharField(max_length=500)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("avviso")
        verbose_name_plural = _("avvisi")
        ordering = ("-created_at", "-id")
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["user", "read_at"], name="notice_unread")
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.code}"


# --- tournament conduct: automatic warnings (ammonizioni) and sanctions ------------------------------


class ConductEvent(models.Model):
    """A tournament offence the tournaments reported (timeout, abandon, no-show, a pair's slow partner)
    and the warnings it gave."""

    class Kind(models.TextChoices):
        TIMEOUT = "timeout", _("Partita persa per tempo scaduto")
        ABANDON = "abandon", _("Abbandono della partita")
        ABSENT = "absent", _("Assenza al turno")
        # pairs: the match ended by tempo scaduto and he used more than 3/4 of his line's time
        SLOW = "slow", _("Tempo scaduto: oltre 3/4 del tempo della coppia")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("giocatore")
    )
    tournament_id = models.BigIntegerField(_("torneo"))
    kind = models.CharField(_("tipo"), max_length=8, choices=Kind.choices)
    training = models.BooleanField(_("allenamento"))
    turn = models.PositiveIntegerField(_("turno"))
    warnings = models.PositiveSmallIntegerField(
        _("ammonizioni"), default=0
    )  # ammonizioni it gave (cap: 2 a tournament)
    created_at = models.DateTimeField(_("creato il"), default=timezone.now)

    class Meta:
        verbose_name = _("infrazione in torneo")
        verbose_name_plural = _("infrazioni in torneo")
        ordering = ("-created_at", "-id")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(
                fields=["user", "tournament_id", "turn", "kind"], name="conduct_event_once"
            ),
        ]
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["user", "created_at"], name="conduct_event_user_time"),
            models.Index(fields=["user", "tournament_id"], name="conduct_event_user_tourn"),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.kind} · torneo {self.tournament_id}"


class ConductRecord(models.Model):
    """A player's running count: automatic warnings received and tournament turns completed."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.PROTECT, related_name="+"
    )
    received = models.PositiveIntegerField(default=0)
    completed_turns = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("ammonizioni del giocatore")
        verbose_name_plural = _("ammonizioni dei giocatori")

    def __str__(self) -> str:
        return f"{self.user}: {self.received} / {self.completed_turns}"


class ConductMeasure(models.Model):
    """An automatic measure: a freeroll ban (rules' thresholds) or a tournament block (the ladder)."""

    class Kind(models.TextChoices):
        FREEROLL_BAN = "freeroll_ban", _("Esclusione dai tornei Freeroll")
        TOURNAMENT_BLOCK = "tournament_block", _("Blocco delle iscrizioni ai tornei")
        NOTICE = "notice", _("Richiamo")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("giocatore")
    )
    kind = models.CharField(_("tipo"), max_length=16, choices=Kind.choices)
    event = models.ForeignKey(ConductEvent, null=True, on_delete=models.PROTECT, related_name="measures")
    tournament_id = models.BigIntegerField(_("torneo"), null=True)
    step = models.PositiveIntegerField(
        _("gradino")
    )  # the warning threshold (bans) or the ladder's rung (blocks)
    starts_at = models.DateTimeField(_("inizio"))
    ends_at = models.DateTimeField(_("fine"), null=True)
    created_at = models.DateTimeField(_("creato il"), default=timezone.now)

    class Meta:
        verbose_name = _("provvedimento automatico")
        verbose_name_plural = _("provvedimenti automatici")
        ordering = ("-created_at", "-id")
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["user", "kind", "ends_at"], name="conduct_measure_user_end"),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.kind} · {self.step}"


# --- collusion and dumping signals (staff only) ---------------------------------------------------


class SignalInbox(models.Model):
    """A settled hand waiting to be folded into the signals (``moderation.dumping.signals_fold``).

    The settlement writes this one row in its own transaction (the hand is counted exactly when its
    money moves); the fold takes the waiting hands in batches, off the table's path.
    """

    hand_id = models.BigIntegerField(unique=True)
    summary = models.JSONField(encoder=DjangoJSONEncoder)

    class Meta:
        verbose_name = _("mano da osservare")
        verbose_name_plural = _("mani da osservare")

    def __str__(self) -> str:
        return f"mano {self.hand_id} (in attesa)"


class SignalHand(models.Model):
    """A settled hand as the signals saw it (its id makes ingestion idempotent)."""

    hand_id = models.BigIntegerField(unique=True)
    table_id = models.BigIntegerField()
    game = models.CharField(max_length=32)
    ended_at = models.DateTimeField()

    class Meta:
        verbose_name = _("mano osservata")
        verbose_name_plural = _("mani osservate")

    def __str__(self) -> str:
        return f"mano {self.hand_id}"


class SignalSeat(models.Model):
    """One player's part in a settled hand: money won or lost and how the hand ended for him."""

    class End(models.TextChoices):
        NORMAL = "normal", _("Regolare")
        ABANDON = "abandon", _("Abbandono")
        TIMEOUT = "timeout", _("Tempo scaduto")
        SITOUT = "sitout", _("Sit out")

    hand = models.ForeignKey(SignalHand, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    delta = models.BigIntegerField()  # cents won (+) or lost (−)
    end = models.CharField(max_length=8, choices=End.choices)
    outlier = models.BooleanField(default=False)  # a loss far from the player's usual play

    class Meta:
        verbose_name = _("posto di una mano osservata")
        verbose_name_plural = _("posti delle mani osservate")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["user", "hand"], name="signal_seat_once"),
        ]

    def __str__(self) -> str:
        return f"{self.hand} · {self.user}"


class PlayerSignal(models.Model):
    """A player's running aggregates over settled hands, and the score that ranks him."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.PROTECT, related_name="+"
    )
    hands = models.PositiveIntegerField(default=0)
    abandons = models.PositiveIntegerField(default=0)
    timeouts = models.PositiveIntegerField(default=0)
    sitouts = models.PositiveIntegerField(default=0)
    net = models.BigIntegerField(default=0)  # Σ delta, cents
    sum_sq = models.FloatField(default=0.0)  # Σ delta², for his usual spread
    outliers = models.PositiveIntegerField(default=0)
    score = models.IntegerField(default=0)
    last_at = models.DateTimeField(null=True)

    class Meta:
        verbose_name = _("segnale del giocatore")
        verbose_name_plural = _("segnali dei giocatori")
        indexes: ClassVar[list[models.Index]] = [  # the dashboard's ranking, read by its top rows
            models.Index(fields=["-score", "-hands"], name="player_signal_rank"),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.score}"


class PairSignal(models.Model):
    """Two players (a < b by id) over the hands they shared: money each way, forfeits, outliers."""

    a = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("giocatore A")
    )
    b = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("giocatore B")
    )
    hands = models.PositiveIntegerField(_("mani"), default=0)
    a_to_b = models.BigIntegerField(_("da A a B (centesimi)"), default=0)  # cents a lost that b won
    b_to_a = models.BigIntegerField(_("da B ad A (centesimi)"), default=0)
    forfeits_a = models.PositiveIntegerField(default=0)  # a abandoned / timed out / sat out, b won
    forfeits_b = models.PositiveIntegerField(default=0)
    outliers_a = models.PositiveIntegerField(default=0)  # a's unusual losses in hands b won
    outliers_b = models.PositiveIntegerField(default=0)
    score = models.IntegerField(_("punteggio"), default=0)
    last_at = models.DateTimeField(_("ultima mano"), null=True)

    class Meta:
        verbose_name = _("segnale di una coppia")
        verbose_name_plural = _("segnali delle coppie")
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["-score", "-hands"], name="pair_signal_rank"),
        ]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["a", "b"], name="pair_signal_once"),
            models.CheckConstraint(condition=models.Q(a__lt=models.F("b")), name="pair_signal_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.a} · {self.b} · {self.score}"


class HelpThread(models.Model):
    """A player's HELP conversation with the staff (its lines are ChatLines on channel "help:<player id>")."""

    player = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    last_at = models.DateTimeField(default=timezone.now, db_index=True)
    waiting = models.BooleanField(default=True)  # the player wrote last: a staff answer is due
    last_text = models.CharField(max_length=200, blank=True)
    # Closed by the staff or the player: off the desk's list, kept for the record; a new line reopens it.
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        verbose_name = _("conversazione HELP")
        verbose_name_plural = _("conversazioni HELP")
        ordering = ("-waiting", "-last_at")

    def __str__(self) -> str:
        return f"HELP {self.player}"
