"""PostgreSQL: one ledger transfer in one round trip (``wallet_transfer``), used by ``ledger_transfer``.

The function does, inside the caller's transaction, exactly what the Python path of
``wallet.ledger.run_idempotent`` + ``accounts_lock_by_pk`` + ``post`` does for two accounts:

1. idempotency: a stored key with the same action and request hash returns its first result
   (``replayed``), with another action or hash ``conflict``;
2. THE lock order: both account rows ``SELECT ... ORDER BY id FOR NO KEY UPDATE``;
3. the checks ``post`` makes (both accounts exist, one realm, open, no overdraft of a kind that may
   not go negative, held included): a refusal returns an outcome and writes nothing;
4. one guarded UPDATE (compare-and-set on the balance and held read under the lock, closed_at
   IS NULL), its row count checked (SQLSTATE WL409 if not 2);
5. the postings, then the transaction row (the write order the triggers of 0002 expect), then the
   idempotency key (a concurrent call with the same key fails on its unique index: the caller
   rolls back and replays the stored result).

Nothing is bypassed: the BEFORE INSERT trigger on postings, the deferred balance/realm constraint
triggers (run at COMMIT of the caller's transaction, which in autocommit is this one statement),
the CHECK constraints, the foreign keys and the append-only triggers all apply as for any other
write. SQLite has no stored functions; there the Python path is used (the operation is a no-op).
"""

from typing import Any

from django.db import migrations

FORWARD = """
CREATE FUNCTION wallet_transfer(
    p_key text,
    p_action text,
    p_hash text,
    p_kind text,
    p_source bigint,
    p_destination bigint,
    p_amount bigint,
    p_memo text,
    p_negative_kinds text[],
    OUT outcome text,
    OUT result jsonb
) LANGUAGE plpgsql AS $$
DECLARE
    stored record;
    r record;
    src record;
    dst record;
    n integer := 0;
    tx uuid := gen_random_uuid();
BEGIN
    SELECT i.action, i.request_hash, i.result INTO stored FROM wallet_idempotencykey i WHERE i.key = p_key;
    IF FOUND THEN
        IF stored.action <> p_action OR stored.request_hash <> p_hash THEN
            outcome := 'conflict';
        ELSE
            outcome := 'replayed';
            result := stored.result;
        END IF;
        RETURN;
    END IF;
    IF p_amount IS NULL OR p_amount <= 0 THEN
        outcome := 'invalid_amount';
        RETURN;
    END IF;
    -- THE lock order of the wallet: primary key (LockRows runs above the sort).
    FOR r IN
        SELECT a.id, a.kind, a.realm, a.ref, a.balance, a.held, a.closed_at
          FROM wallet_account a
         WHERE a.id IN (p_source, p_destination)
         ORDER BY a.id
           FOR NO KEY UPDATE
    LOOP
        IF r.id = p_source THEN src := r; ELSE dst := r; END IF;
        n := n + 1;
    END LOOP;
    IF n <> 2 THEN
        outcome := 'missing';
        RETURN;
    END IF;
    -- The checks of wallet.ledger.post, in its order: source leg, then destination leg.
    IF src.closed_at IS NOT NULL THEN
        outcome := 'closed';
        RETURN;
    END IF;
    IF NOT src.kind = ANY(p_negative_kinds) AND (src.held < 0 OR src.balance - p_amount < src.held) THEN
        outcome := 'insufficient';
        result := jsonb_build_object(
            'account', src.ref, 'available', src.balance - src.held, 'needed', p_amount);
        RETURN;
    END IF;
    IF dst.realm <> src.realm THEN
        outcome := 'mixed_realm';
        RETURN;
    END IF;
    IF dst.closed_at IS NOT NULL THEN
        outcome := 'closed';
        RETURN;
    END IF;
    IF NOT dst.kind = ANY(p_negative_kinds) AND (dst.held < 0 OR dst.balance + p_amount < dst.held) THEN
        outcome := 'insufficient';
        result := jsonb_build_object(
            'account', dst.ref, 'available', dst.balance - dst.held, 'needed', -p_amount);
        RETURN;
    END IF;
    -- Guarded compare-and-set on the values read under the lock, row count checked.
    UPDATE wallet_account a
       SET balance = a.balance + CASE WHEN a.id = p_source THEN -p_amount ELSE p_amount END
     WHERE a.id IN (p_source, p_destination)
       AND a.balance = CASE WHEN a.id = p_source THEN src.balance ELSE dst.balance END
       AND a.held = CASE WHEN a.id = p_source THEN src.held ELSE dst.held END
       AND a.closed_at IS NULL;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n <> 2 THEN
        RAISE EXCEPTION 'wallet: concurrent update of accounts % and %', p_source, p_destination
            USING ERRCODE = 'WL409';
    END IF;
    -- Postings (in account order, as wallet.ledger.post writes them), then the transaction row.
    INSERT INTO wallet_posting (transaction_id, account_id, amount, balance_after)
    SELECT tx, v.account, v.amount, v.after
      FROM (VALUES (p_source, -p_amount, src.balance - p_amount),
                   (p_destination, p_amount, dst.balance + p_amount)) AS v(account, amount, after)
     ORDER BY v.account;
    INSERT INTO wallet_transaction (id, kind, realm, created_at, memo, data, reverses_id, actor_id)
    VALUES (tx, p_kind, src.realm, now(), p_memo, '{}'::jsonb, NULL, NULL);
    result := jsonb_build_object('transaction_id', tx::text);
    INSERT INTO wallet_idempotencykey (key, action, request_hash, result, created_at)
    VALUES (p_key, p_action, p_hash, result, now());
    outcome := 'ok';
END $$
"""
REVERSE = (
    "DROP FUNCTION IF EXISTS wallet_transfer(text, text, text, text, bigint, bigint, bigint, text, text[])"
)


class PostgresOnlySQL(migrations.RunSQL):
    """RunSQL applied on PostgreSQL only (SQLite keeps the Python path)."""

    def database_forwards(self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, from_state, to_state)


class Migration(migrations.Migration):
    dependencies = [("wallet", "0004_table_pot")]

    operations = [PostgresOnlySQL(sql=FORWARD, reverse_sql=REVERSE)]
