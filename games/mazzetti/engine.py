"""Mazzetti: the engine.

One engine hand is one *mazzata*: the mattaro (banker) against every punta once. ``carry`` holds
the rotation only; every mazzata is dealt from a freshly shuffled deck.

Flow:
1. The mattaro: the first one by dealing cards one at a time from a random seat until the re di
   denari appears; then the seat at the right of the previous one (newcomer exception in
   tournaments; ``carry["resumed"]`` applies the resumption rule). He accepts with the maximum
   bet per punta (at least the minimum; the piatto holds max × punte, the risk shown to him) or,
   short of credit, ALL IN: his whole credit, each punta's cap the credit divided by the punte
   (rules: "credito residuo / numero giocatori di punta"; the remainder goes on the first punta's
   cap, and when the share is below the minimum bet the first punte play the minimum until the
   credit is covered, see ``games.settemezzo.banco.punta_caps``; in tournaments they play the
   minimum so whatever the share: no punta may bet more than the minimum against an all-in
   mattaro). Cash tables: RIFIUTO passes
   the banco to the right, free. Tournaments: no refusal; a mattaro in sitout or timing out loses
   2 × the minimum bet (or all he has), split among all the others (RULINGS G1).
2. The mazzetti (RULINGS B2): as many as the players dealt in (tournaments: every seated player,
   sitout included; cash: those not in sitout when the hand began, mattaro included). The
   mattaro sets their sizes one by one (MAZZETTO with the number of cards), each at least 4
   cards and leaving at least 4 for each one still to make; the last takes the rest. Timeout or
   SITOUT: the remaining cards are split equally (the first ones get the extra cards).
3. The punte, from the mattaro's right, each choose a free mazzetto and the bet (PUNTO with
   ``mazzetto`` and ``amount``). Cash: SITOUT (or the timeout) means not playing this mazzata.
   Tournaments: betting is obligatory; a punta in sitout when its turn comes loses half the
   minimum bet to the banco; one that goes sitout at its turn (timeout) is deemed to have placed
   the obligatory minimum, and the system picks the first free mazzetto for it (the rules'
   "sit out dopo aver puntato").
4. The mattaro's mazzetto is the one left over, or if several are free the last one made. It is
   turned over first, then each punta's from the mattaro's right; a mazzetto's card is its bottom
   card (RULINGS B2). Higher card wins (K > Q > J > 7 > … > A), equal cards go to the mattaro;
   punte are paid even money less rake (vincita × 2 × %); the mattaro pays rake on his positive
   balance only (saldo × 2 × %).

The deck is a list with the top card first; a mazzetto takes the next ``size`` cards off the top,
so its bottom card is the last of its slice. No view shows any mazzetto's cards before it is turned
over, nor the deck.
"""

from __future__ import annotations

from typing import Any, ClassVar

from games.cards import ITALIAN_VALUE
from games.engine import Event, State
from games.registry import register
from games.rng import Rng
from games.settemezzo.banco import BancoEngine, fresh_deck, k

MIN_SIZE = 4


def card_value(card: str) -> int:
    """Return the value of a card in Mazzetti: K 10, Q 9, J 8, 7 … A 1."""
    return ITALIAN_VALUE[card[0]]


def punta_wins(punta_card: str, mattaro_card: str) -> bool:
    """Tell whether the punta's card beats the mattaro's (equal cards: the mattaro wins, B2)."""
    return card_value(punta_card) > card_value(mattaro_card)


def equal_sizes(cards: int, count: int) -> list[int]:
    """Split ``cards`` into ``count`` mazzetti as equal as possible, the extra cards to the first ones."""
    share, rest = divmod(cards, count)
    return [share + (1 if i < rest else 0) for i in range(count)]


