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

Speed: per deck, the values of every 5-card hand (an ``array`` of 32-bit ints) and two index tables
are built once, lazily, on first use (``build_all`` builds them eagerly). A lookup ORs the cards'
bits (for codes: adds the five codes), then makes three array reads: no sort, and no
``bit_count`` either, since the index tables carry the five-cards check (``_CHECK``, see
``_build``). All five decks take about 16 MB of arrays (values: 1,377,160 hands × 4 bytes; index
tables: about 10.7 MB of 32-bit ints, 8 MB of them for the 40 cards); ``python -m bench.engines
evaluator`` prints the RSS they add (target < 20 MB). For many hands of one deck,
``evaluator_for(low)`` / ``evaluator_for_codes(low)`` skip the per-call deck lookup;
``deck_tables(low)`` gives hot loops the tables themselves.

The lookup runs in C where the module ``games._fasteval`` is built (``scripts/build_native.py``,
run by ``make venv``; ``NATIVE`` tells): the same tables, read through the buffer protocol, the
same refusals with the same ``CardError`` (tests/games/evaluator/test_native.py compares the two on
every hand of every deck). Without a C compiler the Python lookup below (``_evaluate_py`` …) is
the public one. In Python the three reads' bytecode (each making a new ``int``) costs most of the
time, which is why it stays near 1.1–1.4× treys whatever the table layout (tried: huge pages,
``memoryview``, lists, three smaller index tables, dicts); in C the same reads cost a few
nanoseconds. The bench prints both (see bench/engines/evaluator.py for the figures of each run).

Card codes: inside the engines a card is also an ``int``, ``card_code(card)`` = ``1 << (4 × rank +
suit)`` (rank 0..12 for 2..A, suit 3..0 for ♥ ♦ ♣ ♠), the same in every deck; a hand is the sum
(or OR) of its codes, and shifted right by ``4 × rank`` of the deck's lowest card it is the bit mask
the tables are indexed by. ``evaluate_codes`` / ``evaluator_for_codes`` value five codes without a
lookup per card string, and ``best_hand`` runs on codes (``best_hand_codes``). Codes stay inside
the engines: states, views and JSON keep the card strings ("Ah", "Td"). A code API checks that the
five codes are five distinct cards of the deck (duplicates and cards below the deck's lowest rank
are refused), not that each int is a code: codes come from ``card_code`` / ``card_codes``.

Also here, shared by Poker 5 carte and Telesina: ``best_hand`` (best five of n cards, with NB.1 for
two scale reali, RULINGS T4), ``pot_winners`` (RULINGS P4), ``opening_ok`` (RULINGS P5) and
``describe`` (Italian names of hands).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import combinations
from math import comb
from typing import NamedTuple

from games.cards import POKER_ORDER, RANK_INDEX, SUITS, CardError

try:  # the lookup in C, built by scripts/build_native.py (``make venv``); else the Python one
    from games import _fasteval
except ImportError:  # pragma: no cover - depends on the machine
    _fasteval = None  # type: ignore[assignment]  # no C lookup here: the Python one serves
else:
    if _fasteval.VERSION != 1:  # a build of another version of the source
        _fasteval = None  # type: ignore[assignment]  # no C lookup here: the Python one serves
NATIVE = _fasteval is not None

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

CATEGORY_SHIFT = 24  # value = category << CATEGORY_SHIFT | key (see the module docstring)
_SHIFT = CATEGORY_SHIFT
_ACE = 12
# Suit strength: ♥ 3 > ♦ 2 > ♣ 1 > ♠ 0 (RULINGS P2); games.cards.SUITS is "hdcs", highest first.
_SUITS_LOW_FIRST = SUITS[::-1]
_SUIT_STRENGTH = {s: i for i, s in enumerate(_SUITS_LOW_FIRST)}
_SUIT_NAME = {3: "cuori", 2: "quadri", 1: "fiori", 0: "picche"}
_RANK_LABEL = {i: ("10" if r == "T" else r) for i, r in enumerate(POKER_ORDER)}
# Card codes (module docstring): the 52 cards, the same code in every deck.
_CODE = {r + s: 1 << (4 * i + _SUIT_STRENGTH[s]) for i, r in enumerate(POKER_ORDER) for s in SUITS}

