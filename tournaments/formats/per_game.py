"""The tournament lines of each game's chapter: KO tie-breaks, cappotto, eliminations, MP conversion.

Game keys are the ``games`` package names (``asso``, ``briscola``, ...). The engines play the
spareggi; this module decides, from their results, who goes through (RULINGS I5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from tournaments.formats import FormatError
from tournaments.formats.danese import Score, VpScale

MAX_SPAREGGI = 3


class KoTie(StrEnum):
    """How a drawn KO match is decided."""

    # Up to three spareggi (one smazzata each, most points wins); if the 3rd is drawn too, the line
    # that made the last capture of the 3rd spareggio loses (Asso, Briscola, Cirulla, Scopa,
    # Tresette a punti).
    SPAREGGI = "spareggi"
    LAST_MOVE_LOSES = "last_move_loses"  # Burraco: the line that made the last move loses
    LAST_CAPTURE_WINS = "last_capture_wins"  # Tresette a smazzate: the last capture wins


KO_TIE: dict[str, KoTie] = {
    "asso": KoTie.SPAREGGI,
    "briscola": KoTie.SPAREGGI,
    "cirulla": KoTie.SPAREGGI,
    "scopa": KoTie.SPAREGGI,
    "tresette": KoTie.SPAREGGI,  # partite a punti; a smazzate see ``ko_tie_rule``
    "burraco": KoTie.LAST_MOVE_LOSES,
}


def ko_tie_rule(game: str, *, a_smazzate: bool = False) -> KoTie:
    """The KO tie rule of ``game`` (Tresette a smazzate differs from Tresette a punti)."""
    if game == "tresette" and a_smazzate:
        return KoTie.LAST_CAPTURE_WINS
    try:
        return KO_TIE[game]
    except KeyError:
        raise FormatError("ko_tie_game", f"Nessuna regola di spareggio KO per {game}") from None


@dataclass(frozen=True, slots=True)
class KoDecision:
    """``winner`` is 0 (line A) or 1 (line B); None means another spareggio must be played."""

    winner: int | None


def ko_match_winner(
    rule: KoTie, points: tuple[int, int], spareggi: Sequence[tuple[int, int]] = (), last: int | None = None
) -> KoDecision:
    """Decide a KO match from its points, the spareggi played so far and, when the rule needs it,
    ``last`` (0/1): the line that made the last move (Burraco), the last capture of the match
    (Tresette a smazzate) or the last capture of the 3rd spareggio (SPAREGGI)."""
    scores = [points, *spareggi]
    if rule is not KoTie.SPAREGGI and spareggi:
        raise FormatError("ko_spareggi", "Questo gioco non prevede spareggi")
    if len(spareggi) > MAX_SPAREGGI:
        raise FormatError("ko_spareggi", "Al massimo tre spareggi")
    for a, b in scores:
        if a != b:
            return KoDecision(0 if a > b else 1)
    if rule is KoTie.SPAREGGI and len(spareggi) < MAX_SPAREGGI:
        return KoDecision(None)
    if last not in (0, 1):
        raise FormatError("ko_last", "Serve la linea che ha fatto l'ultima presa o mossa")
    if rule is KoTie.LAST_CAPTURE_WINS:
        return KoDecision(last)
    return KoDecision(1 - last)  # SPAREGGI after the 3rd, and Burraco: the last one loses


class Elimination(StrEnum):
    """When a player without chips leaves a level-based tournament."""

    START_OF_SMAZZATA = "start_of_smazzata"  # Bestia: before the invito, even after paying a bestia
    END_OF_HAND = "end_of_hand"  # Poker 5 carte, Telesina


ELIMINATION: dict[str, Elimination] = {
    "bestia": Elimination.START_OF_SMAZZATA,
    "poker5": Elimination.END_OF_HAND,
    "telesina": Elimination.END_OF_HAND,
}

# Tournament options fixed by the game chapters.
SETTEMEZZO_TOURNAMENT_VARIANT = (
    "piatto"  # "I tornei di Sette e mezzo saranno proposti solo nella variante piatto"
)
TRESETTE_CAPPOTTO_IN_TOURNAMENTS = False  # "Cappotto (mai applicato nei tornei)"


def cappotto_result(scale: VpScale) -> tuple[Score, Score]:
    """Cirulla: "chi ha fatto cappotto vince con il massimo numero di VP previsto per quella partita
    e il corrispondente numero minimo di MP" (cappotto line first)."""
    vp = scale.steps[-1][1]
    mp = scale.min_mp_for(vp)
    return Score(vp, mp), Score(scale.total - vp, -mp)


def scala40_match_points(paid_a: int, paid_b: int) -> tuple[int, int]:
    """Scala 40: the points each line pays are credited to the other as MP (B pays 70: A +70, B -70)."""
    return paid_b - paid_a, paid_a - paid_b
