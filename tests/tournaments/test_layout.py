"""The tournaments' writes: ``tournaments.actions`` is a package of one module a concern, importing
each other one way (``common`` at the bottom, the beat's ``sweeps`` on top), whose names are what
other code calls. No write imports ``tournaments.tasks``: the tasks call the writes, and the writes
send the tasks by name, names that ``tournaments.tasks`` registers."""

import ast
import pathlib

import pytest

from config.celery import app
from tests.imports import facade_faults, imported, one_way_order
from tournaments import actions, tasks
from tournaments.actions import common

ACTIONS = pathlib.Path(actions.__file__).parent
MODULES = sorted(p.stem for p in ACTIONS.glob("*.py") if p.stem != "__init__")
WRITES = [*(ACTIONS.glob("*.py")), ACTIONS.parent / "running.py", ACTIONS.parent / "operations.py"]
INTERFACES = {"tournaments.tasks", "tournaments.views", "tournaments.admin", "tournaments.urls"}


def test_the_action_modules_import_each_other_one_way():
    order = one_way_order(ACTIONS, "tournaments.actions")
    assert order[0] == "common" and order[-1] == "sweeps"
    assert all("tournaments.actions" not in imported(ACTIONS / f"{m}.py") for m in MODULES)  # not the facade


def test_the_facade_names_only_what_its_modules_define():
    assert facade_faults(actions) == []


@pytest.mark.parametrize(
    "path", WRITES, ids=lambda p: p.name if p.parent.name != "actions" else f"actions/{p.name}"
)
def test_no_write_imports_an_interface_module(path):
    assert imported(path) & INTERFACES == set()


def sent_task_names() -> set[str]:
    """The task names the writes send: ``task_send_on_commit("tournaments.x", ...)`` in the actions,
    ``_schedule("x", ...)`` in ``running``."""
    names = set()
    for path in WRITES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
                first = node.args[0]
                if node.func.id == "task_send_on_commit" and isinstance(first, ast.Constant):
                    names.add(first.value)
                elif node.func.id == "_schedule" and isinstance(first, ast.Constant):
                    names.add(f"tournaments.{first.value}")
    return names


def test_the_tasks_sent_by_name_are_registered():
    sent = sent_task_names()
    assert {"tournaments.authorise", "tournaments.adm_code", "tournaments.start"} <= sent
    assert {"tournaments.advance", "tournaments.pay"} <= sent
    registered = {getattr(tasks, name.removeprefix("tournaments.")).name for name in sent}
    assert registered == sent and all(name in app.tasks for name in sent)


@pytest.mark.django_db
def test_a_task_not_registered_here_is_sent_to_the_broker_after_commit(
    settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.TOURNAMENTS_SCHEDULE_TASKS = True
    sent = []
    monkeypatch.setattr(app, "send_task", lambda name, args, kwargs, **_: sent.append((name, kwargs)))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        common.task_send_on_commit("tournaments.not_here", tournament_id=7)
    assert sent == [] and len(callbacks) == 1
    callbacks[0]()
    assert sent == [("tournaments.not_here", {"tournament_id": 7})]


@pytest.mark.django_db
def test_no_task_is_sent_when_the_settings_turn_them_off(settings, django_capture_on_commit_callbacks):
    settings.TOURNAMENTS_SCHEDULE_TASKS = False
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        common.task_send_on_commit("tournaments.start", tournament_id=7)
    assert callbacks == []
