"""Poker 5 carte all'italiana (registered as "poker5")."""

from games.poker5.engine import GIRO_PAZZO_VARIANTS, Poker5, register_giro_pazzo_variant, use_time_bank

__all__ = ["GIRO_PAZZO_VARIANTS", "Poker5", "register_giro_pazzo_variant", "use_time_bank"]
