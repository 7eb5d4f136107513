"""The Italian 5-card hand evaluator of Poker 5 carte and Telesina (RULINGS P1–P5, T4).

A deck is named by its lowest rank (``"9"`` for 2 players … ``"5"`` for 6, see
``games.cards.poker_lowest_rank``). ``evaluate(cards, low)`` returns an ``int``; a higher value is
a better hand and two different hands of one deck never get the same value (RULINGS P2 breaks
every tie down to the suits ♥ > ♦ > ♣ > ♠). The straight-flush exception of RULINGS P4 is not a
property of a single hand, so it is applied by ``pot_winners`` where a pot is awarded.

How a value is laid out (every field is compared high to low, so integer order is P2's order)::

    value = category << 24 | key

    0 carta alta     ranks (colex of the 5 ranks, 11 bits) | suits of the cards, highest card first
    1 coppia         pair rank | kickers' ranks (colex, 9 bits) | kickers' suits | the pair's suits
    2 doppia coppia  high pair | low pair | fifth rank | fifth suit | high pair's suits | low pair's
    3 tris           tris rank | kickers' ranks (colex, 7 bits) | kickers' suits | the tris' suits
    4 scala          kind | top card | suits from the top card down (the ace of a minima is last)
    5 full           tris rank | pair rank | suits of all five, highest card first
    6 colore         suit | ranks (colex of the 5 ranks)
    7 poker          four's rank | fifth rank | fifth suit
    8 scala reale    kind | top card | suit

Ranks are 0..12 for 2..A (``games.cards.POKER_ORDER``), suits 3..0 for ♥ ♦ ♣ ♠, kind 0/1/2 for
minima/media/massima. The colex index of a set of distinct ranks orders the sets exactly as
comparing their ranks from the highest down. The trailing "suits of the remaining cards, highest
first" fields are RULINGS P2's last tie-break; "highest first" is read as "by rank, and within one
rank the higher suit first", which makes the order total.

Speed: per deck, a table of the values of every 5-card hand (an ``array`` of 32-bit ints, indexed
by the colex index of the five sorted card indices) is built once, lazily, on first use; a lookup
is a dict lookup per card, a sort of five ints and one array read. All five decks take about
5.5 MB (1,377,160 hands × 4 bytes).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

from games.cards import POKER_ORDER, RANK_INDEX, SUITS, CardError

CARTA_ALTA = 0
COPPIA = 1
DOPPIA_COPPIA = 2
TRIS = 3
SCALA = 4
FULL = 5
COLORE = 6  # above full (RULINGS P2)
POKER = 7
SCALA_REALE = 8

CATEGORY_NAMES = (
    "carta alta",
    "coppia",
    "doppia coppia",
    "tris",
    "scala",
    "full",
    "colore",
    "poker",
    "scala reale",
)

KIND_NAMES = ("minima", "media", "massima")

LOWEST_RANKS = ("9", "8", "7", "6", "5")  # the five decks, 2 to 6 players (RULINGS P1)

_SHIFT = 24
_ACE = 12
# Suit strength: ♥ 3 > ♦ 2 > ♣ 1 > ♠ 0 (RULINGS P2); SUITS is "hdcs", highest first.
_SUIT_STRENGTH = {s: 3 - i for i, s in enumerate(SUITS)}
_SUIT_NAME = {3: "cuori", 2: "quadri", 1: "fiori", 0: "picche"}
_RANK_LABEL = {i: ("10" if r == "T" else r) for i, r in enumerate(POKER_ORDER)}

# Binomial coefficients for colex indices: _C[k][n] = C(n, k).
_C = [[comb(n, k) for n in range(64)] for k in range(6)]
_C1, _C2, _C3, _C4, _C5 = _C[1], _C[2], _C[3], _C[4], _C[5]


def _colex(ranks_desc: Sequence[int]) -> int:
    """Return the colex index of a set of distinct ranks given from the highest down."""
    n = len(ranks_desc)
    return sum(_C[n - i][r] for i, r in enumerate(ranks_desc))


def _un_colex(index: int, k: int) -> list[int]:
    """Return the k distinct ranks (highest first) whose colex index is ``index``."""
    out = []
    for size in range(k, 0, -1):
        r = size - 1
        while _C[size][r + 1] <= index:
            r += 1
        out.append(r)
        index -= _C[size][r]
    return out


def _low_index(low: str) -> int:
    """Return the rank index (0..12) of a deck's lowest rank, checking it names a deck."""
    if low not in LOWEST_RANKS:
        raise CardError(f"mazzo sconosciuto: carta più bassa {low!r} (da 5 a 9)")
    return RANK_INDEX[low]


