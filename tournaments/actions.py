"""Every write of the tournaments: creation, registration, regulator authorisation, close, cancel.

Lock order, everywhere: the tournament row first (``_lock``), then its registrations, then the
wallet's accounts (inside the wallet actions). Money moves only through wallet actions, on the
tournament's pool account; a refund reverses exactly the entry transaction, so the ledger stays
zero-sum whatever path a registration takes. The regulator is asked outside any transaction
(``registration_authorise``), and its answer applied under the locks (``registration_decide``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, time, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.engine import CodedError
from piattaforma import hooks, siteops
from piattaforma.actions import audit_record
from piattaforma.models import User
from tournaments import errors
from tournaments.authorization import AuthorisationTimeout, Authorizer, Decision, get_authorizer
from tournaments.formats.registration import Entry, can_register, close_registration
from tournaments.models import Registration, SkillLevel, Tournament, TournamentSchedule
from tournaments.rankings import level_label, levels_label
from tournaments.selectors import open_invitation
from wallet import actions as wallet

RegState = Registration.State
# The regulator is asked again for a registration left waiting this long (a lost task, a timeout) ...
AUTHORISATION_RETRY_AFTER = timedelta(seconds=30)
# ... and after this many unanswered requests the request counts as refused.
AUTHORISATION_MAX_ATTEMPTS = 5


def _schedule_tasks() -> bool:
    return bool(getattr(settings, "TOURNAMENTS_SCHEDULE_TASKS", settings.LOBBY_SCHEDULE_TASKS))


def _schedule_authorisation(registration_id: int) -> None:
    if _schedule_tasks():
        from tournaments.tasks import authorise

        transaction.on_commit(lambda: authorise.delay(registration_id=registration_id))


def _schedule_adm_code(tournament: Tournament) -> None:
    """A money tournament asks the regulator for its code as soon as it exists (after commit)."""
    if _schedule_tasks() and not tournament.is_free:
        from tournaments.tasks import adm_code

        tournament_id = tournament.pk
        transaction.on_commit(lambda: adm_code.delay(tournament_id=tournament_id), robust=True)


def tournament_adm_code_obtain(*, tournament_id: int, authorizer: Authorizer | None = None) -> str:
    """The regulator's code of a money tournament ("codice AAMS del torneo", shown in the info panel
    from the start), asked once; runs outside any transaction. "" while the regulator does not answer
    (the sweep asks again) and for tournaments that are not money (freerolls, training)."""
    tournament = Tournament.objects.get(pk=tournament_id)
    if tournament.adm_code or tournament.is_free:
        return tournament.adm_code
    try:
        code = (authorizer or get_authorizer()).open_tournament(
            tournament_ref=tournament.ledger_ref, name=tournament.name, cost=tournament.cost
        )
    except AuthorisationTimeout:
        return ""
    Tournament.objects.filter(pk=tournament.pk, adm_code="").update(adm_code=code)
    return str(Tournament.objects.values_list("adm_code", flat=True).get(pk=tournament.pk))


def _lock(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise errors.InvalidTournament("Torneo inesistente.") from None


def _check_perm(actor: User, perm: str) -> None:
    if not actor.has_perm(perm):
        raise errors.NotPermitted()


# --- creation ------------------------------------------------------------------------------------


def _opening_state(tournament: Tournament, *, reserved: bool) -> str:
    return Tournament.State.RESERVED if reserved else Tournament.State.REGISTRATION


@transaction.atomic
def tournament_create(
    *, actor: User, values: dict[str, Any], invited: Iterable[User] = (), now: datetime | None = None
) -> Tournament:
    """Create a tournament from back-office values (checked by ``Tournament.clean``); audited.

    Its registration opens at once if ``registration_opens_at`` has passed, else it is announced.
    """
    _check_perm(actor, "tournaments.add_tournament")
    invited = list(invited)
    tournament = Tournament(**values, created_by=actor)
    now = now or timezone.now()
    try:
        tournament.full_clean(exclude=["created_by"])
    except ValidationError as exc:
        raise errors.InvalidTournament(" ".join(exc.messages), fields=exc.message_dict) from None
    if tournament.registration_opens_at <= now:
        tournament.state = _opening_state(tournament, reserved=bool(invited))
    tournament.save()
    tournament.invited.set(invited)
    _schedule_adm_code(tournament)
    audit_record(actor=actor, action="tournaments.create", target=tournament, data={"name": tournament.name})
    return tournament


def _copy(tournament: Tournament, **changes: Any) -> Tournament:
    """A new tournament with the settings of ``tournament`` (a repeating sit&go, a schedule's template)."""
    twin = Tournament.objects.get(pk=tournament.pk)
    twin.pk = None
    twin.adm_code = ""
    twin.closed_at = None
    twin.cancelled_reason = ""
    twin.created_at = timezone.now()
    for field, value in changes.items():
        setattr(twin, field, value)
    twin.save()
    twin.invited.set(tournament.invited.all())
    _schedule_adm_code(twin)
    return twin


def _repeat_sitgo(tournament: Tournament) -> Tournament:
    """Open the next sit&go of a repeating one, with the same settings."""
    return _copy(tournament, state=Tournament.State.REGISTRATION, registration_opens_at=timezone.now())


# How far ahead a schedule's tournaments are created (and shown as "Annunciato" until they open).
SCHEDULE_HORIZON = timedelta(days=2)


@transaction.atomic
def schedule_create(
    *, actor: User, template_id: int, weekdays: str, start_time: time, opens_hours_before: int = 24
) -> TournamentSchedule:
    """Repeat a scheduled tournament's settings on ``weekdays`` (0 = Monday) at ``start_time`` (Rome)."""
    _check_perm(actor, "tournaments.add_tournamentschedule")
    template = Tournament.objects.filter(pk=template_id, kind=Tournament.Kind.SCHEDULED).first()
    if template is None:
        raise errors.InvalidTournament("Il modello deve essere un torneo programmato.")
    schedule = TournamentSchedule(
        template=template,
        weekdays="".join(sorted(set(weekdays))),
        start_time=start_time,
        opens_hours_before=opens_hours_before,
        created_by=actor,
    )
    try:
        schedule.full_clean()
    except ValidationError as exc:
        raise errors.InvalidTournament(" ".join(exc.messages), fields=exc.message_dict) from None
    schedule.save()
    audit_record(actor=actor, action="tournaments.schedule_create", target=schedule)
    return schedule


def schedules_run(*, now: datetime | None = None) -> int:
    """Create the tournaments of every active schedule that start within SCHEDULE_HORIZON (idempotent)."""
    now = now or timezone.now()
    created = 0
    today = timezone.localdate(now)
    for schedule in TournamentSchedule.objects.filter(active=True).select_related("template"):
        for offset in range(SCHEDULE_HORIZON.days + 1):
            day = today + timedelta(days=offset)
            starts = timezone.make_aware(datetime.combine(day, schedule.start_time))
            if str(day.weekday()) not in schedule.weekdays or not (now + timedelta(minutes=5) < starts):
                continue
            if starts > now + SCHEDULE_HORIZON:
                continue
            with transaction.atomic():
                if Tournament.objects.filter(schedule=schedule, starts_at=starts).exists():
                    continue
                opens = starts - timedelta(hours=schedule.opens_hours_before)
                _copy(
                    schedule.template,
                    schedule=schedule,
                    starts_at=starts,
                    registration_opens_at=opens,
                    state=Tournament.State.ANNOUNCED,
                )
                created += 1
    return created


# --- registration and cancellation ---------------------------------------------------------------


def _places_taken(tournament: Tournament) -> int:
    """Places taken: live registrations, plus the partner's place a fixed pair's first registrant keeps."""
    live = tournament.registrations.filter(state__in=Registration.ACTIVE)
    waiting = live.filter(partner__isnull=False).exclude(joined__state__in=Registration.ACTIVE)
    return live.count() + waiting.count()


# Rules 004, "Tavoli e tornei di allenamento": "Si può partecipare a un solo torneo programmato per
# volta. Si può partecipare al massimo a 2 tornei sit&go contemporaneamente."
TRAINING_LIMITS: dict[str, tuple[int, type[errors.TournamentError]]] = {
    Tournament.Kind.SCHEDULED: (1, errors.TrainingScheduledLimit),
    Tournament.Kind.SITGO: (2, errors.TrainingSitgoLimit),
}


def check_training_limits(*, tournament: Tournament, user: User, lock: bool = True) -> None:
    """Refuse a training registration over the section's limits of tournaments at once.

    Decision: a player takes part in a training tournament of the same kind from his registration
    (waiting, authorised or admitted) until that tournament has finished or been cancelled; a
    registration he cancelled, or one excluded or unconfirmed at the close, frees his place. His
    user row is locked, so two registrations of his racing each other are counted one after the other
    (``lock=False``: the lobby's preview, which writes nothing).
    """
    limit, refusal = TRAINING_LIMITS[tournament.kind]
    if lock:
        User.objects.select_for_update().filter(pk=user.pk).first()
    taking_part = (
        Registration.objects.filter(
            user=user,
            state__in=(*Registration.ACTIVE, RegState.ADMITTED),
            tournament__training=True,
            tournament__kind=tournament.kind,
        )
        .exclude(tournament__state__in=(Tournament.State.FINISHED, Tournament.State.CANCELLED))
        .exclude(tournament=tournament)
    )
    if taking_part.count() >= limit:
        raise refusal()


def check_admission(*, tournament: Tournament, user: User, lock: bool = True) -> None:
    """Refuse a player this tournament does not admit: not invited to a reserved one, over the
    training section's limits, a skill level it does not admit, an account that may not play, a
    conduct measure. The registration's checks, and the lobby's preview (``lock=False``)."""
    if tournament.state == Tournament.State.RESERVED and not tournament.invited.filter(pk=user.pk).exists():
        raise errors.NotInvited()
    if tournament.training:
        check_training_limits(tournament=tournament, user=user, lock=lock)
    allowed = tournament.allowed_levels
    if allowed is not None:
        level = (
            SkillLevel.objects.filter(user=user, game=tournament.game).values_list("level", flat=True).first()
        )
        if (level or 0) not in allowed:
            raise errors.LevelNotAllowed(
                f"Il torneo è riservato ai giocatori di {levels_label(allowed)}: il tuo livello nel gioco è "
                f"{level_label(level or 0).lower()}."
            )
    wallet.check_player_can_play(user)
    refusal = hooks.tournament_entry_refusal(user_id=user.pk, freeroll=tournament.is_freeroll)
    if refusal is not None:  # moderation's automatic bans and the ladder's block
        code, message = refusal
        raise errors.CONDUCT_REFUSALS.get(code, errors.TournamentError)(message)


def registration_refusal(*, tournament: Tournament, user: User) -> str | None:
    """Why a registration of this player would be refused now, for the lobby to say instead of
    offering «Iscriviti»; None when it would be taken (money is checked when he pays). Reads only."""
    try:
        siteops.check_registration_allowed(game=tournament.game)
        check_admission(tournament=tournament, user=user, lock=False)
        taken = _places_taken(tournament)
        if tournament.lines != Tournament.Lines.FIXED_PAIRS:
            places = 1
        else:  # his partner's place is kept for him, or he names a partner: two places
            places = 0 if open_invitation(tournament=tournament, user_id=user.pk) is not None else 2
        if not can_register(taken, places, tournament.max_players):
            raise errors.TournamentFull()
    except CodedError as exc:
        return exc.message
    return None


def check_registration(
    *, tournament: Tournament, user: User, partner: User | None = None
) -> Registration | None:
    """Refuse a registration the rules do not allow; return the fixed pair it joins, if any.

    Expects the tournament row locked. In fixed pairs a player either joins the pair whose first
    registrant named him, or names his partner, whose place is kept for him until the close.
    """
    if tournament.state not in Tournament.OPEN_STATES:
        raise errors.RegistrationClosed()
    siteops.check_registration_allowed(game=tournament.game)  # game switch, site hours (rules 004)
    live = tournament.registrations.filter(state__in=Registration.ACTIVE)
    if live.filter(user=user).exists():
        raise errors.AlreadyRegistered()
    check_admission(tournament=tournament, user=user)
    joins, places = None, 1
    if tournament.lines == Tournament.Lines.FIXED_PAIRS:
        joins = open_invitation(tournament=tournament, user_id=user.pk)
        if joins is not None:
            places = 0  # kept for him since his partner registered
        elif partner is None:
            raise errors.PartnerRequired()
        elif (
            partner.pk == user.pk
            or not partner.can_play
            or live.filter(user=partner).exists()
            or open_invitation(tournament=tournament, user_id=partner.pk) is not None
        ):
            raise errors.InvalidPartner()
        else:
            places = 2
    # "il sistema non accetta iscrizioni oltre il numero massimo di partecipanti"
    if not can_register(_places_taken(tournament), places, tournament.max_players):
        raise errors.TournamentFull()
    return joins


def registration_create(
    *,
    tournament_id: int,
    user: User,
    idempotency_key: str,
    partner: User | None = None,
    use_bonus: bool = True,
) -> Registration:
    """Register ``user`` and pay the entry through the wallet; ask the regulator after commit.

    A retry with the same ``idempotency_key`` returns the first registration. A free entry needs
    no authorisation and is authorised at once. ``partner``: a fixed pair's first registrant
    names his partner (see ``check_registration``). ``use_bonus=False``: the entry is paid from
    the conto only (a satellite's seat, whose value was just credited there).
    """
    if not idempotency_key or len(idempotency_key) > 64:
        raise errors.IdempotencyConflict("Chiave di idempotenza non valida.")
    with transaction.atomic():
        tournament = _lock(tournament_id)
        earlier = Registration.objects.filter(idempotency_key=idempotency_key).first()
        if earlier is not None:
            if (earlier.tournament_id, earlier.user_id) != (tournament_id, user.pk):
                raise errors.IdempotencyConflict()
            return earlier
        joins = check_registration(tournament=tournament, user=user, partner=partner)
        registration = Registration(
            tournament=tournament,
            user=user,
            idempotency_key=idempotency_key,
            pair=joins,
            partner=partner if tournament.lines == Tournament.Lines.FIXED_PAIRS and joins is None else None,
        )
        if tournament.is_free:
            registration.state = RegState.AUTHORISED
        else:
            paid = wallet.tournament_enter(
                user=user,
                tournament_ref=tournament.ledger_ref,
                pool_quota=tournament.pool_quota,
                rake=tournament.fee,
                idempotency_key=f"tournament-entry:{idempotency_key}",
                use_bonus=use_bonus,
            )
            registration.entry_transaction = paid["transaction_id"] or ""
        registration.save()
        if registration.state == RegState.PENDING:
            _schedule_authorisation(registration.pk)
        else:
            _sitgo_close_if_full(tournament)
        return registration


def satellite_seat_enter(*, satellite: Tournament, user: User) -> tuple[Registration | None, str]:
    """Enter a satellite's qualifier into its target ("la vincita può consistere nell'iscrizione a
    un altro torneo"), paying the entry with the seat's value the satellite's prizes just credited.

    The entry is an ordinary registration (the regulator authorises it, the usual cancellation
    and refunds apply, a refund goes back where the seat's value was credited). Decision: when the
    rules refuse the entry (registration closed, full, already registered, the site's hours, a
    ban), the qualifier keeps the seat's value on his conto. Returns the registration, or None and
    the Italian reason. Runs in a savepoint: a refusal undoes nothing of the caller's.
    """
    target_id = satellite.satellite_of_id
    if target_id is None:
        return None, "Il torneo non è un satellite."
    try:
        with transaction.atomic():
            registration = registration_create(
                tournament_id=target_id,
                user=user,
                idempotency_key=f"satellite:{satellite.pk}:{user.pk}",
                use_bonus=satellite.is_free,  # a freeroll satellite's seat was credited in bonus
            )
    except CodedError as exc:
        return None, exc.message
    return registration, ""


def registration_cancel(*, tournament_id: int, user: User) -> Registration:
    """Ask to cancel the player's registration ("Cancellazione da un torneo").

    Allowed while registration is open: before the start of a sit&go (which starts as soon as it
    is full), before the close of a scheduled tournament. A paid cancellation waits for the
    regulator's authorisation (nickname red) and is refunded when authorised; a free one is
    cancelled at once. A registration still waiting for its own authorisation cannot be
    cancelled yet (decision: the regulator has not yet issued the ticket to cancel).
    """
    with transaction.atomic():
        tournament = _lock(tournament_id)
        registration = (
            tournament.registrations.select_for_update()
            .filter(user=user, state__in=(*Registration.ACTIVE, RegState.ADMITTED))
            .first()
        )
        if registration is None:
            raise errors.NotRegistered()
        if tournament.state not in Tournament.OPEN_STATES:
            raise errors.CancellationClosed()
        if not tournament.cancellation_allowed:
            raise errors.CancellationNotAllowed()
        siteops.check_cancellation_allowed(game=tournament.game)  # rules 004, "Disattivazione giochi" 4
        if registration.state == RegState.PENDING:
            raise errors.AuthorisationPending()
        if registration.state == RegState.CANCEL_PENDING:
            raise errors.CancellationPending()
        if tournament.is_free:
            registration.state = RegState.CANCELLED
            registration.save(update_fields=["state", "updated_at"])
            return registration
        registration.state = RegState.CANCEL_PENDING
        registration.attempts = 0
        registration.save(update_fields=["state", "attempts", "updated_at"])
        _schedule_authorisation(registration.pk)
        return registration


@transaction.atomic
def registration_confirm(*, tournament_id: int, user: User, now: datetime | None = None) -> Registration:
    """ "Conferma iscrizione" of a training tournament that requires it (rules 004, "Tavoli e tornei
    di allenamento"): possible from 4 to 2 minutes before the start; an unconfirmed registration
    does not play (``_close``). Confirming twice changes nothing."""
    now = now or timezone.now()
    tournament = _lock(tournament_id)
    if not tournament.confirmation_required:
        raise errors.ConfirmationNotRequired()
    registration = (
        tournament.registrations.select_for_update().filter(user=user, state=RegState.AUTHORISED).first()
    )
    if registration is None:
        raise errors.NotRegistered()
    if registration.confirmed_at is not None:
        return registration
    if not tournament.confirmation_open(now):
        raise errors.ConfirmationNotOpen()
    registration.confirmed_at = now
    registration.save(update_fields=["confirmed_at", "updated_at"])
    return registration


def _refund(registration: Registration, state: str) -> None:
    """Give the entry back (pool quota and fee, bonus to bonus) and end the registration in ``state``."""
    if registration.entry_transaction:
        result = wallet.tournament_entry_refund(
            entry_transaction_id=registration.entry_transaction,
            idempotency_key=f"tournament-refund:{registration.pk}",
        )
        registration.refund_transaction = result["transaction_id"] or ""
    registration.state = state
    registration.save(update_fields=["state", "refund_transaction", "updated_at"])


# --- regulator authorisation ---------------------------------------------------------------------


def registration_authorise(*, registration_id: int, authorizer: Authorizer | None = None) -> str:
    """Ask the regulator about a waiting registration or cancellation, then apply its answer.

    Runs outside any transaction (the regulator may take a while); the answer is applied by
    ``registration_decide`` under the locks, only if nothing overtook it meanwhile (the close).
    Returns the registration's state afterwards ("timeout" when the regulator did not answer).
    """
    registration = Registration.objects.select_related("tournament").get(pk=registration_id)
    asked = registration.state
    if asked not in (RegState.PENDING, RegState.CANCEL_PENDING):
        return asked
    authorizer = authorizer or get_authorizer()
    tournament = registration.tournament
    if not tournament.adm_code:
        tournament.adm_code = tournament_adm_code_obtain(tournament_id=tournament.pk, authorizer=authorizer)
        if not tournament.adm_code:  # no answer: as a timeout of the request itself
            Registration.objects.filter(pk=registration.pk, state=asked).update(attempts=F("attempts") + 1)
            return "timeout"
    try:
        if asked == RegState.PENDING:
            decision = authorizer.authorise_entry(
                request_id=f"entry:{registration.pk}",
                tournament_code=tournament.adm_code,
                player_ref=str(registration.user_id),
                amount=tournament.cost,
            )
        else:
            decision = authorizer.authorise_cancellation(
                request_id=f"cancel:{registration.pk}",
                tournament_code=tournament.adm_code,
                ticket=registration.ticket,
            )
    except AuthorisationTimeout:
        Registration.objects.filter(pk=registration.pk, state=asked).update(attempts=F("attempts") + 1)
        return "timeout"
    return registration_decide(registration_id=registration.pk, asked=asked, decision=decision).state


@transaction.atomic
def registration_decide(*, registration_id: int, asked: str, decision: Decision) -> Registration:
    """Apply the regulator's answer to the request made in state ``asked`` (idempotent).

    Entry authorised: the player is in (blue). Entry refused: "non sono valide", so the entry does
    not play and is refunded. Cancellation authorised: refunded. Cancellation refused: the
    registration stands. An answer arriving after the state moved on (the close) is ignored.
    """
    tournament_id = Registration.objects.values_list("tournament_id", flat=True).get(pk=registration_id)
    tournament = _lock(tournament_id)
    registration = Registration.objects.select_for_update().get(pk=registration_id)
    if registration.state != asked:
        return registration
    if asked == RegState.PENDING:
        if decision.authorised:
            registration.state = RegState.AUTHORISED
            registration.ticket = decision.ticket
            registration.save(update_fields=["state", "ticket", "updated_at"])
            _sitgo_close_if_full(tournament)
        else:
            _refund(registration, RegState.REFUSED)
    elif decision.authorised:
        registration.cancel_ticket = decision.ticket
        _refund(registration, RegState.CANCELLED)
        registration.save(update_fields=["cancel_ticket"])
    else:
        registration.state = RegState.AUTHORISED
        registration.save(update_fields=["state", "updated_at"])
    return registration


# --- the close of registration ---------------------------------------------------------------------


def _sitgo_close_if_full(tournament: Tournament) -> None:
    """A sit&go starts as soon as its places are taken by authorised entries (expects the lock)."""
    if tournament.kind != Tournament.Kind.SITGO or tournament.state not in Tournament.OPEN_STATES:
        return
    live = list(
        tournament.registrations.filter(state__in=Registration.ACTIVE).values_list("state", flat=True)
    )
    if len(live) >= tournament.max_players and all(s == RegState.AUTHORISED for s in live):
        _close(tournament, timezone.now())


def _lines(tournament: Tournament, valid: list[Registration]) -> dict[str, list[Registration]]:
    """The entries that may play, in registration order: one player each, or a fixed pair of two.

    A fixed pair left incomplete at the close (the partner never registered, cancelled or was not
    authorised) cannot play: its member is excluded and refunded here.
    """
    if tournament.lines != Tournament.Lines.FIXED_PAIRS:
        return {str(r.pk): [r] for r in valid}
    lines = {str(r.pk): [r] for r in valid if r.pair_id is None}
    for r in valid:
        if r.pair_id is not None and str(r.pair_id) in lines:
            lines[str(r.pair_id)].append(r)
    paired = {r.pk for members in lines.values() if len(members) == 2 for r in members}
    for r in valid:
        if r.pk not in paired:
            _refund(r, RegState.EXCLUDED)
    return {line_id: members for line_id, members in lines.items() if len(members) == 2}


def _close(tournament: Tournament, now: datetime) -> dict[str, Any]:
    """Close registration (expects the tournament row locked): who plays, who is refunded.

    Entries not authorised by the close do not play and are refunded ("non sono valide");
    cancellations asked before the close and still waiting are completed (decision: the player
    asked within the window the rules give). Then the last registrants are excluded to a multiple
    of 2 (4 in pairs) and, under the minimum, the tournament is cancelled, everyone refunded.
    """
    regs = list(
        tournament.registrations.select_for_update()
        .filter(state__in=Registration.ACTIVE)
        .order_by("created_at", "pk")
    )
    for reg in regs:
        if reg.state == RegState.PENDING:
            _refund(reg, RegState.REFUSED)
        elif reg.state == RegState.CANCEL_PENDING:
            _refund(reg, RegState.CANCELLED)
        elif tournament.confirmation_required and reg.confirmed_at is None:
            _refund(reg, RegState.UNCONFIRMED)  # training: free, nothing to give back
    lines = _lines(tournament, [r for r in regs if r.state == RegState.AUTHORISED])
    closing = close_registration(
        [Entry(line_id, len(members)) for line_id, members in lines.items()],
        turn_based=True,
        pairs=tournament.is_pairs,
        min_players=tournament.min_players,
        max_players=tournament.max_players,
    )
    refunded = set(closing.refunded)
    for line_id, members in lines.items():
        for reg in members:
            if line_id in refunded:
                _refund(reg, RegState.REFUNDED if closing.cancelled else RegState.EXCLUDED)
            else:
                reg.state = RegState.ADMITTED
                reg.save(update_fields=["state", "updated_at"])
    tournament.closed_at = now
    if closing.cancelled:
        tournament.state = Tournament.State.CANCELLED
        tournament.cancelled_reason = "Numero minimo di partecipanti non raggiunto."
    else:
        tournament.state = Tournament.State.CLOSED
    tournament.save(update_fields=["state", "closed_at", "cancelled_reason"])
    if tournament.repeat and tournament.kind == Tournament.Kind.SITGO:
        _repeat_sitgo(tournament)
    if tournament.kind == Tournament.Kind.SITGO and not closing.cancelled and _schedule_tasks():
        from tournaments.tasks import start  # a full sit&go starts at once (the sweep if this is lost)

        tournament_id = tournament.pk
        transaction.on_commit(lambda: start.delay(tournament_id=tournament_id), robust=True)
    return {
        "admitted": 0 if closing.cancelled else sum(len(lines[i]) for i in closing.admitted),
        "excluded": sum(len(lines[i]) for i in (*closing.excluded, *closing.refused)),
        "cancelled": closing.cancelled,
    }


@transaction.atomic
def tournament_close(*, tournament_id: int, now: datetime | None = None) -> dict[str, Any] | None:
    """Close a scheduled tournament's registration when its time has come (2 minutes before the start).

    Returns what the close decided, or None when it is not (or no longer) due.
    """
    now = now or timezone.now()
    tournament = _lock(tournament_id)
    closes_at = tournament.closes_at
    if tournament.state not in Tournament.OPEN_STATES or closes_at is None or closes_at > now:
        return None
    return _close(tournament, now)


@transaction.atomic
def tournament_open(*, tournament_id: int, now: datetime | None = None) -> bool:
    """Open an announced tournament's registration when its time has come."""
    now = now or timezone.now()
    tournament = _lock(tournament_id)
    if tournament.state != Tournament.State.ANNOUNCED or tournament.registration_opens_at > now:
        return False
    tournament.state = _opening_state(tournament, reserved=tournament.invited.exists())
    tournament.save(update_fields=["state"])
    return True


def tournaments_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """Beat: open and close registrations that are due; ask the regulator again where no answer came."""
    now = now or timezone.now()
    scheduled = schedules_run(now=now)
    opened = sum(
        tournament_open(tournament_id=pk, now=now)
        for pk in Tournament.objects.filter(
            state=Tournament.State.ANNOUNCED, registration_opens_at__lte=now
        ).values_list("pk", flat=True)
    )
    due = Tournament.objects.filter(
        state__in=Tournament.OPEN_STATES,
        kind=Tournament.Kind.SCHEDULED,
        starts_at__lte=now + timedelta(seconds=120),
    ).values_list("pk", flat=True)
    closed = sum(tournament_close(tournament_id=pk, now=now) is not None for pk in due)
    stale = Registration.objects.filter(
        state__in=(RegState.PENDING, RegState.CANCEL_PENDING), updated_at__lte=now - AUTHORISATION_RETRY_AFTER
    ).values_list("pk", "state", "attempts")
    retried = 0
    for pk, state, attempts in stale:
        if attempts >= AUTHORISATION_MAX_ATTEMPTS:
            registration_decide(
                registration_id=pk, asked=state, decision=Decision(False, reason="Nessuna risposta")
            )
        else:
            Registration.objects.filter(pk=pk, state=state).update(updated_at=now)
            with transaction.atomic():
                _schedule_authorisation(pk)
            retried += 1
    coded = 0
    for pk in (
        Tournament.objects.filter(adm_code="", state__in=_CODED_STATES)
        .exclude(pool_quota=0, fee=0)
        .values_list("pk", flat=True)
    ):
        coded += bool(tournament_adm_code_obtain(tournament_id=pk))
    return {"scheduled": scheduled, "opened": opened, "closed": closed, "retried": retried, "coded": coded}


# The money tournaments still ahead, whose info panel shows the regulator's code.
_CODED_STATES = (
    Tournament.State.ANNOUNCED,
    Tournament.State.REGISTRATION,
    Tournament.State.RESERVED,
    Tournament.State.CLOSED,
    Tournament.State.RUNNING,
)


# --- staff ---------------------------------------------------------------------------------------


@transaction.atomic
def tournament_cancel(*, tournament_id: int, actor: User, reason: str) -> dict[str, Any]:
    """Staff cancel a tournament for a technical fault: every entry is refunded in full; audited.

    Decision (the rules give refunds for cancellations before the close and for a tournament
    under its minimum; G7 refunds the stakes of an interrupted session): an entry taken and not
    yet played is returned whole, fee included, whatever its authorisation state.
    """
    _check_perm(actor, "tournaments.cancel_tournament")
    if len(reason.strip()) < 5:
        raise errors.InvalidTournament("Indica la motivazione dell'annullamento.")
    tournament = _lock(tournament_id)
    if tournament.state in (Tournament.State.FINISHED, Tournament.State.CANCELLED):
        raise errors.TournamentOver()
    regs = tournament.registrations.select_for_update().filter(
        state__in=(*Registration.ACTIVE, RegState.ADMITTED)
    )
    refunded = 0
    for reg in regs.order_by("pk"):
        _refund(reg, RegState.REFUNDED)
        refunded += 1
    tournament.state = Tournament.State.CANCELLED
    tournament.cancelled_reason = reason
    tournament.save(update_fields=["state", "cancelled_reason"])
    audit_record(
        actor=actor,
        action="tournaments.cancel",
        target=tournament,
        reason=reason,
        data={"refunded": refunded},
    )
    return {"refunded": refunded}
