"""Cards and decks shared by every game (RULINGS G3, P1).

A card is a two-character string: rank then suit, e.g. ``"Ah"``, ``"Tc"``, ``"7d"``.
Ranks: ``A 2 3 4 5 6 7 8 9 T J Q K``; suits: ``h`` cuori/coppe (♥), ``d`` quadri/denari (♦),
``c`` fiori/bastoni (♣), ``s`` picche/spade (♠). Jokers are ``"X1"`` … ``"X4"`` (the number only
tells them apart in the history; every joker is the same card).

Strings keep the state plain JSON and the hand history readable; engines that need speed map
them to integers internally (see ``RANK_INDEX``/``SUIT_INDEX``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

RANKS = "A23456789TJQK"
SUITS = "hdcs"  # highest first for poker tie-breaks: ♥ > ♦ > ♣ > ♠ (RULINGS P2)
JOKERS = ("X1", "X2", "X3", "X4")

SUIT_NAME_FRENCH = {"h": "cuori", "d": "quadri", "c": "fiori", "s": "picche"}
SUIT_NAME_ITALIAN = {"h": "coppe", "d": "denari", "c": "bastoni", "s": "spade"}
RANK_NAME_FRENCH = {
    "A": "asso",
    "2": "2",
    "3": "3",
    "4": "4",
    "5": "5",
    "6": "6",
    "7": "7",
    "8": "8",
    "9": "9",
    "T": "10",
    "J": "fante",
    "Q": "donna",
    "K": "re",
}
RANK_NAME_ITALIAN = {**RANK_NAME_FRENCH, "Q": "cavallo"}

# Poker rank order, low to high with the ace high (the ace-low straight is the evaluator's job).
POKER_ORDER = "23456789TJQKA"
RANK_INDEX = {r: i for i, r in enumerate(POKER_ORDER)}
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}

# Italian 40-card deck: A 2 3 4 5 6 7 Fante Cavallo Re, numeric values 1..10.
ITALIAN_RANKS = "A234567JQK"
ITALIAN_VALUE = {r: i + 1 for i, r in enumerate(ITALIAN_RANKS)}


class CardError(ValueError):
    """A string that is not a card of the deck in use."""


def rank(card: str) -> str:
    """Return the rank character of a card."""
    return card[0]


def suit(card: str) -> str:
    """Return the suit character of a card ('' for a joker)."""
    return "" if is_joker(card) else card[1]


def is_joker(card: str) -> bool:
    """Tell whether the card is a joker."""
    return card[0] == "X"


def make(rank_char: str, suit_char: str) -> str:
    """Build a card string, checking its parts."""
    if rank_char not in RANKS or suit_char not in SUITS:
        raise CardError(f"carta non valida: {rank_char}{suit_char}")
    return rank_char + suit_char


def label(card: str, style: str = "francesi") -> str:
    """Return the Italian name of a card ("asso di cuori", "re di denari"), for the given style."""
    if is_joker(card):
        return "jolly"
    italian = style in ("napoletane", "piacentine")
    ranks = RANK_NAME_ITALIAN if italian else RANK_NAME_FRENCH
    suits = SUIT_NAME_ITALIAN if italian else SUIT_NAME_FRENCH
    return f"{ranks[rank(card)]} di {suits[suit(card)]}"


def poker_lowest_rank(players: int) -> str:
    """Lowest rank of the short poker deck for this many players: 11 − players (RULINGS P1)."""
    if not 2 <= players <= 6:
        raise CardError("il poker 5 carte si gioca da 2 a 6 giocatori")
    return POKER_ORDER[11 - players - 2]


def poker_deck(players: int) -> list[str]:
    """The short French deck of Poker 5 carte / Telesina for this many players (RULINGS P1)."""
    low = RANK_INDEX[poker_lowest_rank(players)]
    return [r + s for s in SUITS for r in POKER_ORDER[low:]]


def italian_deck() -> list[str]:
    """The 40-card Italian deck (A–7, Fante, Cavallo, Re in the four suits)."""
    return [r + s for s in SUITS for r in ITALIAN_RANKS]


def french_deck() -> list[str]:
    """One 52-card French deck."""
    return [r + s for s in SUITS for r in RANKS]


def rummy_deck() -> list[str]:
    """Two French decks and four jokers: the 108 cards of Burraco and Scala 40."""
    return french_deck() + french_deck() + list(JOKERS)


def shoe(decks: int = 6) -> list[str]:
    """The Chemin de fer shoe: ``decks`` French decks."""
    return french_deck() * decks


def same_cards(a: Iterable[str], b: Iterable[str]) -> bool:
    """Tell whether two collections hold exactly the same cards (as multisets; jokers alike)."""

    def norm(cards: Iterable[str]) -> Counter[str]:
        return Counter("X" if is_joker(c) else c for c in cards)

    return norm(a) == norm(b)
