"""Every write of the wallet, one module a concern; other apps move money only through the names
this package exports.

Each action is keyword-only, runs in one database transaction, and - where a client or a worker may
retry it - takes an ``idempotency_key``: a retry with the same inputs returns the first result (with
``"replayed": True``), the same key with other inputs raises IdempotencyConflict
("idempotency_key_reused"). Results are plain JSON-able dicts. Refusals raise a WalletError
subclass (stable ``code``, Italian ``message``) and write nothing.

Amounts are integer euro cents.

- ``payments``: deposits and withdrawals, under the player's deposit limits.
- ``holds``: money reserved on an account until it is posted to its destination or released.
- ``tables``: cash tables' buy-ins, rebuys, cash-outs and each hand's settlement.
- ``tournaments``: entries, refunds, prizes and the guarantee's top-up.
- ``transfers``: play money top-ups, transfers, the staff's corrections.
- ``training``: the training section's gettoni: the welcome grant and the daily refill.
- ``protection``: self-set deposit limits and self-exclusion.
- ``play_limits``: loss and session-time limits, the reality check, a player's stop.
- ``reconciliation``: balances checked against postings.
- ``common``: what they share (amounts checked, staff checks, reversals, limit changes).

The modules import each other one way: ``common`` at the bottom; ``holds`` and ``play_limits`` on
it; ``payments``, ``tables`` and ``tournaments`` on those; ``protection``, which cashes a
self-excluded player out of his tables, on ``tables``.
"""

from wallet.actions.common import (
    DEPOSIT_LIMIT_RAISE_DELAY,
    MAX_SINGLE_AMOUNT,
    check_player_can_play,
    new_idempotency_key,
)
from wallet.actions.holds import hold_place, holds_expire
from wallet.actions.payments import (
    check_deposit,
    deposit_create,
    deposit_settle,
    do_deposit,
    withdrawal_approve,
    withdrawal_reject,
    withdrawal_request,
)
from wallet.actions.play_limits import (
    MAX_PLAY_MINUTES,
    check_play_limits,
    play_limit_set,
    play_stop,
    play_time_enforce,
    reality_check_set,
)
from wallet.actions.protection import deposit_limit_set, deposit_limits_open, user_self_exclude
from wallet.actions.reconciliation import ledger_reconcile
from wallet.actions.tables import (
    check_table_buy_in,
    table_buy_in,
    table_cash_out,
    table_hand_settle,
    table_rebuy,
    table_rebuys_credit,
)
from wallet.actions.tournaments import (
    MIN_POOL_SHARE_PERCENT,
    check_tournament_entry,
    tournament_enter,
    tournament_entry_refund,
    tournament_guarantee_top_up,
    tournament_prizes_pay,
)
from wallet.actions.training import (
    PLAY_GRANT,
    play_gettoni,
    play_money_refill,
    play_money_refill_state,
    play_money_welcome,
)
from wallet.actions.transfers import (
    adjustment_approve,
    adjustment_reject,
    adjustment_request,
    adjustment_threshold,
    ledger_adjust,
    ledger_transfer,
    ledger_transfer_portable,
    play_money_top_up,
    reversal_approve,
    reversal_reject,
    reversal_request,
)

__all__ = [
    "DEPOSIT_LIMIT_RAISE_DELAY",
    "MAX_PLAY_MINUTES",
    "MAX_SINGLE_AMOUNT",
    "MIN_POOL_SHARE_PERCENT",
    "PLAY_GRANT",
    "adjustment_approve",
    "adjustment_reject",
    "adjustment_request",
    "adjustment_threshold",
    "check_deposit",
    "check_play_limits",
    "check_player_can_play",
    "check_table_buy_in",
    "check_tournament_entry",
    "deposit_create",
    "deposit_limit_set",
    "deposit_limits_open",
    "deposit_settle",
    "do_deposit",
    "hold_place",
    "holds_expire",
    "ledger_adjust",
    "ledger_reconcile",
    "ledger_transfer",
    "ledger_transfer_portable",
    "new_idempotency_key",
    "play_gettoni",
    "play_limit_set",
    "play_money_refill",
    "play_money_refill_state",
    "play_money_top_up",
    "play_money_welcome",
    "play_stop",
    "play_time_enforce",
    "reality_check_set",
    "reversal_approve",
    "reversal_reject",
    "reversal_request",
    "table_buy_in",
    "table_cash_out",
    "table_hand_settle",
    "table_rebuy",
    "table_rebuys_credit",
    "tournament_enter",
    "tournament_entry_refund",
    "tournament_guarantee_top_up",
    "tournament_prizes_pay",
    "user_self_exclude",
    "withdrawal_approve",
    "withdrawal_reject",
    "withdrawal_request",
]
