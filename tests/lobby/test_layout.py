"""The house's layering, read from the code's own imports.

Top to bottom, a table is entered and written like this:

1. interfaces: views, consumers, Celery tasks, the back office, the beat's sweeps, the platform's
   hooks, the tournaments app;
2. ``lobby.door``: the one entry into a table (each write of one table under its owner);
3. ``lobby.presence`` (this process's owners and heartbeat) and the runtime (``lobby.runtime``);
4. the table actions (``lobby.actions``), plain functions; what they need to know of the owners
   they ask ``lobby.owners``, below them.

No module of ``lobby`` takes part in an import cycle, whether its imports run at import time or
inside a function; across the product, none at import time. The clock tasks are sent by name, and
those names must be tasks ``lobby.tasks`` registers.
"""

import ast
import pathlib

import pytest

from config.celery import app
from lobby import actions, door, tasks
from lobby.actions import tablerow

ROOT = pathlib.Path(actions.__file__).parent.parent.parent
LOBBY = ROOT / "lobby"
PRODUCT = ("piattaforma", "config", "games", "lobby", "wallet", "tournaments", "moderation")
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


def modules(*packages: str, root: pathlib.Path = ROOT) -> dict[str, pathlib.Path]:
    """Every module of these top-level packages (those present), by dotted name."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")) if (root / package).is_dir() else []:
            parts = list(path.relative_to(root).with_suffix("").parts)
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def import_nodes(tree: ast.Module, *, at_import_time: bool) -> list[ast.Import | ast.ImportFrom]:
    """The import statements of a module: all of them, or those that run when it is imported
    (not inside a function, not under ``if TYPE_CHECKING:``)."""
    if not at_import_time:
        return [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        elif isinstance(node, ast.If) and _type_checking(node):
            pending.extend(node.orelse)
        else:
            pending.extend(ast.iter_child_nodes(node))
    return found


def graph(known: dict[str, pathlib.Path], *, at_import_time: bool) -> dict[str, set[str]]:
    """Module -> the modules of ``known`` it imports (``from a import b``: a.b if a module, else a)."""

    def owning(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    edges: dict[str, set[str]] = {}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str | None] = set()
        for node in import_nodes(ast.parse(path.read_text()), at_import_time=at_import_time):
            if isinstance(node, ast.Import):
                targets.update(owning(alias.name) for alias in node.names)
                continue
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                targets.add(
                    owning(f"{base}.{alias.name}") if f"{base}.{alias.name}" in known else owning(base)
                )
        edges[name] = {t for t in targets if t is not None and t != name}
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def described(found: list[list[str]], edges: dict[str, set[str]]) -> str:
    return "\n".join(
        ", ".join(f"{a} -> {b}" for a in cycle for b in sorted(edges[a] & set(cycle))) for cycle in found
    )


def test_no_module_of_the_lobby_takes_part_in_an_import_cycle():
    """Imports inside functions (and for type checking) count too: a cycle hidden in a function is
    still a cycle of the design."""
    edges = graph(modules("lobby"), at_import_time=False)
    found = cycles(edges)
    assert found == [], described(found, edges)


def test_no_module_of_the_product_takes_part_in_an_import_cycle_at_import_time():
    edges = graph(modules(*PRODUCT), at_import_time=True)
    found = cycles(edges)
    assert found == [], described(found, edges)


def test_the_cycle_finder_finds_a_cycle_made_inside_a_function(tmp_path):
    """The two tests above can fail: a cycle whose one import sits in a function is found by the
    lobby's test, not by the product-wide one."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg import b\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import c\n"
        "def f():\n    from pkg.a import x\n"
    )
    (package / "c.py").write_text("import pkg.b\n")
    known = modules("pkg", root=tmp_path)
    assert cycles(graph(known, at_import_time=False)) == [["pkg.a", "pkg.b", "pkg.c"]]
    assert cycles(graph(known, at_import_time=True)) == []


# --- the layers --------------------------------------------------------------------------------


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
    modules_ = {p.stem for p in (LOBBY / "actions").glob("*.py")} - {"__init__"}
    edges = {
        m: {n for n in modules_ if f"lobby.actions.{n}" in imported(LOBBY / "actions" / f"{m}.py")} - {m}
        for m in modules_
    }
    order: list[str] = []
    while edges:  # peel off the modules that import no module left
        free = sorted(m for m, deps in edges.items() if not deps)
        assert free, f"a cycle among {sorted(edges)}: {edges}"
        order += free
        edges = {m: deps - set(free) for m, deps in edges.items() if m not in free}
    assert order[0] == "tablerow"


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
    for name in actions.__all__:
        function = getattr(actions, name)
        assert function.__module__.startswith("lobby.actions."), name


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
