"""Meld validation shared by Burraco and Scala 40 (rules 004, RULINGS R1, R2).

A meld on the table is a plain dict (JSON state):

* sequence (``"scala"``): ``{"kind": "scala", "suit": "h", "start": 3, "cards": [...]}``; the
  cards are in position order, position ``start + i`` holding ``cards[i]``. Positions run from
  1 (the ace before the 2) to 14 (the ace after the king); no wrap-around (no K-A-2).
* combination (``"tris"``): ``{"kind": "tris", "rank": "9", "cards": [...], "jolly_suit": None}``;
  ``jolly_suit`` is the suit a Scala 40 jolly declares it replaces (None without a jolly, and
  always None in Burraco, where combinations may repeat suits).

A card at a sequence position is *natural* when it is that very card (a Burraco 2 in its natural
place, e.g. 2♥ in A♥ 2♥ 3♥, is not a matta); any other card there is the meld's *matta*
(a jolly, or in Burraco a 2). Every meld holds at most one matta and at least one natural card.

Where the games differ, a ``MeldRules`` value says how (``BURRACO``, ``SCALA40``). The engines add
ownership, opening values and turn rules; this module only answers "is this a valid meld" and
"which layouts can these cards take", never enumerating subsets of a hand: a table offers the
cards, the player picks a subset, and ``meld_options``/``extend_options`` list the few layouts
(which end a matta goes to, ace low or high, which suit a jolly replaces) for the table to offer.
``accepted_layouts`` keeps those a request can select and the engine accepts, with the fields
that select each and what the table shows of it: the engines' ``layouts`` answer the table's
chooser with it, so the client holds no meld rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from games.cards import RANKS, SUITS, is_joker
from games.engine import IllegalAction, InvalidCards

Meld = dict[str, Any]

SEQ = "scala"
SET = "tris"
MIN_MELD = 3
TOP = 14  # the ace after the king


@dataclass(frozen=True)
class MeldRules:
    """How a game's melds differ (see the module docstring)."""

    name: str
    wild_twos: bool  # Burraco: the 2s (pinelle) are matte outside their natural place
    set_distinct_suits: bool  # Scala 40: a combination has distinct suits
    set_max: int | None  # Scala 40: at most 4 cards in a combination
    seq_max_naturals: int  # Scala 40: 13 cards of a suit plus the jolly; Burraco: A..K..A
    wild_moves: bool  # Burraco (R1): when its card arrives, the matta moves to an end


BURRACO = MeldRules(
    "burraco", wild_twos=True, set_distinct_suits=False, set_max=None, seq_max_naturals=14, wild_moves=True
)
SCALA40 = MeldRules(
    "scala40", wild_twos=False, set_distinct_suits=True, set_max=4, seq_max_naturals=13, wild_moves=False
)


def rank_of_position(pos: int) -> str:
    """Return the rank character of a sequence position (1 and 14 are both the ace)."""
    return "A" if pos == TOP else RANKS[pos - 1]


def rank_number(card: str) -> int:
    """Return 1 (ace) .. 13 (king) for a card that is not a jolly."""
    return RANKS.index(card[0]) + 1


def is_matta(card: str, rules: MeldRules) -> bool:
    """Tell whether a card may stand for another (a jolly; in Burraco also a 2)."""
    r = card[0]
    return r == "X" or (rules.wild_twos and r == "2")  # "X": a jolly (games.cards.is_joker)


def natural_at(card: str, suit: str, pos: int) -> bool:
    """Tell whether a card is the natural card of a sequence position."""
    # a jolly ("X1".."X4") has no rank, so it is never natural
    return card[1] == suit and card[0] == ("A" if pos == TOP else RANKS[pos - 1])


def wild_index(meld: Meld, rules: MeldRules) -> int | None:
    """Return the index of the meld's matta in ``meld["cards"]``, or None if it has none."""
    cards: list[str] = meld["cards"]
    if meld["kind"] == SEQ:
        for i, c in enumerate(cards):
            if not natural_at(c, meld["suit"], meld["start"] + i):
                return i
        return None
    for i, c in enumerate(cards):
        if is_matta(c, rules):
            return i
    return None


