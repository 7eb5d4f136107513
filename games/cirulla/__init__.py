"""Cirulla (RULINGS I1, I3, I4, I5): free choice among equal card, sums and fifteens; accusi.

* Redeal when two or more aces are among the four table cards (I3).
* The ace takes an ace on the table, else every table card (a scopa unless on the last play).
* Accusi: the dealer's four table cards summing to 15 (1 point) or 30 (2 points), and he takes
  them; the player's cirulla (three cards summing to 9 or less: 3 points) and decino (three equal
  cards: 10 points), declared with the cards shown before playing the first card of a hand.
  The 7 of cuori (coppe) is a matta only when it makes an accuso (I3): in a cirulla it plays as
  an ace, in a decino as the other two cards' value; laid on the table it is a 7 again.
* The dealer's accuso is automatic; the player's is automatic unless the player's preference
  ``accuso_automatico`` is False, then the table offers "Accuso" before the first card.
* Grande (fante, cavallo, re di denari: 5) and piccola (asso, 2, 3 di denari: 3, plus one for
  each further denaro in sequence up to the 6). Cappotto (all ten denari, table option
  ``cappotto``, default on) ends the match at once with the taker's win.

Decisions not spelled out by the rules (documented here): one accuso per player per hand (the
better one when automatic: decino before cirulla); the dealer's pick-up of the table counts as
his line's capture for the "last capture" rule; a cappotto ends the smazzata the moment the
tenth denaro is taken, the points of that smazzata being scored on the cards taken so far.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from games.capture import DENARI, VALUE, CaptureDeal, CaptureRules, score_base
from games.engine import Action, ConfigError, Event, IllegalAction, Option, State, UnknownAction
from games.partite import PartiteEngine, line_of, prefs
from games.registry import register

MATTA = "7h"
ACCUSO_POINTS = {"cirulla": 3, "decino": 10}
ACCUSO_NAMES = {"cirulla": "Cirulla", "decino": "Decino"}  # the words of the "Accuso" button
GRANDE = ("Jd", "Qd", "Kd")
PICCOLA = ("Ad", "2d", "3d")
PICCOLA_MORE = ("4d", "5d", "6d")


def dealer_accuso(table: Sequence[str]) -> int:
    """Return the dealer's points for the four table cards: 15 → 1, 30 → 2 (7 di cuori matta)."""
    if MATTA in table:
        rest = sum(VALUE[c] for c in table if c != MATTA)
        sums = {rest + x for x in range(1, 11)}
    else:
        sums = {sum(VALUE[c] for c in table)}
    return 1 if 15 in sums else 2 if 30 in sums else 0


def hand_accusi(hand: Sequence[str]) -> dict[str, int | None]:
    """Return the accusi a three-card hand allows, each with the value the matta takes (or None)."""
    out: dict[str, int | None] = {}
    if len(hand) != 3:
        return out
    others = [c for c in hand if c != MATTA]
    has_matta = len(others) == 2
    if has_matta:
        if VALUE[others[0]] + VALUE[others[1]] + 1 <= 9:
            out["cirulla"] = 1  # "in caso di cirulla il 7 di cuori vale sempre asso"
        if others[0][0] == others[1][0]:
            out["decino"] = VALUE[others[0]]
    else:
        if sum(VALUE[c] for c in hand) <= 9:
            out["cirulla"] = None
        if hand[0][0] == hand[1][0] == hand[2][0]:
            out["decino"] = None
    return out


