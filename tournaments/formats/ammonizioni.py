"""Automatic warnings (ammonizioni) of the training section and the freeroll bans they trigger."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.formats import FormatError

MAX_PER_TOURNAMENT = 2
TURNS_PER_BONUS = 30
RECUPERO_VP = 10  # "attribuendogli un punteggio di 10 VP e 0 MP"


@dataclass(frozen=True, slots=True)
class TournamentConduct:
    """What one player did in one training tournament, as the warnings count it."""

    pairs: bool
    timeouts: int = 0  # matches lost by timeout (tempo giocata)
    # Pairs only: matches ended by tempo scaduto in which this player used more than 3/4 of the time.
    slow_expired_matches: int = 0


def used_over_three_quarters(used_ms: int, available_ms: int) -> bool:
    """Whether a player used "più dei 3/4 del tempo a disposizione" (strictly more, exact integers)."""
    return used_ms * 4 > available_ms * 3


def tournament_warnings(conduct: TournamentConduct) -> int:
    """Warnings given at the end of one tournament: 1 per timeout (individual), 2 per timeout (pairs),
    1 per slow expired match (pairs), at most 2 per tournament.

    Decision: the rules' "1 ammonizione in caso di timeout" counts each timeout; the cap makes a
    no-show (who times out every round) get exactly 2.
    """
    if conduct.timeouts < 0 or conduct.slow_expired_matches < 0:
        raise FormatError("conduct", "Conteggi non validi")
    if conduct.pairs:
        raw = 2 * conduct.timeouts + conduct.slow_expired_matches
    else:
        raw = conduct.timeouts
    return min(MAX_PER_TOURNAMENT, raw)


def effective_warnings(received: int, completed_turns: int) -> int:
    """Effective warnings: received − 1 bonus per 30 completed tournament turns.

    Decision: the literal difference of the rules, so bonuses earned in advance absorb later
    warnings; it is shown as 0 when negative (``displayed_warnings``).
    """
    return received - completed_turns // TURNS_PER_BONUS


def displayed_warnings(received: int, completed_turns: int) -> int:
    """The number on the player's card (never below zero)."""
    return max(0, effective_warnings(received, completed_turns))


def ban_days(threshold: int) -> int:
    """Freeroll ban days triggered on reaching ``threshold`` effective warnings (0 if none).

    10th: 3 days; 20th: 5 more; 30th: 10 more; 40th: 20 more; then every 10 more: 10 days.
    """
    fixed = {10: 3, 20: 5, 30: 10, 40: 20}
    if threshold in fixed:
        return fixed[threshold]
    if threshold > 40 and threshold % 10 == 0:
        return 10
    return 0


def bans_triggered(before: int, after: int) -> list[tuple[int, int]]:
    """(threshold, days) of every ban threshold reached when effective warnings go from ``before`` to
    ``after``. Decision: reaching a threshold again after bonuses lowered the count triggers it again
    (the rules tie the ban to reaching the n-th effective warning)."""
    first = (max(before, 0) // 10 + 1) * 10
    return [(t, ban_days(t)) for t in range(first, after + 1, 10)]


def recupero_punti() -> tuple[int, int]:
    """(VP, MP) credited for the match to the partner of a player who used over 3/4 of the time."""
    return RECUPERO_VP, 0
