"""Reading a package's imports from its source, for the tests that keep the product's layering."""

import ast
import importlib
import pathlib
from types import ModuleType

ROOT = pathlib.Path(__file__).resolve().parent.parent


def imported(path: pathlib.Path) -> set[str]:
    """Every module ``path`` imports, at its top or inside a function (``from a import b``: a.b)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def defined(path: pathlib.Path) -> set[str]:
    """The names a module defines at its top (functions, classes, constants), not those it imports."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def one_way_order(package: pathlib.Path, dotted: str) -> list[str]:
    """The modules of ``package`` (named ``dotted``), each after every module of it that it imports;
    fails on a cycle among them."""
    modules = {p.stem for p in package.glob("*.py")} - {"__init__"}
    edges = {
        m: {n for n in modules if f"{dotted}.{n}" in imported(package / f"{m}.py")} - {m} for m in modules
    }
    order: list[str] = []
    while edges:  # peel off the modules that import no module left
        free = sorted(m for m, deps in edges.items() if not deps)
        assert free, f"a cycle among {sorted(edges)}: {edges}"
        order += free
        edges = {m: deps - set(free) for m, deps in edges.items() if m not in free}
    return order


def facade_faults(package: ModuleType) -> list[str]:
    """What is wrong with a package whose ``__init__`` re-exports its modules' names: a name of its
    ``__all__`` that is not the very object one of its modules defines, or a public name it holds
    outside ``__all__`` (its modules aside)."""
    folder = pathlib.Path(package.__file__ or "").parent
    modules = sorted(p.stem for p in folder.glob("*.py") if p.stem != "__init__")
    homes = {m: defined(folder / f"{m}.py") for m in modules}
    faults = []
    for name in package.__all__:
        home = [m for m, names in homes.items() if name in names]
        if len(home) != 1:
            faults.append(f"{name}: defined in {home or 'none of the modules'}")
        elif getattr(package, name) is not getattr(
            importlib.import_module(f"{package.__name__}.{home[0]}"), name
        ):
            faults.append(f"{name}: not the object {home[0]} defines")
    held = {n for n in vars(package) if not n.startswith("_")} - set(package.__all__) - set(modules)
    faults += [f"{name}: outside __all__" for name in sorted(held)]
    return faults


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
