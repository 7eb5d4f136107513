"""Asso piglia tutto, or Scopa d'assi (RULINGS I1, I2, I4, I5).

As Scopa, plus the ace: it takes an ace on the table and that is a scopa; with no ace on the
table it takes every table card and that is not a scopa; on an empty table it is laid down.
The scopa made with an ace on an ace is not scored on the very last play either (I1).
"""

from __future__ import annotations

from typing import Any, ClassVar

from games.capture import CaptureRules
from games.partite import PartiteEngine
from games.registry import register
from games.scopa import ScopaDeal


class AssoDeal(ScopaDeal):
    """A smazzata of Asso piglia tutto: the Scopa deal with the aces' rules."""

    capture_rules = CaptureRules(
        equal_obligation=True, ace_takes_all=True, ace_on_ace_scopa=True, ace_sweep_scopa=False
    )


@register
class AssoEngine(PartiteEngine):
    """Asso piglia tutto, in every format of the giochi a partite."""

    name = "asso"
    title = "Asso piglia tutto"
    rules = AssoDeal()
    defaults: ClassVar[dict[str, Any]] = {"mode": "punti", "target": 11}
