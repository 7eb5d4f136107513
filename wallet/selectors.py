"""Reads of the wallet for pages, the API and other apps. They return plain data."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from django.core.paginator import Paginator
from django.db.models import Count, F, Q, Sum
from django.db.models.functions import Coalesce, TruncDate
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from piattaforma import hooks
from piattaforma.compiledquery import CompiledQuery, Read
from piattaforma.models import User
from wallet.models import (
    Account,
    AccountKind,
    AdjustmentRequest,
    DepositLimit,
    Hold,
    HoldStatus,
    LimitPeriod,
    Payment,
    PlayLimit,
    Posting,
    Realm,
    ReversalRequest,
    Transaction,
    TransactionKind,
)
from wallet.money import format_eur


def balance_get(*, user: User) -> dict[str, int]:
    """The player's money: conto (cash), bonus, reserved (held), available, and training money."""
    rows = Account.objects.filter(owner=user, kind__in=[AccountKind.PLAYER_CASH, AccountKind.PLAYER_BONUS])
    out = {"cash": 0, "bonus": 0, "held": 0, "available": 0, "play": 0}
    for kind, realm, bal, held in rows.values_list("kind", "realm", "balance", "held"):
        if realm == Realm.PLAY:
            out["play"] = bal
        elif kind == AccountKind.PLAYER_CASH:
            out.update(cash=bal, held=held, available=bal - held)
        else:
            out["bonus"] = bal
    return out


def table_credit_get(*, table_session_ref: str, realm: str = Realm.REAL) -> dict[str, Any]:
    """A table session's credit (``balance``; pending rebuys not included) and whether it is still open."""
    row = (
        Account.objects.filter(kind=AccountKind.TABLE_CREDIT, realm=realm, ref=f"table:{table_session_ref}")
        .values("balance", "transferred_in", "closed_at", "owner_id")
        .first()
    )
    if row is None:
        return {"balance": 0, "credit": 0, "transferred_in": 0, "open": False, "owner_id": None}
    return {
        "balance": row["balance"],
        "credit": row["balance"],
        "transferred_in": row["transferred_in"],
        "open": row["closed_at"] is None,
        "owner_id": row["owner_id"],
    }


def table_credits_read(*, table_session_refs: list[str], realm: str = Realm.REAL) -> Read:
    """``table_credits_get``'s read, for a caller that knows it in advance (``compiledquery.along``)."""
    return Read(_TABLE_CREDITS, ([f"table:{ref}" for ref in table_session_refs], realm))


def table_credits_get(*, table_session_refs: list[str], realm: str = Realm.REAL) -> dict[str, int]:
    """The balance of each of these table sessions' credits in one read (0 for a session with none)."""
    refs = {f"table:{ref}": ref for ref in table_session_refs}
    balances = dict(_TABLE_CREDITS(list(refs), realm)) if refs else {}
    return {ref: int(balances.get(key, 0)) for key, ref in refs.items()}


# read between every two hands of every table (the deal, the owner's between-hands block): its SQL
# compiled once per number of seats (``piattaforma.compiledquery``)
_TABLE_CREDITS = CompiledQuery(
    lambda keys, realm: Account.objects.filter(
        kind=AccountKind.TABLE_CREDIT, realm=realm, ref__in=keys
    ).values_list("ref", "balance"),
    lambda keys, realm: (str(AccountKind.TABLE_CREDIT), str(realm), *keys),
    shape=lambda keys, realm: len(keys),
)


def ticket_used(*, ticket: str) -> bool:
    """Whether money moved, or waits to move, under the regulator's ``ticket`` (a buy-in or rebuy)."""
    return (
        Transaction.objects.filter(data__ticket=ticket).exists()
        or Hold.objects.filter(ticket=ticket).exclude(status=HoldStatus.VOIDED).exists()
    )


def table_pot_get(*, pot_ref: str, realm: str = Realm.REAL) -> int:
    """Chips the table carries to its next hand (piatto di parol, bestia)."""
    value = (
        Account.objects.filter(kind=AccountKind.TABLE_POT, realm=realm, ref=f"table_pot:{pot_ref}")
        .values_list("balance", flat=True)
        .first()
    )
    return value or 0