def _compute(ranks: Sequence[int], suits: Sequence[int], low_r: int) -> int:
    """Return the value of five distinct cards given as rank indices and suit strengths.

    This is the slow, readable definition used to build the tables; ``evaluate`` reads them.
    """
    # Cards from the highest: by rank, then suit (the "highest first" order of RULINGS P2).
    cards = sorted(zip(ranks, suits, strict=True), reverse=True)
    rs = [r for r, _ in cards]
    ss = [s for _, s in cards]
    counts: dict[int, int] = {}
    for r in rs:
        counts[r] = counts.get(r, 0) + 1
    flush = ss.count(ss[0]) == 5
    if len(counts) == 5:
        kind = -1
        if rs[0] - rs[4] == 4:
            kind = 2 if rs[0] == _ACE else 1
            top = rs[0]
        elif rs[0] == _ACE and rs[1:] == [low_r + 3, low_r + 2, low_r + 1, low_r]:
            # RULINGS P3: the ace plays low only just below the deck's lowest rank.
            kind, top = 0, rs[1]
            ss = ss[1:] + ss[:1]  # the ace is the lowest card of a minima
        if kind >= 0:
            if flush:
                return SCALA_REALE << _SHIFT | kind << 6 | top << 2 | ss[0]
            return SCALA << _SHIFT | kind << 14 | top << 10 | _pack_suits(ss)
        if flush:
            return COLORE << _SHIFT | ss[0] << 11 | _colex(rs)
        return CARTA_ALTA << _SHIFT | _colex(rs) << 10 | _pack_suits(ss)
    by_count = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    main = by_count[0]
    main_suits = [s for r, s in cards if r == main]
    kick = [(r, s) for r, s in cards if r != main]  # highest first
    shape = counts[main]
    if shape == 4:
        return POKER << _SHIFT | main << 6 | kick[0][0] << 2 | kick[0][1]
    if shape == 3 and len(counts) == 2:
        return FULL << _SHIFT | main << 14 | kick[0][0] << 10 | _pack_suits(ss)
    if shape == 3:
        k_r = [r for r, _ in kick]
        k_s = [s for _, s in kick]
        return (
            TRIS << _SHIFT | main << 17 | _colex(k_r) << 10 | _pack_suits(k_s) << 6 | _pack_suits(main_suits)
        )
    if len(counts) == 3:
        low_pair = by_count[1]
        low_suits = [s for r, s in cards if r == low_pair]
        fifth_r, fifth_s = next((r, s) for r, s in cards if counts[r] == 1)
        return (
            DOPPIA_COPPIA << _SHIFT
            | main << 18
            | low_pair << 14
            | fifth_r << 10
            | fifth_s << 8
            | _pack_suits(main_suits) << 4
            | _pack_suits(low_suits)
        )
    k_r = [r for r, _ in kick]
    k_s = [s for _, s in kick]
    return COPPIA << _SHIFT | main << 19 | _colex(k_r) << 10 | _pack_suits(k_s) << 4 | _pack_suits(main_suits)


def _pack_suits(suits: Sequence[int]) -> int:
    """Pack suit strengths, the first most significant, two bits each."""
    out = 0
    for s in suits:
        out = out << 2 | s
    return out


