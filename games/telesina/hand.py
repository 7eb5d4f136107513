"""Telesina hands: the best five of a player's cards plus the vele of one combination (RULINGS T4).

Built on the evaluator's per-deck tables (``games.evaluator``): a 5-card hand is the OR of its
cards' bits and one table read. For one hand of the table the usable vele sets of the layout
(``Layout.allowed_subsets``, only the revealed ones during the hand) are turned into bit masks once
(``ViewOfVele``); a player's best hand is then the maximum over "vele set × own cards completing
five", about 200 table reads with Ascensore and five own cards, no sorting and no card strings.

NB.1 of the rules (RULINGS T4): a player who can make two scale reali plays the one of the higher
suit, then the higher top card; P4 (``evaluator.pot_winners``) then applies between players.

The speaking order uses ``showing_key``: the best hand showing, up cards plus revealed vele of one
combination; with fewer than five cards only pairs, two pairs, trips and quads count, then ranks
and suits as P2 (``partial_key``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from games import evaluator
from games.cards import RANK_INDEX, SUITS
from games.telesina.vele import Layout

_SUIT_STRENGTH = {s: 3 - i for i, s in enumerate(SUITS)}  # ♥ 3 > ♦ 2 > ♣ 1 > ♠ 0 (RULINGS P2)
_SR = evaluator.SCALA_REALE << 24


class Tables:
    """The evaluator's lookup tables of one deck, unpacked for the hot loop."""

    __slots__ = ("bit", "high", "low", "low_mask", "split", "values")

    def __init__(self, low: str) -> None:
        # The evaluator exposes no public accessor for its tables; they are built once per deck.
        t = evaluator._table(low)
        self.bit, self.values, self.high, self.low = t.bit, t.values, t.high, t.low
        self.split, self.low_mask = t.split, t.low_mask


_TABLES: dict[str, Tables] = {}


def tables(low: str) -> Tables:
    """Return the unpacked tables of the deck whose lowest rank is ``low`` (built on first use)."""
    t = _TABLES.get(low)
    if t is None:
        t = _TABLES[low] = Tables(low)
    return t


class ViewOfVele:
    """The usable vele sets of one hand as bit masks grouped by size (built once per girata)."""

    __slots__ = ("by_size", "letters_of", "t", "vele_bits")

    def __init__(self, layout: Layout, vele: dict[str, str], revealed: Iterable[str], low: str) -> None:
        self.t = tables(low)
        shown = set(revealed)
        by_size: list[list[int]] = [[] for _ in range(6)]
        letters_of: dict[int, tuple[str, ...]] = {}
        for subset in layout.allowed_subsets:
            if len(subset) > 5 or not shown.issuperset(subset):
                continue
            mask = 0
            for x in subset:
                mask |= self.t.bit[vele[x]]
            by_size[len(subset)].append(mask)
            letters_of[mask] = subset
        if not by_size[0]:
            by_size[0].append(0)
            letters_of[0] = ()
        self.by_size = by_size
        self.letters_of = letters_of
        self.vele_bits = 0
        for mask in letters_of:
            self.vele_bits |= mask

    def largest(self) -> int:
        """The size of the largest usable vele set."""
        return max(k for k, masks in enumerate(self.by_size) if masks)

    def _candidates(self, own: Sequence[str]) -> list[int]:
        """Every five-card mask a player may play: one usable vele set plus own cards to make five."""
        bit = self.t.bit
        own_bits = [bit[c] for c in own]
        n = len(own_bits)
        out: list[int] = []
        for k, vmasks in enumerate(self.by_size):
            need = 5 - k
            if vmasks and need <= n:
                omasks = [sum(c) for c in combinations(own_bits, need)]
                out += [v | o for v in vmasks for o in omasks]
        return out

    def _pick(self, masks: list[int]) -> tuple[int, int]:
        """Return (value, mask) of the hand played among ``masks``: the highest, or NB.1's scala reale."""
        t = self.t
        values, high, low_t, split, lm = t.values, t.high, t.low, t.split, t.low_mask
        if not masks:
            return -1, 0
        vals = [values[high[m >> split] + low_t[m & lm]] for m in masks]
        best = max(vals)
        if best >= _SR:
            # NB.1: among the player's scale reali, the higher suit first, then the higher top card.
            best = max((x for x in vals if x >= _SR), key=lambda x: (x & 3, x))
        return best, masks[vals.index(best)]

    def value(self, own: Sequence[str]) -> int:
        """Return the value of the best five of ``own`` plus one usable vele set (-1 if under five).

        The hot path: one pass of table reads per vele-set size, no list of candidates kept.
        """
        t = self.t
        bit, values, high, low_t, split, lm = t.bit, t.values, t.high, t.low, t.split, t.low_mask
        own_bits = [bit[c] for c in own]
        n = len(own_bits)
        best = -1
        for k, vmasks in enumerate(self.by_size):
            if vmasks and 5 - k <= n:
                omasks = [sum(c) for c in combinations(own_bits, 5 - k)]
                x = max([values[high[(m := v | o) >> split] + low_t[m & lm]] for v in vmasks for o in omasks])
                if x > best:
                    best = x
        return best if best < _SR else self._pick(self._candidates(own))[0]

    def best(self, own: Sequence[str]) -> tuple[int, int, tuple[str, ...]]:
        """Return (value, five-card mask, vele letters used) of the hand a player plays."""
        value, mask = self._pick(self._candidates(own))
        return value, mask, self.letters_of.get(mask & self.vele_bits, ())


