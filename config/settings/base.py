"""Settings shared by every configuration, read from the environment.

Production: ``SECRET_KEY``, ``ALLOWED_HOSTS`` (comma separated), ``DATABASE_URL`` (PostgreSQL),
``REDIS_URL`` (channel layer and Celery broker), ``DEBUG`` (off unless set to 1).
Without ``DATABASE_URL`` the embedded SQLite database is used; without ``REDIS_URL`` the
in-process channel layer and Celery broker.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
import django
from celery.schedules import crontab

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(os.environ.get("PIATTAFORMA_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool = False) -> bool:
    """Read a boolean from the environment (1/true/yes/on)."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    """Read a comma-separated list from the environment."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


SECRET_KEY = os.environ.get("SECRET_KEY", "")
DEBUG = env_bool("DEBUG")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "rest_framework",
    "drf_spectacular",
    "axes",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "piattaforma",
    "wallet",
    "lobby",
    "tournaments",
    "moderation",
    "rules",
]

# Django 6 has its own Content-Security-Policy middleware; Django 5.2 (Python 3.11) gets ours.
CSP_MIDDLEWARE = (
    "django.middleware.csp.ContentSecurityPolicyMiddleware"
    if django.VERSION >= (6, 0)
    else "piattaforma.middleware.ContentSecurityPolicyMiddleware"
)

MIDDLEWARE = [
    "piattaforma.logcontext.RequestIdMiddleware",  # first: every log line of a request carries its id
    "django.middleware.security.SecurityMiddleware",
    CSP_MIDDLEWARE,  # before WhiteNoise: static pages (the card demo) get the policy too
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "piattaforma.middleware.NulCharactersMiddleware",  # before anything reads a value into a query
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",
    "piattaforma.middleware.StaffSessionMiddleware",  # two-factor sign-in and idle timeout (twofa)
    "piattaforma.middleware.SiteClosedMiddleware",  # rules 004, "Orari del sito"
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Database: PostgreSQL from DATABASE_URL, else the embedded SQLite file (WAL, immediate transactions
# so that concurrent writers queue instead of failing on a lock upgrade).
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60, conn_health_checks=True)}
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(VAR_DIR / "piattaforma.sqlite3"),
            "OPTIONS": {
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                "timeout": 10,
                "transaction_mode": "IMMEDIATE",
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Redis: channel layer (pub/sub), Celery results, and Celery's broker unless CELERY_BROKER_URL names
# another (RabbitMQ, ``amqp://…``: the production recipe); else everything in-process.
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL]},
        }
    }
    CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "Europe/Rome"
# A task is acknowledged when it ends, not when a worker takes it: one held by a worker that dies
# goes back to the queue after the broker's visibility timeout (Redis: an hour). That timeout must
# outlast the longest countdown (a table's tempo giocata + time bank, minutes) and the longest
# task; no table waits for it: the beat's sweep takes over lost table work within seconds (README).
CELERY_TASK_ACKS_LATE = True
# (Redis's own: RabbitMQ gives a task back as soon as the worker holding it is gone)
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = (
    {"visibility_timeout": 3600} if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else {}
)
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True  # redelivered: every task is idempotent
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker outlives its broker's restart, however long it takes: it reconnects for ever (Celery's
# default gives up after 100 tries and the worker exits); the consumer below keeps the loss of a
# Redis connection holding tasks from ending it (config.celery.Consumer).
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CONSUMER = "config.celery:Consumer"
# RabbitMQ: heartbeats every 10 s (Celery's default: 120), so a worker finds a broker connection
# silently gone (a network cut, a machine lost) within half a minute, and reconnects.
CELERY_BROKER_HEARTBEAT = 10
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # Safety net for every table's pending work whose task was lost (lobby.sweeps.tables_sweep); a
    # sweep no worker took within its period is dropped: the next one does the same work.
    "lobby-sweep-deadlines": {"task": "lobby.sweep_deadlines", "schedule": 5.0, "options": {"expires": 5.0}},
    # Wallet: stored balance = sum of postings for every account; alerts staff on a difference.
    # At 03:30 Rome time (CELERY_TIMEZONE), when the tables are quietest.
    "wallet-reconcile-nightly": {"task": "wallet.reconcile", "schedule": crontab(hour=3, minute=30)},
    # Wallet: release holds whose expiry passed (holds placed with an expiry).
    # Audit: verify the audit log's hash chain, log its head, alert staff on a break (03:45 Rome).
    "piattaforma-audit-verify": {"task": "piattaforma.audit_verify", "schedule": crontab(hour=3, minute=45)},
    # Audit: chain the rows whose seal right after their commit was lost (piattaforma.audit).
    "piattaforma-audit-seal": {
        "task": "piattaforma.audit_seal",
        "schedule": 60.0,
        "options": {"expires": 60.0},
    },
    # Reports: open tables and seated players every five minutes (the concurrency time series).
    "piattaforma-sample-activity": {
        "task": "piattaforma.sample_activity",
        "schedule": 300.0,
        "options": {"expires": 300.0},
    },
    "wallet-expire-holds": {"task": "wallet.expire_holds", "schedule": 60.0},
    # Moderation: tell players their mute or chat suspension has ended (the end itself needs no job).
    "moderation-sanctions-ended": {
        "task": "moderation.sanctions_ended",
        "schedule": 15.0,
        "options": {"expires": 15.0},
    },
    # Moderation: the hands the tables settled, folded into the collusion and dumping signals by
    # batches (moderation.dumping.signals_fold); the dashboard is that far behind the tables.
    "moderation-signals-fold": {
        "task": "moderation.signals_fold",
        "schedule": 3.0,
        "options": {"expires": 3.0},
    },
    # Tournaments: open and close registrations on time (closing 2 minutes before the start).
    "tournaments-sweep": {"task": "tournaments.sweep", "schedule": 10.0},
    # Tournaments: ratings and skill levels, "giornalmente, normalmente durante la pausa notturna".
    "tournaments-skill-levels": {"task": "tournaments.skill_levels", "schedule": crontab(hour=4, minute=15)},
    # Site operations: notices that start, warnings before the daily closing, tables at the closing.
    "site-tick": {"task": "piattaforma.site_tick", "schedule": 60.0, "options": {"expires": 60.0}},
    # Responsible gaming: lift self-exclusions whose end date has passed (permanent ones never end).
    "piattaforma-self-exclusions": {"task": "piattaforma.lift_self_exclusions", "schedule": 60.0},
    # Responsible gaming: players past their session-time limit leave their tables after the hand.
    "wallet-play-time-limits": {
        "task": "wallet.enforce_play_time",
        "schedule": 60.0,
        "options": {"expires": 60.0},
    },
}

