"""The house's layering, read from the code's own imports.

Top to bottom, a table is entered and written like this:

1. interfaces: views, consumers, Celery tasks, the back office, the beat's sweeps, the platform's
   hooks, the tournaments app;
2. ``lobby.door``: the one entry into a table (each write of one table under its owner);
3. ``lobby.presence`` (this process's owners and heartbeat) and the runtime (``lobby.runtime``);
4. the table actions (``lobby.actions``), plain functions; what they need to know of the owners
   they ask ``lobby.owners``, below them.

No module of ``lobby`` takes part in an import cycle, whether its imports run at import time or
inside a function (across the product, none at import time: ``tests/test_product_imports.py``).
The clock tasks are sent by name, and those names must be tasks ``lobby.tasks`` registers.
"""

import ast
import pathlib

import pytest

from config.celery import app
from lobby import actions, door, tasks
from lobby.actions import tablerow
from tests.imports import cycles, described, facade_faults, graph, imported, modules, one_way_order

ROOT = pathlib.Path(actions.__file__).parent.parent.parent
LOBBY = ROOT / "lobby"
# What calls into a table, through the door.
INTERFACES = {
    "lobby.admin",
    "lobby.apps",
    "lobby.consumers",
    "lobby.chat_consumers",
    "lobby.routing",
    "lobby.sweeps",
    "lobby.tasks",
    "lobby.urls",
    "lobby.views",
}
# Nothing of the runtime or the table actions imports one of these.
ABOVE_THE_RUNTIME = INTERFACES | {"lobby.door", "lobby.presence"}


# --- the import graph ------------------------------------------------------------------------------


def test_no_module_of_the_lobby_takes_part_in_an_import_cycle():
    """Imports inside functions (and for type checking) count too: a cycle hidden in a function is
    still a cycle of the design."""
    edges = graph(modules("lobby"), at_import_time=False)
    found = cycles(edges)
    assert found == [], described(found, edges)


# --- the layers --------------------------------------------------------------------------------


def below_the_door(folder: str) -> list[pathlib.Path]:
    return sorted((LOBBY / folder).glob("*.py"))


@pytest.mark.parametrize(
    "path", below_the_door("actions") + below_the_door("runtime"), ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_nothing_below_the_door_imports_what_stands_above_it(path):
    assert imported(path) & ABOVE_THE_RUNTIME == set()


@pytest.mark.parametrize("path", below_the_door("actions"), ids=lambda p: p.name)
def test_the_table_actions_import_neither_the_runtime_nor_the_door(path):
    assert {n for n in imported(path) if n == "lobby.runtime" or n.startswith("lobby.runtime.")} == set()
    assert imported(path) & {"lobby.door", "lobby.presence"} == set()


def test_lobby_owners_is_below_the_table_actions():
    assert {
        n for n in imported(LOBBY / "owners.py") if n.startswith(("lobby.actions", "lobby.runtime"))
    } == set()


def test_the_interfaces_enter_a_table_through_the_door():
    """No interface, and no other app, imports a table action module: each calls ``lobby.door``."""
    callers = [LOBBY / f"{name.rpartition('.')[2]}.py" for name in INTERFACES]
    callers += [
        p
        for app in ("tournaments", "moderation", "wallet", "piattaforma")
        for p in (ROOT / app).rglob("*.py")
    ]
    for path in [p for p in callers if p.exists()]:
        taken = {n for n in imported(path) if n == "lobby.actions" or n.startswith("lobby.actions.")}
        assert taken == set(), path


def test_the_door_wraps_every_write_of_one_table_that_the_owner_runtime_parks_for():
    """Each name of the door is an action's own, wrapped or handed on as it is."""
    for name in actions.__all__:
        assert hasattr(door, name), name
    wrapped = [n for n in actions.__all__ if getattr(door, n) is not getattr(actions, n)]
    assert all(getattr(door, n).__wrapped__ is getattr(actions, n) for n in wrapped)
    assert {"table_act", "table_sit", "table_leave", "seat_connected", "table_start_hand"} <= set(wrapped)


def test_the_action_modules_import_each_other_one_way():
    assert one_way_order(LOBBY / "actions", "lobby.actions")[0] == "tablerow"


# --- the clocks ---------------------------------------------------------------------------------


def test_the_clock_tasks_sent_by_name_are_registered(monkeypatch):
    sent = []
    monkeypatch.setattr(tablerow.settings, "LOBBY_SCHEDULE_TASKS", True)
    monkeypatch.setattr(tablerow.owners, "owned", lambda table_id: False)
    monkeypatch.setattr(tablerow.celery_app, "send_task", lambda name, **options: sent.append(name))
    from django.utils import timezone

    tablerow.schedule_deadline(1, timezone.now())
    tablerow.schedule_bot(1, 3)
    tablerow.schedule_start(1, 4)
    assert len(sent) == 3
    assert all(name in app.tasks for name in sent)
    by_name = {app.tasks[name].name: app.tasks[name] for name in sent}
    assert set(by_name) == {tasks.table_deadline.name, tasks.table_bot_move.name, tasks.table_start.name}


def test_the_facade_names_only_what_its_modules_define():
    assert facade_faults(actions) == []


# --- the door's writes ------------------------------------------------------------------------------


def door_writes() -> list[tuple[str, str]]:
    """(module, function) of every table action the door runs under the table's owner."""
    tree = ast.parse((LOBBY / "door.py").read_text())
    return [
        (call.args[0].value.id, call.args[0].attr)
        for call in ast.walk(tree)
        if isinstance(call, ast.Call)
        and getattr(call.func, "id", None) == "through_owner"
        and isinstance(call.args[0], ast.Attribute)
        and isinstance(call.args[0].value, ast.Name)
    ]


def test_the_door_wraps_table_writes():
    assert len(door_writes()) >= 20


@pytest.mark.parametrize("module,name", door_writes(), ids=lambda part: part)
def test_every_write_the_door_runs_under_an_owner_is_one_transaction(module, name):
    """SQLite lets a ``select_for_update`` run outside a transaction; PostgreSQL refuses it: a table
    write that lost its ``transaction.atomic`` would pass the embedded suite and fail in production."""
    tree = ast.parse((LOBBY / "actions" / f"{module}.py").read_text())
    (function,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    assert "transaction.atomic" in {ast.unparse(d) for d in function.decorator_list}
    assert getattr(door, name).__wrapped__ is getattr(getattr(actions, module), name)
