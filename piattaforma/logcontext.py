"""What a log line is about: the request, the table, the tournament (structured logs).

Three context variables follow the work wherever it goes (an asyncio task, and the threads
``sync_to_async`` runs it on, copy them): ``request_id`` (``RequestIdMiddleware``: the proxy's
``X-Request-ID``, or a new one, sent back on the response), ``table_id`` (a table's socket and its
owner, a table task) and ``tournament_id`` (a tournament task, the sweep's work on one tournament).
``install`` makes every log record carry them as attributes (None when not set), whatever the
handler; ``JsonFormatter`` writes one JSON object a line with them (``LOG_FORMAT=json``).
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import re
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

from django.utils.log import log_response

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
table_id: contextvars.ContextVar[int | None] = contextvars.ContextVar("table_id", default=None)
tournament_id: contextvars.ContextVar[int | None] = contextvars.ContextVar("tournament_id", default=None)

FIELDS = ("request_id", "table_id", "tournament_id")
HEADER = "X-Request-ID"
_VALID_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")


def install() -> None:
    """Every log record from now on carries ``request_id``, ``table_id`` and ``tournament_id``."""
    factory = logging.getLogRecordFactory()
    if getattr(factory, "piattaforma_context", False):
        return

    def record(*args: Any, **kwargs: Any) -> logging.LogRecord:
        rec = factory(*args, **kwargs)
        rec.request_id = request_id.get()
        rec.table_id = table_id.get()
        rec.tournament_id = tournament_id.get()
        return rec

    record.piattaforma_context = True  # type: ignore[attr-defined]  # a marker: this factory is installed
    logging.setLogRecordFactory(record)


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC), level, logger, message, the context's ids, the exception."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def new_request_id(given: str | None) -> str:
    """The proxy's request id when it is a plain token (at most 64 characters), else a new one."""
    if given and _VALID_ID.fullmatch(given):
        return given
    return uuid.uuid4().hex


class RequestIdMiddleware:
    """Each HTTP request gets an id (``X-Request-ID`` from the proxy, or a new one): in every log
    line of its work and on the response."""

    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        rid = new_request_id(request.headers.get(HEADER))
        request.request_id = rid
        token = request_id.set(rid)
        try:
            response = self.get_response(request)
            if response.status_code >= 400:  # Django's own line about it, written here with the id
                log_response(
                    "%s: %s", response.reason_phrase, request.path, response=response, request=request
                )
        finally:
            request_id.reset(token)
        response[HEADER] = rid
        return response


@contextlib.contextmanager
def tournament(tid: int | None) -> Iterator[None]:
    """Log lines within are about this tournament."""
    token = tournament_id.set(tid)
    try:
        yield
    finally:
        tournament_id.reset(token)


_task_tokens: contextvars.ContextVar[list[contextvars.Token[Any]] | None] = contextvars.ContextVar(
    "task_tokens", default=None
)


def task_started(name: str, kwargs: dict[str, Any]) -> None:
    """A Celery task starts: its ``table_id`` and ``tournament_id`` arguments name its context."""
    tokens: list[contextvars.Token[Any]] = [
        table_id.set(_int(kwargs.get("table_id"))),
        tournament_id.set(_int(kwargs.get("tournament_id"))),
        request_id.set(None),
    ]
    _task_tokens.set(tokens)


def task_ended() -> None:
    tokens = _task_tokens.get()
    if tokens:
        variables: tuple[contextvars.ContextVar[Any], ...] = (table_id, tournament_id, request_id)
        for var, token in zip(variables, tokens, strict=True):
            with contextlib.suppress(ValueError):  # (set in another context)
                var.reset(token)
    _task_tokens.set(None)


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