# Wallet: a manual adjustment (back office, "Rettifica") larger than this, in cents either way, is
# posted only when a second staff member approves it (four eyes): 100,00 euro.
WALLET_ADJUSTMENT_APPROVAL_CENTS = int(os.environ.get("WALLET_ADJUSTMENT_APPROVAL_CENTS", "10000"))

# Training tournaments: the participation bonus added to the PT pool, per entrant and smazzata, in
# hundredths of a PT ("un bonus di partecipazione proporzionale al numero di smazzate").
TOURNAMENTS_TRAINING_BONUS_PER_SMAZZATA = 10

AUTH_USER_MODEL = "piattaforma.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "piattaforma.auth.NicknameOrEmailBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {
        # the account's own names: a password like the nickname, the name or the e-mail is refused
        "NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator",
        "OPTIONS": {"user_attributes": ("nickname", "first_name", "last_name", "email")},
    },
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Login brute-force lockout (django-axes), 15 minutes: 5 failures on one account (from any address,
# typed as nickname or e-mail in any case: piattaforma.auth.lockout_username), or 5 failures from
# one address (whatever accounts it tries). The address is the client's: behind a proxy Daphne runs
# with --proxy-headers and the proxy overwrites X-Forwarded-For (README, Production).
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_USERNAME_CALLABLE = "piattaforma.auth.lockout_username"
AXES_HANDLER = "piattaforma.auth.AccountLockoutHandler"  # a success clears its own account's failures only
AXES_LOCKOUT_TEMPLATE = "registration/lockout.html"
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_FORM_FIELD = "username"

# Staff and moderators (piattaforma.twofa): a second factor (TOTP, or one of ten recovery codes) on
# every sign-in before any page, API or socket; their session ends after this many idle minutes.
# Wrong codes count as login failures of the account (the lockout above) and after
# TWOFA_MAX_FAILURES the session is signed out; the device also slows down repeated wrong codes.
TWOFA_IDLE_MINUTES = int(os.environ.get("TWOFA_IDLE_MINUTES", "15"))
TWOFA_MAX_FAILURES = 5
TWOFA_ISSUER = os.environ.get("TWOFA_ISSUER", "Piattaforma")
OTP_TOTP_ISSUER = TWOFA_ISSUER

# Sessions and cookies.
SESSION_ENGINE = "piattaforma.sessions"  # database sessions; a key Django never issues is no session
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_AGE = 60 * 60 * 8
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy: scripts, styles, images and fonts from this site only, no inline script,
# style or event handler (every page's code is in static/), WebSockets and fetch to this site only
# ('self' covers ws:/wss: of the same host), no plugins, no framing, forms post here only. Plain
# strings (django.utils.csp.CSP exists on Django 6 only). No nonce: nothing inline needs one.
SECURE_CSP: dict[str, list[str]] = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

LANGUAGE_CODE = "it"
LANGUAGES = [("it", "Italiano"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# a date and time without a format of its own reads "6 dic 2026 10:50" (piattaforma/formats/it)
FORMAT_MODULE_PATH = ["piattaforma.formats"]
TIME_ZONE = "Europe/Rome"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT: Path | None = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Identity documents (piattaforma.IdentityDocument) live in a private folder OUTSIDE any served
# path: no URL maps to it and the storage's url() refuses; staff open a document through a view
# that checks the permission (piattaforma.views.identity_document_file). Production:
# PRIVATE_MEDIA_ROOT on a disk (or volume) every Daphne process mounts, backed up with the database.
PRIVATE_MEDIA_ROOT = Path(os.environ.get("PRIVATE_MEDIA_ROOT", VAR_DIR / "private"))
PRIVATE_STORAGE = {
    "BACKEND": "piattaforma.storage.PrivateFileSystemStorage",
    "OPTIONS": {"location": str(PRIVATE_MEDIA_ROOT), "file_permissions_mode": 0o600},
}
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    "identity_documents": PRIVATE_STORAGE,
}
IDENTITY_DOCUMENT_MAX_BYTES = 5 * 1024 * 1024
# The largest request body taken at all (piattaforma.bodylimit, before it is read): the largest
# upload (an identity document) and its form's fields. The proxy's client_max_body_size matches.
REQUEST_BODY_MAX_BYTES = 6 * 1024 * 1024

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "noreply@piattaforma.invalid")

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "piattaforma.api.exception_handler",
    # JSON only, read defensively (piattaforma.jsoninput); no API endpoint takes forms or files
    "DEFAULT_PARSER_CLASSES": ["piattaforma.api.SafeJSONParser"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Piattaforma API",
    "DESCRIPTION": "API della piattaforma di skill games.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The schema maps the whole API: for signed-in API users and staff only.
    "SERVE_PERMISSIONS": ["rest_framework.permissions.IsAuthenticated"],
}

# Prometheus metrics (piattaforma.metrics): /metrics answers a request bearing this token
# (``Authorization: Bearer …``) or from these addresses or networks; nobody when both are empty.
# Several processes on one machine: PROMETHEUS_MULTIPROC_DIR (docs/operations.md, "Metrics").
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
METRICS_ALLOWED_IPS = env_list("METRICS_ALLOWED_IPS")

# Minimum age to open a game account (Italian law).
MINIMUM_AGE = 18
# The deposit limits a player accepts when he opens his account without setting his own (cents):
# he may lower them at once, raise them after the cooling-off delay (docs/money.md, Limits).
DEPOSIT_LIMITS_DEFAULT = {"day": 100_00, "week": 250_00, "month": 500_00}

# LOG_FORMAT=json: one JSON object a line, with the request, table and tournament ids
# (piattaforma.logcontext); the default is plain text.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # the periodic sweeps' INFO lines (every 5 s) are dropped: piattaforma/logfilters.py
    # a 403 is one warning line, without the traceback Django attaches to it: piattaforma/logfilters.py
    "filters": {
        "quiet_periodic": {"()": "piattaforma.logfilters.QuietPeriodicTasks"},
        "forbidden_one_line": {"()": "piattaforma.logfilters.ForbiddenWithoutTraceback"},
    },
    "formatters": {"json": {"()": "piattaforma.logcontext.JsonFormatter"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["quiet_periodic", "forbidden_one_line"],
            **({"formatter": "json"} if LOG_FORMAT == "json" else {}),
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # Django's own console handler of "django" (live when DEBUG is, as in the embedded server)
        # would print each record a second time, unfiltered: the 403's traceback. The root's
        # console handler, with the filters above, prints them once.
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        "django.channels.server": {"level": "WARNING"},
        "daphne": {"level": "WARNING"},
    },
}

# Table clocks and the next deal are Celery tasks; tests drive them by hand instead.
LOBBY_SCHEDULE_TASKS = True
# Every Daphne process beats this often (presence of its sockets, each table socket gets the table's
# version); a process silent for 3 beats has its sockets dropped by the beat sweeper (lobby.presence).
LOBBY_HEARTBEAT_SECONDS = float(os.environ.get("LOBBY_HEARTBEAT_SECONDS", "10"))
# A table's lease (lobby.runtime.ownership) lasts this long without renewal before another process
# may take the table over.
LOBBY_LEASE_SECONDS = float(os.environ.get("LOBBY_LEASE_SECONDS", "15"))
# The threads of one server process's database work for its tables (lobby.runtime.threads); 0: the
# size of asyncio's default executor.
LOBBY_DATABASE_THREADS = int(os.environ.get("LOBBY_DATABASE_THREADS", "0"))
