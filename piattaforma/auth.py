"""Log in with either the nickname or the e-mail address (both case-insensitive)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.db.models import Q
from django.http import HttpRequest


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
        user_model = get_user_model()
        try:
            user = user_model.objects.get(Q(nickname__iexact=username) | Q(email__iexact=username))
        except user_model.DoesNotExist:
            user_model().set_password(password)  # same work either way: no timing oracle
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None

    def user_can_authenticate(self, user: Any) -> bool:
        return bool(super().user_can_authenticate(user)) and user.status != "suspended"
