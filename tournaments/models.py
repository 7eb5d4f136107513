"""Turn tournaments of the giochi a partite: the tournament as staff configure it, and its registrations.

Money never lives here: entries, refunds and prizes are wallet transactions on the tournament's
own pool account (``wallet.ledger.pool_key(tournament.ledger_ref)``); a registration keeps the id of
its entry transaction so a refund reverses exactly what was paid. Tournaments reach the live
tables only through lobby actions and the core hooks (ARCHITECTURE.md, "Tournaments"), so nothing
here points at a lobby row.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import ClassVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from piattaforma.entry import EntryRules
from tournaments.formats import FormatError
from tournaments.formats.money import check_pool_quota
from tournaments.formats.registration import (
    CONFIRMATION_OPENS_BEFORE_START_S,
    DEFAULT_MIN_PLAYERS,
    REGISTRATION_CLOSES_BEFORE_START_S,
    SITGO_SIZES,
    check_sitgo_size,
)

# The giochi a partite (rules 004, "Tipologie dei giochi"): the games of the turn tournaments.
GAME_CHOICES = (
    ("scopa", "Scopa"),
    ("asso", "Asso piglia tutto"),
    ("cirulla", "Cirulla"),
    ("briscola", "Briscola"),
    ("tresette", "Tresette"),
    ("burraco", "Burraco"),
    ("scala40", "Scala 40"),
)
TURN_GAMES = tuple(name for name, _title in GAME_CHOICES)
# The giochi a puntate (rules 004, "I tornei a livelli"), each with the engine options the level
# clock raises: the level's minimum bet (invito, puntata minima) times the multiple. The banco
# minimo rises with it, in the engines' default ratio: Chemin de fer five puntate minime (its
# cash tables' 1000 / 200), Sette e mezzo (piatto) ten, Mazzetti one.
LEVEL_GAME_CHOICES = (
    ("poker5", "Poker 5 carte"),
    ("telesina", "Telesina"),
    ("bestia", "Bestia"),
    ("chemin", "Chemin de fer"),
    ("mazzetti", "Mazzetti"),
    ("settemezzo", "Sette e mezzo"),
)
LEVEL_GAMES: dict[str, dict[str, int]] = {
    "poker5": {"invito": 1},
    "telesina": {"invito": 1},
    "bestia": {"invito": 1},
    "chemin": {"min_bet": 1, "min_posta": 5},
    "mazzetti": {"min_bet": 1, "min_bank": 1},
    "settemezzo": {"min_bet": 1, "min_bank": 10},
}
# The slot tournaments' machine (rules 004, "Regole della slot tornei"; RULINGS S1-S8): no table
# game, so not in ``games.registry`` (docs/slot.md); played only in its own format.
SLOT_GAME = "slot"
SLOT_GAME_CHOICES = ((SLOT_GAME, "Pierino Tenta la Fortuna"),)
GAME_CHOICES = GAME_CHOICES + LEVEL_GAME_CHOICES + SLOT_GAME_CHOICES
TOURNAMENT_GAMES = tuple(name for name, _title in GAME_CHOICES)
# A level tournament's starting chips are at least this many first inviti (decision: fewer leave no
# play before the first level's inviti take everyone's chips).
MIN_STARTING_INVITI = 10
MAX_SEATS_PER_TABLE = 6
# Slot tournaments (RULINGS S8): the defaults of the credit and the time every entrant gets, and the
# bounds staff may set (decision: a spin's smallest total bet is 30 chips, so a credit below it
# allows no play; an hour is longer than any slot tournament the rules describe).
SLOT_DEFAULT_CREDIT = 100_000
SLOT_MIN_CREDIT = 30
SLOT_DEFAULT_MINUTES = 10
SLOT_MAX_MINUTES = 60


def game_title(game: str) -> str:
    """The game's name as players read it: the engine's title, or the slot's (no engine registered)."""
    from games import registry

    if game in registry.names():
        return registry.get(game).title
    return str(dict(GAME_CHOICES)[game])


def parse_levels(text: str) -> frozenset[int]:
    """ "4,5,0" -> {0, 4, 5}; "" -> {}. ValueError on anything but levels 0-5."""
    levels = frozenset(int(part) for part in text.replace(" ", "").split(",") if part)
    if not levels <= set(range(6)):
        raise ValueError(text)
    return levels


