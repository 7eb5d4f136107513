"""Poker 5 carte all'italiana, registered as "poker5": a gioco a puntate of the short French deck.

The engine (``games.poker5.engine``) plays invito, apertura al buio, the opening round, the cambio,
the last round, the showdown and the parol, and the giro pazzo variants (Telesina among them);
betting, pots and the hand evaluator are the shared ``games.betting``, ``games.poker_common`` and
``games.evaluator``.
"""

from games.poker5.engine import GIRO_PAZZO_VARIANTS, Poker5, register_giro_pazzo_variant, use_time_bank

__all__ = ["GIRO_PAZZO_VARIANTS", "Poker5", "register_giro_pazzo_variant", "use_time_bank"]
