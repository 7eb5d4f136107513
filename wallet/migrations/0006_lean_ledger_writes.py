"""Leaner ledger writes: fewer index entries and one deferred balance check per transaction.

- Transaction ``reverses`` and ``actor`` are indexed only where set (partial unique index / partial
  index): almost no transaction has either, and a B-tree entry for NULL cost every write.
- IdempotencyKey: the key is the primary key (no id column, sequence and second unique index).
- PostgreSQL, the balance check: the deferred constraint trigger on the TRANSACTION row now checks
  count (>= 2), sum (= 0) and realm of its postings, once per transaction; the deferred trigger per
  posting is gone. What it guarded (a posting slipped into a transaction written by another session
  that commits first) is now refused when the posting is inserted: the BEFORE INSERT trigger takes a
  transaction-level advisory lock on the transaction id, so only one session at a time writes
  postings for one id, and it refuses the posting if the transaction row is already visible (written
  earlier by this session, or committed by the one that held the lock). A header that would commit
  with another session's postings cannot exist: its own check at COMMIT sees only committed and own
  postings. The realm is read per posting by primary key, so the check's plan does not depend on
  statistics (a fresh, never analysed database no longer gets a plan that scans every account).
- PostgreSQL: wallet_account at fillfactor 80, so balance updates stay HOT (no index writes).
- PostgreSQL: the LIKE index Django adds to a varchar primary key is dropped (keys are only
  looked up by equality).

SQLite keeps its triggers of 0002 (the table rebuild of wallet_transaction drops them: they are
dropped before and created again after, as in 0003).
"""

import importlib
from typing import Any

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

lean = importlib.import_module("wallet.migrations.0003_lean_indexes")

POSTGRES_FORWARD = [
    """
    CREATE OR REPLACE FUNCTION wallet_transaction_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE n integer; s bigint; mixed boolean;
    BEGIN
        SELECT count(*), coalesce(sum(p.amount), 0),
               coalesce(bool_or((SELECT a.realm FROM wallet_account a WHERE a.id = p.account_id) <> NEW.realm), false)
          INTO n, s, mixed
          FROM wallet_posting p
         WHERE p.transaction_id = NEW.id;
        IF n < 2 OR s <> 0 THEN
            RAISE EXCEPTION 'wallet: unbalanced transaction % (% postings, sum %)', NEW.id, n, s
                USING ERRCODE = 'check_violation';
        END IF;
        IF mixed THEN
            RAISE EXCEPTION 'wallet: real and play money cannot mix in transaction %', NEW.id
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
    END $$
    """,
    """
    CREATE OR REPLACE FUNCTION wallet_posting_tx_open() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        -- One session at a time writes postings for a transaction id (held until it ends); after the
        -- wait, a transaction row committed by the other session is visible here and refused below.
        PERFORM pg_advisory_xact_lock(uuid_hash_extended(NEW.transaction_id, 0));
        IF EXISTS (SELECT 1 FROM wallet_transaction WHERE id = NEW.transaction_id) THEN
            RAISE EXCEPTION 'wallet: postings must be written before their transaction row'
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END $$
    """,
    "DROP TRIGGER IF EXISTS wallet_posting_balanced ON wallet_posting",
    "DROP FUNCTION IF EXISTS wallet_posting_balanced()",
    "DROP FUNCTION IF EXISTS wallet_check_transaction(uuid)",
    "ALTER TABLE wallet_account SET (fillfactor = 80)",
]
# Back to the triggers of 0002 with the check function of 0003.
POSTGRES_REVERSE = [
    "ALTER TABLE wallet_account RESET (fillfactor)",
    lean.POSTGRES_CHECK,
    lean.POSTGRES_TX_CHECK,
    """
    CREATE OR REPLACE FUNCTION wallet_posting_tx_open() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF EXISTS (SELECT 1 FROM wallet_transaction WHERE id = NEW.transaction_id) THEN
            RAISE EXCEPTION 'wallet: postings must be written before their transaction row'
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
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
]


def postgres_forward(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        for sql in POSTGRES_FORWARD:
            schema_editor.execute(sql, params=None)
        like = schema_editor._create_index_name("wallet_idempotencykey", ["key"], suffix="_like")
        schema_editor.execute(f"DROP INDEX IF EXISTS {schema_editor.quote_name(like)}", params=None)


def postgres_reverse(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        for sql in POSTGRES_REVERSE:
            schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):

    dependencies = [
        ('wallet', '0005_transfer_function'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(lean.drop_sqlite_triggers, lean.recreate),
        migrations.RemoveConstraint(
            model_name='idempotencykey',
            name='idempotencykey_key_unique',
        ),
        migrations.RemoveField(
            model_name='idempotencykey',
            name='id',
        ),
        migrations.AlterField(
            model_name='idempotencykey',
            name='key',
            field=models.CharField(max_length=128, primary_key=True, serialize=False),
        ),
        migrations.AlterField(
            model_name='transaction',
            name='actor',
            field=models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AlterField(
            model_name='transaction',
            name='reverses',
            field=models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='reversed_by', to='wallet.transaction'),
        ),
        migrations.AddIndex(
            model_name='transaction',
            index=models.Index(condition=models.Q(('actor__isnull', False)), fields=['actor'], name='transaction_actor_set'),
        ),
        migrations.AddConstraint(
            model_name='transaction',
            constraint=models.UniqueConstraint(condition=models.Q(('reverses__isnull', False)), fields=('reverses',), name='transaction_reverses_once'),
        ),
        migrations.RunPython(lean.recreate, lean.drop_sqlite_triggers),
        migrations.RunPython(postgres_forward, postgres_reverse),
    ]
