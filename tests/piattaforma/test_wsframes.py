"""The sockets' JSON frames, and sending one formats no debug-line arguments (``piattaforma.wsframes``)."""

import json
from unittest import mock

import click
import pytest
from autobahn.websocket import protocol

import config.asgi  # noqa: F401  (the server's entry point installs the plain helpers)
from piattaforma.consumers import AuthenticatedJsonConsumer
from piattaforma.wsframes import encode, plain_type, plain_val


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


VIEW = {
    "type": "table.state",
    "version": 12,
    "view": {"chips": {1: 4_500, 3: 0}, "cards": ["Ah", "7c"], "nickname": "Niccolò", "shown": None},
    "legal": [{"type": "punto", "amount": {"min": 100, "max": 2_000}}],
    "ok": True,
    "ratio": 0.5,
}


def test_a_frame_says_what_json_would_in_fewer_bytes():
    text = encode(VIEW)
    assert json.loads(text) == json.loads(json.dumps(VIEW))  # integer keys as strings, as json writes them
    assert '"nickname":"Niccolò"' in text  # compact, UTF-8
    assert len(text.encode()) < len(json.dumps(VIEW).encode())


def test_a_value_json_could_not_send_is_refused_as_before():
    with pytest.raises(TypeError):
        encode({"at": object()})


async def test_every_consumer_of_the_platform_encodes_its_messages_so():
    assert await AuthenticatedJsonConsumer.encode_json(VIEW) == encode(VIEW)
