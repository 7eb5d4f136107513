"""Structured logs: a request's lines carry its id, a table's its table id, a tournament task's its
tournament id; the JSON formatter writes them."""

from __future__ import annotations

import json
import logging
import re

import pytest
from asgiref.sync import sync_to_async

from lobby import presence
from piattaforma import logcontext
from tests.lobby.factories import poker_table


@pytest.mark.django_db
def test_a_request_logs_with_the_proxys_request_id_and_sends_it_back(client, caplog):
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.get("/nessuna-pagina/", HTTP_X_REQUEST_ID="req-abc.123")
    assert response.status_code == 404
    assert response["X-Request-ID"] == "req-abc.123"
    records = [r for r in caplog.records if r.name == "django.request"]
    assert records and all(r.request_id == "req-abc.123" for r in records)


@pytest.mark.django_db
def test_a_request_without_a_usable_id_gets_a_new_one(client, caplog):
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.get("/nessuna-pagina/", HTTP_X_REQUEST_ID="not an id; <script>")
    rid = response["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", rid)
    assert [r.request_id for r in caplog.records if r.name == "django.request"] == [rid]
    assert client.get("/nessuna-pagina/")["X-Request-ID"] != rid  # one id a request


def test_outside_any_request_table_or_task_the_ids_are_none(caplog):
    with caplog.at_level(logging.INFO):
        logging.getLogger("piattaforma.test").info("fuori contesto")
    record = caplog.records[-1]
    assert (record.request_id, record.table_id, record.tournament_id) == (None, None, None)


@pytest.mark.django_db(transaction=True)
async def test_a_line_logged_by_a_tables_owner_carries_the_table_id(caplog):
    table = await sync_to_async(poker_table)()
    owner = await presence.owner_for(table.pk)

    async def job() -> None:
        logging.getLogger("lobby.runtime.owner").warning("una riga del proprietario")

    with caplog.at_level(logging.WARNING, logger="lobby.runtime.owner"):
        await owner.submit(job)
    record = next(r for r in caplog.records if r.getMessage() == "una riga del proprietario")
    assert record.table_id == table.pk
    await owner.stop()


def test_a_celery_task_logs_with_its_tournament_and_table_ids(caplog):
    from config.celery import _task_ended, _task_started

    class Task:
        name = "tournaments.advance"

    _task_started(task_id="t1", task=Task(), kwargs={"tournament_id": 42})
    try:
        with caplog.at_level(logging.INFO):
            logging.getLogger("tournaments.running").info("turno avanzato")
    finally:
        _task_ended(task_id="t1", task=Task(), state="SUCCESS")
    assert caplog.records[-1].tournament_id == 42
    assert logcontext.tournament_id.get() is None  # nothing left behind for the next task


def test_the_json_formatter_writes_one_object_with_the_ids():
    formatter = logcontext.JsonFormatter()
    with logcontext.tournament(7):
        token = logcontext.request_id.set("r-1")
        try:
            record = logging.getLogger("x").makeRecord(
                "x", logging.ERROR, __file__, 1, "rotto %s", ("qui",), None
            )
        finally:
            logcontext.request_id.reset(token)
    line = json.loads(formatter.format(record))
    assert line["message"] == "rotto qui" and line["level"] == "ERROR" and line["logger"] == "x"
    assert line["tournament_id"] == 7 and line["request_id"] == "r-1"
    assert "table_id" not in line  # not set: left out
