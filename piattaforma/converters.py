"""Numbers in URLs and query strings: ``<id:...>`` paths and ``small_int`` for parameters.

``<id:...>`` is a row id of at most 18 digits, so it always fits a 64-bit key.

Django's ``<int:...>`` takes any number of digits, and a 30-digit id reached the database: SQLite
raised ``OverflowError`` (a 500) where the lookup was not short-circuited. With ``<id:...>`` such
a path simply does not match (404); WebSocket routes use it too.
"""

from __future__ import annotations

from django.urls import register_converter


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")


def small_int(text: str | None, *, digits: int = 6) -> int | None:
    """Read a non-negative number a form or query string sent (a page, a seat, a step); None if not one.

    ASCII digits only and at most ``digits`` of them: ``str.isdigit`` is true of "²" (which
    ``int()`` refuses) and of Arabic-Indic digits, and ``int()`` of 5,000 digits raises.
    """
    if text is None or not (text.isascii() and text.isdigit()) or len(text) > digits:
        return None
    return int(text)
