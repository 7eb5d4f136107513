"""Informazioni ai giocatori: the pages a player reads before he plays (rules 004, "Informazioni ai
giocatori"): the rules of each game, the tournament formats, the cash tables, the house rules (chat
and conduct), the training section, the site hours and the minimum requirements.

The pages are templates (``templates/rules/pages/<slug>.html``) listed once in ``rules.pages``;
anyone may read them, signed in or not. Other apps link to a game's page with
``rules.pages.game_url(game)`` (or the ``rules_url`` template filter); the rules app imports no
other app of the platform but ``games`` (the registry, to check every game has its page).
"""
