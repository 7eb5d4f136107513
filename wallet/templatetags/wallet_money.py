"""Template filters for money: ``{% load wallet_money %}{{ cents|euro }}`` -> "€ 1.234,50";
``{{ cents|money:table.realm }}`` -> euro, or gettoni for play money ("1.000 gettoni")."""

from __future__ import annotations

from django import template

from wallet.money import format_eur, format_money

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


@register.filter
def money(cents: int | str | None, realm: str = "real") -> str:
    """An amount of ``realm``: "€ 1.234,50" for real money, "1.234,50 gettoni" for play money."""
    if cents is None or cents == "":
        return ""
    return format_money(int(cents), realm)


@register.filter
def money_signed(cents: int, realm: str = "real") -> str:
    """Like ``money`` with an explicit + for credits ("+€ 5,00", "+20 gettoni")."""
    text = format_money(int(cents), realm)
    return f"+{text}" if cents > 0 else text


@register.filter
def nobreak(text: str) -> str:
    """An amount that never breaks across lines ("€ 10,00" with a no-break space): a range of
    amounts in a narrow cell wraps between the amounts, never between "€" and its number."""
    return str(text).replace(" ", "\u00a0")


@register.filter
def money_unit(realm: str) -> str:
    """What a form's amount is typed in: "€", or "gettoni" for play money."""
    from django.utils.translation import gettext as _

    return _("gettoni") if realm == "play" else "€"
