"""Bestia's money, as pure functions: invito and rischio bestia, the split of the piatto, the rake.

Everything is integer cents (RULINGS G1). These functions change nothing; the engine
(``games.bestia.engine``) moves the money.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games import betting


def invito_and_bestia(
    table_invito: int, piatto_iniziale: int, credits: Iterable[int]
) -> tuple[int, bool, int]:
    """Return ``(invito, capped, rischio bestia)`` for a smazzata of players with these credits.

    Rules 004, "Il valore dell'invito e della bestia": when a player cannot pay the table's invito,
    the invito is the lowest credit and the smazzata is played with bestia = 0 (``capped``);
    otherwise the bestia is the piatto after the inviti, capped by the lowest credit left once the
    invito is paid ("Il valore massimo del rischio bestia è uguale al piatto").
    """
    cs = list(credits)
    if not cs:
        return 0, False, 0
    lowest = min(cs)
    if lowest < table_invito:
        return lowest, True, 0
    piatto = piatto_iniziale + table_invito * len(cs)
    return table_invito, False, min(piatto, lowest - table_invito)


def split_by_tricks(piatto: int, winners: Sequence[int], parts: int) -> dict[str, int]:
    """Share the piatto among the tricks' winners: one part per trick, in the order they were taken.

    Each part is the piatto divided by ``parts`` (3, or 4 in the 4-card variant) truncated to the
    cent; "I resti generati dagli arrotondamenti vengono attribuiti al giocatore che ha fatto la
    prima presa": every cent the truncation leaves goes to the winner of the first trick
    (€ 10,00 → 3,34 / 3,33 / 3,33, the 3,34 to the first trick). See the engine's docstring for
    how this reads the chapter's second sentence about the remainder.
    """
    if len(winners) != parts or parts <= 0:
        raise ValueError("one winner per trick")
    part, rest = divmod(piatto, parts)
    out: dict[str, int] = {}
    for w in winners:
        out[str(w)] = out.get(str(w), 0) + part
    out[str(winners[0])] += rest
    return out


def rake_on_shares(
    shares: dict[str, int], order: Sequence[int], rake_bp: int, cap: int | None
) -> dict[str, int]:
    """Return the rake each collector pays: floor(what he collects × rake %), the cap used up in ``order``.

    Rules 004, Bestia cash tables: "Rake calcolato sulla base degli importi incassati dai giocatori
    al termine della mano" (A collects € 20 at 10 %: € 2). ``order`` is the playing order (from the
    dealer's right), which decides who pays first when the table's cap runs out.
    """
    collectors = [s for s in order if shares.get(str(s), 0) > 0]
    rakes = betting.rake_per_pot([shares[str(s)] for s in collectors], rake_bp, cap)
    return {str(s): r for s, r in zip(collectors, rakes, strict=True)}
