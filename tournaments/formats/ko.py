"""Knockout ("KO"): random seating, tables 1..N, byes to a power of two, placings by round.

A round is a list of *slots*, slot i being table i+1: a slot of two lines is a match, a slot of one
line is a bye ("passa direttamente al secondo turno senza giocare"). The next round pairs the winner
of slot 1 with the winner of slot 2, slot 3 with slot 4, and so on ("il vincitore del primo tavolo si
scontrerà contro il vincitore del 2° tavolo"), the winner of the odd slot seated first.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from tournaments.formats import FormatError
from tournaments.formats.draw import RandomList
from tournaments.formats.standings import Placings

Round = list[list[str]]


def largest_power_of_two_at_most(n: int) -> int:
    """Return the largest power of two not above ``n`` (n ≥ 1)."""
    return 1 << (n.bit_length() - 1)


def byes_needed(lines: int) -> int:
    """Number of byes that bring a scheduled KO of ``lines`` lines to a power of two in round 2.

    With P the largest power of two below ``lines`` (when ``lines`` is not one itself), ``lines - P``
    matches are played and ``2P - lines`` lines pass without playing, so round 2 has exactly P lines.
    """
    if lines < 2:
        raise FormatError("ko_lines", "Un KO richiede almeno due linee")
    power = largest_power_of_two_at_most(lines)
    return 0 if power == lines else 2 * power - lines


def ko_first_round(random_list: RandomList, lines: Collection[str] | None = None) -> Round:
    """Seat the first round from the random list (``lines`` restricts it, e.g. danKO qualifiers).

    The list is read in order: 1st and 2nd at table 1, 3rd and 4th at table 2, ...

    Decision (the rules only say the byes are "individuati casualmente"): the byes go to the first
    lines of the random list, since the list is what the rules use to let one entrant prevail
    ("chi prevale"), and they occupy the slots after the real tables, so the literal "winner of table 1
    meets the winner of table 2" rule still builds round 2.
    """
    order = list(random_list.order) if lines is None else random_list.ordered(lines)
    byes = byes_needed(len(order))
    bye_lines, playing = order[:byes], order[byes:]
    slots: Round = [playing[i : i + 2] for i in range(0, len(playing), 2)]
    slots.extend([line] for line in bye_lines)
    return slots


def slot_winner(slot: Sequence[str], winners: Collection[str]) -> str:
    """The line that leaves ``slot`` for the next round (a bye's only line)."""
    if len(slot) == 1:
        return slot[0]
    found = [line for line in slot if line in winners]
    if len(found) != 1:
        raise FormatError("ko_result", f"Serve esattamente un vincitore al tavolo {list(slot)}")
    return found[0]


def ko_next_round(slots: Round, winners: Collection[str]) -> Round:
    """Build the next round from this round's slots and the set of match winners."""
    if len(slots) < 2 or len(slots) & (len(slots) - 1):
        raise FormatError("ko_round", "Il turno KO non ha un numero di tavoli potenza di 2")
    advancing = [slot_winner(slot, winners) for slot in slots]
    return [advancing[i : i + 2] for i in range(0, len(advancing), 2)]


def ko_losers(slots: Round, winners: Collection[str]) -> list[str]:
    """Lines eliminated in this round, in table order."""
    return [line for slot in slots if len(slot) == 2 for line in slot if line != slot_winner(slot, winners)]


def ko_placings(eliminated_by_round: Sequence[Sequence[str]], champion: str) -> Placings:
    """Final placings of a KO: the champion, then each round's losers ex aequo, latest round first.

    "si classifica secondo l'ultimo giocatore ad essere stato eliminato ... dal 3° al 4° classificato,
    dal 5° all'8° ... ex aequo a seconda del turno in cui il giocatore è stato eliminato". Points
    scored never separate them (they only order the display, which is the caller's business).
    """
    placings: Placings = [[champion]]
    placings.extend(sorted(losers) for losers in reversed(eliminated_by_round) if losers)
    return placings


def ko_rounds(lines: int) -> int:
    """Number of rounds a KO of ``lines`` lines lasts (byes round included)."""
    return (lines - 1).bit_length()
