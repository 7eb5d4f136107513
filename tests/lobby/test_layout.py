"""The table writes' house: one module a concern, no cycle, no import of an interface.

``lobby.actions`` is a package whose modules import each other in one direction only (``tablerow``
at the bottom); none of them, nor the runtime's, imports the
modules that call them (Celery tasks, views, consumers, the back office): the clock tasks are sent
by name, and those names must be tasks ``lobby.tasks`` registers.
"""

import ast
import pathlib

import pytest

from lobby import actions, tasks
from lobby.actions import tablerow
from piattaforma.celery import app

LOBBY = pathlib.Path(actions.__file__).parent.parent
INTERFACES = {
    "lobby.tasks",
    "lobby.views",
    "lobby.consumers",
    "lobby.admin",
    "lobby.routing",
    "lobby.door",
    "lobby.presence",
    "lobby.sweeps",
}


def imported(path: pathlib.Path) -> set[str]:
    """Every module ``path`` imports, at its top or inside a function (``from a import b``: a.b)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def domain_modules() -> list[pathlib.Path]:
    return sorted([*(LOBBY / "actions").glob("*.py"), *(LOBBY / "runtime").glob("*.py")])


@pytest.mark.parametrize("path", domain_modules(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_table_write_imports_an_interface_module(path):
    assert imported(path) & INTERFACES == set()


def test_the_action_modules_import_each_other_one_way():
    modules = {p.stem for p in (LOBBY / "actions").glob("*.py")} - {"__init__"}
    edges = {
        m: {n for n in modules if f"lobby.actions.{n}" in imported(LOBBY / "actions" / f"{m}.py")} - {m}
        for m in modules
    }
    order: list[str] = []
    while edges:  # peel off the modules that import no module left
        free = sorted(m for m, deps in edges.items() if not deps)
        assert free, f"a cycle among {sorted(edges)}: {edges}"
        order += free
        edges = {m: deps - set(free) for m, deps in edges.items() if m not in free}
    assert order[0] == "tablerow"


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
    for name in actions.__all__:
        function = getattr(actions, name)
        assert function.__module__.startswith("lobby.actions."), name
