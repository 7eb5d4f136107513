"""Capture by sum, written once for Scopa, Asso piglia tutto and Cirulla (RULINGS I1–I4).

Two layers:

* pure functions: ``captures(card, table, rules)`` lists every set of table cards the played card
  may take (the equal-card obligation of Scopa, free choice among sums, Cirulla's fifteens, the
  aces' special rules as ``CaptureRules`` parameters); ``primiera``/``score_base`` score piles.
* ``CaptureDeal``, the ``games.partite.DealRules`` of one smazzata of these games: 3 cards each
  and 4 on the table, 3 more each while the stock lasts, scopa (never on the very last play), the
  cards left on the table to the last line that captured, scoring. Games subclass it and set
  ``capture_rules`` and the redeal rule; Cirulla adds accusi through the hooks.

A legal move is ``{"type": "gioca", "card": "5d", "take": ["2c", "3h"]}``: the played card and
the set of table cards taken (``[]`` lays the card on the table), ``take`` in the order of
``sort_cards`` (Italian deck order). The specs list exactly the allowed captures, so the table
can offer them ("Conferma presa") and the discards ("Scarta"). ``apply`` accepts ``take`` in any
order (it is a set); ``can_apply`` matches the canonical order only.

Decisions where the rules are silent (documented here, cited in tests):

* The cards left on the table at the end go to the last line that captured (I1); if nobody
  captured in the whole smazzata they stay on the table, and the match engine's KO decider falls
  back to the dealer's line (``games.partite``).
* Timeout/abandon penalty ("tutti i punti ancora non aggiudicati con l'aggiunta di una scopa"):
  one scopa, plus sette bello while nobody has taken it, carte while nobody has 21, denari
  while nobody has 6, primiera always (it is decided only at the end); Cirulla adds grande and
  piccola while no line has split them, and caps the total at 6 (``penalty_cap``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games.cards import ITALIAN_VALUE, italian_deck
from games.engine import Action, Event, InvalidCards, State, UnknownAction
from games.partite import DealRules, line_of
from games.rng import Rng, shuffled

DECK = italian_deck()
DECK_INDEX = {c: i for i, c in enumerate(DECK)}
VALUE = {c: ITALIAN_VALUE[c[0]] for c in DECK}
PRIMIERA_VALUE = {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12, "J": 10, "Q": 10, "K": 10}
SETTEBELLO = "7d"
DENARI = "d"


@dataclass(frozen=True)
class CaptureRules:
    """How a played card captures in one game."""

    # Scopa/Asso (I2): a table card equal in value must be taken (alone) when there is one.
    equal_obligation: bool = True
    # Cirulla (I3): the played card plus table cards summing to 15.
    fifteen: bool = False
    # Asso piglia tutto, Cirulla: an ace takes an ace on the table, else every table card.
    ace_takes_all: bool = False
    # Asso piglia tutto: ace on ace is a scopa; the ace's sweep of the table is not.
    ace_on_ace_scopa: bool = False
    ace_sweep_scopa: bool = True


def value(card: str) -> int:
    """Return the capture value of a card (asso 1 … re 10)."""
    return VALUE[card]


def sort_cards(cards: Sequence[str]) -> list[str]:
    """Return the cards in Italian deck order (the canonical order of ``take``)."""
    return sorted(cards, key=DECK_INDEX.__getitem__)


def subsets_summing(table: Sequence[str], target: int, min_size: int = 1) -> list[list[str]]:
    """Return every set of table cards (canonical order) whose values sum to ``target``."""
    cards = sort_cards(table)
    vals = [VALUE[c] for c in cards]
    out: list[list[str]] = []
    if target > 0:
        _walk(cards, vals, 0, target, [], min_size, out)
    return out


def _walk(
    cards: list[str], vals: list[int], i: int, left: int, chosen: list[str], min_size: int,
    out: list[list[str]],
) -> None:  # fmt: skip
    """``subsets_summing``'s depth-first search from card ``i`` for ``left`` more, ``chosen`` so far.

    A function of the module: a nested function that calls itself holds itself in a reference
    cycle, and every call of a game's legal moves would leave it to the garbage collector."""
    if left == 0:
        if len(chosen) >= min_size:
            out.append(list(chosen))
        return
    for j in range(i, len(cards)):
        if vals[j] <= left:
            chosen.append(cards[j])
            _walk(cards, vals, j + 1, left - vals[j], chosen, min_size, out)
            chosen.pop()