# Binomial coefficients for colex indices: _C[k][n] = C(n, k).
_C = [[comb(n, k) for n in range(64)] for k in range(6)]


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


# How a hand's value depends on its suits, for one list of ranks: see ``_recipe``.
_Recipe = tuple[int, tuple[int, ...], int, int]


def _recipe(rs: tuple[int, ...], low_r: int) -> _Recipe:
    """Return how the value of a hand with ranks ``rs`` (highest first) depends on its suits.

    With ``ss`` the suit strengths of the cards in the same order (cards of one rank: the higher
    suit first, the "highest first" order of RULINGS P2), the value is ``base + Σ weights[k] ×
    ss[k]``, or ``flush_base + flush_weight × ss[0]`` when the five suits are the same
    (``flush_base`` is −1 when ranks repeat). This is the one definition of the ranking; the
    tables are filled from it.
    """
    weights = [0] * 5

    def field(positions: Sequence[int], shift: int) -> None:
        """Pack the suits of these cards, the first most significant, two bits each, at ``shift``."""
        for j, position in enumerate(positions):
            weights[position] = 4 ** (len(positions) - 1 - j) << shift

    counts: dict[int, int] = {}
    for r in rs:
        counts[r] = counts.get(r, 0) + 1
    if len(counts) == 5:
        kind = -1
        if rs[0] - rs[4] == 4:
            kind, top, order = (2 if rs[0] == _ACE else 1), rs[0], [0, 1, 2, 3, 4]
        elif rs[0] == _ACE and rs[1:] == (low_r + 3, low_r + 2, low_r + 1, low_r):
            # RULINGS P3: the ace plays low only just below the deck's lowest rank, and it is the
            # lowest card of the minima (its suit is compared last).
            kind, top, order = 0, rs[1], [1, 2, 3, 4, 0]
        if kind >= 0:
            field(order, 0)
            flush_base = SCALA_REALE << _SHIFT | kind << 6 | top << 2
            return SCALA << _SHIFT | kind << 14 | top << 10, tuple(weights), flush_base, 1
        field(range(5), 0)
        colex = _colex(rs)
        return CARTA_ALTA << _SHIFT | colex << 10, tuple(weights), COLORE << _SHIFT | colex, 1 << 11
    by_count = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    main = by_count[0]
    main_at = [k for k, r in enumerate(rs) if r == main]
    kick_at = [k for k, r in enumerate(rs) if r != main]  # highest first
    kick_r = [rs[k] for k in kick_at]
    if counts[main] == 4:
        field(kick_at, 0)
        return POKER << _SHIFT | main << 6 | kick_r[0] << 2, tuple(weights), -1, 0
    if counts[main] == 3 and len(counts) == 2:
        field(range(5), 0)  # only with shared vele: all the suits, highest card first
        return FULL << _SHIFT | main << 14 | kick_r[0] << 10, tuple(weights), -1, 0
    if counts[main] == 3:
        field(kick_at, 6)
        field(main_at, 0)
        return TRIS << _SHIFT | main << 17 | _colex(kick_r) << 10, tuple(weights), -1, 0
    if len(counts) == 3:
        low_pair = by_count[1]
        fifth_at = [k for k, r in enumerate(rs) if counts[r] == 1]
        field(fifth_at, 8)
        field(main_at, 4)
        field([k for k, r in enumerate(rs) if r == low_pair], 0)
        base = DOPPIA_COPPIA << _SHIFT | main << 18 | low_pair << 14 | rs[fifth_at[0]] << 10
        return base, tuple(weights), -1, 0
    field(kick_at, 4)
    field(main_at, 0)
    return COPPIA << _SHIFT | main << 19 | _colex(kick_r) << 10, tuple(weights), -1, 0


def _apply(recipe: _Recipe, ss: Sequence[int]) -> int:
    """Return the value of a hand from its ranks' recipe and its suits (same order)."""
    base, weights, flush_base, flush_weight = recipe
    if flush_base >= 0 and ss[0] == ss[1] == ss[2] == ss[3] == ss[4]:
        return flush_base + flush_weight * ss[0]
    return base + sum(w * s for w, s in zip(weights, ss, strict=True))


