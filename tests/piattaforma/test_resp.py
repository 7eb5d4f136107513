"""The frame limit's Redis client (``piattaforma.resp``): RESP2 both ways, replies matched to their
commands in order, the handshake the URL asks for, a lost connection failing its calls and the next
call connecting again. Against a fake server here; against Redis in ``test_ratelimit_batching``."""

from __future__ import annotations

import asyncio

import pytest

from piattaforma import resp


def test_a_command_is_an_array_of_bulk_strings():
    assert resp.encode(("EVALSHA", "ab", 1, b"k\r\n", 2)) == (
        b"*5\r\n$7\r\nEVALSHA\r\n$2\r\nab\r\n$1\r\n1\r\n$3\r\nk\r\n\r\n$1\r\n2\r\n"
    )


@pytest.mark.parametrize(
    ("data", "reply"),
    [
        (b":42\r\n", 42),
        (b"*3\r\n:1\r\n:-2\r\n$3\r\nabc\r\n", [1, -2, b"abc"]),
        (b"*2\r\n*1\r\n:7\r\n$-1\r\n", [[7], None]),
        (b"+OK\r\n", "OK"),
        (b"$0\r\n\r\n", b""),
    ],
)
def test_replies_are_read_whole(data, reply):
    assert resp.parse(data, 0) == (reply, len(data))
    for cut in range(len(data)):  # any reply cut short waits for the rest
        with pytest.raises(resp._Incomplete):
            resp.parse(data[:cut], 0)


def test_an_error_reply_is_an_exception_to_raise():
    error, end = resp.parse(b"-NOSCRIPT No matching script\r\n", 0)
    assert isinstance(error, resp.ResponseError) and str(error) == "NOSCRIPT No matching script"
    assert end == 30


class FakeRedis:
    """A server that records each command and answers with a scripted reply per command name."""

    def __init__(self, replies: dict[str, bytes]) -> None:
        self.replies = replies
        self.commands: list[list[bytes]] = []
        self.writers: list[asyncio.StreamWriter] = []

    async def start(self) -> str:
        self.server = await asyncio.start_server(self.serve, "127.0.0.1", 0)
        return f"{self.server.sockets[0].getsockname()[1]}"

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.writers.append(writer)
        try:
            while True:
                count = int((await reader.readline())[1:])
                args = []
                for _ in range(count):
                    size = int((await reader.readline())[1:])
                    args.append((await reader.readexactly(size + 2))[:-2])
                self.commands.append(args)
                reply = self.replies[args[0].decode()]
                for byte in range(len(reply)):  # one byte at a time: the client reassembles
                    writer.write(reply[byte : byte + 1])
                    await writer.drain()
        except (ValueError, asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    def drop_all(self) -> None:
        for writer in self.writers:
            writer.close()
        self.writers = []

    async def stop(self) -> None:
        self.drop_all()
        self.server.close()
        await self.server.wait_closed()


async def test_the_url_handshake_then_pipelined_replies_in_order():
    fake = FakeRedis({"AUTH": b"+OK\r\n", "SELECT": b"+OK\r\n", "INCR": b":5\r\n", "BAD": b"-ERR no\r\n"})
    port = await fake.start()
    client = resp.Client(f"redis://bob:secret@127.0.0.1:{port}/3")
    results = await asyncio.gather(
        client.call("INCR", "a"), client.call("BAD"), client.call("INCR", "b"), return_exceptions=True
    )
    assert results[0] == 5 and results[2] == 5
    assert isinstance(results[1], resp.ResponseError) and str(results[1]) == "ERR no"
    assert fake.commands == [
        [b"AUTH", b"bob", b"secret"], [b"SELECT", b"3"], [b"INCR", b"a"], [b"BAD"], [b"INCR", b"b"],
    ]  # fmt: skip
    assert len(fake.writers) == 1  # one connection for the three
    client.close()
    await fake.stop()


async def test_a_lost_connection_fails_its_calls_and_the_next_call_connects_again():
    fake = FakeRedis({"PING": b"+PONG\r\n", "HANG": b""})
    port = await fake.start()
    client = resp.Client(f"redis://127.0.0.1:{port}/0")  # db 0: no SELECT
    assert await client.call("PING") == "PONG"
    hanging = asyncio.ensure_future(client.call("HANG"))  # answered by nothing
    while len(fake.commands) < 2:  # until the server has it
        await asyncio.sleep(0.001)
    fake.drop_all()
    with pytest.raises(ConnectionError):
        await hanging
    assert await client.call("PING") == "PONG"
    assert len(fake.writers) == 1 and [c[0] for c in fake.commands] == [b"PING", b"HANG", b"PING"]
    client.close()
    await fake.stop()


async def test_nothing_listening_is_a_connection_error():
    client = resp.Client("redis://127.0.0.1:1/0")
    with pytest.raises(OSError):
        await client.call("PING")