@dataclass(frozen=True, slots=True)
class _Table:
    """One deck's lookup table: card → index, and the value of every 5-card hand in colex order."""

    low: str
    cards: tuple[str, ...]
    index: dict[str, int]
    values: array[int]


_TABLES: dict[str, _Table] = {}


def _build(low: str) -> _Table:
    """Build (once) the table of a deck: every 5-card hand's value, by colex index."""
    low_r = _low_index(low)
    # Card i of the deck: rank low_r + i // 4, suit "hdcs"[i % 4].
    deck = tuple(POKER_ORDER[low_r + i // 4] + SUITS[i % 4] for i in range(4 * (13 - low_r)))
    ranks = [low_r + i // 4 for i in range(len(deck))]
    suits = [3 - i % 4 for i in range(len(deck))]
    values = array("I")
    compute = _compute
    # Nested loops visit the sets a < b < c < d < e in colex order, so position = colex index.
    for e in range(4, len(deck)):
        re, se = ranks[e], suits[e]
        for d in range(3, e):
            rd, sd = ranks[d], suits[d]
            for c in range(2, d):
                rc, sc = ranks[c], suits[c]
                for b in range(1, c):
                    rb, sb = ranks[b], suits[b]
                    values.extend(
                        compute((ranks[a], rb, rc, rd, re), (suits[a], sb, sc, sd, se), low_r)
                        for a in range(b)
                    )
    table = _Table(low, deck, {card: i for i, card in enumerate(deck)}, values)
    _TABLES[low] = table
    return table


def _table(low: str) -> _Table:
    """Return a deck's table, building it on first use."""
    table = _TABLES.get(low)
    return table if table is not None else _build(low)


def build_all() -> None:
    """Build the tables of all five decks now (e.g. at process start instead of on first use)."""
    for low in LOWEST_RANKS:
        _table(low)


def deck(low: str) -> list[str]:
    """Return the cards of the deck whose lowest rank is ``low``, in the evaluator's index order."""
    return list(_table(low).cards)


def _bad_hand(cards: Sequence[str], low: str) -> CardError:
    """Return the error for cards that are not five distinct cards of the deck."""
    return CardError(f"servono 5 carte diverse del mazzo dal {low} all'asso: {list(cards)}")


def evaluate(cards: Sequence[str], low: str) -> int:
    """Return the value of five distinct cards of the deck whose lowest rank is ``low``."""
    table = _TABLES.get(low) or _table(low)
    index = table.index
    try:
        a, b, c, d, e = sorted([index[card] for card in cards])
    except (KeyError, ValueError, TypeError):
        raise _bad_hand(cards, low) from None
    if not a < b < c < d < e:
        raise _bad_hand(cards, low)
    return table.values[a + _C2[b] + _C3[c] + _C4[d] + _C5[e]]


def evaluate_slow(cards: Sequence[str], low: str) -> int:
    """Return the same value as ``evaluate`` without the tables (for tests and one-off use)."""
    low_r = _low_index(low)
    if len(cards) != 5 or len(set(cards)) != 5:
        raise _bad_hand(cards, low)
    try:
        ranks = [RANK_INDEX[c[0]] for c in cards]
        suits = [_SUIT_STRENGTH[c[1]] for c in cards]
    except (KeyError, IndexError):
        raise _bad_hand(cards, low) from None
    if min(ranks) < low_r or any(len(c) != 2 for c in cards):
        raise _bad_hand(cards, low)
    return _compute(ranks, suits, low_r)


def category(value: int) -> int:
    """Return the category of a value (``CARTA_ALTA`` … ``SCALA_REALE``)."""
    return value >> _SHIFT


def category_name(value: int) -> str:
    """Return the Italian name of a value's category ("doppia coppia")."""
    return CATEGORY_NAMES[value >> _SHIFT]


def straight_flush_kind(value: int) -> str | None:
    """Return "minima", "media" or "massima" for a scala reale, else None (RULINGS P3, P4)."""
    if value >> _SHIFT != SCALA_REALE:
        return None
    return KIND_NAMES[value >> 6 & 3]


def straight_kind(value: int) -> str | None:
    """Return "minima", "media" or "massima" for a scala or scala reale, else None."""
    cat = value >> _SHIFT
    if cat == SCALA_REALE:
        return KIND_NAMES[value >> 6 & 3]
    if cat == SCALA:
        return KIND_NAMES[value >> 14 & 3]
    return None


def pot_winners(values: Sequence[int]) -> list[int]:
    """Return the indices of the winners of one pot among its contenders' values.

    RULINGS P4: when the contenders include a scala reale minima and a massima and no media, the
    best minima wins (NB.2 of the rules: the minima di picche beats the massima di cuori); else the
    highest value wins. Equal values (identical five cards, only with shared vele) share the pot.
    """
    if not values:
        raise ValueError("nessun contendente per il piatto")
    kinds = {straight_flush_kind(v) for v in values}
    if "minima" in kinds and "massima" in kinds and "media" not in kinds:
        pool = [i for i, v in enumerate(values) if straight_flush_kind(v) == "minima"]
    else:
        pool = list(range(len(values)))
    best = max(values[i] for i in pool)
    return [i for i in pool if values[i] == best]


def beats(a: int, b: int) -> bool:
    """Tell whether value ``a`` wins a pot against ``b`` alone (RULINGS P4 applied)."""
    return pot_winners([a, b]) == [0]


def best_hand(cards: Sequence[str], low: str) -> tuple[int, list[str]]:
    """Return the value and the cards of the best five of ``cards`` (five or more, all distinct).

    The cards come back in the order they were given. RULINGS T4 / NB.1: when the best five is a
    scala reale and the cards make more than one, the player plays the one of the higher suit, then
    the higher top card (not simply the highest value), and P4 then applies between players.
    """
    table = _TABLES.get(low) or _table(low)
    index = table.index
    try:
        ids = sorted([index[card] for card in cards])
    except (KeyError, TypeError):
        raise _bad_hand(cards, low) from None
    n = len(ids)
    if n < 5 or len(set(ids)) != n:
        raise _bad_hand(cards, low)
    values = table.values
    c2, c3, c4, c5 = _C2, _C3, _C4, _C5
    best = -1
    best_combo: tuple[int, ...] = ()
    # Indices are sorted, so every 5-subset comes out sorted and its colex index is direct.
    for ie in range(4, n):
        se = c5[ids[ie]]
        for id_ in range(3, ie):
            sd = se + c4[ids[id_]]
            for ic in range(2, id_):
                sc = sd + c3[ids[ic]]
                for ib in range(1, ic):
                    sb = sc + c2[ids[ib]]
                    for ia in range(ib):
                        v = values[sb + ids[ia]]
                        if v > best:
                            best = v
                            best_combo = (ia, ib, ic, id_, ie)
    if best >> _SHIFT == SCALA_REALE:
        best, best_combo = _nb1_straight_flush(ids, values)
    chosen = {table.cards[ids[i]] for i in best_combo}
    return best, [card for card in cards if card in chosen]


def _nb1_straight_flush(ids: Sequence[int], values: array[int]) -> tuple[int, tuple[int, ...]]:
    """Among the scale reali in ``ids``, return the one of the highest suit, then top (NB.1)."""
    best_key = (-1, -1)
    best_combo: tuple[int, ...] = ()
    for combo in combinations(range(len(ids)), 5):
        a, b, c, d, e = (ids[i] for i in combo)
        v = values[a + _C2[b] + _C3[c] + _C4[d] + _C5[e]]
        if v >> _SHIFT == SCALA_REALE and (v & 3, v) > best_key:
            best_key = (v & 3, v)
            best_combo = combo
    return best_key[1], best_combo


def iter_hands(low: str) -> Iterator[tuple[tuple[str, ...], int]]:
    """Yield every 5-card hand of a deck with its value, in colex order of the card indices."""
    table = _table(low)
    names = table.cards
    for i, (a, b, c, d, e) in enumerate(_colex_combinations(len(names))):
        yield (names[a], names[b], names[c], names[d], names[e]), table.values[i]


def _colex_combinations(n: int) -> Iterator[tuple[int, int, int, int, int]]:
    """Yield the 5-subsets of range(n), ascending, in colex order."""
    for e in range(4, n):
        for d in range(3, e):
            for c in range(2, d):
                for b in range(1, c):
                    for a in range(b):
                        yield a, b, c, d, e


def _rank_label(r: int) -> str:
    """Return how a rank is written in descriptions ("10", "J", "A")."""
    return _RANK_LABEL[r]


def describe(hand: int | Sequence[str], low: str | None = None) -> str:
    """Return an Italian description of a value or of five cards ("Coppia di J", "Colore di cuori").

    Cards need the deck's lowest rank ``low``; a value describes itself.
    """
    if isinstance(hand, int):
        value = hand
    else:
        if low is None:
            raise ValueError("per descrivere delle carte serve il mazzo (low)")
        value = evaluate(hand, low)
    cat = value >> _SHIFT
    if cat == CARTA_ALTA:
        return f"Carta alta {_rank_label(_un_colex(value >> 10 & 0x7FF, 5)[0])}"
    if cat == COPPIA:
        return f"Coppia di {_rank_label(value >> 19 & 15)}"
    if cat == DOPPIA_COPPIA:
        return f"Doppia coppia di {_rank_label(value >> 18 & 15)} e {_rank_label(value >> 14 & 15)}"
    if cat == TRIS:
        return f"Tris di {_rank_label(value >> 17 & 15)}"
    if cat == SCALA:
        kind = value >> 14 & 3
        return "Scala " + ("media al " + _rank_label(value >> 10 & 15) if kind == 1 else KIND_NAMES[kind])
    if cat == FULL:
        return f"Full di {_rank_label(value >> 14 & 15)} e {_rank_label(value >> 10 & 15)}"
    if cat == COLORE:
        return f"Colore di {_SUIT_NAME[value >> 11 & 3]}"
    if cat == POKER:
        return f"Poker di {_rank_label(value >> 6 & 15)}"
    kind = value >> 6 & 3
    name = "media al " + _rank_label(value >> 2 & 15) if kind == 1 else KIND_NAMES[kind]
    return f"Scala reale {name} di {_SUIT_NAME[value & 3]}"


def _has_suited_four(cards: Sequence[str], low_r: int) -> bool:
    """Tell whether four of the cards are of one suit and in sequence, ace high or low (P5, P3)."""
    by_suit: dict[str, set[int]] = {}
    for card in cards:
        by_suit.setdefault(card[1], set()).add(RANK_INDEX[card[0]])
    # The sequence of ranks with the ace both below the lowest rank and above the king.
    order = [_ACE, *range(low_r, _ACE + 1)]
    windows = [set(order[i : i + 4]) for i in range(len(order) - 3)]
    return any(w <= held for held in by_suit.values() if len(held) >= 4 for w in windows)


def opening_ok(cards: Sequence[str], min_pair: str, low: str) -> bool:
    """Tell whether five cards may open at the minimum ``min_pair`` ("J", "Q" or "K") (RULINGS P5).

    Allowed: a pair of ``min_pair`` or higher, any hand above a pair (doppia coppia or better), or a
    "progetto bilaterale di scala reale": four cards of one suit in sequence, ace high or low (P3).
    ``low`` is the deck's lowest rank, needed for the ace-low sequence (A-7-8-9 with low 7).
    """
    if min_pair not in RANK_INDEX:
        raise CardError(f"rango non valido: {min_pair!r}")
    value = evaluate(cards, low)
    cat = value >> _SHIFT
    if cat > COPPIA:
        return True
    if cat == COPPIA and value >> 19 & 15 >= RANK_INDEX[min_pair]:
        return True
    return _has_suited_four(cards, _low_index(low))
