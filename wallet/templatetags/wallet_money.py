"""Template filters for money: ``{% load wallet_money %}{{ cents|euro }}`` -> "€ 1.234,50"."""

from __future__ import annotations

from django import template

from wallet.money import format_eur

register = template.Library()


@register.filter
def euro(cents: int | str | None) -> str:
    """Format integer cents in Italian ("€ 1.234,50"); empty for None."""
    if cents is None or cents == "":
        return ""
    return format_eur(int(cents))


@register.filter
def euro_signed(cents: int) -> str:
    """Like ``euro`` with an explicit + for credits ("+€ 5,00")."""
    text = format_eur(int(cents))
    return f"+{text}" if cents > 0 else text
