"""danEL: Danese with partial elimination after each round, and its re-admission rule."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.formats import FormatError
from tournaments.formats.danese import Score
from tournaments.formats.draw import RandomList
from tournaments.formats.standings import Placings, group_sorted

# Cumulative VP a line must have at the end of each round to stay in.
THRESHOLDS_UP_TO_3_ROUNDS = (7, 14)
THRESHOLDS_4_ROUNDS = (4, 20, 36)
EXTRA_ROUND_STEP = 16  # decision for 5+ rounds, see ``danel_threshold``


def danel_threshold(round_no: int, total_rounds: int) -> int | None:
    """VP needed after round ``round_no`` (1-based) of a ``total_rounds`` danEL; None: no cut.

    No cut after the last round. The rules give 7/14 for up to 3 rounds and 4/20/36 for 4 rounds.
    Decision: longer danEL tournaments continue the 4-round series (+16 VP a round: 52, 68, ...),
    which keeps its pace of a little under one win a round.
    """
    if not 1 <= round_no <= total_rounds:
        raise FormatError("danel_round", "Turno fuori dal torneo")
    if round_no == total_rounds:
        return None
    if total_rounds <= 3:
        return THRESHOLDS_UP_TO_3_ROUNDS[round_no - 1]
    if round_no <= 3:
        return THRESHOLDS_4_ROUNDS[round_no - 1]
    return THRESHOLDS_4_ROUNDS[-1] + EXTRA_ROUND_STEP * (round_no - 3)


@dataclass(frozen=True, slots=True)
class Eliminated:
    """A line out of a danEL: the round after which it left and its totals then."""

    line: str
    round_no: int
    score: Score


@dataclass(frozen=True, slots=True)
class Cut:
    """The outcome of a danEL cut: who leaves now and who (if anyone) is re-admitted."""

    eliminated: tuple[Eliminated, ...]
    readmitted: str | None
    active: tuple[str, ...]


def _ex_aequo_rank(totals: Mapping[str, Score]) -> dict[str, int]:
    """1-based rank where lines equal in VP and MP share the best position."""
    order = sorted(totals, key=lambda line: (-totals[line].vp, -totals[line].mp))
    ranks: dict[str, int] = {}
    for i, line in enumerate(order):
        prev = order[i - 1] if i else None
        ranks[line] = ranks[prev] if prev is not None and totals[prev] == totals[line] else i + 1
    return ranks


def eliminated_order(eliminated: Sequence[Eliminated], random_list: RandomList) -> list[Eliminated]:
    """Eliminated lines best first: later round, then VP, then MP, then the random list."""
    return sorted(eliminated, key=lambda e: (-e.round_no, -e.score.vp, -e.score.mp, random_list.rank(e.line)))


def danel_cut(
    active: Mapping[str, Score],
    *,
    round_no: int,
    total_rounds: int,
    prize_positions: int,
    random_list: RandomList,
    already_eliminated: Sequence[Eliminated] = (),
) -> Cut:
    """Apply the cut after ``round_no``: lines under the threshold leave, except prize positions.

    "In nessun caso saranno eliminati i giocatori che hanno raggiunto una posizione in classifica che
    dà diritto a un premio": decision, a line is protected when its ex aequo rank (1 + lines strictly
    better in VP and MP) is a paid position, so ties with a paid position are protected too. Every
    eliminated line ranks below every active one (its VP were under a threshold the others met).
    "Nel caso i giocatori rimasti in gioco fossero dispari verrà ripescato il miglior classificato tra
    gli eliminati", ties settled by the random list.
    """
    threshold = danel_threshold(round_no, total_rounds)
    if threshold is None:
        return Cut((), None, tuple(random_list.ordered(active)))
    ranks = _ex_aequo_rank(active)
    out = [
        Eliminated(line, round_no, score)
        for line, score in active.items()
        if score.vp < threshold and ranks[line] > prize_positions
    ]
    out_lines = {e.line for e in out}
    staying = [line for line in active if line not in out_lines]
    readmitted: str | None = None
    if len(staying) % 2:
        pool = eliminated_order([*out, *already_eliminated], random_list)
        if not pool:
            raise FormatError("danel_odd", "Linee dispari e nessun eliminato da ripescare")
        readmitted = pool[0].line
        out = [e for e in out if e.line != readmitted]
        staying.append(readmitted)
    return Cut(tuple(eliminated_order(out, random_list)), readmitted, tuple(random_list.ordered(staying)))


def danel_placings(
    active: Mapping[str, Score], eliminated: Sequence[Eliminated], random_list: RandomList | None = None
) -> Placings:
    """Final placings of every line, still playing or eliminated, by total VP then MP (RULINGS K7).

    "La classifica finale viene stilata sulla base dei VP totalizzati in tutti i turni": an
    eliminated line keeps the totals it left with and ranks among the others by them, so a line
    re-admitted or still playing is not placed above an eliminated one with more VP. Lines equal
    in VP and MP are ex aequo (RULINGS K2: prizes shared, never split at random); inside a group
    they are listed in the order of the ``random_list`` (by name without one).
    """
    totals = {**{e.line: e.score for e in eliminated}, **active}
    if len(totals) != len(active) + len(eliminated):
        raise FormatError("danel_twice", "Una linea è sia in gioco sia eliminata")
    listed = random_list.rank if random_list is not None else None
    order = sorted(
        totals,
        key=lambda line: (-totals[line].vp, -totals[line].mp, listed(line) if listed else 0, line),
    )
    return group_sorted(order, key=lambda line: totals[line], name=lambda line: line)
