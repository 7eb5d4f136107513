"""The wallet's writes: ``wallet.actions`` is a package of one module a concern, importing each other
one way (``common`` at the bottom, ``protection`` on top), whose names are what other code calls."""

import pathlib

from tests.imports import facade_faults, imported, one_way_order
from wallet import actions

ACTIONS = pathlib.Path(actions.__file__).parent
MODULES = sorted(p.stem for p in ACTIONS.glob("*.py") if p.stem != "__init__")


def test_the_action_modules_import_each_other_one_way():
    order = one_way_order(ACTIONS, "wallet.actions")
    assert order[0] == "common" and order[-1] == "protection"
    assert all("wallet.actions" not in imported(ACTIONS / f"{m}.py") for m in MODULES)  # not the facade


def test_the_facade_names_only_what_its_modules_define():
    assert facade_faults(actions) == []