def tournament_pool_get(*, tournament_ref: str) -> int:
    """The montepremi collected so far."""
    value = (
        Account.objects.filter(
            kind=AccountKind.TOURNAMENT_POOL, realm=Realm.REAL, ref=f"tournament:{tournament_ref}"
        )
        .values_list("balance", flat=True)
        .first()
    )
    return value or 0


def ledger_totals() -> dict[str, int]:
    """Sum of all stored balances per realm (always zero in a double-entry ledger)."""
    rows = Account.objects.values_list("realm").annotate(total=Sum("balance")).order_by("realm")
    return dict(rows)


def period_starts(now: datetime) -> dict[str, datetime]:
    """Calendar periods in the site's time zone (Europe/Rome): today, this ISO week, this month."""
    local = timezone.localtime(now)
    day = local.replace(hour=0, minute=0, second=0, microsecond=0)
    return {
        LimitPeriod.DAY: day,
        LimitPeriod.WEEK: day - timedelta(days=day.weekday()),
        LimitPeriod.MONTH: day.replace(day=1),
    }


def limit_in_force(limit: Any, now: datetime) -> int | None:
    """A self-set limit's value now: its pending change once the change's date has come."""
    if limit.pending_from is not None and limit.pending_from <= now:
        return None if limit.pending_remove else limit.pending_amount
    amount: int | None = limit.amount
    return amount


def play_time_exhausted(*, user: User, now: datetime) -> tuple[str, int] | None:
    """The first (period, minutes) session-time limit whose time the player has used up, or None."""
    for lim in PlayLimit.objects.filter(user=user, kind=PlayLimit.Kind.TIME).order_by("period"):
        value = limit_in_force(lim, now)
        if (
            value is not None
            and play_seconds(user=user, since=period_starts(now)[lim.period], now=now) >= value * 60
        ):
            return lim.period, value
    return None


def _limits_view(rows: Any, now: datetime) -> dict[str, dict[str, Any]]:
    """Each period's limit in force now and any raise waiting for its cooling-off delay."""
    out: dict[str, dict[str, Any]] = {
        p: {"amount": None, "pending_amount": None, "pending_remove": False, "pending_from": None}
        for p in LimitPeriod.values
    }
    for lim in rows:
        matured = lim.pending_from is not None and lim.pending_from <= now
        out[lim.period] = {  # the same rule as limit_in_force, with what is still pending
            "amount": (None if lim.pending_remove else lim.pending_amount) if matured else lim.amount,
            "pending_amount": None if matured else lim.pending_amount,
            "pending_remove": False if matured else lim.pending_remove,
            "pending_from": None if matured else lim.pending_from,
        }
    return out


def deposit_limits_get(*, user: User, now: datetime | None = None) -> dict[str, dict[str, Any]]:
    """Each period's deposit limit in force now and any raise waiting for its cooling-off delay."""
    return _limits_view(DepositLimit.objects.filter(user=user), now or timezone.now())


def play_limits_get(*, user: User, kind: str, now: datetime | None = None) -> dict[str, dict[str, Any]]:
    """Each period's loss limit (cents) or session-time limit (minutes), as ``deposit_limits_get``."""
    return _limits_view(PlayLimit.objects.filter(user=user, kind=kind), now or timezone.now())


def play_seconds(*, user: User, since: datetime, now: datetime) -> int:
    """Seconds the player spent seated at real-money tables between ``since`` and ``now``.

    A table session lasts from its buy-in (the table-credit account's creation) to its cash-out
    (the account's closing): the ledger already records both.
    """
    rows = Account.objects.filter(
        owner=user, kind=AccountKind.TABLE_CREDIT, realm=Realm.REAL, created_at__lt=now
    ).filter(Q(closed_at__isnull=True) | Q(closed_at__gt=since))
    total = timedelta()
    for start, end in rows.values_list("created_at", "closed_at"):
        span = min(end or now, now) - max(start, since)
        if span > timedelta():
            total += span
    return int(total.total_seconds())


