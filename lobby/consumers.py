"""The live table over WebSocket: thin — authenticate, check the message shape, call an action.

Client → server messages (JSON): ``{"type": "act", "action": {...}, "version": n}``,
``{"type": "sync", "version": n}``, ``{"type": "chat", "text": "..."}``,
``{"type": "sitout", "sitout": true|false}``, ``{"type": "ready"}`` (giochi a partite: "Sono pronto
per iniziare", or another match on the end-of-match panel), ``{"type": "leave"}``.
Server → client: ``table.state`` payloads (see ``lobby.selectors.table_payload``; on the owner
runtime a seated player's own view also carries ``acted``, the version his last decision made), ``chat``,
``error`` (stable ``code``, Italian ``message``) and the process heartbeat's ``{"type":
"table.version", "version": n}`` (``lobby.presence``: behind it, the client asks ``sync``).
A refused message changes nothing.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from channels.consumer import get_handler_name

from games.engine import CodedError
from lobby import broadcast, chat, door, owners, presence, selectors
from lobby.errors import TableElsewhere, TableError
from lobby.models import Seat, Table
from lobby.runtime.owner import TableOwner
from lobby.runtime.remote import RemoteOwner
from lobby.runtime.threads import blocking
from piattaforma import logcontext, metrics
from piattaforma.consumers import AuthenticatedJsonConsumer
from wallet.money import parse_cents

logger = logging.getLogger(__name__)

CLOSE_NO_TABLE = 4404
CLOSE_NO_OBSERVERS = 4403
CLOSE_ELSEWHERE = 4409  # the table's owner is another server process


def db(func: Callable[..., Any]) -> Callable[..., Any]:
    """Run a lobby read or action (one transaction each) off the event loop.

    On PostgreSQL each call runs on a worker thread with its own connection: Channels' default
    (thread-sensitive) runs every database call of a Daphne process on one thread, so one table's
    transaction would wait behind every other table's. The table row lock orders the writes of
    one table, as it already does between Daphne processes, and each connection still handles its
    own messages one at a time. SQLite serialises writers anyway (and its in-memory test database
    refuses concurrent ones): there the calls stay on the one thread.
    """
    return blocking(func)


@db
def _may_watch(table_id: int, user_id: int) -> tuple[str | None, str]:
    """The refusal of a connection (None: it may watch) and the table's game."""
    table = Table.objects.filter(pk=table_id, is_open=True).first()
    if table is None:
        return "missing", ""
    if not table.observers_allowed and not Seat.objects.filter(table=table, user_id=user_id).exists():
        return "forbidden", table.game
    return None, table.game