def _compute(ranks: Sequence[int], suits: Sequence[int], low_r: int) -> int:
    """Return the value of five distinct cards given as rank indices and suit strengths."""
    cards = sorted(zip(ranks, suits, strict=True), reverse=True)  # highest first (RULINGS P2)
    return _apply(_recipe(tuple(r for r, _ in cards), low_r), [s for _, s in cards])


class DeckTables(NamedTuple):
    """One deck's lookup tables (see ``_build``), for hot loops that OR the cards' bits themselves.

    The value of five distinct cards with bit mask ``m`` (the OR of their ``bit``) is
    ``values[high[m >> split] + low[m & low_mask]]``. For any other mask below ``1 << len(cards)``
    (fewer or more than five bits) that index is out of range, so the read raises IndexError.
    """

    bit: dict[str, int]  # card → 1 << its index in the deck
    values: array[int]  # value of every 5-card hand, at A[high bits] + B[low bits]
    high: array[int]  # A: base of the block of the hands with these high cards (+ a check term)
    low: array[int]  # B: colex rank of these low cards among the sets of their size (+ a check term)
    split: int  # the number of low cards (bits)
    low_mask: int
    cards: tuple[str, ...]


_TABLES: dict[str, DeckTables] = {}
# The same tables as plain tuples for ``evaluate``: unpacking an exact tuple is a specialised
# bytecode, unpacking a NamedTuple is not (about 15 % of a lookup).
_Lookup = tuple[dict[str, int], "array[int]", "array[int]", "array[int]", int, int]
_LOOKUP: dict[str, _Lookup] = {}
# For the code API: the same tables, the shift from card codes to the deck's bits (``base``), the
# shift from card codes to the high table's index (``base + split``) and the low mask.
_CodeLookup = tuple["array[int]", "array[int]", "array[int]", int, int, int]
_CODE_LOOKUP: dict[str, _CodeLookup] = {}
# The same tables read by the C module (games/_fasteval.c), when it is built.
_NATIVE: dict[str, _fasteval.Tables] = {}

# The five-cards check carried by the index tables (see ``_build``): a set of k ≤ 5 high cards
# holds ``(k - 5) * _CHECK`` and a set of k low cards ``k * _CHECK``, so the two cancel exactly
# when there are five cards in all; otherwise the index is off by a multiple of _CHECK, which is
# more than twice the largest index, so out of range either way. A set of more than five cards
# holds _NO_HAND, out of range whatever it is added to. Both fit the tables' 32-bit ints.
_CHECK = 1 << 21
_NO_HAND = 1 << 30


