"""Production: everything from the environment; refuses to start without a real SECRET_KEY."""

from django.core.exceptions import ImproperlyConfigured

from config.settings.base import *  # noqa: F403
from config.settings.base import DATABASE_URL, SECRET_KEY, env_bool

if len(SECRET_KEY) < 50:
    raise ImproperlyConfigured("SECRET_KEY must be set to a random string of at least 50 characters")
if not DATABASE_URL:
    raise ImproperlyConfigured("DATABASE_URL must point to PostgreSQL in production")

# A transaction left open and idle (a request or task stuck mid-way) holds its rows' locks: a live
# table's owner waits for such a caller's row (``lobby.runtime.lease.fence``). PostgreSQL ends it.
DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c idle_in_transaction_session_timeout=60s"  # noqa: F405

DEBUG = env_bool("DEBUG", False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SESSION_COOKIE_NAME = "__Secure-sessionid"
CSRF_COOKIE_NAME = "__Secure-csrftoken"
