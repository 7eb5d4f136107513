"""Log in with either the nickname or the e-mail address (both case-insensitive).

The lockout (django-axes) counts failures per account: ``lockout_username`` turns whatever was
typed (nickname or e-mail, any case, stray spaces) into the account's nickname, so ``MARIO`` and
``mario@…`` share one count with ``mario``.
"""

from __future__ import annotations

from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.db.models import Q
from django.http import HttpRequest

# django-axes keeps the name in a 255-character column.
LOCKOUT_NAME_LENGTH = 255


def find_login_user(identifier: str) -> Any:
    """Return the user whose nickname or e-mail is ``identifier`` (any case), or None."""
    user_model = get_user_model()
    try:
        return user_model.objects.get(Q(nickname__iexact=identifier) | Q(email__iexact=identifier))
    except user_model.DoesNotExist:
        return None


def lockout_username(request: HttpRequest | None, credentials: dict[str, Any] | None = None) -> str:
    """The name the lockout counts failures under: the account's nickname, else the typed name folded.

    ``AXES_USERNAME_CALLABLE``: axes calls it with the backend's credentials, or with none when it
    reads the login form itself.
    """
    typed = (credentials or {}).get("username")
    if typed is None and request is not None:
        typed = getattr(request, "POST", {}).get("username")
    typed = str(typed or "").strip()
    user = find_login_user(typed) if typed else None
    name = user.nickname.casefold() if user is not None else typed.casefold()
    return name[:LOCKOUT_NAME_LENGTH]


class AccountLockoutHandler(AxesDatabaseHandler):
    """``AXES_HANDLER``: a successful login clears the failures of that account only.

    Axes clears every failure matching any lockout parameter, the address included: logging into
    one's own account would wipe the failures that address made on other accounts, and a
    brute force interleaved with such logins would never reach the limit.
    """

    def reset_user_attempts(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        count, _ = AccessAttempt.objects.filter(username=lockout_username(request, credentials)).delete()
        return count


class NicknameOrEmailBackend(ModelBackend):
    """Authenticate by nickname or e-mail; suspended players are refused like inactive ones."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        if not username or password is None:
            return None
        user = find_login_user(username)
        if user is None:
            get_user_model()().set_password(password)  # same work either way: no timing oracle
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None

    def user_can_authenticate(self, user: Any) -> bool:
        return bool(super().user_can_authenticate(user)) and user.status != "suspended"
