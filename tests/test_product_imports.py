"""The product stands alone (no module of its packages imports the suite or the benchmarks) and
no module of it takes part in an import cycle at import time.

``tests/`` and ``bench/`` sit beside the product in the repository, but neither is installed with it
(``pyproject.toml`` packages only the apps), so an import of either from product code would work
in a checkout and fail in a deployment. Imports are read with ``ast``: at a module's top, inside
functions and classes, and by name through ``importlib.import_module``/``__import__``.
"""

import ast
import fnmatch
import pathlib
import tomllib

import pytest

from tests.imports import cycles, described, graph, modules

ROOT = pathlib.Path(__file__).resolve().parent.parent
PRODUCT = ("piattaforma", "config", "games", "lobby", "wallet", "tournaments", "moderation")
OUTSIDE = {"tests", "bench"}


def imported_roots(source: str) -> set[str]:
    """The top-level package of every absolute import in ``source``, wherever it is written."""
    roots: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                roots.add(node.args[0].value.split(".")[0])
    return roots


def product_modules() -> list[pathlib.Path]:
    return sorted(p for package in PRODUCT for p in (ROOT / package).rglob("*.py"))


def test_the_reader_finds_imports_at_every_depth():
    source = """
import os
from . import sibling

def f():
    from bench.loadbench import core

class C:
    def g(self):
        import tests.piattaforma.factories
        return importlib.import_module("bench.engines.poker5")
"""
    assert imported_roots(source) == {"os", "bench", "tests"}


def test_the_product_packages_are_all_read():
    read = {p.relative_to(ROOT).parts[0] for p in product_modules()}
    assert read >= set(PRODUCT) - {"config"}  # config/ (the project wiring) may be inside piattaforma/
    assert len(product_modules()) > 100


@pytest.mark.parametrize("path", product_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_product_module_imports_tests_or_bench(path):
    assert imported_roots(path.read_text()) & OUTSIDE == set()


def test_neither_tests_nor_bench_is_installed():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    include = pyproject["tool"]["setuptools"]["packages"]["find"]["include"]
    for name in ("tests", "tests.bench", "bench", "bench.loadbench", "bench.engines"):
        assert not any(fnmatch.fnmatchcase(name, pattern) for pattern in include), name
    for package in PRODUCT:
        assert any(fnmatch.fnmatchcase(package, pattern) for pattern in include), package


def test_no_module_of_the_product_takes_part_in_an_import_cycle_at_import_time():
    edges = graph(modules(*PRODUCT), at_import_time=True)
    found = cycles(edges)
    assert found == [], described(found, edges)


def test_no_module_of_the_benchmarks_takes_part_in_an_import_cycle():
    """Imports inside functions count: the load benchmark's runs share its processes' module
    (``bench.loadbench.procs``) rather than calling back into each other."""
    edges = graph(modules("bench"), at_import_time=False)
    found = cycles(edges)
    assert found == [], described(found, edges)


def test_the_cycle_finder_finds_a_cycle_made_inside_a_function(tmp_path):
    """The cycle tests can fail: a cycle whose one import sits in a function is found when every
    import counts (the lobby's test), not when only those run at import time count (the one above)."""
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
