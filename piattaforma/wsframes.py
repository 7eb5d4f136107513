"""The WebSocket server's per-frame overhead that serves nobody.

autobahn's ``WebSocketProtocol.sendData`` (every frame Daphne sends: each view, each heartbeat)
formats the arguments of a debug log line before the logger decides to drop it: ``hltype`` (the
method's qualified name through ``inspect`` and ``click.style``) and ``hlval``. py-spy on the two
Daphne processes at 1,000 clients put that at 2.5 % of their CPU, with debug logging off. The
protocol module's two helpers are replaced by plain ones: the same names in a debug line, without
the terminal colours.
"""

from __future__ import annotations

from typing import Any


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