class CirullaDeal(CaptureDeal):
    """A smazzata of Cirulla."""

    capture_rules = CaptureRules(equal_obligation=False, fifteen=True, ace_takes_all=True)
    game_defaults: ClassVar[dict[str, Any]] = {"cappotto": True}
    game_options: ClassVar[tuple[Option, ...]] = (Option("cappotto", "Cappotto", "bool", True),)

    def validate_config(self, config: dict[str, Any]) -> None:
        """Check the cappotto option."""
        if not isinstance(config["cappotto"], bool):
            raise ConfigError("cappotto deve essere vero o falso")

    def redeal_needed(self, table: Sequence[str]) -> bool:
        """Two or more aces among the four table cards: deal again (I3)."""
        return sum(1 for c in table if c[0] == "A") >= 2

    def after_deal(self, st: State, deal: dict[str, Any], events: list[Event]) -> None:
        """Set up the accusi and apply the dealer's (always automatic)."""
        n = len(st["seats"])
        deal["accusi"] = [0, 0]
        deal["accused_round"] = [0] * n
        deal["shown"] = [[] for _ in range(n)]
        deal["matta"] = [None] * n
        pts = dealer_accuso(deal["table"])
        if pts:
            dealer = st["dealer"]
            line = line_of(dealer)
            cards = list(deal["table"])
            deal["accusi"][line] += pts
            deal["piles"][line].extend(cards)
            deal["table"] = []
            deal["last_taker"] = line
            events.append(
                {"type": "accuso", "pos": dealer, "kind": "mazziere", "points": pts, "cards": cards}
            )

    def _available(self, deal: dict[str, Any], pos: int) -> dict[str, int | None]:
        if deal["accused_round"][pos] == deal["round"] or len(deal["hands"][pos]) != 3:
            return {}
        return hand_accusi(deal["hands"][pos])

    def _accuse(self, deal: dict[str, Any], pos: int, kind: str, matta: int | None) -> Event:
        deal["accused_round"][pos] = deal["round"]
        deal["accusi"][line_of(pos)] += ACCUSO_POINTS[kind]
        deal["shown"][pos] = list(deal["hands"][pos])
        deal["matta"][pos] = matta
        return {
            "type": "accuso",
            "pos": pos,
            "kind": kind,
            "points": ACCUSO_POINTS[kind],
            "cards": list(deal["hands"][pos]),
            "matta": matta,
        }

    def before_turn(self, st: State, deal: dict[str, Any], events: list[Event]) -> None:
        """Declare the best accuso automatically unless the player turned it off."""
        pos = deal["turn"]
        avail = self._available(deal, pos)
        if avail and prefs(st, pos).get("accuso_automatico", True):
            kind = "decino" if "decino" in avail else "cirulla"
            events.append(self._accuse(deal, pos, kind, avail[kind]))

    def extra_actions(self, st: State, pos: int) -> list[dict[str, Any]]:
        """Offer "Accuso" (manual mode) before the first card of a hand."""
        avail = self._available(st["deal"], pos)
        return [{"type": "accuso", "kind": k, "label": f"Accuso: {ACCUSO_NAMES[k]}"} for k in sorted(avail)]

    def apply_extra(self, st: State, pos: int, action: Action) -> list[Event]:
        """Declare a cirulla or a decino."""
        if action.get("type") != "accuso" or set(action) != {"type", "kind"}:
            raise UnknownAction()
        deal = st["deal"]
        avail = self._available(deal, pos)
        kind = action["kind"]
        if kind not in avail:
            raise IllegalAction("Accuso non ammesso", kind=kind)
        return [self._accuse(deal, pos, kind, avail[kind])]

    def played_value(self, deal: dict[str, Any], pos: int, card: str) -> int | None:
        """The matta plays for the value its accuso gave it."""
        if card == MATTA:
            value: int | None = deal["matta"][pos]
            return value
        return None

    def after_play(self, st: State, deal: dict[str, Any], pos: int, card: str, events: list[Event]) -> None:
        """Forget the matta's value once played; end the match on a cappotto."""
        if card == MATTA:
            deal["matta"][pos] = None
        if card in deal["shown"][pos]:
            deal["shown"][pos].remove(card)
        took_denari = any(c[1] == DENARI for c in deal["moves"][-1]["take"])
        if st["config"]["cappotto"] and took_denari:
            line = self._cappotto_line(deal)
            if line is not None:
                deal["cappotto"] = line
                deal["over"] = True
                events.append({"type": "cappotto", "line": line})

    @staticmethod
    def _cappotto_line(deal: dict[str, Any]) -> int | None:
        for i in (0, 1):
            if sum(1 for c in deal["piles"][i] if c[1] == DENARI) == 10:
                return i
        return None

    def score(self, deal: dict[str, Any]) -> tuple[list[int], dict[str, Any]]:
        """Scopa's points plus grande, piccola and the accusi."""
        points, detail = score_base(deal["piles"], deal["scope"])
        grande = piccola = None
        piccola_pts = 0
        for i in (0, 1):
            pile = set(deal["piles"][i])
            if all(c in pile for c in GRANDE):
                grande = i
                points[i] += 5
            if all(c in pile for c in PICCOLA):
                piccola = i
                piccola_pts = 3
                for c in PICCOLA_MORE:
                    if c not in pile:
                        break
                    piccola_pts += 1
                points[i] += piccola_pts
        for i in (0, 1):
            points[i] += deal["accusi"][i]
        detail.update(grande=grande, piccola=piccola, piccola_punti=piccola_pts, accusi=list(deal["accusi"]))
        return points, detail

    def result(self, st: State) -> dict[str, Any]:
        """Score the smazzata; a cappotto completed by the final sweep also ends the match."""
        deal = st["deal"]
        res = super().result(st)
        if res["cappotto"] is None and st["config"]["cappotto"]:
            res["cappotto"] = self._cappotto_line(deal)
        return res

    def extra_pending(self, deal: dict[str, Any]) -> int:
        """Grande and piccola are unassigned while no line has split them."""
        piles = [set(p) for p in deal["piles"]]
        pending = 0
        for group, pts in ((GRANDE, 5), (PICCOLA, 3)):
            held = [any(c in piles[i] for c in group) for i in (0, 1)]
            if not (held[0] and held[1]) and not any(all(c in piles[i] for c in group) for i in (0, 1)):
                pending += pts
        return pending

    def view(self, st: State, visible: frozenset[int], carte_viste: bool) -> dict[str, Any]:
        """The capture view plus the accusi and the cards shown by them (public)."""
        out = super().view(st, visible, carte_viste)
        deal = st["deal"]
        out["accusi"] = list(deal["accusi"])
        out["shown"] = [list(s) for s in deal["shown"]]
        out["matta"] = list(deal["matta"])
        return out


@register
class CirullaEngine(PartiteEngine):
    """Cirulla, in every format of the giochi a partite; penalty capped at 6 points."""

    name = "cirulla"
    title = "Cirulla"
    rules = CirullaDeal()
    defaults: ClassVar[dict[str, Any]] = {"mode": "punti", "target": 51, "penalty_cap": 6}
