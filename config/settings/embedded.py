"""The embedded default of ``make run``: one process, SQLite, in-process layer and broker, DEBUG on."""

import os

from config.settings.base import *  # noqa: F403
from config.settings.base import PRIVATE_STORAGE, SECRET_KEY, env_bool

DEBUG = env_bool("DEBUG", True)
SECRET_KEY = SECRET_KEY or "embedded-only-not-secret-" + "x" * 40
ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]", *os.environ.get("ALLOWED_HOSTS", "").split(",")]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    "identity_documents": PRIVATE_STORAGE,  # var/private/ (PRIVATE_MEDIA_ROOT), never served
}
WHITENOISE_USE_FINDERS = True
STATIC_ROOT = None  # served from the app folders through the finders; collectstatic is for production
# The demo's sit&go: bots take the places left once a person has waited 10 s (tournaments.demo).
TOURNAMENTS_DEMO_BOTS = env_bool("TOURNAMENTS_DEMO_BOTS", True)