@register
class Mazzetti(BancoEngine):
    """Mazzetti: one mazzata (the mattaro against every punta) per engine hand."""

    name = "mazzetti"
    title = "Mazzetti"
    max_seats: ClassVar[int] = 10  # 40 cards, at least 4 per mazzetto
    newcomer_rule_cash = False  # the rules give the newcomer exception only in tournaments

    def banker_penalty(self, state: State) -> int:
        """A tournament mattaro in sitout loses twice the minimum bet."""
        return 2 * int(state["config"]["min_bet"])

    def start_banco(self, state: State, events: list[Event], rng: Rng) -> None:
        """Shuffle and hand the deck to the mattaro to build the mazzetti."""
        tournament = state["config"]["mode"] == "tournament"
        count = len(state["order"]) if tournament else sum(not v for v in state["sitout_start"].values())
        count = max(count, len(state["punte"]) + 1)
        state["deck"] = fresh_deck(rng)
        state["deck_log"].append(list(state["deck"]))
        state["count"] = count
        state["mazzetti"] = []
        state["status"] = {k(p): "wait" for p in state["punte"]}
        state["turn"] = 0
        state["phase"] = "build"
        state["actor"] = state["banker"]
        events.append({"type": "shuffle", "cards": 40, "mazzetti": count})

    # -- building ------------------------------------------------------------------------------

    def _size_range(self, state: State) -> tuple[int, int]:
        left = state["count"] - len(state["mazzetti"])
        return MIN_SIZE, len(state["deck"]) - MIN_SIZE * (left - 1)

    def _make(self, state: State, size: int, events: list[Event]) -> None:
        cards = state["deck"][:size]
        del state["deck"][:size]
        state["mazzetti"].append({"cards": cards, "owner": None, "shown": False})
        events.append({"type": "mazzetto", "index": len(state["mazzetti"]) - 1, "size": size})

    def _build(self, state: State, sizes: list[int], events: list[Event], rng: Rng) -> None:
        for size in sizes:
            self._make(state, size, events)
        if state["count"] - len(state["mazzetti"]) == 1:
            self._make(state, len(state["deck"]), events)
        if len(state["mazzetti"]) == state["count"]:
            self._next_bet(state, events, rng)

    # -- the punte -----------------------------------------------------------------------------

    def _free(self, state: State) -> list[int]:
        return [i for i, m in enumerate(state["mazzetti"]) if m["owner"] is None]

    def _bet_range(self, state: State, p: int) -> tuple[int, int]:
        return self.bet_range(state, p, state["caps"][k(p)])

    def _next_bet(self, state: State, events: list[Event], rng: Rng) -> None:
        """Ask the next punta to choose, penalise or skip those who cannot, or turn the cards."""
        tournament = state["config"]["mode"] == "tournament"
        while state["turn"] < len(state["punte"]):
            p = state["punte"][state["turn"]]
            if state["chips"][k(p)] == 0 or state["caps"][k(p)] == 0:
                state["status"][k(p)] = "out"
            elif state["sitout"][k(p)]:
                if tournament:
                    self.penalise_punta(state, p, events)
                state["status"][k(p)] = "penalty" if tournament else "out"
            else:
                state["phase"] = "bet"
                state["actor"] = p
                return
            state["turn"] += 1
        self._showdown(state, events)

    def _place(self, state: State, p: int, index: int, amount: int, events: list[Event], rng: Rng) -> None:
        state["chips"][k(p)] -= amount
        state["bets"][k(p)] = amount
        state["mazzetti"][index]["owner"] = p
        state["status"][k(p)] = "bet"
        self.mark_played(state, p)
        events.append({"type": "punto", "seat": p, "mazzetto": index, "amount": amount})
        state["turn"] += 1
        self._next_bet(state, events, rng)

    def _showdown(self, state: State, events: list[Event]) -> None:
        """Turn the mattaro's mazzetto, then each punta's, and pay."""
        free = self._free(state)
        mine = free[-1]  # the one left, or the last made among the free ones
        banker = state["banker"]
        state["mazzetti"][mine]["owner"] = banker
        state["mazzetti"][mine]["shown"] = True
        bank_card = state["mazzetti"][mine]["cards"][-1]
        events.append({"type": "gira", "seat": banker, "mazzetto": mine, "card": bank_card})
        for p in state["punte"]:
            if state["status"][k(p)] != "bet":
                continue
            index = next(i for i, m in enumerate(state["mazzetti"]) if m["owner"] == p)
            m = state["mazzetti"][index]
            m["shown"] = True
            card = m["cards"][-1]
            events.append({"type": "gira", "seat": p, "mazzetto": index, "card": card})
            won = punta_wins(card, bank_card)
            self.pay_punta(state, p, won, events, {"mazzetto": index, "card": card, "banco_card": bank_card})
            state["status"][k(p)] = "won" if won else "lost"
        saldo, rk = self.close_cover(state, events)
        state["bank_result"] = {"mazzetto": mine, "card": bank_card, "saldo": saldo, "rake": rk}
        self._finish(state, events)

    # -- actions -------------------------------------------------------------------------------

    def play_specs(self, state: State, seat: int) -> list[dict[str, Any]]:
        """MAZZETTO (size) while building; PUNTO (mazzetto, amount) for a punta; SITOUT."""
        specs: list[dict[str, Any]] = []
        if state["phase"] == "build":
            lo, hi = self._size_range(state)
            specs.append({"type": "mazzetto", "label": "MAZZETTO", "amount": {"min": lo, "max": hi}})
        else:
            lo, hi = self._bet_range(state, seat)
            for i in self._free(state):
                specs.append(
                    {"type": "punto", "label": "PUNTO", "mazzetto": i, "amount": {"min": lo, "max": hi}}
                )
        specs.append({"type": "sitout", "label": "SITOUT"})
        return specs

    def play_apply(
        self, state: State, seat: int, action: dict[str, Any], events: list[Event], rng: Rng
    ) -> None:
        """Apply MAZZETTO, PUNTO or SITOUT."""
        kind = action["type"]
        if kind == "mazzetto":
            self._build(state, [action["amount"]], events, rng)
            return
        if kind == "punto":
            self._place(state, seat, action["mazzetto"], action["amount"], events, rng)
            return
        state["sitout"][k(seat)] = True
        events.append({"type": "sitout", "seat": seat})
        if state["phase"] == "build":
            return  # run_auto splits the remaining cards equally
        if state["config"]["mode"] == "tournament":
            lo, _ = self._bet_range(state, seat)
            self._place(state, seat, self._free(state)[0], lo, events, rng)
            return
        state["status"][k(seat)] = "out"
        events.append({"type": "non_gioca", "seat": seat})
        state["turn"] += 1
        self._next_bet(state, events, rng)

    def auto_step(self, state: State, events: list[Event], rng: Rng) -> bool:
        """A mattaro in sitout while building: the remaining cards are split equally (RULINGS B2)."""
        if state["phase"] != "build" or not state["sitout"][k(state["banker"])]:
            return False
        left = state["count"] - len(state["mazzetti"])
        self._build(state, equal_sizes(len(state["deck"]), left)[:-1], events, rng)
        return True

    def game_view(self, state: State, seat: int | None, out: dict[str, Any]) -> None:
        """Mazzetti: sizes and owners; a card only once its mazzetto is turned over."""
        out["count"] = state.get("count", 0)
        out["turn"] = state.get("turn", 0)
        out["status"] = dict(state.get("status", {}))
        out["mazzetti"] = [
            {
                "size": len(m["cards"]),
                "owner": m["owner"],
                "card": m["cards"][-1] if m["shown"] else None,
            }
            for m in state.get("mazzetti", [])
        ]
        if "bank_result" in state:
            out["bank_result"] = state["bank_result"]
