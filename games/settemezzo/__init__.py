"""Sette e mezzo, registered as "settemezzo": a banking gioco a puntate of the 40-card deck.

Variants piatto (tournaments and cash) and classica (cash). One engine hand is one banco, the
banker against every punta once (``games.settemezzo.engine``); ``games.settemezzo.banco`` holds
what the two banking games share, Sette e mezzo and Mazzetti.
"""

from games.settemezzo.engine import SetteEMezzo, elimination_ranking, points

__all__ = ["SetteEMezzo", "elimination_ranking", "points"]
