"""The session engine: Django's database sessions, refusing a session key Django never issues.

A session key comes from the client's cookie and is looked up in the database as it is. Django
checks only its length; a cookie such as ``sessionid="abcdefgh\\000"`` decodes to a NUL, which
PostgreSQL text cannot hold: the lookup raised, and a page or a WebSocket handshake carrying it
failed with an error (500). Django's keys are 32 lowercase letters and digits; anything else is
no session at all (the visitor is signed out), checked before any query.
"""

from __future__ import annotations

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore


class SessionStore(DatabaseSessionStore):
    def _validate_session_key(self, key: str | None) -> bool:
        return key is not None and 8 <= len(key) <= 40 and key.isascii() and key.isalnum()