# Movements that are the result of play: hands at the tables (on the table credit), tournament
# entries, refunds and prizes (on conto and bonus). Deposits, withdrawals, buy-ins and cash-outs
# only move the player's own money between his accounts.
PLAY_RESULT_KINDS = (
    TransactionKind.TOURNAMENT_ENTRY,
    TransactionKind.TOURNAMENT_REFUND,
    TransactionKind.PRIZE,
)


def net_result(*, user: User, since: datetime) -> int:
    """The player's net result of play (cents, negative = loss) in real money since ``since``."""
    at_tables = Q(account__kind=AccountKind.TABLE_CREDIT, transaction__kind=TransactionKind.HAND)
    tournaments = Q(
        account__kind__in=[AccountKind.PLAYER_CASH, AccountKind.PLAYER_BONUS],
        transaction__kind__in=PLAY_RESULT_KINDS,
    )
    total = Posting.objects.filter(
        at_tables | tournaments,
        account__owner=user,
        account__realm=Realm.REAL,
        transaction__created_at__gte=since,
    ).aggregate(s=Sum("amount", default=0))["s"]
    return int(total)


def money_at_tables(*, user: User) -> int:
    """Real money the player has at the tables now: open table credits and rebuys waiting for a hand's end."""
    credits = Account.objects.filter(
        owner=user, kind=AccountKind.TABLE_CREDIT, realm=Realm.REAL, closed_at__isnull=True
    ).aggregate(s=Sum("balance", default=0))["s"]
    rebuys = Hold.objects.filter(
        account__owner=user,
        account__realm=Realm.REAL,
        purpose=Hold.Purpose.REBUY,
        status=HoldStatus.PENDING,
    ).aggregate(s=Sum("amount", default=0))["s"]
    return int(credits) + int(rebuys)


def play_session_get(*, user: User, now: datetime | None = None) -> dict[str, Any] | None:
    """The player's current session at real-money tables: since when he is seated (the earliest of
    his open table sessions), and its net result so far (winnings on the table credits); None if he
    is not seated."""
    now = now or timezone.now()
    rows = list(
        Account.objects.filter(
            owner=user, kind=AccountKind.TABLE_CREDIT, realm=Realm.REAL, closed_at__isnull=True
        ).values_list("created_at", "balance", "transferred_in")
    )
    if not rows:
        return None
    started = min(r[0] for r in rows)
    return {
        "started_at": started,
        "seconds": max(0, int((now - started).total_seconds())),
        "net_result": sum(balance - transferred for _, balance, transferred in rows),
        "tables": len(rows),
    }


@dataclass(frozen=True)
class StatementPage:
    """One page of the movimenti del conto."""

    items: list[dict[str, Any]]
    number: int
    num_pages: int
    count: int
    filters: dict[str, Any] = field(default_factory=dict)

    @property
    def has_next(self) -> bool:
        return self.number < self.num_pages

    @property
    def has_previous(self) -> bool:
        return self.number > 1


