"""danKO and danELKO: a Danese or danEL phase, then a KO among the best N."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tournaments.formats import FormatError
from tournaments.formats.danese import Score, danese_placings, standings_order
from tournaments.formats.draw import RandomList
from tournaments.formats.ko import Round, ko_first_round, ko_placings
from tournaments.formats.standings import Placings


def qualify(
    totals: Mapping[str, Score], qualifiers: int, random_list: RandomList
) -> tuple[list[str], list[str]]:
    """Return (qualified, not qualified): the best ``qualifiers`` by VP, then MP, then the random list.

    "in caso di ex aequo di VP e MP i qualificati ... saranno determinati casualmente": by the list.
    """
    if not 2 <= qualifiers <= len(totals):
        raise FormatError("qualifiers", "Numero di qualificati non valido")
    order = standings_order(totals, random_list)
    return order[:qualifiers], order[qualifiers:]


def playoff_first_round(qualified: Sequence[str], random_list: RandomList) -> Round:
    """Seat the KO phase.

    Decision: the KO rule of the rules applies as written ("i giocatori ... sono posizionati ai tavoli
    in modo casuale"), i.e. qualifiers are seated in random-list order, not seeded by the Danese
    standings; byes (if N is not a power of two) as in any scheduled KO.
    """
    return ko_first_round(random_list, qualified)


def danko_placings(
    eliminated_by_round: Sequence[Sequence[str]],
    champion: str,
    group_totals: Mapping[str, Score],
    not_qualified: Sequence[str],
    lower_placings: Placings | None = None,
) -> Placings:
    """Final placings: the KO placings of the qualifiers, then the others by the group phase.

    ``lower_placings`` (e.g. ``danel_placings`` for a danELKO) replaces the default Danese order
    of ``not_qualified``. Decision: the prize table of danKO/danELKO is the Danese table (prize
    scheme DANESE), applied to these placings.
    """
    top = ko_placings(eliminated_by_round, champion)
    if lower_placings is None:
        lower_placings = danese_placings({line: group_totals[line] for line in not_qualified})
    return top + lower_placings
