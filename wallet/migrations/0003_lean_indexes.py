"""Leaner indexes on the hot tables, and a one-query balance check on PostgreSQL.

SQLite rebuilds wallet_posting to drop an index, and DROP TABLE takes the table's triggers with it:
the ledger triggers of 0002 are dropped first and created again at the end.
"""

import importlib

import django.db.models.deletion
from typing import Any

from django.db import migrations, models

triggers = importlib.import_module("wallet.migrations.0002_ledger_triggers")

POSTGRES_CHECK = """
CREATE OR REPLACE FUNCTION wallet_check_transaction(tx uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE n integer; s bigint; mixed boolean;
BEGIN
    SELECT count(*), coalesce(sum(p.amount), 0), coalesce(bool_or(a.realm <> t.realm), false)
      INTO n, s, mixed
      FROM wallet_posting p
      JOIN wallet_account a ON a.id = p.account_id
      JOIN wallet_transaction t ON t.id = p.transaction_id
     WHERE p.transaction_id = tx;
    IF n < 2 OR s <> 0 THEN
        RAISE EXCEPTION 'wallet: unbalanced transaction % (% postings, sum %)', tx, n, s
            USING ERRCODE = 'check_violation';
    END IF;
    IF mixed THEN
        RAISE EXCEPTION 'wallet: real and play money cannot mix in transaction %', tx
            USING ERRCODE = 'check_violation';
    END IF;
END $$
"""


# The transaction row's deferred trigger only needs to see that postings exist: every posting's own
# deferred trigger checks count, sum and realm of its transaction (that one must stay per posting:
# it is what catches a posting slipped into another session's transaction just before it commits).
POSTGRES_TX_CHECK = """
CREATE OR REPLACE FUNCTION wallet_transaction_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM wallet_posting WHERE transaction_id = NEW.id) THEN
        RAISE EXCEPTION 'wallet: transaction % has no postings', NEW.id USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END $$
"""


def drop_sqlite_triggers(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "sqlite":
        for sql in triggers.SQLITE_REVERSE:
            schema_editor.execute(sql, params=None)


def recreate(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "sqlite":
        for sql in triggers.SQLITE_FORWARD:
            schema_editor.execute(sql, params=None)
    elif schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(POSTGRES_CHECK, params=None)
        schema_editor.execute(POSTGRES_TX_CHECK, params=None)


class Migration(migrations.Migration):
    dependencies = [("wallet", "0002_ledger_triggers")]

    operations = [
        migrations.RunPython(drop_sqlite_triggers, recreate),
        migrations.AlterField(
            model_name="idempotencykey",
            name="key",
            field=models.CharField(max_length=128),
        ),
        migrations.AlterField(
            model_name="posting",
            name="account",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="postings",
                to="wallet.account",
            ),
        ),
        migrations.AddConstraint(
            model_name="idempotencykey",
            constraint=models.UniqueConstraint(fields=("key",), name="idempotencykey_key_unique"),
        ),
        migrations.RunPython(recreate, drop_sqlite_triggers),
    ]
