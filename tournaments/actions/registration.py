"""Registration and cancellation: who may enter, the entry paid through the wallet, confirmation."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.engine import CodedError
from piattaforma import hooks, metrics, siteops
from piattaforma.entry import entry_refusal
from piattaforma.models import User
from tournaments import errors
from tournaments.actions.closing import sitgo_close_if_full
from tournaments.actions.common import (
    RegState,
    players_lock,
    registration_refund,
    schedule_authorisation,
    section_realm,
    tournament_lock,
)
from tournaments.formats.registration import can_register
from tournaments.models import Registration, SkillLevel, Tournament, game_title
from tournaments.rankings import level_label, levels_label
from tournaments.selectors import open_invitation
from wallet import actions as wallet


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
    user row is locked (``players_lock``; ``registration_create`` took it before the tournament's),
    so two registrations of his racing each other are counted one after the other (``lock=False``:
    the lobby's preview, which writes nothing).
    """
    limit, refusal = TRAINING_LIMITS[tournament.kind]
    if lock:
        players_lock([user.pk])
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


def check_entry_rules(*, tournament: Tournament, user: User, password: str | None) -> None:
    """Refuse a player a reserved entry does not admit (rules 004, "Tornei riservati": not invited,
    outside the leaderboard's places, too few wins, another city) or whose password is wrong
    (``password`` None: not checked, as in the lobby's preview or a satellite's seat)."""
    invited = tournament.invited.filter(pk=user.pk).exists() if tournament.invited.exists() else None
    refusal = entry_refusal(
        tournament,
        user=user,
        game=tournament.game,
        game_title=game_title(tournament.game),
        invited=invited,
        password=password,
    )
    if refusal is not None:
        code, message = refusal
        raise errors.ENTRY_REFUSALS[code](message)


def check_admission(
    *, tournament: Tournament, user: User, lock: bool = True, password: str | None = None
) -> None:
    """Refuse a player this tournament does not admit: a reserved entry he does not meet (or a wrong
    password), over the training section's limits, a skill level it does not admit, an account that
    may not play, a conduct measure. The registration's checks, and the lobby's preview
    (``lock=False``, no password)."""
    check_entry_rules(tournament=tournament, user=user, password=password)
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


def entry_rules_refusal(*, tournament: Tournament, user: User) -> str | None:
    """Why a reserved entry would refuse this player (the list's rows say it), the password left
    out; None when it admits him. Reads only."""
    try:
        check_entry_rules(tournament=tournament, user=user, password=None)
    except CodedError as exc:
        return exc.message
    return None