def wild_card_stands_for(meld: Meld, rules: MeldRules) -> str | None:
    """Return the card the matta replaces (sequence: its position; combination: declared suit)."""
    i = wild_index(meld, rules)
    if i is None:
        return None
    if meld["kind"] == SEQ:
        return rank_of_position(meld["start"] + i) + str(meld["suit"])
    suit = meld.get("jolly_suit")
    return None if suit is None else str(meld["rank"]) + str(suit)


# -- turn helpers shared by both games ---------------------------------------------------------------


class MeldRefused(InvalidCards):
    code = "invalid_meld"
    default_message = "Gioco non valido"


class DiscardRefused(InvalidCards):
    code = "invalid_discard"
    default_message = "Scarto non ammesso"


def same(a: str, b: str) -> bool:
    """Tell whether two cards are the same card (every jolly is the same card)."""
    return a == b or (is_joker(a) and is_joker(b))


def take_cards(hand: Sequence[str], cards: Sequence[str]) -> list[str] | None:
    """Return the hand without ``cards`` (a multiset), or None if the hand lacks one of them."""
    rest = list(hand)
    for c in cards:
        if c not in rest:
            return None
        rest.remove(c)
    return rest


def card_list(value: Any, allow_empty: bool = False) -> list[str]:
    """Return a checked list of card strings from an action."""
    if not isinstance(value, list) or (not value and not allow_empty):
        raise InvalidCards("Scegli le carte")
    if not all(isinstance(c, str) for c in value):
        raise InvalidCards()
    return list(value)


def choose_layout(options: list[Meld], part: dict[str, Any]) -> Meld:
    """Return the layout a request asks for (``start``, ``jolly_suit``), else the first one."""
    start, suit = part.get("start"), part.get("jolly_suit")
    if start is not None:
        if type(start) is not int:
            raise MeldRefused("Posizione non valida")
        options = [o for o in options if o["kind"] == SEQ and o["start"] == start]
    if suit is not None:
        options = [o for o in options if o.get("jolly_suit") == suit]
    if not options:
        raise MeldRefused()
    return options[0]


def layout_fields(meld: Meld) -> dict[str, Any]:
    """Return the request fields that name this layout to ``choose_layout`` (start, jolly_suit)."""
    if meld["kind"] == SEQ:
        return {"start": meld["start"]}
    suit = meld.get("jolly_suit")
    return {} if suit is None else {"jolly_suit": suit}


def selectable_layouts(options: list[Meld]) -> list[tuple[dict[str, Any], Meld]]:
    """Return the layouts a request can select among ``options``, each with the fields that do.

    ``choose_layout`` takes the first option matching the fields, or the first of all without
    fields: an option that neither selects is never laid, so it is left out, and two options
    that the same fields select count once.
    """
    out: list[tuple[dict[str, Any], Meld]] = []
    seen: set[tuple[Any, Any]] = set()
    for o in options:
        fields = layout_fields(o)
        key = (fields.get("start"), fields.get("jolly_suit"))
        if key not in seen and choose_layout(options, fields) == o:
            seen.add(key)
            out.append((fields, o))
    return out


