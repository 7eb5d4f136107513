"""Refusals of wallet actions: each has a stable ``code`` and an Italian ``message``."""

from __future__ import annotations

from typing import Any


class WalletError(Exception):
    """A wallet action was refused; nothing was written."""

    code = "wallet_error"
    message = "Operazione non riuscita."

    def __init__(self, message: str | None = None, **details: Any) -> None:
        self.message = message or self.message
        self.details = details
        super().__init__(self.message)


class InvalidAmount(WalletError):
    code = "invalid_amount"
    message = "Importo non valido."


class InsufficientFunds(WalletError):
    code = "insufficient_funds"
    message = "Saldo disponibile insufficiente."


class IdempotencyConflict(WalletError):
    code = "idempotency_key_reused"
    message = "Questa chiave di idempotenza è già stata usata per un'altra operazione."


class PlayerNotAllowed(WalletError):
    code = "player_not_allowed"
    message = "Il conto di gioco non è abilitato: giocatore sospeso o autoescluso."


class DepositLimitExceeded(WalletError):
    code = "deposit_limit_exceeded"
    message = "Il deposito supera il limite che hai impostato."


class BuyInOutOfRange(WalletError):
    code = "buy_in_out_of_range"
    message = "L'importo non rispetta i limiti di versamento del tavolo."


class TableCapExceeded(WalletError):
    code = "table_cap_exceeded"
    message = "Non si possono versare più di € 1.000,00 su un tavolo."


class AccountClosed(WalletError):
    code = "account_closed"
    message = "Il conto è chiuso."


class InvalidState(WalletError):
    code = "invalid_state"
    message = "L'operazione non è possibile nello stato attuale."


class NotPermitted(WalletError):
    code = "permission_denied"
    message = "Non hai il permesso per questa operazione."


class InvalidEntryCost(WalletError):
    code = "invalid_entry_cost"
    message = "La quota destinata al montepremi deve essere almeno l'80% del costo di partecipazione."


class ConcurrentUpdate(WalletError):
    code = "concurrent_update"
    message = "Il saldo è cambiato durante l'operazione; riprova."
