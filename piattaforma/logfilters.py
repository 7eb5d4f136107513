"""Logging filters: keep the server's log readable.

The beat sends its periodic sweeps every few seconds (``CELERY_BEAT_SCHEDULE``) and the worker
logs each one received and succeeded at INFO: three lines every 5 seconds that bury the useful
ones. ``QuietPeriodicTasks`` drops those INFO lines of the frequent periodic tasks only;
their warnings and errors, and every line of any other task, still reach the log.
"""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied

# Periodic tasks that run every few seconds (names of the task and of its beat entry).
QUIET = (
    "lobby.sweep_deadlines",
    "lobby-sweep-deadlines",
    "tournaments.sweep",
    "tournaments-sweep",
    "wallet.expire_holds",
    "wallet-expire-holds",
    "moderation.signals_fold",
    "moderation-signals-fold",
)


class QuietPeriodicTasks(logging.Filter):
    """Drop the INFO lines about the frequent periodic tasks (sent, received, succeeded)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.INFO:
            return True
        try:
            text = record.getMessage()
        except Exception:  # a record whose arguments do not fit its message: keep it as it is
            return True
        return not any(name in text for name in QUIET)


class ForbiddenWithoutTraceback(logging.Filter):
    """A refused request (``PermissionDenied``, a 403) is one warning line, without its traceback.

    Django logs every 403 on ``django.request`` with the exception attached, so a moderator opening
    a page of staff's would print a whole traceback: nothing failed, somebody was told no. The line
    stays (who asked for what is worth seeing); the traceback goes. Every other exception keeps its.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        kind = record.exc_info[0] if record.exc_info else None
        if kind is not None and issubclass(kind, PermissionDenied):
            record.exc_info = None
            record.exc_text = None
        return True