def describe_layout(meld: Meld, rules: MeldRules) -> dict[str, Any]:
    """Return what a table shows of a layout besides its cards.

    ``matta``: its index in the cards, the card, what it stands for (None: a combination's
    undeclared suit) and whether it is a jolly or a pinella; ``natural_matte``: the cards that
    could be matte but sit in their own place (a Burraco 2); ``ace``: ``"basso"``/``"alto"``
    when a natural ace ends a sequence; ``span``: the cards a sequence's ends stand for.
    """
    cards: list[str] = meld["cards"]
    w = wild_index(meld, rules)
    matta = None
    if w is not None:
        matta = {
            "index": w,
            "card": cards[w],
            "stands_for": wild_card_stands_for(meld, rules),
            "kind": "jolly" if is_joker(cards[w]) else "pinella",
        }
    ace: str | None = None
    span: list[str] | None = None
    if meld["kind"] == SEQ:
        suit, start = str(meld["suit"]), int(meld["start"])
        end = start + len(cards) - 1
        if start == 1 and natural_at(cards[0], suit, 1):
            ace = "basso"
        elif end == TOP and natural_at(cards[-1], suit, TOP):
            ace = "alto"
        span = [rank_of_position(start) + suit, rank_of_position(end) + suit]
    return {
        "matta": matta,
        "natural_matte": [c for i, c in enumerate(cards) if i != w and is_matta(c, rules)],
        "ace": ace,
        "span": span,
    }


def accepted_layouts(
    options: list[Meld],
    rules: MeldRules,
    accepts: Callable[[dict[str, Any]], object],
    *,
    meld: int | None = None,
    fields: dict[str, Any] | None = None,
    points: Callable[[Meld], int] | None = None,
) -> list[dict[str, Any]]:
    """Return the layouts among ``options`` that the engine accepts, described for the table.

    ``accepts(fields)`` validates the request with those fields added (the engine's own check,
    raising ``IllegalAction`` when refused; it must change nothing). Each entry: ``fields`` (what
    the request carries to select it: ``fields`` given here, then ``start`` / ``jolly_suit``),
    ``meld`` (the meld extended, None for a new one), ``layout`` (the meld as it will lie),
    ``points`` (``points(layout)`` or None) and ``describe_layout``'s keys.
    """
    out: list[dict[str, Any]] = []
    for own, layout in selectable_layouts(options):
        chosen = {**(fields or {}), **own}
        try:
            accepts(chosen)
        except IllegalAction:
            continue
        out.append(
            {
                "fields": chosen,
                "meld": meld,
                "layout": layout,
                "points": None if points is None else points(layout),
                **describe_layout(layout, rules),
            }
        )
    return out


# -- sequences ---------------------------------------------------------------------------------


def _layout(
    suit: str,
    start: int,
    length: int,
    fixed: dict[int, str],
    loose: Sequence[str],
    rules: MeldRules,
    wild_fixed_at: int | None,
    wild_must_be_end: bool,
) -> list[str] | None:
    """Place ``loose`` cards around the ``fixed`` ones in positions start..start+length-1.

    Loose naturals take their positions; at most one matta in the whole meld fills the single
    position left. ``wild_fixed_at``: the position of a matta already in the meld that stays.
    ``wild_must_be_end``: the one loose matta is the old one moving to an end (RULINGS R1).
    """
    end = start + length - 1
    if start < 1 or end > TOP or length < MIN_MELD:
        return None
    slots: dict[int, str] = {}
    for pos, card in fixed.items():
        if not start <= pos <= end:
            return None
        slots[pos] = card
    rest = list(loose)
    for pos in range(start, end + 1):
        if pos in slots:
            continue
        for i, c in enumerate(rest):
            if natural_at(c, suit, pos):
                slots[pos] = rest.pop(i)
                break
    empty = [p for p in range(start, end + 1) if p not in slots]
    if wild_fixed_at is not None:
        if rest or empty:
            return None
    elif rest or empty:
        if len(rest) != 1 or len(empty) != 1 or not is_matta(rest[0], rules):
            return None
        if wild_must_be_end and empty[0] not in (start, end):
            return None
        slots[empty[0]] = rest[0]
    cards = [slots[p] for p in range(start, end + 1)]
    naturals = sum(1 for i, c in enumerate(cards) if natural_at(c, suit, start + i))
    if naturals == 0 or naturals > rules.seq_max_naturals or length - naturals > 1:
        return None
    return cards


