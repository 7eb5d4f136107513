"""The regulator's ticket of a cash table's buy-in or rebuy (rules 004, "Rebuy": "Effettuato il
versamento al giocatore comparirà il biglietto AAMS relativo alla transazione effettuata").

Asked by ``lobby.door`` before the table's owner moves the money, outside any transaction (the
regulator answers after a moment; no row is locked while it thinks). A refusal or no answer in
time is a ``TableError`` with nothing moved; a ticket whose payment the table then refuses (the
seat taken meanwhile, the amount over the maximum) is withdrawn again. Training tables move play
money and ask nothing.
"""

from __future__ import annotations

import logging

from lobby.errors import PaymentRefused, PaymentUnanswered
from lobby.models import Table
from piattaforma.models import User
from piattaforma.regulator import AuthorisationTimeout, get_authorizer
from wallet import selectors as wallet_selectors
from wallet.errors import BuyInOutOfRange
from wallet.models import Realm

log = logging.getLogger(__name__)

BUY_IN = "buy_in"
REBUY = "rebuy"


def payment_authorise(*, table: Table, user: User, amount: int, kind: str, request_id: str) -> str:
    """The regulator's ticket for ``amount`` paid onto ``table`` ("" at a training table).

    ``request_id``: the form's idempotency key, so that a repeated request gets the same ticket.
    A buy-in outside the table's range is refused here, before the regulator is asked.
    """
    if table.realm != Realm.REAL:
        return ""
    if kind == BUY_IN and not table.min_buy_in <= amount <= table.max_buy_in:
        raise BuyInOutOfRange(min=table.min_buy_in, max=table.max_buy_in)
    try:
        decision = get_authorizer().authorise_table_payment(
            request_id=f"table-{kind}:{request_id}",
            table_code=f"table:{table.pk}",
            player_ref=str(user.pk),
            amount=amount,
            kind=kind,
        )
    except AuthorisationTimeout:
        raise PaymentUnanswered() from None
    if not decision.authorised:
        raise PaymentRefused()
    return decision.ticket


def payment_void(*, ticket: str, request_id: str) -> None:
    """Withdraw ``ticket`` when no money moved under it (a repeated request's ticket stays)."""
    if not ticket or wallet_selectors.ticket_used(ticket=ticket):
        return
    try:
        get_authorizer().void_table_payment(request_id=f"table-void:{request_id}", ticket=ticket)
    except AuthorisationTimeout:
        log.warning("regulator did not answer the withdrawal of ticket %s", ticket)
