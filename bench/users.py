"""Accounts for the benchmarks that need a few real users (the suite's factories stay in tests/)."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from piattaforma.models import User


def bench_user(*, nickname: str, role: str = "players", is_bot: bool = False) -> User:
    """Create a verified account with ``role`` and no usable password, as a player of the demo is.

    Moderators and staff get ``is_staff`` (the back office lets them in); the e-mail is under
    ``bench.invalid``. Call it after ``django.setup()``.
    """
    from django.contrib.auth.models import Group
    from django.utils import timezone

    from piattaforma import roles
    from piattaforma.models import User

    user = User.objects.create_user(
        nickname=nickname,
        email=f"{nickname}@bench.invalid",
        password=None,
        date_of_birth=date(1990, 1, 1),
        is_bot=is_bot,
        is_staff=role in (roles.MODERATORS, roles.STAFF),
        identity_verified_at=timezone.now(),
    )
    user.groups.add(Group.objects.get(name=role))
    return user


def bench_bots(count: int) -> list[User]:
    """``count`` bot accounts in one insert (no role, no password: seated by a tournament, never
    logged in), in creation order. Call it after ``django.setup()``."""
    import time

    from piattaforma.models import User

    tag = f"b{time.monotonic_ns() % 10**9}"
    User.objects.bulk_create(
        [
            User(
                nickname=f"{tag}u{i}",
                email=f"{tag}u{i}@bench.invalid",
                date_of_birth=date(1990, 1, 1),
                is_bot=True,
            )
            for i in range(count)
        ]
    )
    return list(User.objects.filter(nickname__startswith=f"{tag}u").order_by("pk"))
