"""Sending a WebSocket frame formats no debug-line arguments (``piattaforma.wsframes``)."""

from unittest import mock

import click
from autobahn.websocket import protocol

import piattaforma.asgi  # noqa: F401  (the server's entry point installs the plain helpers)
from piattaforma.wsframes import plain_type, plain_val


def test_the_server_entry_point_gives_autobahn_the_plain_helpers():
    assert protocol.hltype is plain_type and protocol.hlval is plain_val
    assert plain_type(protocol.WebSocketProtocol.sendData) == (
        "<autobahn.websocket.protocol.WebSocketProtocol.sendData>"
    )
    assert plain_val(12) == "12"


def test_a_frame_sent_calls_no_click_style():
    proto = protocol.WebSocketProtocol()
    proto.transport = mock.Mock()
    proto.send_queue = []
    proto.state = protocol.WebSocketProtocol.STATE_OPEN
    proto.trafficStats = mock.Mock(outgoingOctetsWireLevel=0)
    proto.peer = "tcp:127.0.0.1:1"
    proto.log = mock.Mock()  # (debug off or on: its arguments are computed before the call)
    proto.logOctets = False
    with mock.patch.object(click, "style", wraps=click.style) as style:
        proto.sendData(b"x" * 10)
    proto.transport.write.assert_called_once_with(b"x" * 10)
    assert style.call_count == 0  # before: 4 a frame
