"""Database-level ledger invariants (see the wallet.models docstring for the design).

Write order used by wallet.ledger on both vendors: INSERT the postings first, then the
transaction row. The posting -> transaction foreign key is DEFERRABLE INITIALLY DEFERRED (Django's
default on both SQLite and PostgreSQL), so this order is legal and a posting whose transaction row
never arrives fails at COMMIT.

PostgreSQL: deferred constraint triggers (on postings and on transactions) check at COMMIT that
every touched transaction has >= 2 postings, sums to zero and stays inside its realm; row UPDATE
and DELETE of postings and transactions are refused (TRUNCATE, used only by the test runner's
flush, is a deliberate maintenance path).

SQLite has no deferred triggers: the AFTER INSERT trigger on the transaction row is the closing
check (count, sum, realm), and a posting can only be inserted while its transaction row does not
exist yet. UPDATEs are refused. A DELETE of a single posting is silently ignored (RAISE(IGNORE):
the row stays) while its transaction exists; deleting a whole transaction row removes its
postings with it - Django's flush (DELETE FROM every table, in no fixed order) needs that, the ORM
refuses it anyway (on_delete=PROTECT), and the nightly reconciliation would flag the balances.
"""

from typing import Any

from django.db import migrations

SQLITE_FORWARD = [
    """
    CREATE TRIGGER wallet_posting_tx_open BEFORE INSERT ON wallet_posting
    WHEN EXISTS (SELECT 1 FROM wallet_transaction WHERE id = NEW.transaction_id)
    BEGIN SELECT RAISE(ABORT, 'wallet: postings must be written before their transaction row'); END
    """,
    """
    CREATE TRIGGER wallet_transaction_balanced AFTER INSERT ON wallet_transaction
    WHEN (SELECT COUNT(*) FROM wallet_posting WHERE transaction_id = NEW.id) < 2
      OR (SELECT COALESCE(SUM(amount), 0) FROM wallet_posting WHERE transaction_id = NEW.id) <> 0
    BEGIN SELECT RAISE(ABORT, 'wallet: unbalanced transaction'); END
    """,
    """
    CREATE TRIGGER wallet_transaction_one_realm AFTER INSERT ON wallet_transaction
    WHEN EXISTS (
        SELECT 1 FROM wallet_posting p JOIN wallet_account a ON a.id = p.account_id
        WHERE p.transaction_id = NEW.id AND a.realm <> NEW.realm
    )
    BEGIN SELECT RAISE(ABORT, 'wallet: real and play money cannot mix in a transaction'); END
    """,
    """
    CREATE TRIGGER wallet_posting_no_update BEFORE UPDATE ON wallet_posting
    BEGIN SELECT RAISE(ABORT, 'wallet: postings are append-only'); END
    """,
    """
    CREATE TRIGGER wallet_transaction_no_update BEFORE UPDATE ON wallet_transaction
    BEGIN SELECT RAISE(ABORT, 'wallet: transactions are immutable'); END
    """,
    """
    CREATE TRIGGER wallet_posting_no_delete BEFORE DELETE ON wallet_posting
    WHEN EXISTS (SELECT 1 FROM wallet_transaction WHERE id = OLD.transaction_id)
    BEGIN SELECT RAISE(IGNORE); END
    """,
    """
    CREATE TRIGGER wallet_transaction_delete_postings AFTER DELETE ON wallet_transaction
    BEGIN DELETE FROM wallet_posting WHERE transaction_id = OLD.id; END
    """,
]
SQLITE_REVERSE = [
    f"DROP TRIGGER IF EXISTS {name}"
    for name in (
        "wallet_posting_tx_open",
        "wallet_transaction_balanced",
        "wallet_transaction_one_realm",
        "wallet_posting_no_update",
        "wallet_transaction_no_update",
        "wallet_posting_no_delete",
        "wallet_transaction_delete_postings",
    )
]