def best_hand(
    own: Sequence[str], layout: Layout, vele: dict[str, str], revealed: Iterable[str], low: str
) -> tuple[int, list[str], list[str]]:
    """Return (value, the five cards, the vele letters used) of a player's best Telesina hand."""
    view = ViewOfVele(layout, vele, revealed, low)
    value, mask, letters = view.best(own)
    if value < 0:
        raise ValueError("servono almeno cinque carte tra le proprie e le vele")
    bit = view.t.bit
    cards = [c for c in own if bit[c] & mask] + [vele[x] for x in letters]
    return value, cards, list(letters)


def partial_key(cards: Sequence[str]) -> tuple[int, ...]:
    """Rank fewer than five cards for the speaking order (RULINGS T4).

    Only pairs, two pairs, trips and quads count (no straights or flushes, the ace high), then
    ranks and suits as P2: the groups' ranks, the other cards' ranks high to low, their suits, and
    last the suits of the grouped cards, highest first.
    """
    counts: dict[int, int] = {}
    for c in cards:
        r = RANK_INDEX[c[0]]
        counts[r] = counts.get(r, 0) + 1
    shape = sorted(counts.values(), reverse=True)
    if shape[0] == 4:
        cat = evaluator.POKER
    elif shape[0] == 3:
        cat = evaluator.TRIS
    elif shape[0] == 2:
        cat = evaluator.DOPPIA_COPPIA if len(shape) > 1 and shape[1] == 2 else evaluator.COPPIA
    else:
        cat = evaluator.CARTA_ALTA
    ordered = sorted(cards, key=lambda c: (counts[RANK_INDEX[c[0]]], RANK_INDEX[c[0]], _SUIT_STRENGTH[c[1]]))
    ordered.reverse()
    groups = [c for c in ordered if counts[RANK_INDEX[c[0]]] > 1]
    kickers = [c for c in ordered if counts[RANK_INDEX[c[0]]] == 1]
    group_ranks = sorted({RANK_INDEX[c[0]] for c in groups}, key=lambda r: (counts[r], r), reverse=True)
    return (
        cat,
        *group_ranks,
        *(RANK_INDEX[c[0]] for c in kickers),
        *(_SUIT_STRENGTH[c[1]] for c in kickers),
        *(_SUIT_STRENGTH[c[1]] for c in groups),
    )


def describe_partial(cards: Sequence[str]) -> str:
    """Return an Italian description of a hand of fewer than five cards ("Coppia di K")."""
    key = partial_key(cards)
    label = {r: ("10" if ch == "T" else ch) for ch, r in RANK_INDEX.items()}
    cat = key[0]
    if cat == evaluator.POKER:
        return f"Poker di {label[key[1]]}"
    if cat == evaluator.TRIS:
        return f"Tris di {label[key[1]]}"
    if cat == evaluator.DOPPIA_COPPIA:
        return f"Doppia coppia di {label[key[1]]} e {label[key[2]]}"
    if cat == evaluator.COPPIA:
        return f"Coppia di {label[key[1]]}"
    return f"Carta alta {label[key[1]]}"


def showing_key(up: Sequence[str], view: ViewOfVele) -> tuple[int, tuple[int, ...], str]:
    """Return (comparable key, description) of the best hand showing: up cards + revealed vele (T4).

    When the up cards and some usable vele set reach five cards, the best such five counts (the
    full ranking, NB.1 included); otherwise the up cards with the largest usable vele set are
    ranked by ``partial_key``. Every player of a hand has the same number of up cards and the same
    vele, so within one betting round all keys are of the same kind.
    """
    if len(up) + view.largest() >= 5:
        value = view.value(up)
        return 1, (value,), evaluator.describe(value)
    masks = view.by_size[view.largest()]
    best: tuple[int, ...] = ()
    best_cards: list[str] = list(up)
    rev = {b: c for c, b in view.t.bit.items()}
    for v in masks:
        cards = list(up) + [rev[b] for b in _bits(v)]
        key = partial_key(cards)
        if key > best:
            best, best_cards = key, cards
    return 0, best, describe_partial(best_cards)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out