def sequence_options(cards: Sequence[str], rules: MeldRules) -> list[Meld]:
    """Return every sequence layout these cards can take (each a meld dict), without duplicates."""
    n = len(cards)
    if n < MIN_MELD or n > TOP:
        return []
    suits = {c[1] for c in cards if not is_joker(c)}
    out: list[Meld] = []
    seen: set[tuple[str, int]] = set()
    for suit in SUITS:
        if suit not in suits:
            continue
        offsuit = [c for c in cards if is_joker(c) or c[1] != suit]
        if len(offsuit) > 1 or (offsuit and not is_matta(offsuit[0], rules)):
            continue  # at most one card may stand for another
        # a card that can only be natural pins the range (aces and Burraco 2s may sit elsewhere)
        anchor = next((rank_number(c) for c in cards if c[1:] == suit and c[0] not in "A2"), None)
        lo, hi = (1, TOP - n + 1) if anchor is None else (max(1, anchor - n + 1), min(anchor, TOP - n + 1))
        for start in range(lo, hi + 1):
            laid = _layout(suit, start, n, {}, cards, rules, None, False)
            if laid is not None and (suit, start) not in seen:
                seen.add((suit, start))
                out.append({"kind": SEQ, "suit": suit, "start": start, "cards": laid})
    return out


# -- combinations ------------------------------------------------------------------------------


def set_options(cards: Sequence[str], rules: MeldRules) -> list[Meld]:
    """Return the combination layouts of these cards (several only for a jolly's declared suit)."""
    n = len(cards)
    if n < MIN_MELD or (rules.set_max is not None and n > rules.set_max):
        return []
    wild = [c for c in cards if is_matta(c, rules)]
    naturals = [c for c in cards if not is_matta(c, rules)]
    if len(wild) > 1 or not naturals:
        return []  # at most one matta; no combination of matte only
    rank = naturals[0][0]
    if any(c[0] != rank for c in naturals):
        return []
    ordered = sorted(naturals, key=lambda c: SUITS.index(c[1])) + wild
    if not rules.set_distinct_suits:
        return [{"kind": SET, "rank": rank, "cards": ordered, "jolly_suit": None}]
    used = [c[1] for c in naturals]
    if len(set(used)) != len(used):
        return []
    if not wild:
        return [{"kind": SET, "rank": rank, "cards": ordered, "jolly_suit": None}]
    return [{"kind": SET, "rank": rank, "cards": ordered, "jolly_suit": s} for s in SUITS if s not in used]


def meld_options(cards: Sequence[str], rules: MeldRules) -> list[Meld]:
    """Return every layout (sequence or combination) these cards can take as a new meld."""
    return [*set_options(cards, rules), *sequence_options(cards, rules)]


def is_valid(meld: Meld, rules: MeldRules) -> bool:
    """Tell whether a meld on the table is valid as it lies (property tests, loaded states)."""
    cards = meld["cards"]
    if meld["kind"] == SEQ:
        start, n = meld["start"], len(cards)
        if start < 1 or start + n - 1 > TOP or n < MIN_MELD:
            return False
        odd = [c for i, c in enumerate(cards) if not natural_at(c, meld["suit"], start + i)]
        naturals = n - len(odd)
        return (
            len(odd) <= 1 and all(is_matta(c, rules) for c in odd) and 0 < naturals <= rules.seq_max_naturals
        )
    options = set_options(cards, rules)
    return any(o["rank"] == meld["rank"] and o["jolly_suit"] == meld.get("jolly_suit") for o in options)


# -- extending a meld --------------------------------------------------------------------------


