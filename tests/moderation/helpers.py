"""Shared helpers of the moderation tests."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from moderation import actions
from moderation.models import ChatLine


def say(author, text: str, *, channel: str = "table:1", at: datetime | None = None) -> ChatLine:
    """Post a line through moderation (as a table does) and return its row."""
    screened = actions.chat_screen(author=author, channel=channel, text=text, now=at)
    return ChatLine.objects.get(pk=screened.line_id)


def conversation(speakers, lines: int, *, channel: str = "table:1", start: datetime | None = None):
    """Several speakers taking turns, one line a minute (no flooding, no repeats)."""
    start = start or timezone.now() - timedelta(hours=1)
    return [
        say(speakers[i % len(speakers)], f"riga numero {i}", channel=channel, at=start + timedelta(minutes=i))
        for i in range(lines)
    ]
