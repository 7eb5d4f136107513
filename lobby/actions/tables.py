"""A table itself: its creation and settings (the back office), and its chat."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import registry
from lobby import broadcast, chat
from lobby.actions import tablerow
from lobby.errors import (
    ChatRefused,
    HandInProgress,
    InvalidSeat,
    NotAllowed,
    RakeAtTrainingTable,
    RakeCapNotApplied,
    TableClosed,
)
from lobby.models import ChatMessage, Seat, Table, TableRuntime
from moderation import actions as moderation
from piattaforma.actions import audit_record
from piattaforma.models import User

# What shapes the play of a hand: the hand in progress keeps the terms it was dealt on.
TABLE_PLAY_FIELDS = frozenset((
    "game", "config", "realm", "seats", "min_players", "rake_bp", "rake_cap", "posta_partita",
    "posta_unitaria", "perdita_massima", "tempo_giocata", "tempo_partita", "time_bank",
))  # fmt: skip


@transaction.atomic
def table_create(
    *, name: str, game: str, seats: int, min_buy_in: int, max_buy_in: int, **fields: Any
) -> Table:
    """Create a cash table and its runtime row, checking the game's config."""
    table = Table(
        name=name,
        game=game,
        seats=seats,
        min_buy_in=min_buy_in,
        max_buy_in=max_buy_in,
        **fields,
    )
    if (
        "tempo_giocata" not in fields and game in registry.names()
    ):  # the game's own (Burraco, Scala 40: longer)
        table.tempo_giocata = tablerow.engine_for(table).default_tempo_giocata
    table_checked(table)
    table.save()
    TableRuntime.objects.create(table=table)
    return table


def table_checked(table: Table) -> None:
    """A table's settings checked (model, the game's seats and config); its config normalised."""
    table.full_clean()
    engine = tablerow.engine_for(table)
    if not engine.min_seats <= table.seats <= engine.max_seats:
        raise InvalidSeat(f"{engine.title}: da {engine.min_seats} a {engine.max_seats} posti")
    if table.rake_cap and "rake_cap" not in engine.table_settings:  # a limit nobody would enforce
        raise RakeCapNotApplied(f"{engine.title} non applica un tetto al rake: lascialo a zero")
    if table.realm == Table.Realm.PLAY and (table.rake_bp or table.rake_cap):  # gettoni have no house share
        raise RakeAtTrainingTable()
    table.config = engine.validate_config(table.config)
    tablerow.engine_config(table)


def _table_changed(rt: TableRuntime, fields: dict[str, Any]) -> list[str]:
    """Apply ``fields`` to the locked table in memory, checked; return the names that change.

    Refused: what shapes play while a hand is running, the game or the realm while anyone is
    seated (their credit and the next hand's carry are of that game and realm), a seat count below
    a seated player's number.
    """
    table = rt.table
    before = {name: getattr(table, name) for name in fields}
    seated = Seat.objects.filter(table_id=rt.pk)
    # first, before the new game's config is checked: no config makes this change possible
    if any(fields[name] != before[name] for name in ("game", "realm") if name in fields) and seated.exists():
        raise NotAllowed("Gioco e tipo di denaro si cambiano solo a tavolo vuoto")
    for name, value in fields.items():
        setattr(table, name, value)
    table_checked(table)
    changed = [name for name in fields if getattr(table, name) != before[name]]
    if TABLE_PLAY_FIELDS.intersection(changed) and tablerow.hand_running(rt):
        raise HandInProgress("Una mano è in corso: le impostazioni di gioco si cambiano a mano finita")
    if seated.filter(number__gt=table.seats).exists():
        raise InvalidSeat("Un giocatore siede oltre il nuovo numero di posti")
    return changed


def table_check(*, table_id: int | None, fields: dict[str, Any]) -> dict[str, Any]:
    """Check new settings as ``table_create`` (``table_id`` None) or ``table_update`` would; write nothing.

    The back office's form calls it inside its transaction: the runtime row stays locked until the
    update is saved. Returns the fields normalised (the game's config with its defaults).
    """
    if table_id is None:
        table = Table(**fields)
        table_checked(table)
    else:
        rt = tablerow.lock(table_id)
        _table_changed(rt, fields)
        table = rt.table
    return {name: getattr(table, name) for name in fields}


@transaction.atomic
def table_update(*, table_id: int, actor: User, **fields: Any) -> Table:
    """Change a table's settings (the back office); refused, changing nothing, as ``_table_changed`` says."""
    rt = tablerow.lock(table_id)
    changed = _table_changed(rt, fields)
    if "game" in changed:
        rt.carry = None  # the old game's carry (button, match score) means nothing to the new one
        rt.save(update_fields=["carry"])
    rt.table.save()
    audit_record(actor=actor, action="table.update", target=rt.table, data={"changed": changed})
    return rt.table


CHAT_MAX_LENGTH = 200


CHAT_MAX_PER_MINUTE = 10


def table_chat_post(*, table_id: int, user: User, text: str) -> ChatMessage:
    """Post a chat line: length and rate limits, then moderation's rules before anyone sees it.

    Not one transaction: moderation commits a held or refused line (for its moderators) before
    raising; the line shown is written and sent after it.
    """
    text = (text or "").strip()
    if not text or len(text) > CHAT_MAX_LENGTH:
        raise ChatRefused(f"Il messaggio deve avere da 1 a {CHAT_MAX_LENGTH} caratteri")
    table = Table.objects.filter(pk=table_id, is_open=True).first()
    if table is None:
        raise TableClosed()
    recent = ChatMessage.objects.filter(
        user=user, created_at__gte=timezone.now() - timedelta(minutes=1)
    ).count()
    if recent >= CHAT_MAX_PER_MINUTE:
        raise ChatRefused("Stai scrivendo troppo velocemente: attendi un momento")
    # "Durante il gioco": the author holds cards in the hand (partite: the match) still running
    rt = TableRuntime.objects.select_related("table").filter(pk=table_id).first()
    seat = Seat.objects.filter(table=table, user=user).first()
    in_hand = bool(rt and seat and tablerow.hand_running(rt) and seat.number in tablerow.dealt_seats(rt))
    running = bool(rt and tablerow.hand_running(rt))
    channel = chat.table_channel(table_id=table_id, spectator=seat is None, hand_running=running)
    shown = moderation.chat_screen(author=user, channel=channel, text=text, in_hand=in_hand)
    with transaction.atomic():
        message = ChatMessage.objects.create(table=table, user=user, text=shown.text)
        # robust: a channel-layer outage loses the line's broadcast, never the posting (it is stored)
        transaction.on_commit(
            lambda: broadcast.chat_posted(
                table_id,
                user.nickname,
                shown.text,
                message.created_at,
                shown.line_id,
                channel,
            ),
            robust=True,
        )
    return message
