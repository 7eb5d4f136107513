"""Owners in other server processes: requests carried to them over the Channels layer.

Every server process that owns tables listens on one channel of its own, its *inbox*
(``inbox()``), and names it in the ``TableLease`` of each table it owns. Another process reaches a
table's owner by sending a request to that inbox, with a channel of its own for the reply:

- a connection opened on the wrong process (``RemoteOwner``): ``join`` (the owner sends this
  user's views to the connection's channel from then on, each seat only its own projection, and
  answers with the current one), ``act``, ``call`` (a row action of ``ROW_ACTIONS``), ``snapshot``,
  ``leave``;
- a sync caller (an HTTP view, a Celery task, a hook: ``ownership.through_owner``): ``park`` (the
  owner writes its state to the row and waits), runs the row action itself under the row lock,
  then ``release`` after its commit (the owner reads the row back and sends the new version).

A request with no reply within ``REQUEST_SECONDS`` (the owner died) raises ``TableElsewhere``: the
connection closes with 4409, the client reconnects, and the table is adopted by a live process
once its lease has expired (``ownership.adopt_orphans``).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.engine import CodedError
from lobby.errors import TableElsewhere, TableError
from lobby.runtime import blocking

if TYPE_CHECKING:
    from lobby.runtime.owner import TableOwner

logger = logging.getLogger(__name__)

REQUEST_SECONDS = 5.0

# The row actions a connection on another process may ask of an owner (the consumer's own).
ROW_ACTIONS = ("seat_connected", "seat_disconnected", "table_sitout", "table_ready", "table_leave")

_inboxes: dict[asyncio.AbstractEventLoop, tuple[str, asyncio.Task[None]]] = {}
_parks: dict[str, asyncio.Future[None]] = {}  # remote parks waiting for their release, by id


class RemoteRefusal(TableError):
    """A refusal the owner in another process answered with (its code and message kept)."""

    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(str(error.get("message") or self.default_message), **error.get("details", {}))
        self.code = str(error.get("code") or TableError.code)  # type: ignore[misc]  # the owner's code


# --- the owner's side ---------------------------------------------------------------------------


async def inbox() -> str:
    """This process's inbox (for the running event loop), listening from the first call."""
    loop = asyncio.get_running_loop()
    for old in [k for k in _inboxes if k.is_closed()]:
        del _inboxes[old]
    box = _inboxes.get(loop)
    if box is None or box[1].done():
        layer = get_channel_layer()
        name = await layer.new_channel("owners.")
        box = _inboxes[loop] = (name, loop.create_task(_listen(layer, name), name="lobby-owner-inbox"))
    return box[0]


async def _listen(layer: Any, name: str) -> None:
    while True:
        try:
            message = await layer.receive(name)
        except asyncio.CancelledError:
            raise
        except Exception:  # the layer is away (Redis restarting): listen again
            logger.exception("owner inbox %s: receive failed", name)
            await asyncio.sleep(1)
            continue
        asyncio.get_running_loop().create_task(_serve(layer, message))


async def _serve(layer: Any, message: dict[str, Any]) -> None:
    from lobby.runtime import ownership

    reply: dict[str, Any] = {"type": "owner.reply", "id": message.get("id")}
    try:
        owner = ownership.local_owner(int(message["table"]))
        if owner is None:
            raise TableElsewhere()
        reply["result"] = await _OPS[message["op"]](owner, message)
    except CodedError as exc:
        reply["error"] = exc.as_dict()
    except Exception:
        logger.exception("owner request %s of table %s failed", message.get("op"), message.get("table"))
        reply["error"] = {"code": "server_error", "message": "Errore del server"}
    if message.get("reply_to"):
        await layer.send(message["reply_to"], reply)


class RemoteViewer:
    """A connection on another process, as the owner's fan-out sees it: its channel."""

    def __init__(self, channel: str) -> None:
        self.channel = channel
        self.last_version = 0

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        """Relay a view, encoded once by the owner, to the connection (``TableConsumer.table_text``)."""
        message = {"type": "table.text", "text": text_data, "version": self.last_version}
        await get_channel_layer().send(self.channel, message)


async def _user(message: dict[str, Any]) -> Any:
    from piattaforma.models import User

    return await blocking(User.objects.get)(pk=int(message["user"]))


