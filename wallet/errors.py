"""Refusals of wallet actions: each has a stable ``code`` and an Italian ``message``."""

from __future__ import annotations

from games.engine import CodedError


class WalletError(CodedError):
    """A wallet action was refused; nothing was written."""

    code = "wallet_error"
    default_message = "Operazione non riuscita."


class InvalidAmount(WalletError):
    code = "invalid_amount"
    default_message = "Importo non valido."


class InsufficientFunds(WalletError):
    code = "insufficient_funds"
    default_message = "Saldo disponibile insufficiente."


class IdempotencyConflict(WalletError):
    code = "idempotency_key_reused"
    default_message = "Questa chiave di idempotenza è già stata usata per un'altra operazione."


class PlayRefillNotNeeded(WalletError):
    code = "play_refill_not_needed"
    default_message = "Hai ancora almeno 1.000 gettoni: la ricarica serve quando scendi sotto."


class PlayRefillToday(WalletError):
    code = "play_refill_today"
    default_message = "Hai già ricaricato i gettoni oggi: potrai farlo di nuovo domani."


class PlayerNotAllowed(WalletError):
    code = "player_not_allowed"
    default_message = "Il conto di gioco non è abilitato: giocatore sospeso o autoescluso."


class SiteWorkerNoGameMoney(WalletError):
    code = "staff_no_game_money"
    default_message = (
        "Lo staff e i moderatori non giocano con denaro: niente depositi, tavoli a soldi veri o tornei."
    )


class SelfExclusionNotLonger(WalletError):
    code = "self_exclusion_not_longer"
    default_message = (
        "Sei già autoescluso: l'autoesclusione si può solo prolungare, scegliendo una scadenza più lontana."
    )


class SelfExclusionWhileSuspended(WalletError):
    code = "account_suspended"
    default_message = "Il conto è sospeso dallo staff: per autoescluderti scrivi all'assistenza."


class DepositLimitExceeded(WalletError):
    code = "deposit_limit_exceeded"
    default_message = "Il deposito supera il limite che hai impostato."


class BuyInOutOfRange(WalletError):
    code = "buy_in_out_of_range"
    default_message = "L'importo non rispetta i limiti di versamento del tavolo."


class TableCapExceeded(WalletError):
    code = "table_cap_exceeded"
    default_message = "Non si possono versare più di € 1.000,00 su un tavolo."


class AccountClosed(WalletError):
    code = "account_closed"
    default_message = "Il conto è chiuso."


class InvalidState(WalletError):
    code = "invalid_state"
    default_message = "L'operazione non è possibile nello stato attuale."


class NeedsApproval(WalletError):
    code = "adjustment_needs_approval"
    default_message = "Una rettifica oltre la soglia deve essere approvata da un altro membro dello staff."


class ReversalPending(WalletError):
    code = "reversal_pending"
    default_message = "Lo storno di questo movimento è già in attesa di approvazione."


class NotPermitted(WalletError):
    code = "permission_denied"
    default_message = "Non hai il permesso per questa operazione."


class InvalidEntryCost(WalletError):
    code = "invalid_entry_cost"
    default_message = "La quota destinata al montepremi deve essere almeno l'80% del costo di partecipazione."


class ConcurrentUpdate(WalletError):
    code = "concurrent_update"
    default_message = "Il saldo è cambiato durante l'operazione; riprova."


class IdentityNotVerified(WalletError):
    code = "identity_not_verified"
    default_message = (
        "Per prelevare devi prima verificare la tua identità: carica un documento nella pagina "
        "Verifica dell'identità."
    )


class LossLimitReached(WalletError):
    code = "loss_limit_reached"
    default_message = "Hai raggiunto il limite di perdita che hai impostato."


class PlayTimeLimitReached(WalletError):
    code = "play_time_limit_reached"
    default_message = "Hai raggiunto il limite di tempo di gioco che hai impostato."