def statement_page(
    *,
    user: User,
    page: int = 1,
    per_page: int = 25,
    kind: str | None = None,
    account: str | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
) -> StatementPage:
    """The player's postings on conto and bonus, newest first, filtered and paginated."""
    kinds = {"cash": [AccountKind.PLAYER_CASH], "bonus": [AccountKind.PLAYER_BONUS]}.get(
        account or "", [AccountKind.PLAYER_CASH, AccountKind.PLAYER_BONUS]
    )
    qs = Posting.objects.filter(account__owner=user, account__kind__in=kinds, account__realm=Realm.REAL)
    if kind and kind in TransactionKind.values:
        qs = qs.filter(transaction__kind=kind)
    if date_from:
        qs = qs.filter(transaction__created_at__date__gte=date_from)
    if date_to:
        qs = qs.filter(transaction__created_at__date__lte=date_to)
    rows = qs.order_by("-id").values(
        "id",
        "amount",
        "balance_after",
        "account__kind",
        "transaction_id",
        "transaction__kind",
        "transaction__created_at",
        "transaction__memo",
        "transaction__data__ticket",
    )
    paginator = Paginator(rows, per_page)
    current = paginator.get_page(page)
    labels = dict(TransactionKind.choices)
    items: list[dict[str, Any]] = [
        {
            "id": row["id"],
            "created_at": row["transaction__created_at"],
            "kind": row["transaction__kind"],
            "kind_label": str(labels.get(row["transaction__kind"], row["transaction__kind"])),
            "account": "bonus" if row["account__kind"] == AccountKind.PLAYER_BONUS else "cash",
            "amount": row["amount"],
            "balance_after": row["balance_after"],
            "transaction_id": str(row["transaction_id"]),
            "memo": row["transaction__memo"],
            "ticket": row["transaction__data__ticket"] or "",  # the regulator's, of a buy-in or rebuy
        }
        for row in current.object_list
    ]
    # where each movement came from: the table credit or tournament pool on its other side
    sources = {
        str(tx): ref
        for tx, ref in Posting.objects.filter(
            transaction_id__in=[row["transaction_id"] for row in items],
            account__kind__in=[AccountKind.TABLE_CREDIT, AccountKind.TOURNAMENT_POOL],
        ).values_list("transaction_id", "account__ref")
    }
    named = hooks.ledger_sources(set(sources.values()))  # the lobby and the tournaments name them
    for row in items:
        found = named.get(sources.get(row["transaction_id"], ""))
        row["source"] = {"name": found[0], "url": found[1]} if found else None
    filters = {"kind": kind, "account": account, "date_from": date_from, "date_to": date_to}
    return StatementPage(items, current.number, paginator.num_pages, paginator.count, filters)


def pending_withdrawals_of(*, user: User) -> list[dict[str, Any]]:
    """The player's withdrawals waiting for staff approval (their money is reserved), newest first."""
    rows = (
        Payment.objects.filter(
            user=user, direction=Payment.Direction.WITHDRAWAL, status=Payment.Status.PENDING
        )
        .order_by("-created_at", "-id")
        .values("id", "amount", "created_at")
    )
    return [dict(row) for row in rows]


def pending_withdrawals() -> list[dict[str, Any]]:
    """Withdrawals waiting for staff approval, oldest first."""
    rows = (
        Payment.objects.filter(direction=Payment.Direction.WITHDRAWAL, status=Payment.Status.PENDING)
        .order_by("created_at")
        .values("id", "user__nickname", "amount", "created_at")
    )
    return [dict(row) for row in rows]


def reconciliation_report() -> dict[str, Any]:
    """Compare every stored balance with the sum of its postings; check realms and transactions sum to 0.

    ``mismatches`` lists the accounts whose stored balance differs from their postings (or whose
    ``held`` differs from their pending holds); ``unbalanced`` lists transactions whose postings do
    not sum to zero (the database forbids them; listed anyway, the check must not trust the checker).
    """
    accounts = Account.objects.annotate(
        posted=Coalesce(Sum("postings__amount"), 0),
    ).values_list("pk", "kind", "realm", "ref", "balance", "posted")
    mismatches = [
        {"account": pk, "kind": kind, "realm": realm, "ref": ref, "stored": bal, "postings": posted}
        for pk, kind, realm, ref, bal, posted in accounts
        if bal != posted
    ]
    held = Account.objects.annotate(
        pending=Coalesce(Sum("holds__amount", filter=Q(holds__status="pending")), 0)
    ).exclude(held=F("pending"))
    mismatches += [
        {
            "account": a.pk,
            "kind": a.kind,
            "realm": a.realm,
            "ref": a.ref,
            "held": a.held,
            "pending_holds": a.pending,
        }
        for a in held
    ]
    unbalanced = list(
        Transaction.objects.annotate(total=Coalesce(Sum("postings__amount"), 0), n=Count("postings"))
        .filter(Q(n__lt=2) | ~Q(total=0))
        .values_list("pk", flat=True)[:100]
    )
    totals = ledger_totals()
    ok = not mismatches and not unbalanced and all(v == 0 for v in totals.values())
    return {
        "ok": ok,
        "accounts_checked": len(accounts),
        "mismatches": mismatches,
        "unbalanced": [str(pk) for pk in unbalanced],
        "realm_totals": totals,
    }


