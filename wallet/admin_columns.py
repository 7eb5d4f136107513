"""Back-office columns of money: amounts stored in cents shown in euro, rakes in basis points shown
as percentages. Every app's admin builds its lists' columns from these."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin

from wallet.forms import format_percent
from wallet.money import format_eur


def euro_column(field: str, description: Any) -> Callable[[Any], str]:
    """A list or detail column showing ``field`` (cents, possibly empty) in euro, sortable by it."""

    @admin.display(description=description, ordering=field)
    def column(*args: Any) -> str:  # (obj) in a list, (admin, obj) as an admin class's attribute
        value = getattr(args[-1], field)
        return "—" if value is None else format_eur(value)

    column.__name__ = f"{field}_eur"
    return column


def percent_column(field: str, description: Any) -> Callable[[Any], str]:
    """A column showing ``field`` (basis points) as a percentage, sortable by it."""

    @admin.display(description=description, ordering=field)
    def column(*args: Any) -> str:  # (obj) in a list, (admin, obj) as an admin class's attribute
        return format_percent(getattr(args[-1], field))

    column.__name__ = f"{field}_percent"
    return column
