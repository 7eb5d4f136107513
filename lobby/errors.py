"""Errors of the table runtime: a stable code for the API and an Italian message for the player."""

from __future__ import annotations

from games.engine import CodedError


class TableError(CodedError):
    """Base of every refusal by the lobby; nothing has changed when it is raised."""

    code = "table_error"
    default_message = "Operazione non ammessa"


class TableClosed(TableError):
    code = "table_closed"
    default_message = "Il tavolo è chiuso"


class NotSeated(TableError):
    code = "not_seated"
    default_message = "Non sei seduto a questo tavolo"


class AlreadySeated(TableError):
    code = "already_seated"
    default_message = "Sei già seduto a questo tavolo"


class SeatTaken(TableError):
    code = "seat_taken"
    default_message = "Il posto è occupato"


class InvalidSeat(TableError):
    code = "invalid_seat"
    default_message = "Posto non valido"


class RakeCapNotApplied(TableError):
    code = "rake_cap_not_applied"
    default_message = "Questo gioco non applica un tetto al rake: lascialo a zero"


class RakeAtTrainingTable(TableError):
    code = "rake_at_training_table"
    default_message = "Ai tavoli di allenamento non si prende rake: lascialo a zero"


class StaleVersion(TableError):
    code = "stale_version"
    default_message = "Il tavolo è cambiato: aggiornamento in corso"


class NoHandInProgress(TableError):
    code = "no_hand"
    default_message = "Nessuna mano in corso"


class HandInProgress(TableError):
    code = "hand_in_progress"
    default_message = "Una mano è in corso"


class NotAllowed(TableError):
    code = "not_allowed"
    default_message = "Operazione non consentita"


class ChatRefused(TableError):
    code = "chat_refused"
    default_message = "Messaggio non inviato"


class TableElsewhere(TableError):
    """The table's lease is held by another server process (``lobby.runtime.ownership``).

    A socket never shows this message (it closes with 4409 and the client reconnects); a page's
    form does: its write was refused whole, so asking again is safe.
    """

    code = "table_elsewhere"
    default_message = "Il tavolo sta passando a un altro server: riprova tra qualche secondo"


class TableClaimed(TableElsewhere):
    """A write outside any owner found the table claimed meanwhile by an owner in another process
    (between the writer's look at the lease and its lock of the row): refused whole, nothing
    written; the door then asks that owner (``lobby.runtime.ownership.through_owner``)."""


class HandSecretsClosed(TableError):
    code = "hand_not_ended"
    default_message = (
        "La mano è in corso, o le sue carte sono ancora in gioco (il sabot dello chemin de fer): "
        "carte coperte, ordine dei mazzi ed estrazioni si vedono quando sono finite."
    )


class NotInvited(TableError):
    code = "not_invited"
    default_message = "Il tavolo è riservato ai giocatori invitati."


class CityNotAdmitted(TableError):
    code = "city_not_admitted"
    default_message = "Il tavolo è riservato ai residenti di altri comuni."


class RankingPosition(TableError):
    code = "ranking_position"
    default_message = "Il tavolo è riservato ai primi giocatori di una classifica."


class WinsRequired(TableError):
    code = "wins_required"
    default_message = "Il tavolo è riservato a chi ha già vinto dei tornei."


class PasswordRequired(TableError):
    code = "password_required"
    default_message = "Serve la password (PW) per sedersi a questo tavolo."


class WrongPassword(TableError):
    code = "wrong_password"
    default_message = "Password errata."


# piattaforma.entry's refusals of a reserved table, by code
ENTRY_REFUSALS: dict[str, type[TableError]] = {
    e.code: e
    for e in (NotInvited, CityNotAdmitted, RankingPosition, WinsRequired, PasswordRequired, WrongPassword)
}


class PaymentRefused(TableError):
    """The regulator refused a buy-in or rebuy: no money moved."""

    code = "payment_refused"
    default_message = (
        "L'AAMS (Agenzia delle Dogane e dei Monopoli) non ha autorizzato il versamento al tavolo: "
        "nessun importo è stato addebitato."
    )


class PaymentUnanswered(TableError):
    """The regulator did not answer a buy-in or rebuy in time: no money moved."""

    code = "payment_unanswered"
    default_message = (
        "L'AAMS non ha risposto in tempo all'autorizzazione del versamento: nessun importo è stato "
        "addebitato. Riprova tra qualche istante."
    )


class FaultRefundRefused(TableError):
    code = "fault_refund_refused"
    default_message = "Rimborso per guasto non ammesso."
