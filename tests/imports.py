"""Reading a package's imports from its source, for the tests that keep the product's layering."""

import ast
import importlib
import pathlib
from types import ModuleType


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
