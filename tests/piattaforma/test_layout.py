"""The back office's modules import one way: ``backoffice`` (the site and the bases every app's admin
builds on) at the bottom, ``admin_ops`` (site operations) on it, ``admin`` (the core's own admins) on
top; the Django project's wiring (``config``) stands apart from the core, which never imports it
but for the Celery app."""

import pathlib

import piattaforma
from tests.imports import imported

CORE = pathlib.Path(piattaforma.__file__).parent


def test_the_back_office_modules_import_each_other_one_way():
    assert imported(CORE / "backoffice.py") & {"piattaforma.admin", "piattaforma.admin_ops"} == set()
    assert "piattaforma.admin" not in imported(CORE / "admin_ops.py")
    assert "piattaforma.admin_ops" in imported(CORE / "admin.py")  # registers the site operations


def test_the_core_imports_of_the_project_only_its_celery_app():
    found = {
        f"{path.relative_to(CORE.parent)}: {name}"
        for path in sorted(CORE.rglob("*.py"))
        for name in imported(path)
        if name.split(".")[0] == "config" and not name.startswith("config.celery")
    }
    assert not found, sorted(found)