def captures(
    card: str, table: Sequence[str], rules: CaptureRules, played_value: int | None = None
) -> list[list[str]]:
    """List every set of table cards the card may take; empty when it must be laid on the table.

    ``played_value`` overrides the card's value (Cirulla's matta after an accuso).
    """
    v = VALUE[card] if played_value is None else played_value
    if not table:
        return []
    if rules.ace_takes_all and v == 1:
        aces = [[c] for c in sort_cards(table) if VALUE[c] == 1]
        return aces or [sort_cards(table)]
    equal = [[c] for c in sort_cards(table) if VALUE[c] == v]
    if rules.equal_obligation and equal:
        return equal  # I2: the equal card must be taken (any one of them when there are several)
    options = equal + subsets_summing(table, v, min_size=2)
    if rules.fifteen:
        seen = {tuple(o) for o in options}
        for s in subsets_summing(table, 15 - v):
            if tuple(s) not in seen:
                options.append(s)
                seen.add(tuple(s))
    return options


def primiera_points(pile: Sequence[str]) -> int | None:
    """Return the primiera of a pile (best card of each suit), or None if it lacks a suit (I4)."""
    best: dict[str, int] = {}
    for c in pile:
        s, p = c[1], PRIMIERA_VALUE[c[0]]
        if p > best.get(s, 0):
            best[s] = p
    return sum(best.values()) if len(best) == 4 else None


def primiera_winner(piles: Sequence[Sequence[str]]) -> tuple[int | None, list[int | None]]:
    """Return the line winning the primiera (None: nobody, I4) and each line's primiera."""
    vals = [primiera_points(p) for p in piles]
    a, b = vals
    if a is None and b is None:
        return None, vals
    if b is None or (a is not None and a > b):
        return 0, vals
    if a is None or b > a:
        return 1, vals
    return None, vals  # equal totals: nobody scores it


def majority(counts: Sequence[int], threshold: int) -> int | None:
    """Return the line with at least ``threshold`` (carte 21, denari 6), else None (I4)."""
    for i in (0, 1):
        if counts[i] >= threshold:
            return i
    return None


def score_base(piles: Sequence[Sequence[str]], scope: Sequence[int]) -> tuple[list[int], dict[str, Any]]:
    """Score scope, carte, denari, sette bello and primiera of the two lines' piles."""
    carte = [len(p) for p in piles]
    denari = [sum(1 for c in p if c[1] == DENARI) for p in piles]
    carte_w = majority(carte, 21)
    denari_w = majority(denari, 6)
    settebello = next((i for i in (0, 1) if SETTEBELLO in piles[i]), None)
    prim_w, prim = primiera_winner(piles)
    points = [scope[0], scope[1]]
    for w in (carte_w, denari_w, settebello, prim_w):
        if w is not None:
            points[w] += 1
    detail = {
        "scope": list(scope),
        "carte": carte,
        "carte_punto": carte_w,
        "denari": denari,
        "denari_punto": denari_w,
        "settebello": settebello,
        "primiera": prim,
        "primiera_punto": prim_w,
    }
    return points, detail