class TableConsumer(AuthenticatedJsonConsumer):
    """One connection of one user to one table."""

    metrics_kind = "table"
    game = ""  # the table's, for the metrics
    sent_at = float("-inf")  # (monotonic) the last frame written to this socket
    last_version = 0  # of the last view written to this socket (``newer``)

    def newer(self, version: int) -> bool:
        """Take a view of ``version`` for this socket, unless a newer one went out already (a
        broadcast or a relayed view may overtake a read: never an older view after a newer)."""
        if version < self.last_version:
            return False
        self.last_version = version
        return True

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        self.sent_at = time.monotonic()
        await super().send(text_data, bytes_data, close)

    async def send_json(self, content: Any, close: bool = False) -> None:
        self.sent_at = time.monotonic()  # (Channels' send_json calls its parent's send, not ours)
        await super().send_json(content, close)

    async def on_authenticated(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        logcontext.table_id.set(self.table_id)  # (this connection's task: every line it logs)
        self.user = self.scope["user"]
        refusal, self.game = await _may_watch(self.table_id, self.user.pk)
        if refusal:
            await self.close(code=CLOSE_NO_TABLE if refusal == "missing" else CLOSE_NO_OBSERVERS)
            return
        # views come from the table's owner, only chat (and moderation's notices) through groups
        try:
            self.owner = await presence.owner_for(self.table_id)
        except TableElsewhere:  # another live process owns the table: its owner relays the views
            if not await self.reach_remote_owner():
                return
        self.groups_joined = [broadcast.public_group(self.table_id), chat.notices_group(self.user.pk)]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        # the row counting this connection for a seat (None: a spectator's), dropped on close
        self.socket_id = await self.run(door.seat_connected, process=owners.PROCESS, user=self.user)
        presence.opened(self)
        if self.owner is not None:
            await self.owner.settled()  # no view of a decision not committed yet
            if self.owner.stopped:  # its lease moved on meanwhile: reconnect, to the new owner
                await self.close_elsewhere("its owner here stopped while it connected")
                return
            # From its snapshot on (no await in between): the first view this socket receives is
            # that snapshot, with this connection counted, and no later version is missed.
            self.owner.audience.add(self.user.pk, self)
        await self.send_snapshot()
        history = await db(chat.table_history)(table_id=self.table_id, user_id=self.user.pk)
        if history["lines"]:  # the chat so far, on (re)connect
            await self.send_json(history)

    owner: TableOwner | None = None
    remote: RemoteOwner | None = None  # the table's owner in another process (over the channel layer)
    remote_first: dict[str, Any] | None = None  # the owner's answer to join: the first view

    async def reach_remote_owner(self) -> bool:
        """Join the table's owner in another server process; closed with 4409 when there is none."""
        lease = await db(owners.lease_holder)(self.table_id)
        if lease is None or not lease.channel:  # its lease is being taken over: reconnect
            await self.close_elsewhere("no live owner in any process")
            return False
        self.remote = RemoteOwner(self.table_id, lease.channel, self.channel_name)
        try:
            self.remote_first = await self.remote.join(self.user.pk)
        except TableElsewhere:
            self.remote = None
            await self.close_elsewhere("its owner in another process did not answer the join")
            return False
        return True

    async def close_elsewhere(self, why: str) -> None:
        """Close with 4409: the client reconnects and resyncs, reaching the table's owner. Logged
        with its reason: a socket closed by the server in mid-game is never routine."""
        logger.warning("table %s: a socket of user %s closed with 4409: %s", self.table_id, self.user.pk, why)
        await self.close(code=CLOSE_ELSEWHERE)

    async def owner_gone(self) -> None:
        """The owner in another process lost its lease (it died): go on with its successor.

        When this process adopted the table (its heartbeat, ``presence.adopt_orphans``) the
        connection stays open, counted as it was, and gets the new owner's view; else it closes
        with 4409 and the client reconnects. Nothing more is asked of the old owner.
        """
        self.remote = None
        owner = owners.local_owner(self.table_id)
        if owner is None:
            await self.close_elsewhere("its owner in another process lost its lease")
            return
        self.owner = owner
        owner.audience.add(self.user.pk, self)  # from this snapshot on (no await in between)
        await self.send_snapshot()

    async def run(self, action: Callable[..., Any], **kwargs: Any) -> Any:
        """A table action of this connection's table: under its owner, or one transaction on a thread."""
        if self.owner is not None:
            return await self.owner.call(action, table_id=self.table_id, **kwargs)
        if self.remote is not None:
            user = kwargs.pop("user", None)
            return await self.remote.call(action.__name__, user.pk if user is not None else None, **kwargs)
        return await db(action)(table_id=self.table_id, **kwargs)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Call the message's handler, without Channels' hop to close old connections first.

        ``AsyncConsumer.dispatch`` awaits ``aclose_old_connections()`` before every message: a hop
        to the one thread-sensitive sync thread per frame received and per group message (each
        table action reaches every connection at the table twice: its own view and the public
        one). This consumer never touches the database outside ``db()``, whose calls close the
        old connections of their own thread before and after (``DatabaseSyncToAsync``).
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:  # also when the application failed or was stopped: disconnect() then never ran
            await self.uncount(None)

    async def uncount(self, code: int | None = None) -> None:
        """Stop counting this connection for its seat (once; before the channel layer, which may be
        down); ``code``: how it closed (its WebSocket close code), for its record."""
        presence.closed(self)
        socket_id, self.socket_id = getattr(self, "socket_id", None), None
        if self.owner is not None:
            self.owner.audience.remove(self.user.pk, self)
        if self.remote is not None:
            with contextlib.suppress(CodedError):  # the owner is gone: nothing of ours is left there
                await self.remote.leave(self.user.pk)
        if socket_id is not None:
            try:
                await self.run(door.seat_disconnected, socket_id=socket_id, code=code)
            except TableElsewhere:  # the owner in another process died: its successor's sweep drops the row
                logger.warning("table %s: socket %s left with its owner gone", self.table_id, socket_id)

    async def disconnect(self, code: int) -> None:
        await self.uncount(code)
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def heartbeat(self, version: int) -> None:
        """This process's heartbeat: the table's current version (``lobby.presence``).

        Left out for a connection its owner in this process sent that version (or a later one)
        less than half a beat ago: the owner writes to the socket itself, nothing is lost on the
        way, and the socket is not idle. A table in play gives every socket a view every few
        seconds, and a beat on top would add frames that tell it nothing. (Half a beat: the page
        closes a socket silent for three beats, and a beat may come late under load.)
        """
        fresh = time.monotonic() - self.sent_at < presence.beat_seconds() / 2
        if self.owner is not None and fresh and self.last_version >= version:
            return
        await self.send_json({"type": "table.version", "version": version})

    async def send_snapshot(self) -> None:
        if self.owner is not None:
            await self.owner.settled()  # (no await when nothing is pending: none after ``connect``'s)
            payload = self.owner.snapshot(self.user.pk)
        elif self.remote is not None:
            payload = getattr(self, "remote_first", None) or await self.remote.snapshot(self.user.pk)
            self.remote_first = None
        else:
            payload = await db(selectors.table_snapshot)(table_id=self.table_id, user_id=self.user.pk)
        if not self.newer(payload["version"]):
            return
        self.seated = chat.is_seated(payload["seats"], self.user.nickname)
        await self.send_json(payload)

    async def table_version(self, event: dict[str, Any]) -> None:
        """The heartbeat frame of a connection relayed to an owner in another process (``runtime.remote``)."""
        await self.heartbeat(event["version"])

    async def table_text(self, event: dict[str, Any]) -> None:
        """A view the table's owner in another process encoded for this user (``runtime.remote``)."""
        if self.newer(event["version"]):
            await self.send(text_data=event["text"])

    async def table_message(self, event: dict[str, Any]) -> None:
        """A broadcast from the group: forward it unless it is the public copy meant for others."""
        payload = event["payload"]
        if payload.get("audience") == "spectators" and getattr(self, "seated", False):
            return  # a spectators' line during a hand (lobby.chat): not for the players
        if payload.get("type") == "table.state":
            self.seated = chat.is_seated(payload["seats"], self.user.nickname)
            if payload.get("audience") == "public" and any(
                s["nickname"] == self.user.nickname for s in payload["seats"]
            ):
                return  # a seated player gets his own projection from the table's owner
            if not self.newer(payload["version"]):
                return
        await self.send_json(payload)

    async def handle(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        try:
            if kind == "act":
                action, version = message.get("action"), message.get("version")
                if not isinstance(action, dict) or not isinstance(action.get("type"), str):
                    await self.send_error("bad_message", "Giocata non valida")
                    return
                if version is not None and type(version) is not int:
                    await self.send_error("bad_message", "Versione non valida")
                    return
                if "amount" in action:  # a bet: integer cents, through the platform's one check
                    parse_cents(action["amount"])
                received = time.perf_counter()
                try:
                    if self.owner is not None:
                        await self.owner.act(self.user, action, version)
                    elif self.remote is not None:
                        await self.remote.act(self.user.pk, action, version)
                    else:
                        await db(door.table_act)(
                            table_id=self.table_id, user=self.user, action=action, version=version
                        )
                except TableElsewhere:  # not refused: the owner is elsewhere (the socket reconnects)
                    raise
                except CodedError:
                    metrics.act_refused(self.game)
                    raise
                metrics.act_done(self.game, received)  # applied and its views sent
            elif kind == "sync":
                await self.send_snapshot()
            elif kind == "chat":
                text = message.get("text")
                if not isinstance(text, str):
                    await self.send_error("bad_message", "Messaggio non valido")
                    return
                await db(door.table_chat_post)(table_id=self.table_id, user=self.user, text=text)
            elif kind == "sitout":
                if not isinstance(message.get("sitout"), bool):  # "false" is a truthy string
                    await self.send_error("bad_message", "Messaggio non valido")
                    return
                await self.run(door.table_sitout, user=self.user, sitout=message["sitout"])
            elif kind == "ready":
                await self.run(door.table_ready, user=self.user)
            elif kind == "leave":
                await self.run(door.table_leave, user=self.user)
            else:
                await self.send_error("unknown_type", "Tipo di messaggio sconosciuto")
        except TableElsewhere:  # the owner in another process is gone: reconnect, to its successor
            where = "in another process" if self.remote is not None else "here"
            self.remote = None  # (it does not answer: this socket's row goes through the table's next owner)
            await self.close_elsewhere(f"its owner {where} refused {kind!r} (gone, or no answer in time)")
        except CodedError as exc:  # engine, table and wallet refusals: code + Italian message
            await self.send_json({"type": "error", **exc.as_dict()})
            if isinstance(exc, TableError) and exc.code == "stale_version":
                await self.send_snapshot()
