"""Owners in other server processes: requests carried to them over the Channels layer.

Every server process that owns tables listens on one channel of its own, its *inbox*
(``inbox()``), and names it in the ``TableLease`` of each table it owns. Another process reaches a
table's owner by sending a request to that inbox, with a channel of its own for the reply:

- a connection opened on the wrong process (``RemoteOwner``): ``join`` (the owner sends this
  user's views to the connection's channel from then on, each seat only its own projection, and
  answers with the current one), ``act``, ``call`` (a row action of ``ROW_ACTIONS``), ``snapshot``,
  ``leave``;
- a sync caller (an HTTP view, a Celery task, a hook: ``lobby.door``): ``park`` (the
  owner writes its state to the row and waits), runs the row action itself under the row lock,
  then ``release`` after its commit (the owner reads the row back and sends the new version). A
  caller that gave up waiting for the park releases it all the same: a late park never keeps the
  owner idle for ``PARK_SECONDS``.
- the heartbeat of a process with such connections (``lobby.presence``): ``viewers``, the ones
  still open (no reply). The owner forgets a connection of another process that no heartbeat has
  named for three beats (``drop_silent``): its process was killed, nothing else would ever tell.
  Each one named gets the heartbeat's ``table.version`` from the owner: the version it sent last
  (the runtime row, which that process could read, lags the journal between snapshots).

A request with no reply within ``REQUEST_SECONDS`` (the owner died), or that cannot be sent (the
layer is down), raises ``TableElsewhere``: the connection closes with 4409, the client
reconnects, and the table is adopted by a live process once its lease has expired
(``lobby.presence.adopt_orphans``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Callable, Iterable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.engine import CodedError
from lobby import actions, owners
from lobby.errors import TableElsewhere, TableError
from lobby.runtime.threads import blocking
from piattaforma.wsframes import encode

# A table's owner here (``lobby.runtime.owner.TableOwner``, which imports this module to reach
# owners elsewhere): the requests below are served by its methods.
TableOwner = Any

logger = logging.getLogger(__name__)

REQUEST_SECONDS = 5.0

# The row actions a connection on another process may ask of an owner (the consumer's own).
ROW_ACTIONS = ("seat_connected", "seat_disconnected", "table_sitout", "table_ready", "table_leave")

_inboxes: dict[asyncio.AbstractEventLoop, tuple[str, asyncio.Task[None]]] = {}
_parks: dict[str, asyncio.Future[None]] = {}  # remote parks waiting for their release, by id
_released: dict[str, None] = {}  # releases that came before their park (its caller gave up): ids


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
    reply: dict[str, Any] = {"type": "owner.reply", "id": message.get("id")}
    try:
        owner = owners.local_owner(int(message["table"]))
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
        self.user_id: int | None = None
        self.last_version = 0
        self.seen = asyncio.get_running_loop().time()  # its process's last word (join, heartbeat)

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        """Relay a view, encoded once by the owner, to the connection (``TableConsumer.table_text``)."""
        message = {"type": "table.text", "text": text_data, "version": self.last_version}
        await get_channel_layer().send(self.channel, message)

    async def beat(self, version: int) -> None:
        """The connection's heartbeat: the version the owner sent last (``TableConsumer.table_version``)."""
        await get_channel_layer().send(self.channel, {"type": "table.version", "version": version})


async def _user(message: dict[str, Any]) -> Any:
    from piattaforma.models import User

    return await blocking(User.objects.get)(pk=int(message["user"]))


async def _join(owner: TableOwner, message: dict[str, Any]) -> dict[str, Any]:
    await owner.settled()  # (then no await until its snapshot: no version missed, none uncommitted)
    viewer = owner.remote_viewer(message["viewer"])
    viewer.user_id, viewer.seen = int(message["user"]), asyncio.get_running_loop().time()
    owner.audience.add(viewer.user_id, viewer)
    return owner.snapshot(viewer.user_id)


async def _viewers(owner: TableOwner, message: dict[str, Any]) -> None:
    """A process's heartbeat: its connections still joined to this table, ``[user, channel]`` each.

    One forgotten meanwhile (its process beat too late, a loaded machine) joins again, with the
    current view: it missed the versions sent since.
    """
    now = asyncio.get_running_loop().time()
    for user_id, channel in message["viewers"]:
        viewer = owner.remote_viewer(channel)
        viewer.seen = now
        if viewer.user_id == user_id and viewer in owner.audience.by_user.get(user_id, {}):
            await viewer.beat(owner.published)  # behind it, the client asks ``sync``
            continue
        viewer.user_id = user_id
        await owner.settled()
        owner.audience.add(user_id, viewer)
        payload = owner.snapshot(user_id)
        viewer.last_version = payload["version"]
        await viewer.send(text_data=encode(payload))