POSTGRES_FORWARD = [
    """
    CREATE FUNCTION wallet_check_transaction(tx uuid) RETURNS void LANGUAGE plpgsql AS $$
    DECLARE n integer; s bigint;
    BEGIN
        SELECT count(*), coalesce(sum(amount), 0) INTO n, s FROM wallet_posting WHERE transaction_id = tx;
        IF n < 2 OR s <> 0 THEN
            RAISE EXCEPTION 'wallet: unbalanced transaction % (% postings, sum %)', tx, n, s
                USING ERRCODE = 'check_violation';
        END IF;
        IF EXISTS (
            SELECT 1 FROM wallet_posting p
            JOIN wallet_account a ON a.id = p.account_id
            JOIN wallet_transaction t ON t.id = p.transaction_id
            WHERE p.transaction_id = tx AND a.realm <> t.realm
        ) THEN
            RAISE EXCEPTION 'wallet: real and play money cannot mix in transaction %', tx
                USING ERRCODE = 'check_violation';
        END IF;
    END $$
    """,
    """
    CREATE FUNCTION wallet_posting_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM wallet_check_transaction(NEW.transaction_id); RETURN NULL; END $$
    """,
    """
    CREATE CONSTRAINT TRIGGER wallet_posting_balanced AFTER INSERT ON wallet_posting
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION wallet_posting_balanced()
    """,
    """
    CREATE FUNCTION wallet_transaction_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM wallet_check_transaction(NEW.id); RETURN NULL; END $$
    """,
    """
    CREATE CONSTRAINT TRIGGER wallet_transaction_balanced AFTER INSERT ON wallet_transaction
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION wallet_transaction_balanced()
    """,
    """
    CREATE FUNCTION wallet_posting_tx_open() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF EXISTS (SELECT 1 FROM wallet_transaction WHERE id = NEW.transaction_id) THEN
            RAISE EXCEPTION 'wallet: postings must be written before their transaction row'
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END $$
    """,
    """
    CREATE TRIGGER wallet_posting_tx_open BEFORE INSERT ON wallet_posting
    FOR EACH ROW EXECUTE FUNCTION wallet_posting_tx_open()
    """,
    """
    CREATE FUNCTION wallet_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'wallet: % of % refused, the ledger is append-only', TG_OP, TG_TABLE_NAME
            USING ERRCODE = 'check_violation';
    END $$
    """,
    """
    CREATE TRIGGER wallet_posting_append_only BEFORE UPDATE OR DELETE ON wallet_posting
    FOR EACH ROW EXECUTE FUNCTION wallet_refuse_change()
    """,
    """
    CREATE TRIGGER wallet_transaction_append_only BEFORE UPDATE OR DELETE ON wallet_transaction
    FOR EACH ROW EXECUTE FUNCTION wallet_refuse_change()
    """,
]
POSTGRES_REVERSE = [
    "DROP TRIGGER IF EXISTS wallet_transaction_append_only ON wallet_transaction",
    "DROP TRIGGER IF EXISTS wallet_posting_append_only ON wallet_posting",
    "DROP TRIGGER IF EXISTS wallet_posting_tx_open ON wallet_posting",
    "DROP TRIGGER IF EXISTS wallet_transaction_balanced ON wallet_transaction",
    "DROP TRIGGER IF EXISTS wallet_posting_balanced ON wallet_posting",
    "DROP FUNCTION IF EXISTS wallet_refuse_change()",
    "DROP FUNCTION IF EXISTS wallet_posting_tx_open()",
    "DROP FUNCTION IF EXISTS wallet_transaction_balanced()",
    "DROP FUNCTION IF EXISTS wallet_posting_balanced()",
    "DROP FUNCTION IF EXISTS wallet_check_transaction(uuid)",
]


def forward(apps: Any, schema_editor: Any) -> None:
    statements = {"sqlite": SQLITE_FORWARD, "postgresql": POSTGRES_FORWARD}.get(schema_editor.connection.vendor)
    if statements is None:
        raise RuntimeError(f"wallet: no ledger triggers for {schema_editor.connection.vendor}")
    for sql in statements:
        schema_editor.execute(sql, params=None)


def reverse(apps: Any, schema_editor: Any) -> None:
    statements = {"sqlite": SQLITE_REVERSE, "postgresql": POSTGRES_REVERSE}[schema_editor.connection.vendor]
    for sql in statements:
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [("wallet", "0001_initial")]

    operations = [migrations.RunPython(forward, reverse)]
