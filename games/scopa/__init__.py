"""Scopa (RULINGS I1, I2, I4, I5): capture by sum with the equal-card obligation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from games.capture import CaptureDeal, CaptureRules
from games.partite import PartiteEngine
from games.registry import register


class ScopaDeal(CaptureDeal):
    """A smazzata of Scopa: redeal when three or more kings are among the four table cards (I2)."""

    capture_rules = CaptureRules(equal_obligation=True)

    def redeal_needed(self, table: Sequence[str]) -> bool:
        """Three or more kings on the table: no scopa would be possible, deal again."""
        return sum(1 for c in table if c[0] == "K") >= 3


@register
class ScopaEngine(PartiteEngine):
    """Scopa, testa a testa, a coppie or 4 in 2; partite a punti (default 11) or a smazzate."""

    name = "scopa"
    title = "Scopa"
    rules = ScopaDeal()
    defaults: ClassVar[dict[str, Any]] = {"mode": "punti", "target": 11}
