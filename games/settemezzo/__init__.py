"""Sette e mezzo (piatto and classica): see ``games.settemezzo.engine``; ``banco`` is shared with Mazzetti."""

from games.settemezzo.engine import SetteEMezzo, elimination_ranking, points

__all__ = ["SetteEMezzo", "elimination_ranking", "points"]
