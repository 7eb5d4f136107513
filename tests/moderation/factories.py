"""Chat lines and reports as the platform makes them (``moderation.actions``).

``ChatLineFactory(author=u, text=…)`` posts through ``chat_screen``, as a table's chat does (the
filters, the flood checks and the watched list apply), and returns the stored line;
``ReportFactory(reporter=u, line=…)`` files through ``report_file``, as "Segnala" does.
``say`` and ``conversation`` are the short forms.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import factory
from django.utils import timezone

from moderation import actions
from moderation.models import Category, ChatLine, ReportEntry


class ChatLineFactory(factory.Factory):
    class Meta:
        model = ChatLine

    author = None
    text = factory.Sequence(lambda n: f"riga numero {n}")
    channel = "table:1"
    at = None

    @classmethod
    def _create(cls, model_class, *args: Any, author, text, channel, at) -> ChatLine:
        screened = actions.chat_screen(author=author, channel=channel, text=text, now=at)
        return ChatLine.objects.get(pk=screened.line_id)


class ReportFactory(factory.Factory):
    """A report of ``line`` (or of ``nickname``, with no line) for ``reason`` (default: insults)."""

    class Meta:
        model = ReportEntry

    reporter = None
    line = None
    nickname = ""
    reason = Category.INSULT
    note = ""

    @classmethod
    def _create(cls, model_class, *args: Any, reporter, line, nickname, reason, note) -> ReportEntry:
        about = {"line_id": line.pk, "channel": line.channel} if line is not None else {"nickname": nickname}
        entry, _merged = actions.report_file(reporter=reporter, reason=reason, note=note, **about)
        return entry


def say(author, text: str, *, channel: str = "table:1", at: datetime | None = None) -> ChatLine:
    """Post a line through moderation (as a table does) and return its row."""
    return ChatLineFactory(author=author, text=text, channel=channel, at=at)


def conversation(speakers, lines: int, *, channel: str = "table:1", start: datetime | None = None):
    """Several speakers taking turns, one line a minute (no flooding, no repeats)."""
    start = start or timezone.now() - timedelta(hours=1)
    return [
        say(speakers[i % len(speakers)], f"riga numero {i}", channel=channel, at=start + timedelta(minutes=i))
        for i in range(lines)
    ]