# --- figures of the back office's reports (piattaforma.reports) ----------------------------------


def hand_rake_rows(*, since: datetime, realm: str = Realm.REAL) -> list[tuple[date, str, int]]:
    """(local day, table reference, rake) of every settled hand with rake since ``since``."""
    rows = Transaction.objects.filter(kind=TransactionKind.HAND, realm=realm, created_at__gte=since)
    out = []
    for at, data in rows.values_list("created_at", "data"):
        rake = int((data or {}).get("rake") or 0)
        if rake:
            out.append((timezone.localdate(at), str(data.get("hand", "")).split(":")[0], rake))
    return out


PLAY_KINDS = (
    TransactionKind.BUY_IN,
    TransactionKind.REBUY,
    TransactionKind.HAND,
    TransactionKind.TOURNAMENT_ENTRY,
)


def active_player_counts(*, since: datetime, realm: str = Realm.REAL) -> list[tuple[date, int]]:
    """(local day, players) where a player counts once a day if he staked money at a table or a tournament."""
    day = TruncDate("transaction__created_at", tzinfo=timezone.get_current_timezone())
    rows = (
        Posting.objects.filter(
            transaction__kind__in=PLAY_KINDS,
            transaction__realm=realm,
            transaction__created_at__gte=since,
            account__owner__isnull=False,
        )
        .annotate(day=day)
        .values("day")
        .annotate(players=Count("account__owner", distinct=True))
        .order_by("day")
    )
    return [(r["day"], r["players"]) for r in rows]


def tournament_fee_rows(*, since: datetime) -> list[tuple[date, str, int]]:
    """(local day, tournament reference, fee) of entries since ``since``; a refund counts its fee back."""
    entries = Transaction.objects.filter(kind=TransactionKind.TOURNAMENT_ENTRY, created_at__gte=since)
    out = [
        (timezone.localdate(at), str(data.get("tournament", "")), int(data.get("rake") or 0))
        for at, data in entries.values_list("created_at", "data")
    ]
    refunds = Transaction.objects.filter(
        kind=TransactionKind.TOURNAMENT_REFUND, created_at__gte=since, reverses__isnull=False
    )
    out += [
        (timezone.localdate(at), str(data.get("tournament", "")), -int(data.get("rake") or 0))
        for at, data in refunds.values_list("created_at", "reverses__data")
    ]
    return [row for row in out if row[2]]


def prize_rows(*, since: datetime) -> list[tuple[date, str, int]]:
    """(local day, tournament reference, amount) of the prizes paid since ``since``."""
    postings = Posting.objects.filter(
        transaction__kind=TransactionKind.PRIZE, transaction__created_at__gte=since, amount__gt=0
    )
    return [
        (timezone.localdate(at), str((data or {}).get("tournament", "")), int(amount))
        for at, data, amount in postings.values_list("transaction__created_at", "transaction__data", "amount")
    ]


def payment_rows(*, since: datetime) -> list[tuple[date, str, int]]:
    """(local day, "deposit" or "withdrawal", amount) of the payments settled since ``since``."""
    settled = Payment.objects.filter(status=Payment.Status.SETTLED, created_at__gte=since)
    return [
        (timezone.localdate(decided or at), direction, int(amount))
        for at, decided, direction, amount in settled.values_list(
            "created_at", "decided_at", "direction", "amount"
        )
    ]