def extend_options(meld: Meld, cards: Sequence[str], rules: MeldRules) -> list[Meld]:
    """Return the layouts of ``meld`` with ``cards`` added (attaccare / allungare).

    The cards already there keep their places: in a sequence a matta can be replaced only by the
    card it stands for ("il 2♥ può essere sostituito solo dal 4♥"); in Burraco it then moves to
    an end, the player choosing which (RULINGS R1); in Scala 40 taking its place is the separate
    sostituzione del jolly, so here it is refused. A Scala 40 combination keeps its jolly's suit.
    """
    if not cards:
        return []
    # fast refusal (same answer as the full search below): a card that cannot stand for another
    # joins a sequence only in its suit and a combination only of its rank
    kind = meld["kind"]
    for c in cards:
        if not is_matta(c, rules) and (c[1] != meld["suit"] if kind == SEQ else c[0] != meld["rank"]):
            return []
    if meld["kind"] == SET:
        combined = [*meld["cards"], *cards]
        options = set_options(combined, rules)
        declared = meld.get("jolly_suit")
        if declared is not None:
            options = [o for o in options if o["jolly_suit"] == declared]
        return [o for o in options if o["rank"] == meld["rank"]]
    suit, start, old = meld["suit"], meld["start"], meld["cards"]
    w = wild_index(meld, rules)
    fixed = {start + i: c for i, c in enumerate(old) if i != w}
    loose = list(cards)
    wild_fixed_at: int | None = None
    moving = False
    if w is not None:
        wpos = start + w
        if any(natural_at(c, suit, wpos) for c in cards):
            if not rules.wild_moves:
                return []
            loose.append(old[w])
            moving = True
        else:
            fixed[wpos] = old[w]
            wild_fixed_at = wpos
    n = len(old) + len(cards)
    out: list[Meld] = []
    for new_start in range(max(1, start + len(old) - n), start + 1):
        laid = _layout(suit, new_start, n, fixed, loose, rules, wild_fixed_at, moving)
        if laid is not None:
            out.append({"kind": SEQ, "suit": suit, "start": new_start, "cards": laid})
    return out


# -- burrachi and values ------------------------------------------------------------------------

BURRACO_MIN = 7


def burraco_kind(meld: Meld) -> str | None:
    """Return "pulito", "semipulito", "sporco" for a burraco (7+ cards), else None."""
    cards = meld["cards"]
    if len(cards) < BURRACO_MIN:
        return None
    w = wild_index(meld, BURRACO)
    if w is None:
        return "pulito"
    if meld["kind"] == SET:
        return "semipulito" if len(cards) >= BURRACO_MIN + 1 else "sporco"
    # a run of at least seven clean cards on one side of the matta
    return "semipulito" if max(w, len(cards) - 1 - w) >= BURRACO_MIN else "sporco"


BURRACO_BONUS = {"pulito": 200, "semipulito": 150, "sporco": 100}


def burraco_card_points(card: str) -> int:
    """Return a card's Burraco value: 3-7 → 5, 8-K → 10, A → 15, 2 → 20, jolly → 30."""
    if is_joker(card):
        return 30
    r = card[0]
    if r == "A":
        return 15
    if r == "2":
        return 20
    return 5 if r in "34567" else 10


def scala40_position_value(pos: int) -> int:
    """Return the opening value of a sequence position: ace 1 before the 2, 11 after the king."""
    if pos == TOP:
        return 11
    return min(pos, 10)


def scala40_rank_value(rank: str) -> int:
    """Return the opening value of a combination card of this rank (ace 11, figures 10)."""
    if rank == "A":
        return 11
    return min(RANKS.index(rank) + 1, 10)


def scala40_meld_value(meld: Meld) -> int:
    """Return the opening value of a Scala 40 meld (a jolly takes the value it replaces)."""
    if meld["kind"] == SEQ:
        return sum(scala40_position_value(meld["start"] + i) for i in range(len(meld["cards"])))
    return scala40_rank_value(meld["rank"]) * len(meld["cards"])


def scala40_hand_points(hand: Iterable[str]) -> int:
    """Return the points of cards left in hand: jolly 25, ace 11 (1 if the only ace), figures 10."""
    cards = list(hand)
    aces = sum(1 for c in cards if not is_joker(c) and c[0] == "A")
    total = 0
    for c in cards:
        if is_joker(c):
            total += 25
        elif c[0] == "A":
            total += 1 if aces == 1 else 11
        else:
            total += min(rank_number(c), 10)
    return total


# -- the hand as shown --------------------------------------------------------------------------


