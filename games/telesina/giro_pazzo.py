"""Giro pazzo (RULINGS P13): a Poker 5 carte deal played as Telesina on this engine.

In the giro pazzo each dealer picks Classica, or Telesina with its vele and distribution, in one
panel (000, "Scelta Variante"). The poker engine (``games.poker5``) offers the variants registered
in its ``GIRO_PAZZO_VARIANTS`` and, when the dealer picks one other than Classica, ends its state
with a *handoff*: nothing has moved, and its carry holds ``handoff = {"variant": "telesina",
"vele": …, "distribuzione": …, "dealer": …}`` plus the usual poker carry (previous dealer, carried
pot, opening minimum, giro pazzo count, time bank, missed hands).

The whole protocol, from the runtime's side:

1. At start-up (e.g. the lobby app's ``ready``) call ``register()`` once: it adds Telesina to the
   dealer's panel through ``games.poker5.register_giro_pazzo_variant``. It is not done on import,
   so code and tests that expect Classica only are unaffected.
2. Panel: ``choices(config, prefs)`` gives one TELESINA spec per vele × distribution (a dealer with
   "usa sempre" preferences sees only those: the vele/distribution preferences are "valide solo
   nel giro pazzo").
3. Handoff: when a poker hand ends with ``outcome()["handoff"]``, the runtime starts the deal with
   ``registry.get("telesina").new(table_config, seats, rng, poker_carry)``: the same table
   options (the poker-only ones are dropped), the same seats and dealer, the chosen vele and
   distribution, the waiting pot as dead money. ``start_hand`` does exactly that.
4. Back to poker: the Telesina state's ``carry()`` is then a Poker 5 carte carry (same dealer, so
   the button moves on; the giro pazzo one deal shorter; no parol; opening minimum back to J once
   the pot is won), to pass to ``Poker5.new`` for the next deal.

A full shown in a Telesina deal of the giro pazzo does not extend it (P13).
"""

from __future__ import annotations

from typing import Any

from games.engine import SeatSpec, State
from games.rng import Rng
from games.telesina.engine import DISTRIBUZIONE_LABELS, DISTRIBUZIONI, Telesina, seat_prefs
from games.telesina.vele import LAYOUTS

ENGINE = Telesina()
VARIANT = "telesina"


def choices(config: dict[str, Any], prefs: Any) -> list[dict[str, Any]]:
    """The TELESINA choices of the dealer's giro pazzo panel (poker5's ``VariantChoices``)."""
    p = seat_prefs(prefs)
    vele = [p["vele_preferite"]] if p["usa_sempre_vele"] and p["vele_preferite"] else list(LAYOUTS)
    dist = (
        [p["distribuzione_preferita"]]
        if p["usa_sempre_distribuzione"] and p["distribuzione_preferita"]
        else list(DISTRIBUZIONI)
    )
    specs = []
    for v in vele:
        for d in dist:
            label = f"TELESINA · {LAYOUTS[v].label} · {DISTRIBUZIONE_LABELS[d]}"
            specs.append(
                {"type": "variante", "variant": VARIANT, "vele": v, "distribuzione": d, "label": label}
            )
    return specs


def register() -> None:
    """Offer Telesina in the giro pazzo of Poker 5 carte (call once at start-up)."""
    from games.poker5 import register_giro_pazzo_variant  # the poker package never imports this one

    register_giro_pazzo_variant(VARIANT, choices)


def start_hand(
    poker_config: dict[str, Any], seats: list[SeatSpec], rng: Rng, poker_carry: dict[str, Any]
) -> State:
    """Start the Telesina deal of a poker handoff (``poker_carry`` is the poker hand's ``carry()``)."""
    if not isinstance(poker_carry.get("handoff"), dict) or poker_carry["handoff"].get("variant") != VARIANT:
        raise ValueError("la mano di poker non ha passato la mano alla telesina")
    return ENGINE.new(poker_config, seats, rng, poker_carry)


def poker_carry(state: State) -> dict[str, Any]:
    """The Poker 5 carte carry after a finished Telesina deal of the giro pazzo (``Telesina.carry``)."""
    out = ENGINE.carry(state)
    if out is None or "poker" not in state:
        raise ValueError("non è una mano di telesina del giro pazzo terminata")
    return out
