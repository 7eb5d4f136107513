"""The table's "Opzioni" button and dialog (rules 004: "cliccando sul tasto opzioni sul tavolo"):
``{% load game_options_ui %}{% table_options_dialog table.game %}``.

The dialog is the profile's own form (``GameOptionsForm``) posting to the profile's own endpoint
(``game_options``), so a rule about the options lives in one place.
"""

from __future__ import annotations

from typing import Any

from django import template

from games import options as game_options

register = template.Library()


@register.inclusion_tag("includes/game_options_dialog.html", takes_context=True)
def table_options_dialog(context: dict[str, Any], game: str) -> dict[str, Any]:
    """The signed-in player's options for ``game`` in a dialog (nothing for a game without options)."""
    from piattaforma.actions import preferences_get
    from piattaforma.forms import GameOptionsForm

    request = context["request"]
    user = request.user
    if game not in game_options.GAMES or not user.is_authenticated or not game_options.GAMES[game].options:
        return {"form": None}
    current = preferences_get(user=user, game=game)
    return {
        "form": GameOptionsForm(game, initial_values=current, auto_id="opzioni_%s"),
        "game": game_options.GAMES[game],
        "next": request.get_full_path(),
        "csrf_token": context.get("csrf_token"),
    }
