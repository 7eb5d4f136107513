"""Refusals of tournament actions: a stable ``code`` for the API and an Italian ``message``."""

from __future__ import annotations

from games.engine import CodedError


class TournamentError(CodedError):
    """Base of every refusal of a tournament action; nothing has changed when it is raised."""

    code = "tournament_error"
    default_message = "Operazione non ammessa"


class RegistrationClosed(TournamentError):
    code = "registration_closed"
    default_message = "Le iscrizioni a questo torneo non sono aperte."


class AlreadyRegistered(TournamentError):
    code = "already_registered"
    default_message = "Sei già iscritto a questo torneo."


class TournamentFull(TournamentError):
    code = "tournament_full"
    default_message = "Il torneo ha raggiunto il numero massimo di iscritti."


class NotInvited(TournamentError):
    code = "not_invited"
    default_message = "Il torneo è riservato ai giocatori invitati."


class CityNotAdmitted(TournamentError):
    code = "city_not_admitted"
    default_message = "Il torneo è riservato ai residenti di altri comuni."


class RankingPosition(TournamentError):
    code = "ranking_position"
    default_message = "Il torneo è riservato ai primi giocatori di una classifica."


class WinsRequired(TournamentError):
    code = "wins_required"
    default_message = "Il torneo è riservato a chi ha già vinto dei tornei."


class PasswordRequired(TournamentError):
    code = "password_required"
    default_message = "Serve la password (PW) per iscriversi."


class WrongPassword(TournamentError):
    code = "wrong_password"
    default_message = "Password errata."


class NotRegistered(TournamentError):
    code = "not_registered"
    default_message = "Non sei iscritto a questo torneo."


class CancellationClosed(TournamentError):
    code = "cancellation_closed"
    default_message = "Non è più possibile cancellarsi: le iscrizioni sono chiuse."


class AuthorisationPending(TournamentError):
    code = "authorisation_pending"
    default_message = "La tua iscrizione è in attesa dell'autorizzazione AAMS: riprova tra pochi istanti."


class CancellationPending(TournamentError):
    code = "cancellation_pending"
    default_message = "La tua cancellazione è già in attesa dell'autorizzazione AAMS."


class ConfirmationNotRequired(TournamentError):
    code = "confirmation_not_required"
    default_message = "Questo torneo non chiede la conferma dell'iscrizione."


class ConfirmationNotOpen(TournamentError):
    code = "confirmation_not_open"
    default_message = "L'iscrizione si conferma da 4 a 2 minuti prima dell'inizio del torneo."


class IdempotencyConflict(TournamentError):
    code = "idempotency_key_reused"
    default_message = "Questa chiave di idempotenza è già stata usata per un'altra operazione."


class InvalidTournament(TournamentError):
    code = "invalid_tournament"
    default_message = "Impostazioni del torneo non valide."


class NotPermitted(TournamentError):
    code = "permission_denied"
    default_message = "Non hai il permesso per questa operazione."


class TournamentOver(TournamentError):
    code = "tournament_over"
    default_message = "Il torneo è già terminato o annullato."


class CancellationNotAllowed(TournamentError):
    code = "cancellation_not_allowed"
    default_message = (
        "Questo torneo di allenamento non consente la cancellazione: lo indicano i suoi dettagli."
    )


class TrainingScheduledLimit(TournamentError):
    code = "training_scheduled_limit"
    default_message = (
        "Nella sezione di allenamento si partecipa a un solo torneo programmato per volta: "
        "sei già iscritto a un altro."
    )


class TrainingSitgoLimit(TournamentError):
    code = "training_sitgo_limit"
    default_message = (
        "Nella sezione di allenamento si partecipa al massimo a 2 tornei sit&go contemporaneamente."
    )


class LevelNotAllowed(TournamentError):
    code = "skill_level_not_allowed"
    default_message = "Il torneo è riservato ad altri livelli di abilità."


class PartnerRequired(TournamentError):
    code = "partner_required"
    default_message = "Indica il nickname del tuo compagno di coppia."


class InvalidPartner(TournamentError):
    code = "invalid_partner"
    default_message = (
        "Compagno non valido: deve essere un altro giocatore abilitato, non ancora iscritto al torneo."
    )


class TournamentBlocked(TournamentError):
    """Moderation's ladder blocks the player's registrations (repeated offences)."""

    code = "tournament_blocked"
    default_message = "Le tue iscrizioni ai tornei sono bloccate per infrazioni ripetute."


class FreerollBanned(TournamentError):
    """An automatic freeroll ban of the warnings is in force."""

    code = "freeroll_banned"
    default_message = "Non puoi partecipare ai tornei Freeroll per ammonizioni effettive."


CONDUCT_REFUSALS: dict[str, type[TournamentError]] = {
    TournamentBlocked.code: TournamentBlocked,
    FreerollBanned.code: FreerollBanned,
}


# piattaforma.entry's refusals of a reserved entry, by code
ENTRY_REFUSALS: dict[str, type[TournamentError]] = {
    e.code: e
    for e in (NotInvited, CityNotAdmitted, RankingPosition, WinsRequired, PasswordRequired, WrongPassword)
}


class FaultRefundRefused(TournamentError):
    code = "fault_refund_refused"
    default_message = "Rimborso per guasto non ammesso."


class MatchReplayRefused(TournamentError):
    code = "match_replay_refused"
    default_message = "La partita non si può rigiocare."


class SlotNotPlaying(TournamentError):
    code = "slot_not_playing"
    default_message = "Non hai una sessione in corso in questo torneo slot."


class SlotTimeOver(TournamentError):
    code = "time_over"
    default_message = "Il tuo tempo di gioco è terminato."


class SlotStaleVersion(TournamentError):
    code = "stale_version"
    default_message = "La slot è cambiata nel frattempo: riprova."