def registration_refusal(*, tournament: Tournament, user: User) -> str | None:
    """Why a registration of this player would be refused now, for the lobby to say instead of
    offering «Iscriviti»; None when it would be taken (money is checked when he pays). Reads only."""
    try:
        siteops.check_registration_allowed(game=tournament.game, realm=section_realm(tournament))
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
    *, tournament: Tournament, user: User, partner: User | None = None, password: str | None = ""
) -> Registration | None:
    """Refuse a registration the rules do not allow; return the fixed pair it joins, if any.

    Expects the tournament row locked. In fixed pairs a player either joins the pair whose first
    registrant named him, or names his partner, whose place is kept for him until the close.
    """
    if tournament.state not in Tournament.OPEN_STATES:
        raise errors.RegistrationClosed()
    siteops.check_registration_allowed(
        game=tournament.game, realm=section_realm(tournament)
    )  # game switch, site hours (rules 004)
    live = tournament.registrations.filter(state__in=Registration.ACTIVE)
    if live.filter(user=user).exists():
        raise errors.AlreadyRegistered()
    check_admission(tournament=tournament, user=user, password=password)
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
    password: str | None = "",
) -> Registration:
    """Register ``user`` and pay the entry through the wallet; ask the regulator after commit.

    A retry with the same ``idempotency_key`` returns the first registration. A free entry needs
    no authorisation and is authorised at once. ``partner``: a fixed pair's first registrant
    names his partner (see ``check_registration``). ``use_bonus=False``: the entry is paid from
    the conto only (a satellite's seat, whose value was just credited there). ``password``: what
    the player typed, for a tournament with a password (PW); None: not asked (a satellite's seat).

    Lock order: the player's row (and his partner's), then the tournament's, then the accounts
    (``players_lock``), as a block of the player takes them; his status is read under that lock,
    so a player excluded meanwhile is refused, or his new entry is withdrawn by the exclusion.
    """
    if not idempotency_key or len(idempotency_key) > 64:
        raise errors.IdempotencyConflict("Chiave di idempotenza non valida.")
    state = Tournament.objects.filter(pk=tournament_id).values_list("state", flat=True).first()
    if state is not None and state not in Tournament.OPEN_STATES:
        # refused before any lock: a running tournament holds its row while it enters its
        # satellite's qualifiers (the player's row after the tournament's, the other way round)
        earlier = Registration.objects.filter(idempotency_key=idempotency_key).first()
        if earlier is None:
            raise errors.RegistrationClosed()
    with transaction.atomic():
        players_lock([user.pk] if partner is None else [user.pk, partner.pk])
        tournament = tournament_lock(tournament_id)
        earlier = Registration.objects.filter(idempotency_key=idempotency_key).first()
        if earlier is not None:
            if (earlier.tournament_id, earlier.user_id) != (tournament_id, user.pk):
                raise errors.IdempotencyConflict()
            return earlier
        joins = check_registration(tournament=tournament, user=user, partner=partner, password=password)
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
        transaction.on_commit(metrics.tournament_registered)
        if registration.state == RegState.PENDING:
            schedule_authorisation(registration.pk)
        else:
            sitgo_close_if_full(tournament)
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
                password=None,  # the seat was won: the target's password is not asked
            )
    except CodedError as exc:
        return None, exc.message
    return registration, ""


def registrations_withdraw_blocked(user: User) -> int:
    """Hook ``player_blocked`` (suspension, self-exclusion, a role of staff or moderator): cancel and
    refund every registration of his to a tournament whose registration is still open; return how
    many. Each tournament locked in turn (primary-key order); the entry is given back at once, as at
    the close (decision: the block is the site's, not a cancellation the regulator must authorise,
    and an answer of the regulator arriving afterwards is ignored). A tournament already closed is
    the close's and the running tournament's business (the close admits no blocked player)."""
    tournament_ids = list(
        Registration.objects.filter(
            user=user, state__in=Registration.ACTIVE, tournament__state__in=Tournament.OPEN_STATES
        )
        .order_by("tournament_id")
        .values_list("tournament_id", flat=True)
        .distinct()
    )
    withdrawn = 0
    for tournament_id in tournament_ids:
        tournament = tournament_lock(tournament_id)
        if tournament.state not in Tournament.OPEN_STATES:
            continue
        for registration in tournament.registrations.select_for_update().filter(
            user=user, state__in=Registration.ACTIVE
        ):
            registration_refund(registration, RegState.CANCELLED)
            withdrawn += 1
    return withdrawn


def registration_cancel(*, tournament_id: int, user: User) -> Registration:
    """Ask to cancel the player's registration ("Cancellazione da un torneo").

    Allowed while registration is open: before the start of a sit&go (which starts as soon as it
    is full), before the close of a scheduled tournament. A paid cancellation waits for the
    regulator's authorisation (nickname red) and is refunded when authorised; a free one is
    cancelled at once. A registration still waiting for its own authorisation cannot be
    cancelled yet (decision: the regulator has not yet issued the ticket to cancel).
    """
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
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
        siteops.check_cancellation_allowed(
            game=tournament.game, realm=section_realm(tournament)
        )  # rules 004, "Disattivazione giochi" 4
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
        schedule_authorisation(registration.pk)
        return registration


@transaction.atomic
def registration_confirm(*, tournament_id: int, user: User, now: datetime | None = None) -> Registration:
    """ "Conferma iscrizione" of a training tournament that requires it (rules 004, "Tavoli e tornei
    di allenamento"): possible from 4 to 2 minutes before the start; an unconfirmed registration
    does not play (``_close``). Confirming twice changes nothing."""
    now = now or timezone.now()
    tournament = tournament_lock(tournament_id)
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
