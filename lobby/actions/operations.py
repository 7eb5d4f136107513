"""The lobby's side of site operations: tables closed by staff, by a game switch or by the site hours.

A closed table takes no new player and deals no new hand; the hand or match in progress plays to
its end, then everyone stands up with the table credit back on the conto (rules 004, "Disattivazione
giochi": the money section of a deactivated game is not accessible). The check sits at hand start
(``hands.table_start_hand`` calls ``hands.hand_start_refused``). A table session cancelled for a
technical fault is previewed (who gets what), then its hand is refunded (RULINGS G7), the table
closes and every seat is paid out ("Gestione dei malfunzionamenti").
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from lobby.actions import hands, tablerow, tables
from lobby.errors import TableClosed
from lobby.models import TABLE_SETTINGS_FIELDS, Hand, Seat, Table, TableRuntime, TableTemplate, WaitingEntry
from piattaforma import siteops
from piattaforma.actions import audit_record
from piattaforma.models import User
from wallet import actions as wallet_actions
from wallet import selectors as wallet_selectors


@transaction.atomic
def table_close(*, table_id: int, actor: User | None, reason: str = "") -> dict[str, Any]:
    """Close a cash table: nobody sits down any more; players stand up now, or after the hand in progress."""
    rt = tablerow.lock(table_id)
    if rt.table.is_open:
        Table.objects.filter(pk=table_id).update(is_open=False)
        rt.table.is_open = False
    running = tablerow.hand_running(rt)
    paid = {} if running else hands.stand_everyone(rt)
    if running:
        WaitingEntry.objects.filter(table_id=rt.pk).delete()
        tablerow.bump(rt)  # clients see the table closing
    audit_record(
        actor=actor,
        action="table.close",
        target=rt.table,
        reason=reason,
        data={"after_hand": running, "paid": paid},
    )
    return {"after_hand": running, "paid": paid}


@transaction.atomic
def table_site_closing(*, table_id: int) -> int:
    rt = tablerow.lock(table_id)
    return 0 if tablerow.hand_running(rt) else len(hands.stand_everyone(rt))


# --- cancelling a table session for a technical fault --------------------------------------------


def _carried_pot_shares(rt: TableRuntime, pot: int, seats: list[Seat]) -> dict[str, int]:
    """Return each seat's part of the money the table pot carries from earlier hands.

    Money the game holds for one seat (a chemin de fer banker's banco: ``Engine.release_seat``) goes
    back to that seat. The rest (piatto di parol, bestia) is the stakes of the players dealt into the
    last settled hand, and the rules return the stakes of a cancelled session to the conti.
    Decision: equal shares among those still seated, the floor each, the remainder one cent at a
    time in seat order (RULINGS G1); with nobody eligible seated, it stays in the pot.
    """
    out: dict[str, int] = {}
    carry = rt.carry
    if pot <= 0:
        return out
    engine = tablerow.hand_engine(rt)
    for seat in seats:
        carry, held = engine.release_seat(carry, seat.number)
        if held:
            out[seat.session_ref] = held
    shared = pot - sum(out.values())
    last = (
        Hand.objects.filter(table_id=rt.pk, cancelled=False, ended_at__isnull=False)
        .order_by("-number")
        .first()
    )
    dealt = {s["session_ref"] for s in (last.seats if last else [])}
    eligible = [s for s in seats if s.session_ref in dealt]
    if shared > 0 and eligible:
        share, rest = divmod(shared, len(eligible))
        for i, seat in enumerate(eligible):
            out[seat.session_ref] = out.get(seat.session_ref, 0) + share + (1 if i < rest else 0)
    return out


def table_session_cancel_preview(*, table_id: int) -> dict[str, Any]:
    """What cancelling the table session would do, written nowhere: each seat's amount back to the conto."""
    rt = TableRuntime.objects.select_related("table").filter(pk=table_id).first()
    if rt is None:
        raise TableClosed()
    table = rt.table
    seats = list(Seat.objects.filter(table_id=table_id).select_related("user").order_by("number"))
    pot = wallet_selectors.table_pot_get(pot_ref=f"table-{table.pk}", realm=table.realm)
    shares = _carried_pot_shares(rt, pot, seats)
    rows = []
    for seat in seats:
        credit = int(
            wallet_selectors.table_credit_get(table_session_ref=seat.session_ref, realm=table.realm)[
                "balance"
            ]
        )
        back = shares.get(seat.session_ref, 0)
        rows.append(
            {
                "seat": seat.number,
                "nickname": seat.user.nickname,
                "credit": credit,
                "pot_share": back,
                "total": credit + back,
            }
        )
    return {
        "table": table,
        "hand_running": tablerow.hand_running(rt),
        "hand_no": rt.hand_no,
        "rows": rows,
        "pot": pot,
        "pot_left": pot - sum(shares.values()),
        "total": sum(r["total"] for r in rows),
    }


@transaction.atomic
def table_session_cancel(*, table_id: int, actor: User, reason: str) -> dict[str, Any]:
    """Cancel a table session for a technical fault: refund the hand in progress, close, pay every seat out.

    Earlier hands stand (their results are settled); the hand in progress is refunded in full
    (RULINGS G7: its chips never left the table credits); a pot carried from earlier hands goes
    back as ``_carried_pot_shares`` says; then every seat's credit goes to its conto. Audited.
    """
    if len((reason or "").strip()) < 5:
        raise TableClosed("Indica la motivazione dell'annullamento")
    rt = tablerow.lock(table_id)
    table = rt.table
    if tablerow.hand_running(rt):
        hands.table_cancel_hand(table_id=table_id, actor=actor, reason=reason)
        rt = tablerow.lock(table_id)
    seats = list(Seat.objects.filter(table_id=table_id).order_by("number"))
    pot = wallet_selectors.table_pot_get(pot_ref=f"table-{table.pk}", realm=table.realm)
    shares = _carried_pot_shares(rt, pot, seats)
    if shares:
        wallet_actions.table_hand_settle(
            deltas=shares,
            rake=0,
            pot=-sum(shares.values()),
            pot_ref=f"table-{table.pk}",
            idempotency_key=f"session-cancel:{table.pk}:{rt.hand_no}",
            realm=table.realm,
            hand_ref=f"{table.pk}:cancel",
        )
        rt.carry = None  # the carried pot is paid out: the next session starts afresh
        rt.save(update_fields=["carry"])
    Table.objects.filter(pk=table_id).update(is_open=False)
    table.is_open = False
    paid = hands.stand_everyone(rt)
    audit_record(
        actor=actor,
        action="table.cancel_session",
        target=table,
        reason=reason,
        data={"paid": paid, "pot_shares": shares, "at": timezone.now().isoformat()},
    )
    return {"paid": paid, "pot_shares": shares}


def tables_switch_preview(*, game: str, realms: set[str], until: Any) -> list[str]:
    """Hook: the tables a game switch would close, for the back office's confirmation page."""
    lines = []
    for table in Table.objects.filter(game=game, realm__in=sorted(realms), is_open=True).order_by("pk"):
        rt = TableRuntime.objects.filter(pk=table.pk).first()
        seated = Seat.objects.filter(table=table).count()
        when = "alla fine della mano in corso" if rt is not None and tablerow.hand_running(rt) else "subito"
        lines.append(
            f"Tavolo «{table.name}» ({table.get_realm_display()}): si chiude {when}; "
            f"{seated} seduti si alzano col credito."
        )
    return lines


# --- tables from templates -----------------------------------------------------------------------


def template_check(*, fields: dict[str, Any]) -> dict[str, Any]:
    """Check a template's settings as ``table_create`` would check a table's; return them normalised."""
    return tables.table_check(table_id=None, fields={"name": "modello", **fields}) | {
        "name": fields.get("name")
    }


def _next_table_name(template: TableTemplate) -> str:
    taken = set(Table.objects.filter(name__startswith=template.table_name).values_list("name", flat=True))
    number = 1
    while f"{template.table_name} {number}" in taken:
        number += 1
    return f"{template.table_name} {number}"


@transaction.atomic
def table_open_from_template(*, template_id: int, actor: User | None, name: str = "") -> Table:
    """Open a cash table with a template's settings (refused while its game is off in that realm); audited."""
    template = TableTemplate.objects.select_for_update().get(pk=template_id)
    if not template.active:
        raise TableClosed("Il modello non è in uso")
    siteops.check_game_enabled(game=template.game, realm=template.realm)
    fields = {name_: getattr(template, name_) for name_ in TABLE_SETTINGS_FIELDS}
    table = tables.table_create(name=(name or "").strip() or _next_table_name(template), **fields)
    audit_record(actor=actor, action="table.open_from_template", target=table, data={"template": template.pk})
    return table
