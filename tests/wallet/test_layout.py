"""The wallet's writes: ``wallet.actions`` is a package of one module a concern, importing each other
one way (``common`` at the bottom, ``protection`` on top), whose names are what other code calls."""

import importlib
import pathlib

from tests.imports import defined, imported, one_way_order
from wallet import actions

ACTIONS = pathlib.Path(actions.__file__).parent
MODULES = sorted(p.stem for p in ACTIONS.glob("*.py") if p.stem != "__init__")


def test_the_action_modules_import_each_other_one_way():
    order = one_way_order(ACTIONS, "wallet.actions")
    assert order[0] == "common" and order[-1] == "protection"
    assert all("wallet.actions" not in imported(ACTIONS / f"{m}.py") for m in MODULES)  # not the facade


def test_the_facade_names_only_what_its_modules_define():
    homes = {m: defined(ACTIONS / f"{m}.py") for m in MODULES}
    for name in actions.__all__:
        (home,) = [m for m, names in homes.items() if name in names]
        assert getattr(actions, name) is getattr(importlib.import_module(f"wallet.actions.{home}"), name)
    assert not {n for n in dir(actions) if not n.startswith("_")} - set(actions.__all__) - set(MODULES)
