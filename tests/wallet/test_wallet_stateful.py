"""Hypothesis stateful test: the ledger against an in-memory model of every account.

After every step: the sum of all balances is zero (per realm), each stored balance equals the sum
of its postings, ``held`` equals the pending holds, nothing that may not go negative is negative,
and every balance is what the model predicts. Each action's success or refusal is predicted by the
model too; a refusal must change nothing.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from typing import Any

import pytest
from django.db import transaction
from django.db.models import Sum
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from tests.piattaforma.factories import UserFactory
from tests.wallet.conftest import ledger_snapshot
from wallet import actions, selectors
from wallet.errors import WalletError
from wallet.models import NEGATIVE_KINDS, Account, Payment

PLAYERS = 3
TABLES = ("A", "B")
TOURNAMENTS = ("T1", "T2")
MIN_BUY, MAX_BUY = 1_000, 20_000
POOL, RAKE = 800, 200


class LedgerMachine(RuleBasedStateMachine):
    users: list[Any] = []

    def __init__(self) -> None:
        super().__init__()
        self._atomic = transaction.atomic()
        self._atomic.__enter__()
        self.keys = itertools.count()
        self.m: dict[tuple[str, str], int] = defaultdict(int)  # (kind, ref) -> expected balance
        self.held: dict[int, int] = defaultdict(int)
        self.pending_w: list[tuple[int, int, int]] = []  # payment id, player, amount
        self.seated: dict[tuple[int, str], str] = {}  # (player, table) -> session ref
        self.pending_rebuy: dict[str, int] = defaultdict(int)
        self.transferred: dict[str, int] = defaultdict(int)
        self.entries: list[
            tuple[str, int, int, int, str]
        ] = []  # tx, player, from bonus, from cash, tournament

    def teardown(self) -> None:
        transaction.set_rollback(True)
        self._atomic.__exit__(None, None, None)

    def key(self) -> str:
        return f"k{next(self.keys)}"

    def uid(self, p: int) -> int:
        return self.users[p].pk

    def cash(self, p: int) -> tuple[str, str]:
        return ("player_cash", f"user:{self.uid(p)}")

    def bonus(self, p: int) -> tuple[str, str]:
        return ("player_bonus", f"user:{self.uid(p)}")

    def avail(self, p: int) -> int:
        return self.m[self.cash(p)] - self.held[p]

    def attempt(self, expect_ok: bool, call: Any) -> Any:
        before = ledger_snapshot()
        try:
            result = call()
        except WalletError:
            assert not expect_ok, "the model expected success"
            assert ledger_snapshot() == before
            return None
        assert expect_ok, "the model expected a refusal"
        return result

    # --- money in and out -------------------------------------------------------------------------

    @rule(p=st.integers(0, PLAYERS - 1), amount=st.integers(1, 50_000))
    def deposit(self, p: int, amount: int) -> None:
        self.attempt(
            True,
            lambda: actions.deposit_create(user=self.users[p], amount=amount, idempotency_key=self.key()),
        )
        self.m[self.cash(p)] += amount
        self.m[("payments_clearing", "house")] -= amount

    @rule(p=st.integers(0, PLAYERS - 1), amount=st.integers(1, 60_000))
    def withdraw(self, p: int, amount: int) -> None:
        ok = amount <= self.avail(p)
        r = self.attempt(
            ok,
            lambda: actions.withdrawal_request(user=self.users[p], amount=amount, idempotency_key=self.key()),
        )
        if r:
            self.held[p] += amount
            self.pending_w.append((r["payment_id"], p, amount))

    @precondition(lambda self: self.pending_w)
    @rule(data=st.data(), approve=st.booleans())
    def decide_withdrawal(self, data: st.DataObject, approve: bool) -> None:
        i = data.draw(st.integers(0, len(self.pending_w) - 1))
        pid, p, amount = self.pending_w.pop(i)
        staff = self.users[-1]
        if approve:
            actions.withdrawal_approve(payment_id=pid, actor=staff)
            self.m[self.cash(p)] -= amount
            self.m[("payments_clearing", "house")] += amount
        else:
            actions.withdrawal_reject(payment_id=pid, actor=staff, reason="rifiutato dal test")
        self.held[p] -= amount

    # --- cash tables ------------------------------------------------------------------------------

    @rule(p=st.integers(0, PLAYERS - 1), table=st.sampled_from(TABLES), amount=st.integers(0, 30_000))
    def buy_in(self, p: int, table: str, amount: int) -> None:
        ref = f"{table}-{p}-{next(self.keys)}"
        ok = (p, table) not in self.seated and MIN_BUY <= amount <= MAX_BUY and amount <= self.avail(p)
        call = lambda: actions.table_buy_in(  # noqa: E731
            user=self.users[p],
            table_session_ref=ref,
            amount=amount,
            min_amount=MIN_BUY,
            max_amount=MAX_BUY,
            idempotency_key=self.key(),
        )
        if (p, table) in self.seated:  # seated already: the lobby would not ask; skip
            return
        if self.attempt(ok, call):
            self.seated[(p, table)] = ref
            self.m[self.cash(p)] -= amount
            self.m[("table_credit", f"table:{ref}")] += amount
            self.transferred[ref] += amount

    @rule(
        p=st.integers(0, PLAYERS - 1),
        table=st.sampled_from(TABLES),
        amount=st.integers(1, 10_000),
        in_hand=st.booleans(),
    )
    def rebuy(self, p: int, table: str, amount: int, in_hand: bool) -> None:
        ref = self.seated.get((p, table))
        if ref is None:
            return
        credit = self.m[("table_credit", f"table:{ref}")]
        ok = credit + self.pending_rebuy[ref] + amount <= MAX_BUY and amount <= self.avail(p)
        r = self.attempt(
            ok,
            lambda: actions.table_rebuy(
                user=self.users[p],
                table_session_ref=ref,
                amount=amount,
                max_amount=MAX_BUY,
                hand_in_progress=in_hand,
                idempotency_key=self.key(),
            ),
        )
        if r and in_hand:
            self.held[p] += amount
            self.pending_rebuy[ref] += amount
        elif r:
            self.m[self.cash(p)] -= amount
            self.m[("table_credit", f"table:{ref}")] += amount

    @rule(table=st.sampled_from(TABLES), data=st.data())
    def hand(self, table: str, data: st.DataObject) -> None:
        seated = sorted(p for (p, t) in self.seated if t == table)
        if len(seated) < 2:
            return
        loser, winner = data.draw(st.permutations(seated))[:2]
        lref, wref = self.seated[(loser, table)], self.seated[(winner, table)]
        lost = data.draw(st.integers(0, self.m[("table_credit", f"table:{lref}")]))
        rake = lost * 5 // 100
        if lost == 0:
            return
        actions.table_hand_settle(
            deltas={lref: -lost, wref: lost - rake}, rake=rake, idempotency_key=self.key()
        )
        self.m[("table_credit", f"table:{lref}")] -= lost
        self.m[("table_credit", f"table:{wref}")] += lost - rake
        self.m[("house_rake", "house")] += rake
        for p, ref in ((loser, lref), (winner, wref)):
            self._hand_end(p, ref)

    def _hand_end(self, p: int, ref: str) -> None:
        actions.table_rebuys_credit(table_session_refs=[ref])
        amount = self.pending_rebuy.pop(ref, 0)
        self.held[p] -= amount
        self.m[self.cash(p)] -= amount
        self.m[("table_credit", f"table:{ref}")] += amount

    @rule(p=st.integers(0, PLAYERS - 1), table=st.sampled_from(TABLES))
    def cash_out(self, p: int, table: str) -> None:
        ref = self.seated.pop((p, table), None)
        if ref is None:
            return
        actions.table_cash_out(table_session_ref=ref, idempotency_key=self.key())
        self.held[p] -= self.pending_rebuy.pop(ref, 0)
        credit = self.m.pop(("table_credit", f"table:{ref}"), 0)
        self.m[self.cash(p)] += credit
        self.m[("table_credit", f"table:{ref}")] = 0

    # --- tournaments ------------------------------------------------------------------------------

    @rule(p=st.integers(0, PLAYERS - 1), t=st.sampled_from(TOURNAMENTS), use_bonus=st.booleans())
    def enter(self, p: int, t: str, use_bonus: bool) -> None:
        cost = POOL + RAKE
        from_bonus = min(self.m[self.bonus(p)], cost) if use_bonus else 0
        ok = cost - from_bonus <= self.avail(p)
        r = self.attempt(
            ok,
            lambda: actions.tournament_enter(
                user=self.users[p],
                tournament_ref=t,
                pool_quota=POOL,
                rake=RAKE,
                use_bonus=use_bonus,
                idempotency_key=self.key(),
            ),
        )
        if r:
            assert (r["from_bonus"], r["from_cash"]) == (from_bonus, cost - from_bonus)
            self.m[self.bonus(p)] -= from_bonus
            self.m[self.cash(p)] -= cost - from_bonus
            self.m[("tournament_pool", f"tournament:{t}")] += POOL
            self.m[("house_rake", "house")] += RAKE
            self.entries.append((r["transaction_id"], p, from_bonus, cost - from_bonus, t))

    @precondition(lambda self: self.entries)
    @rule(data=st.data())
    def refund(self, data: st.DataObject) -> None:
        tx, p, from_bonus, from_cash, t = self.entries.pop(data.draw(st.integers(0, len(self.entries) - 1)))
        ok = (
            self.m[("tournament_pool", f"tournament:{t}")] >= POOL and self.m[("house_rake", "house")] >= RAKE
        )
        if self.attempt(
            ok, lambda: actions.tournament_entry_refund(entry_transaction_id=tx, idempotency_key=self.key())
        ):
            self.m[self.bonus(p)] += from_bonus
            self.m[self.cash(p)] += from_cash
            self.m[("tournament_pool", f"tournament:{t}")] -= POOL
            self.m[("house_rake", "house")] -= RAKE

    @rule(
        t=st.sampled_from(TOURNAMENTS),
        p=st.integers(0, PLAYERS - 1),
        guaranteed=st.integers(0, 5_000),
        in_bonus=st.booleans(),
    )
    def prize(self, t: str, p: int, guaranteed: int, in_bonus: bool) -> None:
        pool = ("tournament_pool", f"tournament:{t}")
        actions.tournament_guarantee_top_up(
            tournament_ref=t, guaranteed=guaranteed, idempotency_key=self.key()
        )
        top_up = max(0, guaranteed - self.m[pool])
        self.m[pool] += top_up
        self.m[("house_promotions", "house")] -= top_up
        if self.m[pool] == 0:
            return
        amount = self.m[pool]
        actions.tournament_prizes_pay(
            tournament_ref=t, prizes={self.uid(p): amount}, in_bonus=in_bonus, idempotency_key=self.key()
        )
        self.m[pool] = 0
        self.m[self.bonus(p) if in_bonus else self.cash(p)] += amount
        self.entries = [e for e in self.entries if e[4] != t]  # paid out: no refunds any more

    # --- invariants -------------------------------------------------------------------------------

    @invariant()
    def ledger_is_sound(self) -> None:
        report = selectors.reconciliation_report()
        assert report["ok"], report
        rows = Account.objects.values_list("kind", "ref", "balance", "held", "owner_id", "realm")
        for kind, ref, bal, held, owner, _realm in rows:
            assert bal == self.m[(kind, ref)], (kind, ref, bal, self.m[(kind, ref)])
            if kind not in NEGATIVE_KINDS:
                assert bal >= held >= 0
            if kind == "player_cash":
                p = [u.pk for u in self.users].index(owner)
                assert held == self.held[p]
        assert sum(self.m.values()) == 0
        pending = Payment.objects.filter(status="pending").aggregate(s=Sum("amount", default=0))["s"]
        assert pending == sum(a for _, _, a in self.pending_w)


@pytest.mark.django_db
def test_ledger_state_machine(staff) -> None:
    LedgerMachine.users = [UserFactory() for _ in range(PLAYERS)] + [staff]
    run_state_machine_as_test(
        LedgerMachine,
        settings=settings(max_examples=30, stateful_step_count=30, deadline=None),
    )