def _build(low: str) -> DeckTables:
    """Build (once) the tables of a deck.

    A hand is the bit mask of its cards' indices. The deck's cards are split in two halves: the low
    ``split`` bits and the high ones. Hands are stored in blocks, one per set of high cards (whose
    size h ≤ 5 fixes the number 5 − h of low cards), and inside a block by the colex rank of the
    low cards among the sets of that size. So the index of a hand is ``A[mask >> split] +
    B[mask & low_mask]``: no sort, only ORs of the cards' bits and two reads, and the tables are
    small (A and B have 2**20 entries for the 40-card deck).

    The tables also check that the mask has five bits (``_CHECK``): A holds ``(h - 5) * _CHECK``
    more and B ``l * _CHECK`` more for a set of l low cards, which cancel only when h + l = 5; any
    other mask gets an index out of range (IndexError), so a lookup needs no ``bit_count``.
    """
    low_r = _low_index(low)
    # Card i of the deck: rank low_r + i // 4, suit strength i % 4 ("scdh"[i % 4]), so a higher
    # index is a higher card, and a hand's indices from the highest are its "highest first" order.
    n = 4 * (13 - low_r)
    deck = tuple(POKER_ORDER[low_r + i // 4] + _SUITS_LOW_FIRST[i % 4] for i in range(n))
    ranks = [low_r + i // 4 for i in range(n)]
    suits = [i % 4 for i in range(n)]
    split = n // 2
    bit = {card: 1 << i for i, card in enumerate(deck)}
    low_sets: list[list[tuple[int, ...]]] = []
    low_table = array("i", [_NO_HAND]) * (1 << split)
    for k in range(6):
        sets = sorted(combinations(range(split), k), key=lambda c: sum(1 << i for i in c))
        # Sorting sets of one size by their bit masks is their colex order.
        for position, cards in enumerate(sets):
            low_table[sum(1 << i for i in cards)] = position + k * _CHECK
        low_sets.append(sets)
    high_table = array("i", [_NO_HAND]) * (1 << (n - split))
    values = array("I", bytes(4 * comb(n, 5)))
    # See _CHECK: a wrong count of cards must land out of range (below -len(values) or above).
    assert 2 * len(values) + max(len(sets) for sets in low_sets) < _CHECK
    position = 0
    recipes: dict[tuple[int, ...], _Recipe] = {}
    for h in range(6):
        for high_cards in combinations(range(split, n), h):
            high_table[sum(1 << (i - split) for i in high_cards)] = position + (h - 5) * _CHECK
            for low_cards in low_sets[5 - h]:
                a, b, c, d, e = low_cards + high_cards  # ascending
                rs = (ranks[e], ranks[d], ranks[c], ranks[b], ranks[a])
                recipe = recipes.get(rs)
                if recipe is None:
                    recipe = recipes[rs] = _recipe(rs, low_r)
                base, (w0, w1, w2, w3, w4), flush_base, flush_weight = recipe
                s0, s1, s2, s3, s4 = suits[e], suits[d], suits[c], suits[b], suits[a]
                if flush_base >= 0 and s0 == s1 == s2 == s3 == s4:
                    values[position] = flush_base + flush_weight * s0
                else:
                    values[position] = base + w0 * s0 + w1 * s1 + w2 * s2 + w3 * s3 + w4 * s4
                position += 1
    assert position == len(values)
    table = DeckTables(
        bit=bit,
        values=values,
        high=high_table,
        low=low_table,
        split=split,
        low_mask=(1 << split) - 1,
        cards=deck,
    )
    _LOOKUP[low] = (bit, values, high_table, low_table, split, (1 << split) - 1)
    _CODE_LOOKUP[low] = (values, high_table, low_table, 4 * low_r, 4 * low_r + split, (1 << split) - 1)
    if _fasteval is not None:
        _NATIVE[low] = _fasteval.Tables(
            values,
            high_table,
            low_table,
            bit,
            split,
            (1 << split) - 1,
            4 * low_r,
            4 * low_r + split,
            low,
            _bad_hand,
            _bad_codes,
        )
    _TABLES[low] = table
    return table


def deck_tables(low: str) -> DeckTables:
    """Return the lookup tables of the deck whose lowest rank is ``low``, building them on first use."""
    table = _TABLES.get(low)
    return table if table is not None else _build(low)


_table = deck_tables  # an alias: the name games/telesina/hand.py imports


def build_all() -> None:
    """Build the tables of all five decks now (e.g. at process start instead of on first use)."""
    for low in LOWEST_RANKS:
        deck_tables(low)


def deck(low: str) -> list[str]:
    """Return the cards of the deck whose lowest rank is ``low``, in the evaluator's index order."""
    return list(deck_tables(low).cards)


def _bad_hand(cards: Sequence[str], low: str) -> CardError:
    """Return the error for cards that are not five distinct cards of the deck."""
    shown = list(cards) if isinstance(cards, Sequence) else cards
    return CardError(f"servono 5 carte diverse del mazzo dal {low} all'asso: {shown!r}")


def _evaluate_py(cards: Sequence[str], low: str) -> int:
    """Return the value of five distinct cards of the deck whose lowest rank is ``low``."""
    try:
        bit, values, high, low_t, split, low_mask = _LOOKUP[low]
    except KeyError:
        bit, values, high, low_t, split, low_mask, _ = deck_tables(low)
    try:
        c0, c1, c2, c3, c4 = cards
        m = bit[c0] | bit[c1] | bit[c2] | bit[c3] | bit[c4]
        return values[high[m >> split] + low_t[m & low_mask]]  # IndexError unless 5 cards (_CHECK)
    except (KeyError, ValueError, TypeError, IndexError):
        raise _bad_hand(cards, low) from None


def _evaluator_for_py(low: str) -> Callable[[Sequence[str]], int]:
    """Return ``_evaluate_py`` bound to one deck."""
    bit, values, high, low_t, split, low_mask, _ = deck_tables(low)

    def evaluate_in_deck(cards: Sequence[str]) -> int:
        """Return the value of five distinct cards of the deck."""
        try:
            c0, c1, c2, c3, c4 = cards
            m = bit[c0] | bit[c1] | bit[c2] | bit[c3] | bit[c4]
            return values[high[m >> split] + low_t[m & low_mask]]  # IndexError unless 5 cards
        except (KeyError, ValueError, TypeError, IndexError):
            raise _bad_hand(cards, low) from None

    return evaluate_in_deck


def card_code(card: str) -> int:
    """Return the code of a card ("Ah" → 1 << 51), the same in every deck (module docstring)."""
    try:
        return _CODE[card]
    except (KeyError, TypeError):
        raise CardError(f"carta sconosciuta: {card!r}") from None


def card_codes(cards: Sequence[str]) -> list[int]:
    """Return the codes of these cards, in order (``card_code`` of each)."""
    try:
        return [_CODE[card] for card in cards]
    except (KeyError, TypeError):
        raise CardError(f"carte sconosciute: {list(cards)}") from None


def _code_lookup(low: str) -> _CodeLookup:
    lookup = _CODE_LOOKUP.get(low)
    if lookup is None:
        deck_tables(low)
        lookup = _CODE_LOOKUP[low]
    return lookup


def _bad_codes(codes: object, low: str) -> CardError:
    """Return the error for codes that are not five distinct cards of the deck."""
    return CardError(f"servono i codici di 5 carte diverse del mazzo dal {low} all'asso: {codes!r}")


def _evaluate_codes_py(codes: Sequence[int], low: str) -> int:
    """Return the value of five cards given by their codes (``card_code``); the same as ``evaluate``.

    The sum of five codes has five bits from the deck's lowest card up only when they are five
    distinct cards of the deck (a repeated code carries into fewer bits), so that is the check
    (with the sum positive: a negative int is no code). The tables make it (``_CHECK``): the sum's
    bits below the deck are dropped and any count but five gives an index out of range. The
    unpacking makes sure there are five codes: six with one twice would carry into five bits.
    """
    try:
        values, high, low_t, base, top, low_mask = _CODE_LOOKUP[low]
    except KeyError:
        values, high, low_t, base, top, low_mask = _code_lookup(low)
    try:
        c0, c1, c2, c3, c4 = codes
        s = c0 + c1 + c2 + c3 + c4
        if s > 0:
            return values[high[s >> top] + low_t[s >> base & low_mask]]
    except (TypeError, ValueError, IndexError):
        pass
    raise _bad_codes(codes, low)


def _evaluator_for_codes_py(low: str) -> Callable[[Sequence[int]], int]:
    """Return ``_evaluate_codes_py`` bound to one deck."""
    values, high, low_t, base, top, low_mask = _code_lookup(low)

    def evaluate_codes_in_deck(codes: Sequence[int]) -> int:
        """Return the value of five cards of the deck given by their codes."""
        try:
            c0, c1, c2, c3, c4 = codes
            s = c0 + c1 + c2 + c3 + c4
            if s > 0:
                return values[high[s >> top] + low_t[s >> base & low_mask]]
        except (TypeError, ValueError, IndexError):
            pass
        raise _bad_codes(codes, low)

    return evaluate_codes_in_deck


def _native_tables(low: str) -> _fasteval.Tables:
    """Return the C lookup of a deck (``_NATIVE``), building the deck's tables on first use."""
    tables = _NATIVE.get(low)
    if tables is None:
        deck_tables(low)
        tables = _NATIVE[low]
    return tables


# The public lookups: the C module's when it is built (``NATIVE``), else the Python ones above.
# Both read the same tables and refuse the same hands with the same errors.
evaluate: Callable[[Sequence[str], str], int]
"""Return the value of five distinct cards of the deck whose lowest rank is ``low``."""
evaluate_codes: Callable[[Sequence[int], str], int]
"""Return the value of five cards given by their codes (``card_code``); the same as ``evaluate``."""
if _fasteval is not None:
    evaluate = _fasteval.ByDeck(_NATIVE, _native_tables, False)
    evaluate_codes = _fasteval.ByDeck(_NATIVE, _native_tables, True)
else:
    evaluate = _evaluate_py
    evaluate_codes = _evaluate_codes_py


def evaluator_for(low: str) -> Callable[[Sequence[str]], int]:
    """Return ``evaluate`` bound to one deck: the fastest way to value many hands of that deck."""
    if _fasteval is not None:
        return _native_tables(low).cards
    return _evaluator_for_py(low)


def evaluator_for_codes(low: str) -> Callable[[Sequence[int]], int]:
    """Return ``evaluate_codes`` bound to one deck: the fastest way to value many hands of codes."""
    if _fasteval is not None:
        return _native_tables(low).codes
    return _evaluator_for_codes_py(low)


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
    best = max(values)
    if best >> _SHIFT != SCALA_REALE:  # the common case: no scala reale, so no P4 exception
        return [i for i, v in enumerate(values) if v == best]
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
    try:
        codes = [_CODE[card] for card in cards]
    except (KeyError, TypeError):
        raise _bad_hand(cards, low) from None
    try:
        best, mask = best_hand_codes(codes, low)
    except CardError:
        raise _bad_hand(cards, low) from None
    return best, [card for card, code in zip(cards, codes, strict=True) if code & mask]


def best_hand_codes(codes: Sequence[int], low: str) -> tuple[int, int]:
    """``best_hand`` on card codes: return the value and the sum of the codes of the best five."""
    values, high, low_t, base, top, low_mask = _code_lookup(low)
    split = top - base
    bits = [code >> base for code in codes]
    n = len(bits)
    if n < 5 or sum(bits).bit_count() != n or min(bits) <= 0:
        raise _bad_codes(codes, low)
    best = -1
    best_mask = 0
    for i4 in range(4, n):
        m4 = bits[i4]
        for i3 in range(3, i4):
            m3 = m4 | bits[i3]
            for i2 in range(2, i3):
                m2 = m3 | bits[i2]
                for i1 in range(1, i2):
                    m1 = m2 | bits[i1]
                    for i0 in range(i1):
                        m = m1 | bits[i0]
                        v = values[high[m >> split] + low_t[m & low_mask]]
                        if v > best:
                            best, best_mask = v, m
    if best >> _SHIFT == SCALA_REALE:
        # NB.1: the scala reale of the highest suit, then of the highest top card.
        best_key = (-1, -1)
        for combo in combinations(bits, 5):
            m = sum(combo)
            v = values[high[m >> split] + low_t[m & low_mask]]
            if v >> _SHIFT == SCALA_REALE and (v & 3, v) > best_key:
                best_key, best_mask = (v & 3, v), m
        best = best_key[1]
    return best, best_mask << base


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
    suits = [card[1] for card in cards]
    if len(suits) == 5 and suits.count(suits[0]) < 4 and suits.count(suits[1]) < 4:
        return False  # the common case: four of one suit would include the first or second card
    by_suit: dict[str, set[int]] = {}
    for card in cards:
        by_suit.setdefault(card[1], set()).add(RANK_INDEX[card[0]])
    if all(len(held) < 4 for held in by_suit.values()):
        return False  # no four cards of one suit
    return any(w <= held for held in by_suit.values() if len(held) >= 4 for w in _windows(low_r))


@lru_cache(maxsize=16)
def _windows(low_r: int) -> tuple[frozenset[int], ...]:
    """The sets of four ranks in sequence, the ace both below the lowest rank and above the king."""
    order = [_ACE, *range(low_r, _ACE + 1)]
    return tuple(frozenset(order[i : i + 4]) for i in range(len(order) - 3))


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
