"""Suite-wide test configuration."""

import os

import pytest
from hypothesis import HealthCheck, settings

# "ci" keeps the whole suite inside CI's budget; "thorough" is for a long local run:
#   HYPOTHESIS_PROFILE=thorough make test
settings.register_profile(
    "ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile("thorough", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """pytest-django's test databases, dropped at the end with no connection of ours left open.

    The database threads of the live tables' runtime and asgiref's one thread-sensitive thread
    keep their connections (``CONN_MAX_AGE``): PostgreSQL refuses to drop a database in use.
    """
    yield
    from asgiref.sync import SyncToAsync
    from django.db import connection, connections

    from lobby import runtime

    runtime.close_threads()
    if connection.vendor != "sqlite":  # SQLite's in-memory test database is dropped with its process;
        # its connection is shared across threads, and closing it from another one is refused
        SyncToAsync.single_thread_executor.submit(connections.close_all).result(timeout=30)


@pytest.fixture(autouse=True)
def poker_alone_in_giro_pazzo(request, monkeypatch):
    """Poker's own tests see the engine as it is alone: giro pazzo offers only Classica.

    The lobby plugs Telesina into poker's giro pazzo when Django starts (lobby.apps); the engine's
    tests must not depend on which other apps happened to be loaded.
    """
    if "tests/games/poker5/" in str(request.node.path).replace("\\", "/"):
        from games.poker5 import GIRO_PAZZO_VARIANTS

        for name in [n for n in GIRO_PAZZO_VARIANTS if n != "classica"]:
            monkeypatch.delitem(GIRO_PAZZO_VARIANTS, name)


@pytest.fixture
def midday_zone(settings):
    """The site's time zone moved so that it is about noon there now.

    A daily limit starts again at local midnight: a test that says "this session began 61 minutes
    ago" would see only the minutes since midnight when run just after it (CI ran at 00:19 in
    Rome). The rule under test is the same in any zone; a fixed-offset zone where it is now 12:xx
    keeps those minutes inside one day. (Moving the clock instead would miss the fields whose
    default is ``timezone.now`` itself, bound before any patch.)
    """
    from datetime import UTC, datetime

    east = 12 - datetime.now(UTC).hour  # hours east of UTC (-11..12); Etc/GMT's sign is inverted
    settings.TIME_ZONE = f"Etc/GMT{-east:+d}"
    return settings.TIME_ZONE


@pytest.fixture(autouse=True)
def italian_after_each_test():
    """Each test starts in the site's language. The test client runs a request in the test's own
    thread, and the LocaleMiddleware's activation of the visitor's language stays on that thread
    after the response: without this, a test that switches to English leaves the next test's own
    calls (outside any request) translating into English."""
    from django.conf import settings as django_settings
    from django.utils import translation

    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def site_hours_read_once_per_test(monkeypatch):
    """Each test reads the site's hours afresh, once: at its first use, not again when the process's
    cache (``siteops.HOURS_CACHE_SECONDS``) happens to expire in the middle of a slow test. Tests
    that pin a number of statements (a deal's, a page's) then count the same whatever the machine's
    speed; a test that changes the hours drops the cache itself, as the back office does."""
    from piattaforma import siteops

    monkeypatch.setattr(siteops, "HOURS_CACHE_SECONDS", 24 * 3600.0)
    siteops.site_hours_forget()
    yield
    siteops.site_hours_forget()
