"""Match Points, Victory Points, Danese standings and pairing (RULINGS K3).

A *line* is one player or one pair. ``Score`` is a line's running total. Round 1 pairs the random
list in order; later rounds sort by VP, then MP, then the random list (ties "stabilite casualmente"
are settled by the list drawn once), and pair 1-2, 3-4, ...; rematches are allowed (K3).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.formats import FormatError
from tournaments.formats.draw import RandomList
from tournaments.formats.standings import Placings, group_sorted

Round = list[list[str]]

VP_WIN = 20
VP_DRAW = 10
VP_LOSS = 0
VP_FORFEIT_MIN = 14  # "la linea avversaria farà minimo 14 VP"


@dataclass(frozen=True, slots=True)
class Score:
    """A line's totals: Victory Points and Match Points."""

    vp: int = 0
    mp: int = 0

    def __add__(self, other: Score) -> Score:
        return Score(self.vp + other.vp, self.mp + other.mp)


@dataclass(frozen=True, slots=True)
class VpScale:
    """A VP table: ``steps`` are (minimum MP difference, VP of the leading line), ascending.

    The trailing line gets ``total - vp``. The default is the rules' table (win 20, draw 10, loss 0).
    A tournament may set a graded table (K3).
    """

    steps: tuple[tuple[int, int], ...] = ((0, VP_DRAW), (1, VP_WIN))
    total: int = VP_WIN

    def __post_init__(self) -> None:
        if not self.steps or self.steps[0][0] != 0:
            raise FormatError("vp_scale", "La tabella dei VP deve partire da differenza 0")
        if any(a[0] >= b[0] or a[1] > b[1] for a, b in zip(self.steps, self.steps[1:], strict=False)):
            raise FormatError("vp_scale", "La tabella dei VP deve essere crescente")

    def leader_vp(self, difference: int) -> int:
        """VP of the line ahead by ``difference`` ≥ 0 MP."""
        vp = self.steps[0][1]
        for minimum, value in self.steps:
            if difference >= minimum:
                vp = value
        return vp

    def min_mp_for(self, vp: int) -> int:
        """The smallest MP difference that earns at least ``vp``."""
        for minimum, value in self.steps:
            if value >= vp:
                return minimum
        return self.steps[-1][0]


DEFAULT_VP = VpScale()


def match_points(points_a: int, points_b: int) -> tuple[int, int]:
    """MP of each line: the difference of the points ("21-12: A +9 MP, B -9 MP")."""
    return points_a - points_b, points_b - points_a


def match_result(points_a: int, points_b: int, scale: VpScale = DEFAULT_VP) -> tuple[Score, Score]:
    """The Scores of a played match between lines A and B from their points."""
    mp_a, mp_b = match_points(points_a, points_b)
    lead = scale.leader_vp(abs(mp_a))
    if mp_a >= 0:
        return Score(lead, mp_a), Score(scale.total - lead, mp_b)
    return Score(scale.total - lead, mp_a), Score(lead, mp_b)


def forfeit_result(
    points_offender: int, points_other: int, scale: VpScale = DEFAULT_VP
) -> tuple[Score, Score]:
    """Scores when a line lets the time run out or abandons (offender first), RULINGS K6.

    The offender loses the match with 0 VP; the other line gets the VP of a win by its real margin
    (at least by 1 MP), and at least 14 VP (so 20 with the default win/draw/loss table). "I MP di
    entrambe le linee saranno calcolati dai VP in base ai corrispondenti minimi previsti dalla
    tabella dei VP": the other line gets the minimum MP that earns its VP, the offender the
    opposite, whatever the real score (792-1965 with the default table: +1 / -1).
    """
    real = points_other - points_offender
    best = scale.steps[-1][1]
    vp = min(best, max(VP_FORFEIT_MIN, scale.leader_vp(max(real, 1))))
    mp = scale.min_mp_for(vp)
    return Score(0, -mp), Score(vp, mp)


def standings_order(totals: Mapping[str, Score], random_list: RandomList) -> list[str]:
    """Lines sorted by VP, then MP, then the random list (partial standings for pairing)."""
    return sorted(totals, key=lambda line: (-totals[line].vp, -totals[line].mp, random_list.rank(line)))


def pair_in_order(order: Sequence[str]) -> Round:
    """Pair an ordered list 1-2, 3-4, ... (each table: first line seated first)."""
    if len(order) % 2:
        raise FormatError("lines_odd", "Numero di linee dispari: non si possono formare i tavoli")
    return [[order[i], order[i + 1]] for i in range(0, len(order), 2)]


def danese_pairing(totals: Mapping[str, Score], random_list: RandomList, *, first_round: bool) -> Round:
    """Tables of a Danese round: round 1 from the random list, later rounds from the standings (K3)."""
    if first_round:
        return pair_in_order(random_list.ordered(totals))
    return pair_in_order(standings_order(totals, random_list))


def add_results(totals: Mapping[str, Score], results: Iterable[tuple[str, Score]]) -> dict[str, Score]:
    """Return new totals with one round's results added (a line may appear at most once a round)."""
    out = dict(totals)
    seen: set[str] = set()
    for line, score in results:
        if line in seen:
            raise FormatError("line_twice", f"{line} ha giocato due volte nello stesso turno")
        seen.add(line)
        out[line] = out.get(line, Score()) + score
    return out


def danese_placings(totals: Mapping[str, Score]) -> Placings:
    """Final placings: by VP, then MP; lines equal in both are ex aequo (never split at random)."""
    order = sorted(totals, key=lambda line: (-totals[line].vp, -totals[line].mp, line))
    return group_sorted(order, key=lambda line: totals[line], name=lambda line: line)
