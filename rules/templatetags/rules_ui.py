"""Template pieces of the rules pages: cards drawn as at the table, and links to a game's rules.

``{% cards "7d 7h Ks" deck="italiane" %}`` writes a row the page's script (static/js/rules.js)
draws with the tables' own card faces (static/js/cards.js); its label names the cards in words,
for screen readers and for a page read without scripts. ``{{ game|rules_url }}`` is the address of
a game's rules page, or an empty string when the game has none.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html

from games.cards import (
    ITALIAN_RANKS,
    RANK_NAME_FRENCH,
    RANK_NAME_ITALIAN,
    SUIT_NAME_FRENCH,
    SUIT_NAME_ITALIAN,
)
from rules import pages

register = template.Library()
DECKS = {"francesi": "francesi", "italiane": "napoletane"}


def card_name(code: str, italian: bool) -> str:
    """ "asso di cuori", "re di denari"; a joker is "jolly". Refuses what is not a card code."""
    if code.startswith("X"):
        return "jolly"
    rank, suit = code[:1], code[1:]
    ranks, suits = (RANK_NAME_ITALIAN, SUIT_NAME_ITALIAN) if italian else (RANK_NAME_FRENCH, SUIT_NAME_FRENCH)
    if len(code) != 2 or suit not in suits or rank not in (ITALIAN_RANKS if italian else "A23456789TJQK"):
        raise template.TemplateSyntaxError(f"carta non valida: {code!r}")
    return f"{ranks.get(rank, rank)} di {suits[suit]}"


@register.simple_tag
def cards(codes: str, deck: str = "francesi") -> str:
    if deck not in DECKS:
        raise template.TemplateSyntaxError(f"mazzo non valido: {deck!r}")
    names = ", ".join(card_name(c, deck == "italiane") for c in codes.split())
    return format_html(
        '<span class="rule-cards" role="img" data-cards="{}" data-style="{}" aria-label="{}">'
        '<span class="rule-cards__text">{}</span></span>',
        codes,
        DECKS[deck],
        names,
        names,
    )


@register.filter
def rules_url(game: str) -> str:
    return pages.game_url(game) or ""