def _duration_text(seconds: int) -> str:
    minutes = seconds // 60
    if minutes < 60:
        return ngettext("%(m)d minuto", "%(m)d minuti", minutes) % {"m": minutes}
    return _("%(h)d h %(m)02d min") % {"h": minutes // 60, "m": minutes % 60}


def reality_check_get(
    *, user: User, acknowledged: dict[str, Any] | None, now: datetime | None = None
) -> dict[str, Any]:
    """The reality check now: whether the player is seated, for how long and with what net result,
    whether a reminder is due (every ``user.reality_check_minutes`` of play, counted from the
    session's start or from his last "Continua" in this session) and whether his session-time
    limit is used up. Texts are in the request's language."""
    now = now or timezone.now()
    session = play_session_get(user=user, now=now)
    labels = {"title": _("Promemoria di gioco"), "continue": _("Continua"), "stop": _("Esci dai tavoli")}
    if session is None:
        return {"playing": False, "due": False, "time_limit_reached": False, "labels": labels}
    session_id = session["started_at"].isoformat()
    since = session["started_at"]
    if acknowledged and acknowledged.get("session") == session_id:
        with contextlib.suppress(ValueError, TypeError):  # a session value we did not write: ignored
            since = max(since, datetime.fromisoformat(str(acknowledged.get("at"))))
    interval = user.reality_check_minutes
    due = interval > 0 and (now - since).total_seconds() >= interval * 60
    exhausted = play_time_exhausted(user=user, now=now)
    net = session["net_result"]
    result = f"+{format_eur(net)}" if net > 0 else format_eur(net)
    message = _("Stai giocando da %(time)s. Risultato della sessione: %(result)s.") % {
        "time": _duration_text(session["seconds"]),
        "result": result,
    }
    limit_message = ""
    if exhausted is not None:
        limit_message = _(
            "Hai raggiunto il tuo limite di tempo di gioco (%(m)d minuti): "
            "lasci il tavolo alla fine della mano."
        ) % {"m": exhausted[1]}
    return {
        "playing": True,
        "session": session_id,
        "seconds": session["seconds"],
        "net_result": session["net_result"],
        "net_result_text": result,
        "interval_minutes": interval,
        "due": due,
        "message": message,
        "time_limit_reached": exhausted is not None,
        "time_limit_message": limit_message,
        "labels": labels,
    }


def withdrawals_waiting(user: Any) -> list[dict[str, Any]]:
    """Withdrawals waiting for a decision, for those who approve them (``hooks.staff_waiting``)."""
    from django.urls import reverse

    if not user.has_perm("wallet.approve_withdrawal"):
        return []
    count = Payment.objects.filter(
        direction=Payment.Direction.WITHDRAWAL, status=Payment.Status.PENDING
    ).count()
    url = reverse("backoffice:wallet_withdrawal_changelist") + "?status__exact=pending"
    return [{"label": _("Prelievi da approvare"), "count": count, "url": url}]


def four_eyes_waiting(user: Any) -> list[dict[str, Any]]:
    """Adjustments and reversals asked by another staff member, for those who may decide them
    (``hooks.staff_waiting``): one's own requests wait for someone else."""
    from django.urls import reverse

    if not user.has_perm("wallet.adjust_ledger"):
        return []
    items = []
    waiting: tuple[tuple[type[AdjustmentRequest] | type[ReversalRequest], str, str], ...] = (
        (AdjustmentRequest, _("Rettifiche da approvare"), "wallet_adjustmentrequest_changelist"),
        (ReversalRequest, _("Storni da approvare"), "wallet_reversalrequest_changelist"),
    )
    for model, label, name in waiting:
        count = model.objects.filter(status="pending").exclude(requested_by=user).count()
        url = reverse(f"backoffice:{name}") + "?status__exact=pending"
        items.append({"label": label, "count": count, "url": url})
    return items


def hand_results(*, user: User, hand_refs: list[str]) -> dict[str, int]:
    """The player's net money result of each settled hand or match ("<table id>:<hand number>"), in
    cents (or play-money units), read from its ledger transaction; a hand that moved no money is
    absent."""
    rows = Posting.objects.filter(
        account__owner=user,
        account__kind=AccountKind.TABLE_CREDIT,
        transaction__kind=TransactionKind.HAND,
        transaction__data__hand__in=hand_refs,
    ).values_list("transaction__data__hand", "amount")
    out: dict[str, int] = {}
    for ref, amount in rows:
        out[str(ref)] = out.get(str(ref), 0) + amount
    return out


def hand_deltas(*, hand_ref: str, realm: str = Realm.REAL) -> dict[str, int]:
    """What one settled hand or match ("<table id>:<hand number>") moved on each table session's
    credit (cents, by table_session_ref); empty before its settlement or when it moved nothing."""
    rows = Posting.objects.filter(
        account__kind=AccountKind.TABLE_CREDIT,
        account__realm=realm,
        transaction__kind=TransactionKind.HAND,
        transaction__realm=realm,
        transaction__data__hand=hand_ref,
    ).values_list("account__ref", "amount")
    out: dict[str, int] = {}
    for ref, amount in rows:
        key = ref.removeprefix("table:")
        out[key] = out.get(key, 0) + amount
    return out


def entry_paid_from(*, entry_transaction_id: str) -> dict[str, tuple[int, int]]:
    """What a tournament entry took from the player: ``{"cash": (account id, cents), "bonus": …}``
    (a part paid nothing is left out)."""
    postings = Posting.objects.filter(
        transaction_id=entry_transaction_id,
        transaction__kind=TransactionKind.TOURNAMENT_ENTRY,
        amount__lt=0,
        account__kind__in=(AccountKind.PLAYER_CASH, AccountKind.PLAYER_BONUS),
    ).select_related("account")
    names = {AccountKind.PLAYER_CASH: "cash", AccountKind.PLAYER_BONUS: "bonus"}
    return {names[AccountKind(p.account.kind)]: (p.account_id, -p.amount) for p in postings}


def cash_account_id(*, user_id: int) -> int | None:
    """The id of the player's conto di gioco (real money); None if he never had one."""
    return (
        Account.objects.filter(kind=AccountKind.PLAYER_CASH, realm=Realm.REAL, ref=f"user:{user_id}")
        .values_list("pk", flat=True)
        .first()
    )


def regulator_tickets(*, user: User, limit: int = 10) -> list[dict[str, Any]]:
    """The player's latest cash-table payments that carry the regulator's ticket (buy-ins and
    rebuys; rules 004, "Rebuy"), newest first: the ticket, when, how much, what, at which table,
    and whether it still waits for the hand in progress to end (a rebuy held until then)."""
    kinds = {TransactionKind.BUY_IN: _("Ingresso al tavolo"), TransactionKind.REBUY: _("Ricarica al tavolo")}
    posted = (
        Posting.objects.filter(
            account__owner=user,
            account__kind=AccountKind.PLAYER_CASH,
            account__realm=Realm.REAL,
            transaction__kind__in=list(kinds),
            amount__lt=0,
        )
        .exclude(transaction__data__ticket="")
        .filter(transaction__data__ticket__isnull=False)
        .order_by("-id")
        .values_list(
            "transaction__data__ticket",
            "transaction__created_at",
            "amount",
            "transaction__kind",
            "transaction__data__table_session",
        )[:limit]
    )
    held = (
        Hold.objects.filter(account__owner=user, status=HoldStatus.PENDING, purpose=Hold.Purpose.REBUY)
        .exclude(ticket="")
        .order_by("-id")
        .values_list("ticket", "created_at", "amount", "destination__ref")[:limit]
    )
    rows = [
        {
            "ticket": t,
            "at": at,
            "amount": -amount,
            "kind": kinds[TransactionKind(kind)],
            "ref": f"table:{session}",
        }
        for t, at, amount, kind, session in posted
    ]
    rows += [
        {
            "ticket": t,
            "at": at,
            "amount": amount,
            "kind": kinds[TransactionKind.REBUY],
            "ref": ref,
            "pending": True,
        }
        for t, at, amount, ref in held
    ]
    rows = sorted(rows, key=lambda r: r["at"], reverse=True)[:limit]
    named = hooks.ledger_sources({r["ref"] for r in rows})  # the lobby names the tables
    for r in rows:
        found = named.get(r.pop("ref"))
        r["source"] = {"name": found[0], "url": found[1]} if found else None
    return rows