async def _join(owner: TableOwner, message: dict[str, Any]) -> dict[str, Any]:
    owner.audience.add(int(message["user"]), owner.remote_viewer(message["viewer"]))
    return owner.snapshot(int(message["user"]))


async def _leave(owner: TableOwner, message: dict[str, Any]) -> None:
    owner.audience.remove(int(message["user"]), owner.remote_viewer(message["viewer"]))
    owner.remote_viewers.pop(message["viewer"], None)


async def _snapshot(owner: TableOwner, message: dict[str, Any]) -> dict[str, Any]:
    return owner.snapshot(int(message["user"]))


async def _act(owner: TableOwner, message: dict[str, Any]) -> None:
    await owner.act(await _user(message), message["action"], message.get("version"))


async def _call(owner: TableOwner, message: dict[str, Any]) -> Any:
    from lobby import actions

    if message["func"] not in ROW_ACTIONS:
        raise TableError("Richiesta non ammessa")
    kwargs = dict(message.get("kwargs") or {})
    if "user" in message:
        kwargs["user"] = await _user(message)
    result = await owner.call(getattr(actions, message["func"]), table_id=owner.table_id, **kwargs)
    return result if isinstance(result, (int, str, bool, dict, type(None))) else None


async def _park(owner: TableOwner, message: dict[str, Any]) -> None:
    _parks[str(message["park"])] = await owner.park(save=True)


async def _release(owner: TableOwner, message: dict[str, Any]) -> None:
    release = _parks.pop(str(message["park"]), None)
    if release is not None and not release.done():
        release.set_result(None)


_OPS = {
    "join": _join,
    "leave": _leave,
    "snapshot": _snapshot,
    "act": _act,
    "call": _call,
    "park": _park,
    "release": _release,
}


# --- the caller's side --------------------------------------------------------------------------


async def request(channel: str, table_id: int, op: str, **fields: Any) -> Any:
    """Send one request to the owner's inbox and wait for its reply (refusals raised here)."""
    layer = get_channel_layer()
    reply_to = await layer.new_channel("owner-reply.")
    message = {
        "type": "owner.request",
        "op": op,
        "table": table_id,
        "id": uuid.uuid4().hex,
        "reply_to": reply_to,
    }
    await layer.send(channel, {**message, **fields})
    try:
        reply = await asyncio.wait_for(layer.receive(reply_to), REQUEST_SECONDS)
    except TimeoutError:
        raise TableElsewhere() from None  # the owner's process is gone: reconnect
    if "error" in reply:
        raise RemoteRefusal(reply["error"])
    return reply.get("result")


class RemoteOwner:
    """A table's owner in another process, as a connection of this process reaches it."""

    def __init__(self, table_id: int, channel: str, viewer: str) -> None:
        self.table_id = table_id
        self.channel = channel  # the owner's inbox
        self.viewer = viewer  # this connection's channel: the owner sends its views there

    async def request(self, op: str, **fields: Any) -> Any:
        return await request(self.channel, self.table_id, op, **fields)

    async def join(self, user_id: int) -> dict[str, Any]:
        return await self.request("join", user=user_id, viewer=self.viewer)

    async def leave(self, user_id: int) -> None:
        await self.request("leave", user=user_id, viewer=self.viewer)

    async def snapshot(self, user_id: int) -> dict[str, Any]:
        return await self.request("snapshot", user=user_id)

    async def act(self, user_id: int, action: dict[str, Any], version: int | None) -> None:
        await self.request("act", user=user_id, action=action, version=version)

    async def call(self, func_name: str, user_id: int | None, **kwargs: Any) -> Any:
        fields: dict[str, Any] = {"func": func_name, "kwargs": kwargs}
        if user_id is not None:
            fields["user"] = user_id
        return await self.request("call", **fields)


def park_elsewhere(channel: str, table_id: int) -> Any:
    """Park a table's owner in another process (sync code); return the function that releases it."""
    park = uuid.uuid4().hex
    async_to_sync(request)(channel, table_id, "park", park=park)

    def release() -> None:
        try:
            async_to_sync(request)(channel, table_id, "release", park=park)
        except CodedError:  # the owner is gone meanwhile: its successor reads the row anyway
            logger.warning("table %s: the owner in another process was not released", table_id)

    return release