def drop_silent(owner: TableOwner, before: float) -> int:
    """Forget the connections on other processes not named by a heartbeat since ``before`` (the
    loop's clock): their process died without a word (SIGKILL), its channels lead nowhere."""
    gone = [v for v in owner.remote_viewers.values() if v.seen < before]
    for viewer in gone:
        if viewer.user_id is not None:
            owner.audience.remove(viewer.user_id, viewer)
        owner.remote_viewers.pop(viewer.channel, None)
    if gone:
        logger.warning("table %s: %d connections of a silent process dropped", owner.table_id, len(gone))
    return len(gone)


async def _leave(owner: TableOwner, message: dict[str, Any]) -> None:
    owner.audience.remove(int(message["user"]), owner.remote_viewer(message["viewer"]))
    owner.remote_viewers.pop(message["viewer"], None)


async def _snapshot(owner: TableOwner, message: dict[str, Any]) -> dict[str, Any]:
    await owner.settled()
    return owner.snapshot(int(message["user"]))


async def _act(owner: TableOwner, message: dict[str, Any]) -> None:
    await owner.act(await _user(message), message["action"], message.get("version"))


async def _call(owner: TableOwner, message: dict[str, Any]) -> Any:
    if message["func"] not in ROW_ACTIONS:
        raise TableError("Richiesta non ammessa")
    kwargs = dict(message.get("kwargs") or {})
    if "user" in message:
        kwargs["user"] = await _user(message)
    result = await owner.call(getattr(actions, message["func"]), table_id=owner.table_id, **kwargs)
    return result if isinstance(result, (int, str, bool, dict, type(None))) else None


async def _park(owner: TableOwner, message: dict[str, Any]) -> int:
    park = str(message["park"])
    release, epoch = await owner.park(save=True)
    if park in _released:  # its caller gave up waiting and released it already
        del _released[park]
        release.set_result(None)
    else:
        _parks[park] = release
    return epoch  # the caller's writes are fenced with it (``ownership``, "Fencing")


async def _release(owner: TableOwner, message: dict[str, Any]) -> None:
    park = str(message["park"])
    release = _parks.pop(park, None)
    if release is None:  # its park is still queued behind the owner's job: released once taken
        _released[park] = None
        while len(_released) > 1000:  # (a park that never came: its ids are not kept for ever)
            del _released[next(iter(_released))]
    elif not release.done():
        release.set_result(None)


_OPS = {
    "join": _join,
    "leave": _leave,
    "snapshot": _snapshot,
    "act": _act,
    "call": _call,
    "park": _park,
    "release": _release,
    "viewers": _viewers,
}


# --- the caller's side --------------------------------------------------------------------------


async def request(channel: str, table_id: int, op: str, **fields: Any) -> Any:
    """Send one request to the owner's inbox and wait for its reply (refusals raised here)."""
    layer = get_channel_layer()
    try:
        reply_to = await layer.new_channel("owner-reply.")
        message = {
            "type": "owner.request",
            "op": op,
            "table": table_id,
            "id": uuid.uuid4().hex,
            "reply_to": reply_to,
        }
        await layer.send(channel, {**message, **fields})
    except Exception as exc:  # the layer is away (Redis down): no owner elsewhere can be reached
        logger.warning("table %s: %s not sent to its owner (%s)", table_id, op, exc)
        raise TableElsewhere() from None
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


async def still_joined(connections: Iterable[Any]) -> None:
    """This process's heartbeat: tell each owner elsewhere which of its connections are open.

    ``connections``: table consumers joined to a live owner in another process (``remote``); one
    message per table, no reply awaited.
    """
    by_table: dict[tuple[str, int], list[list[Any]]] = {}
    for connection in connections:
        key = (connection.remote.channel, connection.table_id)
        by_table.setdefault(key, []).append([connection.user.pk, connection.remote.viewer])
    layer = get_channel_layer()
    for (channel, table_id), viewers in by_table.items():
        message = {"type": "owner.request", "op": "viewers", "table": table_id, "viewers": viewers}
        await layer.send(channel, message)


def park_elsewhere(channel: str, table_id: int) -> tuple[Callable[[], None], int | None]:
    """Park a table's owner in another process (sync code); return the function that releases it
    and the park's epoch.

    None for an owner on code older than the epoch (it answers nothing: a rolling deploy, until
    every process runs this code): its caller goes unfenced, as that code's callers did.
    """
    park = uuid.uuid4().hex
    try:
        answer = async_to_sync(request)(channel, table_id, "park", park=park)
    except TableElsewhere:  # no reply in time: a park still queued there would hold the owner idle
        with contextlib.suppress(Exception):
            async_to_sync(get_channel_layer().send)(
                channel, {"type": "owner.request", "op": "release", "table": table_id, "park": park}
            )
        raise

    def release() -> None:
        try:
            async_to_sync(request)(channel, table_id, "release", park=park)
        except CodedError:  # the owner is gone meanwhile: its successor reads the row anyway
            logger.warning("table %s: the owner in another process was not released", table_id)

    return release, None if answer is None else int(answer)