class CaptureDeal(DealRules):
    """One smazzata of Scopa, Asso piglia tutto or Cirulla (RULINGS I1)."""

    # carte viste is shown by the capture view; nobody plays a perdere or declares "vinco subito"
    not_implemented: ClassVar[frozenset[str]] = frozenset({"lower_wins", "decider_always", "vinco_subito"})

    capture_rules: ClassVar[CaptureRules] = CaptureRules()

    # -- hooks for the games ------------------------------------------------------------------

    def redeal_needed(self, table: Sequence[str]) -> bool:
        """Tell whether the four table cards send the deal a monte (Scopa: three kings)."""
        return False

    def after_deal(self, st: State, deal: dict[str, Any], events: list[Event]) -> None:
        """Hook after the first deal (Cirulla: the dealer's accuso)."""

    def before_turn(self, st: State, deal: dict[str, Any], events: list[Event]) -> None:
        """Hook when a position is about to move (Cirulla: automatic accuso)."""

    def extra_actions(self, st: State, pos: int) -> list[dict[str, Any]]:
        """Extra specs of the position to act (Cirulla: "Accuso")."""
        return []

    def apply_extra(self, st: State, pos: int, action: Action) -> list[Event]:
        """Apply an extra action (Cirulla: accuso); raise if unknown."""
        raise UnknownAction()

    def played_value(self, deal: dict[str, Any], pos: int, card: str) -> int | None:
        """Return the value the card plays for (None: its own)."""
        return None

    def after_play(self, st: State, deal: dict[str, Any], pos: int, card: str, events: list[Event]) -> None:
        """Hook after a play is applied (Cirulla: matta reset, cappotto)."""

    def score(self, deal: dict[str, Any]) -> tuple[list[int], dict[str, Any]]:
        """Score the piles and scope of the deal."""
        return score_base(deal["piles"], deal["scope"])

    # -- dealing -------------------------------------------------------------------------------

    def start(self, st: State, rng: Rng) -> tuple[dict[str, Any], list[list[str]], list[Event]]:
        """Shuffle, deal 3 each from the dealer's right and 4 to the table; redeal if the rule says."""
        n = len(st["seats"])
        decks: list[list[str]] = []
        events: list[Event] = []
        while True:
            deck = shuffled(DECK, rng)
            decks.append(deck)
            table = deck[3 * n : 3 * n + 4]
            if not self.redeal_needed(table):
                break
            events.append({"type": "a_monte", "table": list(table)})
        first = (st["dealer"] + 1) % n
        hands: list[list[str]] = [[] for _ in range(n)]
        for i in range(3 * n):  # one at a time, counter-clockwise from the dealer's right
            hands[(first + i) % n].append(deck[i])
        deal: dict[str, Any] = {
            "stock": deck[3 * n + 4 :],
            "hands": hands,
            "table": list(table),
            "piles": [[], []],
            "scope": [0, 0],
            "scope_cards": [],
            "turn": first,
            "round": 1,
            "rounds": 1 + (40 - 4 - 3 * n) // (3 * n),
            "last_taker": None,
            "moves": [],
            "over": False,
            "cappotto": None,
        }
        events.extend({"type": "carte", "pos": p, "cards": list(hands[p]), "to_pos": [p]} for p in range(n))
        events.append({"type": "tavola", "cards": list(table)})
        self.after_deal(st, deal, events)
        self.before_turn(st, deal, events)
        return deal, decks, events

    # -- the contract ----------------------------------------------------------------------------

    def to_act(self, st: State) -> int | None:
        """Return the position to play (None when the deal is over)."""
        deal = st["deal"]
        return None if deal["over"] else int(deal["turn"])

    def options(self, deal: dict[str, Any], pos: int, card: str) -> list[list[str]]:
        """List the captures this card allows now."""
        return captures(card, deal["table"], self.capture_rules, self.played_value(deal, pos, card))

    def legal_actions(self, st: State, pos: int) -> list[dict[str, Any]]:
        """List every (card, captured set) allowed: exactly the captures, else the discard."""
        deal = st["deal"]
        specs = self.extra_actions(st, pos)
        for card in deal["hands"][pos]:
            opts = self.options(deal, pos, card)
            if opts:
                specs.extend(
                    {"type": "gioca", "card": card, "take": o, "label": "Conferma presa"} for o in opts
                )
            else:
                specs.append({"type": "gioca", "card": card, "take": [], "label": "Scarta"})
        return specs

    def auto_action(self, st: State, pos: int) -> Action:
        """Return the first legal play (first card in hand, first capture it allows)."""
        deal = st["deal"]
        card = deal["hands"][pos][0]
        opts = self.options(deal, pos, card)
        return {"type": "gioca", "card": card, "take": opts[0] if opts else []}

    def apply(self, st: State, pos: int, action: Action, rng: Rng) -> list[Event]:
        """Play a card, capturing the chosen set or laying it on the table; deal on when due."""
        deal = st["deal"]
        if action.get("type") != "gioca":
            return self.apply_extra(st, pos, action)
        card = action.get("card")
        take = action.get("take", [])
        if not isinstance(card, str):
            raise InvalidCards("Carta non in mano", card=card)
        if set(action) - {"type", "card", "take"} or not isinstance(take, list):
            raise UnknownAction()
        hand = deal["hands"][pos]
        if card not in hand:
            raise InvalidCards("Carta non in mano", card=card)
        if not all(isinstance(c, str) and c in DECK_INDEX for c in take) or len(set(take)) != len(take):
            raise InvalidCards("Presa non ammessa")
        take = sort_cards(take)
        opts = self.options(deal, pos, card)
        if take not in opts and not (take == [] and not opts):
            if not take and opts:
                raise InvalidCards("Se puoi prendere devi prendere")
            raise InvalidCards("Presa non ammessa", card=card, take=take)
        # -- validated: mutate from here on
        rules = self.capture_rules
        hand.remove(card)
        line = line_of(pos)
        n = len(st["seats"])
        last_play = not deal["stock"] and all(not h for h in deal["hands"])
        scopa = False
        if take:
            for c in take:
                deal["table"].remove(c)
            deal["piles"][line].extend([card, *take])
            deal["last_taker"] = line
            pv = self.played_value(deal, pos, card)
            is_ace = rules.ace_takes_all and (VALUE[card] if pv is None else pv) == 1
            if is_ace and rules.ace_on_ace_scopa and VALUE[take[0]] == 1:
                scopa = True
            elif not deal["table"]:
                scopa = not is_ace or rules.ace_sweep_scopa
            scopa = scopa and not last_play  # I1: not on the very last play
            if scopa:
                deal["scope"][line] += 1
                deal["scope_cards"].append(card)
        else:
            deal["table"].append(card)
        deal["moves"].append({"pos": pos, "card": card, "take": take, "scopa": scopa})
        events: list[Event] = [{"type": "gioca", "pos": pos, "card": card, "take": take, "scopa": scopa}]
        self.after_play(st, deal, pos, card, events)
        if deal["over"]:
            return events
        deal["turn"] = (pos + 1) % n
        if all(not h for h in deal["hands"]):
            if deal["stock"]:
                first = deal["turn"]
                for i in range(3 * n):
                    deal["hands"][(first + i) % n].append(deal["stock"][i])
                deal["stock"] = deal["stock"][3 * n :]
                deal["round"] += 1
                events.extend(
                    {"type": "carte", "pos": p, "cards": list(deal["hands"][p]), "to_pos": [p]}
                    for p in range(n)
                )
            else:
                rest = deal["table"]
                if deal["last_taker"] is not None and rest:  # I1: to the last capture, not a scopa
                    deal["piles"][deal["last_taker"]].extend(rest)
                    events.append({"type": "ultima_presa", "line": deal["last_taker"], "cards": list(rest)})
                    deal["table"] = []
                deal["over"] = True
                return events
        self.before_turn(st, deal, events)
        return events

    def is_over(self, st: State) -> bool:
        """Tell whether the smazzata has ended."""
        return bool(st["deal"]["over"])

    def result(self, st: State) -> dict[str, Any]:
        """Score the smazzata; the decider is the line of the last capture (I5)."""
        deal = st["deal"]
        points, detail = self.score(deal)
        return {
            "points": points,
            "decider": deal["last_taker"],
            "cappotto": deal["cappotto"],
            "detail": detail,
        }

    def hands_known(self, st: State) -> bool:
        """Tell whether the stock is out (last hand: carte viste plays it face up, testa a testa)."""
        return not st["deal"]["stock"]

    def penalty(self, st: State, offender: int) -> int:
        """Return the still unassigned points of the smazzata plus one scopa (forfeit rule)."""
        deal = st["deal"]
        piles = deal["piles"]
        pending = 1  # the scopa the rules add
        if SETTEBELLO not in piles[0] and SETTEBELLO not in piles[1]:
            pending += 1
        if max(len(p) for p in piles) < 21:
            pending += 1
        if max(sum(1 for c in p if c[1] == DENARI) for p in piles) < 6:
            pending += 1
        pending += 1  # primiera is decided only when the smazzata ends
        return pending + self.extra_pending(deal)

    def extra_pending(self, deal: dict[str, Any]) -> int:
        """Return further unassigned points of the game (Cirulla: grande, piccola)."""
        return 0

    def view(self, st: State, visible: frozenset[int], carte_viste: bool) -> dict[str, Any]:
        """Return the table, own (visible) hands, counts of the rest; piles only with carte viste."""
        deal = st["deal"]
        hands = deal["hands"]
        out: dict[str, Any] = {
            "table": list(deal["table"]),
            "hands": [list(hands[p]) if p in visible else None for p in range(len(hands))],
            "hand_sizes": [len(h) for h in hands],
            "stock": len(deal["stock"]),
            "pile_sizes": [len(p) for p in deal["piles"]],
            "scope": list(deal["scope"]),
            "scope_cards": list(deal["scope_cards"]),
            "round": deal["round"],
            "rounds": deal["rounds"],
            "turn": deal["turn"],
            "last_taker": deal["last_taker"],
            "last_move": dict(deal["moves"][-1]) if deal["moves"] else None,
        }
        if carte_viste:  # "saranno mostrate le carte viste nelle precedenti mani della smazzata"
            out["piles"] = [list(p) for p in deal["piles"]]
            out["moves"] = [dict(m) for m in deal["moves"]]
        return out
