"""Tournaments: formats, registration, turns on live tables, payouts and leaderboards.

``tournaments.formats`` is pure arithmetic (pairing, standings, prizes, points, ratings). The app
creates tournaments and schedules, registers players through the wallet and the regulator's
authorisation, opens each turn's matches as lobby tables, learns results through
``piattaforma.hooks.match_ended``, and pays the prizes from the tournament's pool account. See
docs/tournaments.md.
"""
