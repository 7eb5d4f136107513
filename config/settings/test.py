"""Test settings: the embedded default, or PostgreSQL/Redis when DATABASE_URL/REDIS_URL are set."""

import os
from typing import Any

from config.settings.base import *  # noqa: F403
from config.settings.base import CELERY_BROKER_URL, CHANNEL_LAYERS, REDIS_URL

DEBUG = False
SECRET_KEY = "test-only-not-secret-" + "y" * 40
ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast hasher, tests only
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    "identity_documents": {"BACKEND": "piattaforma.storage.PrivateInMemoryStorage"},
}
WHITENOISE_USE_FINDERS = True
STATIC_ROOT = None  # served from the app folders through the finders; collectstatic is for production
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
LOGGING = {"version": 1, "disable_existing_loggers": False}

# Tests call the clock and deal actions themselves (no worker runs during most tests, and on the
# owner runtime no owner arms a timer).
LOBBY_SCHEDULE_TASKS = False
# The site's daily hours (piattaforma.siteops) would make the suite depend on the time it runs at:
# off here, on in the tests of the hours themselves.
SITE_HOURS_ENFORCED = False

# pytest-xdist: each worker (PYTEST_XDIST_WORKER = gw0, gw1, ...) gets its own test database from
# pytest-django; on Redis it also gets its own channel-layer prefix (pub/sub channels are not per
# db number) and its own broker and result keys, so one worker's groups, queues and results are
# never seen by another (tests/piattaforma/test_plumbing.py checks it).


def worker_redis_settings(worker: str) -> dict[str, Any]:
    """The Redis settings of one pytest-xdist worker: its own channel-layer prefix and Celery keys
    (on a RabbitMQ broker, its own Celery queue)."""
    keys = {"global_keyprefix": f"{worker}:"}
    default: dict[str, Any] = CHANNEL_LAYERS["default"]
    layer = {**default, "CONFIG": {**default["CONFIG"], "prefix": f"asgi-{worker}"}}
    isolated = {
        "CHANNEL_LAYERS": {"default": layer},
        "CELERY_BROKER_TRANSPORT_OPTIONS": keys,
        "CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS": keys,
    }
    if not CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
        isolated["CELERY_BROKER_TRANSPORT_OPTIONS"] = {}
        isolated["CELERY_TASK_DEFAULT_QUEUE"] = f"celery-{worker}"
    return isolated


if REDIS_URL and os.environ.get("PYTEST_XDIST_WORKER"):
    globals().update(worker_redis_settings(os.environ["PYTEST_XDIST_WORKER"]))