class Tournament(EntryRules):
    """A turn tournament: format, kind, lines, cost, entrants and times, and where it stands.

    Its entry may be reserved (``piattaforma.entry.EntryRules``: a password, the criteria of a
    "Ristretto" entry) beside the invitations ("A inviti", ``invited``)."""

    class Kind(models.TextChoices):
        SCHEDULED = "scheduled", _("Programmato")
        SITGO = "sitgo", _("Sit&go")

    class Format(models.TextChoices):
        # values as tournaments.formats.prizes.Format
        KO = "ko", _("Eliminazione diretta (KO)")
        DANESE = "danese", _("Girone danese")
        DANEL = "danel", _("Danese a eliminazione parziale")
        DANKO = "danko", _("Danese seguito da KO")
        DANELKO = "danelko", _("Danese a eliminazione parziale seguito da KO")
        FREEZEOUT = "freezeout", _("Freezeout (multitavolo)")
        SHOOTOUT = "shootout", _("Shootout")
        SLOT = "slot", _("Slot (Pierino Tenta la Fortuna)")

    class Speed(models.TextChoices):
        # values as tournaments.formats.levels.Speed ("Sigle ed abbreviazioni", "durata")
        LENTO = "lento", _("lento")
        NORMALE = "normale", _("normale")
        TURBO = "turbo", _("turbo")
        SUPERTURBO = "superturbo", _("superturbo")

    class Lines(models.TextChoices):
        INDIVIDUAL = "individual", _("Individuale")
        FIXED_PAIRS = "fixed_pairs", _("Coppie fisse")
        RANDOM_PAIRS = "random_pairs", _("Coppie casuali")

    class Table(models.TextChoices):
        HEAD_TO_HEAD = "2", _("Testa a testa")
        FOUR_IN_TWO = "4in2", _("4 in 2")
        PAIRS = "4", _("A coppie")

    class State(models.TextChoices):
        ANNOUNCED = "announced", _("Annunciato")
        REGISTRATION = "registration", _("Iscrizione")
        RESERVED = "reserved", _("Riservato")
        CLOSED = "closed", _("Chiuso")
        RUNNING = "running", _("In corso")
        FINISHED = "finished", _("Terminato")
        CANCELLED = "cancelled", _("Annullato")

    # Registration is possible in these states; "Riservato" is registration for invited players only.
    OPEN_STATES: ClassVar[tuple[str, ...]] = (State.REGISTRATION, State.RESERVED)

    name = models.CharField(_("nome"), max_length=80)
    game = models.CharField(_("gioco"), max_length=32, choices=GAME_CHOICES)
    format = models.CharField(_("formula"), max_length=9, choices=Format.choices, default=Format.DANESE)
    kind = models.CharField(_("tipo"), max_length=10, choices=Kind.choices, default=Kind.SCHEDULED)
    lines = models.CharField(_("linee"), max_length=12, choices=Lines.choices, default=Lines.INDIVIDUAL)
    table = models.CharField(
        _("giocatori al tavolo"), max_length=4, choices=Table.choices, default=Table.HEAD_TO_HEAD
    )
    turns = models.PositiveSmallIntegerField(
        _("turni"),
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(20)],
        help_text=_("Turni della fase a girone (nei KO i turni dipendono dagli iscritti)."),
    )
    ko_qualifiers = models.PositiveSmallIntegerField(
        _("qualificati al KO"), default=0, help_text=_("danKO e danELKO: i migliori N passano al KO (2-128).")
    )
    smazzate = models.PositiveSmallIntegerField(
        _("smazzate per turno"), default=0, help_text=_("0: ogni turno è una partita intera.")
    )
    points_to_win = models.PositiveSmallIntegerField(
        _("punti per vincere la partita"), default=0, help_text=_("Se ogni turno è una partita intera.")
    )
    tempo_partita_min = models.PositiveSmallIntegerField(
        _("tempo partita (minuti per linea e turno)"), default=14, validators=[MinValueValidator(1)]
    )
    tempo_giocata = models.PositiveSmallIntegerField(_("tempo giocata (s)"), default=30)
    # Level tournaments (rules 004, "I tornei a livelli"): the chips every entrant starts with, the
    # seats of each table, the speed of the level clock and the first level's minimum bet.
    starting_chips = models.PositiveIntegerField(_("chips iniziali"), default=0, blank=True)
    seats_per_table = models.PositiveSmallIntegerField(_("posti per tavolo"), default=0, blank=True)
    speed = models.CharField(_("velocità"), max_length=10, choices=Speed.choices, blank=True)
    first_invito = models.PositiveIntegerField(_("invito del primo livello"), default=0, blank=True)
    # Slot tournaments (RULINGS S8): every entrant plays this many minutes from ``starting_chips``.
    slot_minutes = models.PositiveSmallIntegerField(_("durata della slot (minuti)"), default=0, blank=True)
    pool_quota = models.PositiveIntegerField(_("quota montepremi (€)"), default=0)
    fee = models.PositiveIntegerField(_("quota del concessionario (€)"), default=0)
    guaranteed = models.PositiveIntegerField(
        _("montepremi garantito (€)"),
        default=0,
        help_text=_("Nei freeroll è il montepremi in bonus offerto dal concessionario."),
    )
    min_players = models.PositiveSmallIntegerField(
        _("iscritti minimi"), default=DEFAULT_MIN_PLAYERS, validators=[MinValueValidator(2)]
    )
    max_players = models.PositiveSmallIntegerField(
        _("iscritti massimi"), validators=[MinValueValidator(2), MaxValueValidator(4096)]
    )
    registration_opens_at = models.DateTimeField(_("apertura iscrizioni"), default=timezone.now)
    starts_at = models.DateTimeField(
        _("inizio"), null=True, blank=True, help_text=_("Solo tornei programmati.")
    )
    special_leaderboard = models.CharField(_("classifica speciale"), max_length=80, blank=True)
    satellite_of = models.ForeignKey(
        "self",
        verbose_name=_("satellite del torneo"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="satellites",
    )
    invited = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("invitati"),
        blank=True,
        related_name="tournament_invitations",
        help_text=_("Se indicati, il torneo è riservato: si iscrivono solo gli invitati."),
    )
    repeat = models.BooleanField(
        _("si ripete"), default=False, help_text=_("Sit&go: appena completo se ne apre uno uguale.")
    )
    schedule = models.ForeignKey(
        "TournamentSchedule",
        verbose_name=_("calendario"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournaments",
    )
    # Rules 004, "Tavoli e tornei di allenamento": no money; timeouts and abandonments give the
    # automatic warnings (moderation/conduct.py).
    training = models.BooleanField(
        _("allenamento"),
        default=False,
        help_text=_("Torneo di allenamento: ammonizioni automatiche per timeout e abbandoni."),
    )
    # Rules 004, "Tavoli e tornei di allenamento": "Nei tornei programmati è spesso necessario
    # confermare la propria iscrizione" (the button shows from 4 to 2 minutes before the start).
    confirmation_required = models.BooleanField(
        _("conferma dell'iscrizione obbligatoria"),
        default=False,
        help_text=_(
            "Allenamento, tornei programmati: chi non conferma tra 4 e 2 minuti prima dell'inizio non gioca."
        ),
    )
    # Rules 004, "Tavoli e tornei di allenamento": "Non è permesso cancellarsi da alcuni tornei di
    # allenamento; l'eventuale impossibilità a cancellarsi è sempre indicata nei dettagli del torneo".
    cancellation_allowed = models.BooleanField(
        _("cancellazione consentita"),
        default=True,
        help_text=_("Solo allenamento: se tolta, chi si iscrive non può cancellarsi (lo dicono i dettagli)."),
    )
    # "Il rating è uno dei criteri previsti per l'accesso a tornei riservati o a tornei «ad invito»":
    # the skill levels (``SkillLevel``, in the tournament's game) that may register; 0: esordienti.
    skill_levels = models.CharField(
        _("livelli ammessi"),
        max_length=11,
        blank=True,
        help_text=_("Vuoto: tutti. Altrimenti i livelli di abilità nel gioco che possono iscriversi."),
    )
    description = models.TextField(_("descrizione"), blank=True)
    # The engine's own options (carte scoperte, Tresette a perdere, ...: ``Engine.config_options``)
    # every table of the tournament plays with; checked by ``tournaments.options``.
    options = models.JSONField(
        _("opzioni del gioco"),
        default=dict,
        blank=True,
        help_text=_(
            'Le opzioni del gioco per tutti i tavoli del torneo, ad esempio {"carte_scoperte": true}.'
        ),
    )
    state = models.CharField(_("stato"), max_length=12, choices=State.choices, default=State.ANNOUNCED)
    adm_code = models.CharField(_("codice AAMS/ADM"), max_length=40, blank=True)
    closed_at = models.DateTimeField(_("iscrizioni chiuse il"), null=True, blank=True)
    cancelled_reason = models.TextField(_("motivo dell'annullamento"), blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("creato da"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(_("creato il"), default=timezone.now)
    # The running tournament (tournaments/running.py): the random list, the lines and their
    # members, the totals and the phase's own data (danEL eliminations, KO slots), as plain JSON.
    progress = models.JSONField(_("svolgimento"), default=dict, blank=True)
    turn = models.PositiveSmallIntegerField(_("turno in corso"), default=0)
    started_at = models.DateTimeField(_("iniziato il"), null=True, blank=True)
    finished_at = models.DateTimeField(_("terminato il"), null=True, blank=True)
    paid_at = models.DateTimeField(_("premi pagati il"), null=True, blank=True)
    prize_transaction = models.CharField(_("movimento dei premi"), max_length=40, blank=True)

    class Meta:
        verbose_name = _("torneo")
        verbose_name_plural = _("tornei")
        ordering = ("starts_at", "pk")
        permissions = [
            ("cancel_tournament", "Può annullare un torneo per un guasto tecnico"),
        ]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            # "mai inferiore all'80% del costo di partecipazione" (rules 004, "Formazione del montepremi")
            models.CheckConstraint(
                condition=Q(fee__lte=F("pool_quota") / 4),
                name="tournament_pool_80pc",  # pool ≥ 4 × fee
            ),
            models.CheckConstraint(condition=Q(min_players__gte=2), name="tournament_min_players"),
            models.CheckConstraint(
                condition=Q(max_players__gte=F("min_players")), name="tournament_max_over_min"
            ),
            models.CheckConstraint(
                condition=Q(kind="sitgo", starts_at__isnull=True, max_players__in=SITGO_SIZES)
                | Q(kind="sitgo", starts_at__isnull=True, format__in=("freezeout", "shootout", "slot"))
                | Q(kind="scheduled", starts_at__isnull=False),
                name="tournament_kind_times",
            ),
            models.UniqueConstraint(
                fields=["schedule", "starts_at"], name="tournament_once_per_schedule_slot"
            ),
        ]
        indexes: ClassVar[list[models.Index]] = [models.Index(fields=["state", "starts_at"])]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"

    @property
    def code(self) -> str:
        """The operator's unique code of the tournament ("Codice Concessionario")."""
        return f"{'S' if self.kind == self.Kind.SITGO else 'T'}{self.pk or 0:06d}"

    @property
    def ledger_ref(self) -> str:
        """The reference of the tournament's pool account in the ledger."""
        return str(self.pk)

    @property
    def cost(self) -> int:
        """The entry cost in cents: pool quota + the operator's fee."""
        return self.pool_quota + self.fee

    @property
    def is_free(self) -> bool:
        """A free entry (freeroll): no payment, so no regulator authorisation and no refund."""
        return self.cost == 0

    @property
    def is_freeroll(self) -> bool:
        """A freeroll: free, with a bonus prize (not a training tournament); the warnings' bans apply."""
        return self.is_free and not self.training

    @property
    def is_pairs(self) -> bool:
        return self.lines != self.Lines.INDIVIDUAL

    @property
    def is_levels(self) -> bool:
        """A level tournament of a gioco a puntate (freezeout or shootout), not a turn tournament."""
        return self.format in (self.Format.FREEZEOUT, self.Format.SHOOTOUT)

    @property
    def is_slot(self) -> bool:
        """A slot tournament: every entrant alone at the machine, same credit and time (S8)."""
        return self.format == self.Format.SLOT

    @property
    def closes_at(self) -> datetime | None:
        """When registration closes: 2 minutes before a scheduled start; sit&go close when full."""
        if self.starts_at is None:
            return None
        return self.starts_at - timedelta(seconds=REGISTRATION_CLOSES_BEFORE_START_S)

    @property
    def confirmation_opens_at(self) -> datetime | None:
        """When the "Conferma iscrizione" button appears (4 minutes before the start), if required."""
        if not self.confirmation_required or self.starts_at is None:
            return None
        return self.starts_at - timedelta(seconds=CONFIRMATION_OPENS_BEFORE_START_S)

    def confirmation_open(self, now: datetime) -> bool:
        """Whether a player may confirm his registration now (from 4 to 2 minutes before the start)."""
        opens = self.confirmation_opens_at
        return opens is not None and self.state in self.OPEN_STATES and opens <= now < (self.closes_at or now)

    @property
    def allowed_levels(self) -> frozenset[int] | None:
        """The skill levels that may register (0: esordienti), or None: everyone."""
        return parse_levels(self.skill_levels) or None

    def clean(self) -> None:
        """The rules' invariants of a tournament's settings, with Italian messages."""
        errors: dict[str, object] = {}
        for name in ("starting_chips", "seats_per_table", "first_invito", "slot_minutes"):
            if getattr(self, name) is None:  # left empty in the back office: not a level tournament
                setattr(self, name, 0)
        if self.confirmation_required and not (self.training and self.kind == self.Kind.SCHEDULED):
            errors["confirmation_required"] = _(
                "La conferma dell'iscrizione si chiede nei tornei di allenamento programmati."
            )
        try:
            self.skill_levels = ",".join(str(n) for n in sorted(parse_levels(self.skill_levels)))
        except ValueError:
            errors["skill_levels"] = _(
                "Livelli: numeri da 1 a 5, e 0 per gli esordienti, separati da virgole."
            )
        if self.training:
            # "I tornei di allenamento sono gratuiti, la partecipazione è gratuita e non si vincono
            # soldi o premi in denaro": no quota, no guarantee, no seat of a money tournament.
            if self.pool_quota or self.fee:
                errors["fee"] = _("I tornei di allenamento sono gratuiti: quota montepremi e quota a zero.")
            if self.guaranteed:
                errors["guaranteed"] = _("Nei tornei di allenamento non si vincono premi: nessun garantito.")
            if self.satellite_of_id is not None:
                errors["satellite_of"] = _("Un torneo di allenamento non è il satellite di un altro torneo.")
        elif not self.cancellation_allowed:
            errors["cancellation_allowed"] = _(
                "Solo nei tornei di allenamento si può escludere la cancellazione."
            )
        try:
            check_pool_quota(self.pool_quota, self.fee)
        except FormatError as exc:
            errors["pool_quota"] = str(exc)
        if self.is_levels:
            errors.update(self._level_errors())
        elif self.is_slot:
            errors.update(self._slot_errors())
        elif self.game not in TURN_GAMES:
            errors["game"] = _(
                "I tornei a turni sono dei giochi a partite: un gioco a puntate si gioca a livelli."
            )
        elif self.starting_chips or self.seats_per_table or self.speed or self.first_invito:
            errors["starting_chips"] = _(
                "Chips, posti per tavolo, velocità e invito sono dei tornei a livelli."
            )
        if self.slot_minutes and not self.is_slot:
            errors["slot_minutes"] = _("La durata della slot è dei tornei slot.")
        if self.kind == self.Kind.SITGO and (self.is_levels or self.is_slot):
            self.min_players = self.max_players or self.min_players
            self.starts_at = None
        elif self.kind == self.Kind.SITGO:
            try:
                check_sitgo_size(self.max_players or 0)
            except FormatError as exc:
                errors["max_players"] = str(exc)
            self.min_players = self.max_players or self.min_players
            self.starts_at = None
        elif self.starts_at is None:
            errors["starts_at"] = _("Un torneo programmato ha un orario di inizio.")
        elif self.registration_opens_at and self.closes_at and self.registration_opens_at >= self.closes_at:
            errors["registration_opens_at"] = _(
                "Le iscrizioni devono aprire prima della chiusura (2 minuti prima dell'inizio)."
            )
        if self.max_players is not None and self.max_players < self.min_players:
            errors["max_players"] = _("Il numero massimo è inferiore al minimo.")
        multiple = 4 if self.is_pairs else 2
        sitgo_turns = self.kind == self.Kind.SITGO and not (self.is_levels or self.is_slot)
        if self.max_players and sitgo_turns and self.max_players % multiple:
            errors["max_players"] = _("Nei tornei a coppie gli iscritti sono un multiplo di 4.")
        if self.is_pairs and self.table == self.Table.HEAD_TO_HEAD:
            errors["table"] = _("Le coppie giocano a tavoli di 4.")
        if not self.is_pairs and self.table == self.Table.PAIRS:
            errors["table"] = _("Un torneo individuale si gioca testa a testa o 4 in 2.")
        if self.format in (self.Format.DANKO, self.Format.DANELKO):
            if self.ko_qualifiers not in SITGO_SIZES:
                errors["ko_qualifiers"] = _("I qualificati al KO sono una potenza di 2 da 2 a 128.")
        elif self.ko_qualifiers:
            errors["ko_qualifiers"] = _("Solo i tornei danKO e danELKO hanno una fase KO.")
        if self.format in (self.Format.DANEL, self.Format.DANELKO) and self.turns > 4:
            errors["turns"] = _("Il danEL prevede al più 4 turni (punteggi minimi delle regole).")
        if self.satellite_of_id is not None:
            errors.update(self._satellite_errors())
        if self.smazzate and self.points_to_win:
            errors["smazzate"] = _("Indica le smazzate per turno oppure i punti della partita, non entrambi.")
        errors.update(self.clean_entry_rules())
        if self.is_slot:
            pass  # the machine has no options (``_slot_errors`` refuses them)
        elif "game" not in errors and "options" not in errors:
            refusal = self.options_error()
            if refusal:
                errors["options"] = refusal
        if errors:
            raise ValidationError(errors)

    def options_error(self) -> str | None:
        """Why the game options are not valid for this tournament's tables; None if they are."""
        from games import registry
        from tournaments.options import option_error
        from tournaments.running import match_config

        keys = {o.key for o in registry.get(self.game).config_options()}
        if self.is_levels:
            return self._level_options_error()
        return option_error(
            game=self.game,
            options=self.options,
            structure=lambda ko: match_config(self, ko=ko, options=keys),
        )

    def _level_options_error(self) -> str | None:
        """A level tournament's options: the level clock sets the minimum bet and what scales with
        it; the rest is checked by the engine as the first level's tournament tables play it."""
        from games.engine import TOURNAMENT
        from tournaments.options import option_error

        scaled = LEVEL_GAMES.get(self.game, {})
        given = self.options if isinstance(self.options, dict) else {}
        clocked = sorted(k for k in given if k in scaled)
        if clocked:
            return _("%(keys)s: lo stabilisce il livello del torneo, non è un'opzione del gioco.") % {
                "keys": ", ".join(clocked)
            }
        first = {key: max(self.first_invito, 1) * multiple for key, multiple in scaled.items()}
        return option_error(
            game=self.game, options=self.options, structure=lambda ko: {"mode": TOURNAMENT, **first}
        )

    def _level_errors(self) -> dict[str, object]:
        """A level tournament's settings: a gioco a puntate, equal starting chips, tables, clock."""
        errors: dict[str, object] = {}
        if self.game not in LEVEL_GAMES:
            errors["game"] = _("I tornei a livelli (freezeout, shootout) sono dei giochi a puntate.")
        if self.is_pairs:
            errors["lines"] = _("Un torneo a livelli è individuale.")
        if self.smazzate or self.points_to_win or self.ko_qualifiers:
            errors["smazzate"] = _("Smazzate, punti e qualificati al KO sono dei tornei a turni.")
        if self.speed not in self.Speed.values:
            errors["speed"] = _("Indica la velocità del torneo: lento, normale, turbo o superturbo.")
        if not self.first_invito:
            errors["first_invito"] = _("Indica l'invito del primo livello.")
        elif self.starting_chips < MIN_STARTING_INVITI * self.first_invito:
            errors["starting_chips"] = _(
                "Le chips iniziali valgono almeno %(n)s inviti del primo livello (almeno %(chips)s)."
            ) % {"n": MIN_STARTING_INVITI, "chips": MIN_STARTING_INVITI * self.first_invito}
        if not 2 <= self.seats_per_table <= MAX_SEATS_PER_TABLE:
            errors["seats_per_table"] = _("Un tavolo del torneo ha da 2 a %(n)s posti.") % {
                "n": MAX_SEATS_PER_TABLE
            }
        return errors

    def _slot_errors(self) -> dict[str, object]:
        """A slot tournament's settings (RULINGS S8): the slot, individual, one credit and one time for
        all (defaults 100,000 chips and 10 minutes); no turn or level setting, no game options."""
        errors: dict[str, object] = {}
        if self.game != SLOT_GAME:
            errors["game"] = _("Un torneo slot si gioca a Pierino Tenta la Fortuna.")
        if self.is_pairs:
            errors["lines"] = _("Un torneo slot è individuale.")
        if self.smazzate or self.points_to_win or self.ko_qualifiers:
            errors["smazzate"] = _("Smazzate, punti e qualificati al KO sono dei tornei a turni.")
        if self.seats_per_table or self.speed or self.first_invito:
            errors["seats_per_table"] = _("Posti per tavolo, velocità e invito sono dei tornei a livelli.")
        if self.options:
            errors["options"] = _("La slot non ha opzioni di gioco.")
        if self.skill_levels:
            errors["skill_levels"] = _("La slot non ha livelli di abilità: lascia vuoti i livelli ammessi.")
        if not self.starting_chips:
            self.starting_chips = SLOT_DEFAULT_CREDIT
        elif self.starting_chips < SLOT_MIN_CREDIT:
            errors["starting_chips"] = _(
                "Il credito iniziale è almeno %(n)s chips (un giro a puntata 1)."
            ) % {"n": SLOT_MIN_CREDIT}
        if not self.slot_minutes:
            self.slot_minutes = SLOT_DEFAULT_MINUTES
        elif self.slot_minutes > SLOT_MAX_MINUTES:
            errors["slot_minutes"] = _("La durata della slot è al più %(n)s minuti.") % {
                "n": SLOT_MAX_MINUTES
            }
        return errors

    def _satellite_errors(self) -> dict[str, object]:
        """A satellite's prize is an entry into its target ("fase successiva", rules 004 and K4)."""
        target = self.satellite_of
        if target is None:
            return {}
        if self.pk is not None and target.pk == self.pk:
            return {"satellite_of": _("Un torneo non può essere satellite di se stesso.")}
        if target.is_free:
            return {"satellite_of": _("La fase successiva di un satellite ha un costo di partecipazione.")}
        # Decision: a seat is one player's entry, so satellites and their targets are individual.
        if self.is_pairs or target.is_pairs:
            return {"satellite_of": _("Satellite e fase successiva sono tornei individuali.")}
        if not self._state.adding:
            return {}  # the timing was checked at creation; later edits (name, notes) must not fail on it
        if target.state in (self.State.FINISHED, self.State.CANCELLED, self.State.RUNNING):
            return {"satellite_of": _("La fase successiva è già iniziata, terminata o annullata.")}
        if self.starts_at and target.starts_at and self.starts_at >= target.starts_at:
            return {"satellite_of": _("Il satellite deve iniziare prima della fase successiva.")}
        return {}


class Registration(models.Model):
    """One player's entry in a tournament, with its payment and its regulator authorisation.

    States (rules 004, "Autorizzazioni AAMS"): waiting for the authorisation (nickname black,
    brown sphere), authorised (blue, green sphere), cancellation waiting for its authorisation
    (red); then the final ones, each refunded through the wallet except ``played``.
    """

    class State(models.TextChoices):
        PENDING = "pending", _("In attesa di autorizzazione")
        AUTHORISED = "authorised", _("Autorizzata")
        CANCEL_PENDING = "cancel_pending", _("Cancellazione in attesa di autorizzazione")
        CANCELLED = "cancelled", _("Cancellata e rimborsata")
        REFUSED = "refused", _("Non autorizzata e rimborsata")
        EXCLUDED = "excluded", _("Esclusa alla chiusura e rimborsata")
        REFUNDED = "refunded", _("Torneo annullato: rimborsata")
        ADMITTED = "admitted", _("Ammessa al torneo")
        UNCONFIRMED = "unconfirmed", _("Non confermata: esclusa alla chiusura")

    # A registration in these states holds a place.
    ACTIVE: ClassVar[tuple[str, ...]] = (State.PENDING, State.AUTHORISED, State.CANCEL_PENDING)

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="registrations", verbose_name=_("torneo")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("giocatore")
    )
    # Fixed pairs: the first of a pair names his partner (``partner``), who then registers into the
    # pair (his registration's ``pair`` is the first one). Each pays his own entry.
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("compagno"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    pair = models.ForeignKey(
        "self",
        verbose_name=_("coppia"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="joined",
    )
    state = models.CharField(_("stato"), max_length=16, choices=State.choices, default=State.PENDING)
    idempotency_key = models.CharField(max_length=80, unique=True)
    entry_transaction = models.CharField(_("movimento di iscrizione"), max_length=40, blank=True)
    refund_transaction = models.CharField(_("movimento di rimborso"), max_length=40, blank=True)
    # The entry given back for a fault of the platform ("Rimborsi per disconnessioni"), by the
    # house, once: the connection it answers for, the reason, the staff member, the adjustments.
    fault_refund = models.JSONField(_("rimborso per guasto"), null=True, blank=True)
    ticket = models.CharField(_("biglietto AAMS/ADM"), max_length=40, blank=True)
    # Training tournaments that require it: when the player clicked "Conferma iscrizione".
    confirmed_at = models.DateTimeField(_("confermata il"), null=True, blank=True)
    cancel_ticket = models.CharField(_("autorizzazione della cancellazione"), max_length=40, blank=True)
    # How many times the regulator has been asked without an answer (timeouts), for the sweeper.
    attempts = models.PositiveSmallIntegerField(default=0)
    # The final placing (ex aequo share the first position of their group) and the prize won.
    position = models.PositiveIntegerField(_("posizione"), null=True, blank=True)
    prize = models.PositiveIntegerField(_("premio (centesimi)"), default=0)
    # At the end ("I Punti torneo (PT)", "Rating e livelli di abilità"): the Punti Torneo won, in
    # hundredths of a PT (negative in a training Danese, K5), and the line's VP and turns played.
    pt = models.IntegerField(_("punti torneo (centesimi di PT)"), null=True, blank=True)
    vp = models.PositiveIntegerField(_("VP totali"), default=0)
    turns_played = models.PositiveSmallIntegerField(_("turni giocati"), default=0)
    created_at = models.DateTimeField(_("iscritto il"), default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("iscrizione")
        verbose_name_plural = _("iscrizioni")
        ordering = ("created_at", "pk")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=Q(state__in=["pending", "authorised", "cancel_pending", "admitted"]),
                name="registration_one_live_per_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}/{self.user_id} {self.state}"


class Payout(Registration):
    """A registration that won a prize: staff see every payout in the back office ("Premi pagati")."""

    class Meta:
        proxy = True
        verbose_name = _("premio pagato")
        verbose_name_plural = _("premi pagati")


class TournamentSchedule(models.Model):
    """A recurring scheduled tournament: the template's settings, on some weekdays at a time of day."""

    template = models.ForeignKey(
        Tournament, verbose_name=_("torneo modello"), on_delete=models.PROTECT, related_name="+"
    )
    weekdays = models.CharField(
        _("giorni della settimana"),
        max_length=7,
        default="0123456",
        validators=[RegexValidator(r"^[0-6]{1,7}$", _("Cifre da 0 (lunedì) a 6 (domenica)."))],
        help_text=_("Cifre da 0 (lunedì) a 6 (domenica): 024 = lunedì, mercoledì, venerdì."),
    )
    start_time = models.TimeField(_("ora di inizio"))
    opens_hours_before = models.PositiveSmallIntegerField(
        _("apertura iscrizioni (ore prima dell'inizio)"), default=24, validators=[MinValueValidator(1)]
    )
    active = models.BooleanField(_("attivo"), default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("creato da"), on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(_("creato il"), default=timezone.now)

    class Meta:
        verbose_name = _("calendario di tornei")
        verbose_name_plural = _("calendari di tornei")

    def __str__(self) -> str:
        return f"{self.template.name} {self.weekdays} {self.start_time:%H:%M}"


class TournamentMatch(models.Model):
    """One match of a turn: two lines at a live table (or a KO bye), and its result when it ends.

    ``table_id`` is the lobby table's id as the lobby's actions returned it, not a key: the
    tournament learns the result from ``piattaforma.hooks.match_ended``, never from lobby rows.
    """

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="matches", verbose_name=_("torneo")
    )
    turn = models.PositiveSmallIntegerField(_("turno"))
    number = models.PositiveSmallIntegerField(_("tavolo"))
    phase = models.CharField(_("fase"), max_length=8, default="girone")  # girone | ko
    line_a = models.CharField(_("linea A"), max_length=40)
    line_b = models.CharField(_("linea B"), max_length=40, blank=True)  # empty: a KO bye
    table_id = models.PositiveBigIntegerField(_("tavolo live"), null=True, blank=True, db_index=True)
    # {"a": {"vp", "mp", "points"}, "b": {...}, "winner": "a"|"b"|None, "forfeit": kind, "offender": line}
    # (kind: "timeout", "abandon", "absent", or "expired": a pair's tempo partita ran out)
    result = models.JSONField(_("risultato"), null=True, blank=True)
    started_at = models.DateTimeField(_("iniziata il"), default=timezone.now)
    ended_at = models.DateTimeField(_("finita il"), null=True, blank=True)
    # each time staff had it replayed for a fault of the platform (``actions.match_replay``): the
    # table and result voided, the connection that justified it, the reason, who and when
    replays = models.JSONField(_("partite rigiocate per guasto"), default=list, blank=True)

    class Meta:
        verbose_name = _("partita di torneo")
        verbose_name_plural = _("partite di torneo")
        ordering = ("tournament", "turn", "number")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(
                fields=["tournament", "turn", "number"], name="tmatch_one_per_table_turn"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} T{self.turn} #{self.number}"


class SkillLevel(models.Model):
    """A player's rating and skill level in one game ("Rating e livelli di abilità"), updated every
    night from the money tournaments of the last 4 months; level 0 is "esordiente" (fewer than 7)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("giocatore")
    )
    game = models.CharField(_("gioco"), max_length=32, choices=GAME_CHOICES)
    rating = models.DecimalField(_("rating (MVP pesata)"), max_digits=9, decimal_places=3)
    level = models.PositiveSmallIntegerField(
        _("livello"), help_text=_("1 (il quinto migliore) – 5; 0: esordiente")
    )
    tournaments = models.PositiveSmallIntegerField(_("tornei negli ultimi 4 mesi"))
    updated_on = models.DateField(_("aggiornato il"))

    class Meta:
        verbose_name = _("livello di abilità")
        verbose_name_plural = _("livelli di abilità")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["user", "game"], name="skill_level_one_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.game} L{self.level}"


class SlotSession(models.Model):
    """One entrant's play at the machine in a slot tournament (RULINGS S8; ``tournaments/slot.py``).

    ``state`` is the engine's session (``games.slot.engine``: credit, pending choice, the journal of
    every draw, so the whole session replays exactly); ``extra_state`` the extra minute of a player
    tied for first, started from his credit at the end of time. ``credit`` is the credit of the
    session in play (the standings read it), ``version`` counts its accepted actions.
    """

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="slot_sessions", verbose_name=_("torneo")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("giocatore")
    )
    state = models.JSONField(_("sessione"))
    extra_state = models.JSONField(_("minuto supplementare"), null=True, blank=True)
    credit = models.PositiveBigIntegerField(_("credito"))
    version = models.PositiveIntegerField(_("versione"), default=0)
    started_at = models.DateTimeField(_("iniziata il"))
    ends_at = models.DateTimeField(_("termina il"))

    class Meta:
        verbose_name = _("sessione slot")
        verbose_name_plural = _("sessioni slot")
        ordering = ("tournament", "-credit", "pk")
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["tournament", "user"], name="slot_session_one_per_player"),
        ]
        indexes: ClassVar[list[models.Index]] = [models.Index(fields=["tournament", "-credit"])]

    def __str__(self) -> str:
        return f"{self.tournament_id}/{self.user_id} {self.credit}"

    @property
    def playing(self) -> dict:
        """The engine session in play: the extra minute's, once it began."""
        return self.extra_state if self.extra_state is not None else self.state
