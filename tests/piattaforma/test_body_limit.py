"""A body over ``REQUEST_BODY_MAX_BYTES`` is refused (413) before it is read (``piattaforma.bodylimit``)."""

from __future__ import annotations

import json

import pytest
from django.conf import settings

from config.asgi import application

MB = 1024 * 1024


def scope(path: str, headers: list[tuple[bytes, bytes]]) -> dict:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), *headers],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }


class Upload:
    """The client's side: a body handed out in 1 MB chunks, counting what the server read."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.read = 0
        self.sent: list[dict] = []

    async def receive(self) -> dict:
        chunk = min(MB, self.size - self.read)
        self.read += chunk
        return {"type": "http.request", "body": b"x" * chunk, "more_body": self.read < self.size}

    async def send(self, message: dict) -> None:
        self.sent.append(message)

    def response(self) -> tuple[int, dict, bytes]:
        start = next(m for m in self.sent if m["type"] == "http.response.start")
        body = b"".join(m.get("body", b"") for m in self.sent if m["type"] == "http.response.body")
        return start["status"], dict(start["headers"]), body


@pytest.mark.asyncio
async def test_a_200_mb_document_is_refused_from_its_content_length_without_reading_it():
    # the identity page parsed the whole multipart body (13 s, +200 MB) before saying "too large"
    upload = Upload(200 * MB)
    headers = [
        (b"content-type", b"multipart/form-data; boundary=x"),
        (b"content-length", str(upload.size).encode()),
    ]
    await application(scope("/profilo/identita/", headers), upload.receive, upload.send)
    status, response_headers, body = upload.response()
    assert status == 413 and upload.read == 0
    assert response_headers[b"content-type"].startswith(b"text/html")
    assert "Dati inviati troppo grandi: al massimo 6 MB per richiesta." in body.decode()


@pytest.mark.asyncio
async def test_a_too_large_json_body_gets_the_code():
    upload = Upload(settings.REQUEST_BODY_MAX_BYTES + 1)
    headers = [(b"content-type", b"application/json"), (b"content-length", str(upload.size).encode())]
    await application(scope("/moderazione/api/segnala/", headers), upload.receive, upload.send)
    status, _, body = upload.response()
    assert status == 413 and upload.read == 0
    assert json.loads(body)["code"] == "body_too_large"


@pytest.mark.asyncio
@pytest.mark.parametrize("length", [None, b"1000", b"-5"], ids=["chunked", "lying", "nonsense"])
async def test_a_body_without_an_honest_length_is_cut_off_once_past_the_cap(length):
    upload = Upload(200 * MB)
    headers = [(b"content-type", b"multipart/form-data; boundary=x")]
    if length is not None:
        headers.append((b"content-length", length))
    await application(scope("/profilo/identita/", headers), upload.receive, upload.send)
    status, _, _ = upload.response()
    assert status == 413
    assert upload.read <= settings.REQUEST_BODY_MAX_BYTES + MB  # stopped at the first chunk past it