def sort_hand(cards: Iterable[str], by: str, rules: MeldRules) -> list[str]:
    """Return the hand sorted for the view: ``"seme"`` (by suit, jolly last) or ``"valore"``.

    "valore" puts the matte on the left (jolly, then Burraco 2s), then ranks A..K, suits ♥♦♣♠,
    as the two buttons of "Come si gioca" do.
    """
    cards = list(cards)
    if by == "seme":
        return sorted(
            cards, key=lambda c: (1, 0, 0, c) if is_joker(c) else (0, SUITS.index(c[1]), rank_number(c), c)
        )
    if by != "valore":
        raise ValueError(f"ordinamento sconosciuto: {by}")

    def key(c: str) -> tuple[int, int, int, str]:
        if is_joker(c):
            return (0, 0, 0, c)
        if is_matta(c, rules):
            return (1, 0, SUITS.index(c[1]), c)
        return (2, rank_number(c), SUITS.index(c[1]), c)

    return sorted(cards, key=key)


# -- hints: a few valid melds found in a hand (bots, property tests, "suggerimenti") -------------


def meld_hints(hand: Sequence[str], rules: MeldRules) -> list[list[str]]:
    """Return some valid new melds in a hand: whole runs, whole combinations, pairs with a matta.

    Not every possible meld (that list is exponential): enough for random bots to make progress.
    """
    matte = [c for c in hand if is_matta(c, rules)]
    naturals = [c for c in hand if not is_matta(c, rules)]
    out: list[list[str]] = []
    by_rank: dict[str, list[str]] = {}
    for c in naturals:
        by_rank.setdefault(c[0], []).append(c)
    for group in by_rank.values():
        if rules.set_distinct_suits:
            distinct: dict[str, str] = {}
            for c in group:
                distinct.setdefault(c[1], c)
            group = list(distinct.values())
        if len(group) >= MIN_MELD:
            out.append(group[: rules.set_max] if rules.set_max else group)
        elif len(group) == 2 and matte:
            out.append([*group, matte[0]])
    for s in SUITS:
        present: dict[int, str] = {}
        for c in hand:
            if not is_joker(c) and c[1] == s:
                r = rank_number(c)
                present.setdefault(r, c)
                if r == 1:
                    present.setdefault(TOP, c)
        pos = 1
        while pos <= TOP:
            if pos not in present:
                pos += 1
                continue
            run = [pos]
            while run[-1] + 1 in present and len(run) < rules.seq_max_naturals:
                run.append(run[-1] + 1)
            cards = [present[p] for p in run]
            if len(run) >= MIN_MELD:
                out.append(cards)
            elif matte:
                wild = next((m for m in matte if m not in cards), None)
                if wild is not None:
                    out.append([*cards, wild])
                    if run[-1] + 2 in present:
                        out.append([*cards, wild, present[run[-1] + 2]])
            pos = run[-1] + 1
    return [h for h in out if _multiset_ok(h, hand) and _can_meld(tuple(h), rules)]


@lru_cache(maxsize=1 << 16)
def _can_meld(cards: tuple[str, ...], rules: MeldRules) -> bool:
    """Tell whether these cards (in this order) form a new meld (a pure answer, so cached)."""
    return bool(meld_options(cards, rules))


def _multiset_ok(cards: Sequence[str], hand: Sequence[str]) -> bool:
    return all(cards.count(c) <= hand.count(c) for c in set(cards))


def attach_hints(melds: Sequence[Meld], hand: Sequence[str], rules: MeldRules) -> list[tuple[int, str]]:
    """Return (index of meld, card) pairs where one card of the hand attaches to a meld."""
    out: list[tuple[int, str]] = []
    for i, meld in enumerate(melds):
        for c in sorted(set(hand)):
            if not is_matta(c, rules):
                if meld["kind"] == SEQ and c[1] != meld["suit"]:
                    continue
                if meld["kind"] == SET and c[0] != meld["rank"]:
                    continue
            if extend_options(meld, [c], rules):
                out.append((i, c))
    return out
