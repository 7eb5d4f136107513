"""Test settings: the embedded default, or PostgreSQL/Redis when DATABASE_URL/REDIS_URL are set."""

from piattaforma.settings.base import *  # noqa: F403

DEBUG = False
SECRET_KEY = "test-only-not-secret-" + "y" * 40
ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast hasher, tests only
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
STATIC_ROOT = None  # served from the app folders through the finders; collectstatic is for production
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
LOGGING = {"version": 1, "disable_existing_loggers": False}

# Tests call the clock and deal actions themselves (no worker runs during most tests).
LOBBY_SCHEDULE_TASKS = False
