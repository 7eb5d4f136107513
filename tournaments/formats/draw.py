"""The random list of the rules, drawn once per tournament ("Gestione di eventi casuali").

"A inizio torneo viene generato casualmente un elenco dei partecipanti": it decides the first-round
pairings and seats, the KO byes, and every tie the rules settle "casualmente" (pairing order among
equal VP and MP, danEL re-admission, danKO qualification, seats of moved players). After the draw
every such decision is a pure function of the standings and this list: the earlier in the list
prevails ("in caso di ex equo tra il terzo dell'elenco e il sesto dell'elenco, sarà ripescato il
terzo"). Prizes never depend on it (RULINGS K2).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from games.rng import Rng, shuffled
from tournaments.formats import FormatError


@dataclass(frozen=True, slots=True)
class RandomList:
    """The drawn order of the entrants; ``rank(x)`` is x's 0-based place in it."""

    order: tuple[str, ...]
    _index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = {entrant: i for i, entrant in enumerate(self.order)}
        if len(index) != len(self.order):
            raise FormatError("random_list_duplicates", "Elenco casuale con partecipanti ripetuti")
        object.__setattr__(self, "_index", index)

    def rank(self, entrant: str) -> int:
        """Return the entrant's 0-based place in the list (lower prevails in a tie)."""
        return self._index[entrant]

    def __contains__(self, entrant: object) -> bool:
        return entrant in self._index

    def __len__(self) -> int:
        return len(self.order)

    def ordered(self, entrants: Iterable[str]) -> list[str]:
        """Return the given entrants in list order."""
        return sorted(entrants, key=self._index.__getitem__)

    def to_json(self) -> list[str]:
        """Return the list as JSON data, to be stored with the tournament."""
        return list(self.order)

    @classmethod
    def from_json(cls, data: Sequence[str]) -> RandomList:
        """Rebuild a stored list."""
        return cls(tuple(data))


def draw_random_list(entrants: Sequence[str], rng: Rng) -> RandomList:
    """Draw the tournament's random list (Fisher-Yates through the ``Rng`` passed in, RULINGS G4).

    The input order does not matter for fairness, but it is sorted first so that the same seed
    and the same set of entrants always give the same list (replays, tests).
    """
    return RandomList(tuple(shuffled(sorted(entrants), rng)))


# Seat names of a table of a gioco a partite: individual lines sit nord/est as in the rules'
# example ("il primo dell'elenco siede al tavolo 1 in nord, il secondo al tavolo 1 in est");
# pairs sit nord-sud against est-ovest (4in2).
INDIVIDUAL_SEATS = ("nord", "est")
PAIR_SEATS = (("nord", "sud"), ("est", "ovest"))


def seat_table(lines: Sequence[str], members: dict[str, tuple[str, str]] | None = None) -> dict[str, str]:
    """Seat a table's two lines, first line first: ``{"nord": ..., "est": ...}`` (pairs: four seats).

    ``members`` maps a pair line to its two players (first member in nord or est).
    """
    if len(lines) != 2:
        raise FormatError("table_lines", "Un tavolo ha due linee")
    if members is None:
        return dict(zip(INDIVIDUAL_SEATS, lines, strict=True))
    seats: dict[str, str] = {}
    for (first, second), line in zip(PAIR_SEATS, lines, strict=True):
        a, b = members[line]
        seats[first], seats[second] = a, b
    return seats


def random_pairs(random_list: RandomList) -> dict[str, tuple[str, str]]:
    """Form the pairs of a random-pairs tournament: 1st and 2nd of the list, 3rd and 4th, ...

    The pair's line id is ``"a+b"``; its place in later ties is its first member's place in the list
    (``pair_random_list``).
    """
    order = random_list.order
    if len(order) % 2:
        raise FormatError("pairs_odd", "Numero di giocatori dispari per un torneo a coppie")
    return {f"{order[i]}+{order[i + 1]}": (order[i], order[i + 1]) for i in range(0, len(order), 2)}


def pair_random_list(random_list: RandomList, pairs: dict[str, tuple[str, str]]) -> RandomList:
    """The list of pair lines ordered by their best-placed member in the players' random list."""
    return RandomList(tuple(sorted(pairs, key=lambda line: min(random_list.rank(p) for p in pairs[line]))))
