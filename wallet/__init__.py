"""The conto di gioco: a double-entry ledger in integer euro cents.

Accounts, transactions and postings whose invariants the database enforces (postings sum to zero,
no negative balance where the kind forbids it, append-only); deposits and withdrawals through a
payment provider, table credit, tournament entries and prizes, deposit, loss and session-time
limits, self-exclusion and the nightly reconciliation. Other apps move money only through
``wallet.actions`` and read it through ``wallet.selectors``. See docs/money.md.
"""
