"""The text of the frames the WebSocket server sends, and its per-frame overhead that serves nobody.

``encode``: every JSON message of the platform's sockets (each view of a table, each error) is
encoded by orjson, several times faster than ``json.dumps`` on a table's view; its text is
compact (no spaces after separators: 12 % fewer bytes), non-ASCII as UTF-8, integer keys as
strings as ``json`` writes them.

autobahn's ``WebSocketProtocol.sendData`` (every frame Daphne sends: each view, each heartbeat)
formats the arguments of a debug log line before the logger decides to drop it: ``hltype`` (the
method's qualified name through ``inspect`` and ``click.style``) and ``hlval``: a visible share of
a loaded Daphne's CPU, paid on every frame with debug logging off. The
protocol module's two helpers are replaced by plain ones: the same names in a debug line, without
the terminal colours.
"""

from __future__ import annotations

from typing import Any

import orjson


def encode(message: Any) -> str:
    """A JSON message as the text of a WebSocket frame (see the module's docstring)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def plain_type(obj: Any) -> str:
    """``autobahn.util.hltype`` without the colours: ``<module.Class.method>``."""
    return f"<{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', 'unknown')}>"


def plain_val(val: Any, color: str = "white", bold: bool = True) -> str:
    """``autobahn.util.hlval`` without the colours."""
    return f"{val}"


def quiet_debug_arguments() -> None:
    """Give autobahn's WebSocket protocol the plain helpers (idempotent)."""
    from autobahn.websocket import protocol

    protocol.hltype = plain_type  # type: ignore[attr-defined]  # a module global it imported
    protocol.hlval = plain_val  # type: ignore[attr-defined]  # likewise
