"""Tournament formats as exact pure code: pairing, standings, prize pools, points and ratings.

Nothing here touches Django or the database; every function is a pure function of its arguments
(plus, for the one random draw of a tournament, the ``games.rng.Rng`` passed in). Money is integer
euro cents, PT are integer hundredths of a PT, chips are integers (RULINGS G1).

Modules by topic:

* ``money``: cents arithmetic, equal splits (G1) and the lobby labels ("€ 100,00 (90,00 + 10,00)").
* ``draw``: the random list of the rules, drawn once per tournament ("Gestione di eventi casuali").
* ``registration``: minimum/maximum entrants, exclusions to a multiple of 2 or 4, sit&go sizes.
* ``standings``: ex aequo groups and final placings shared by every format.
* ``ko``: knockout seating, byes to a power of two, placings by elimination round.
* ``danese``: MP, VP, Danese standings and pairing (K3), random pairs.
* ``danel``: danEL eliminations and re-admission; ``danko``: qualification to a KO phase.
* ``prizes``: pools, the K1 tables, ex aequo sharing (K2), satellites (K4), simula iscritti.
* ``points``: Punti Torneo, training PT (K5), PT leaderboards.
* ``ratings``: rating weights and skill levels.
* ``ammonizioni``: automatic warnings and freeroll bans of the training section.
* ``levels``: level structures, hand-for-hand, elimination placings, shootout.
* ``balancing``: freezeout table balancing.
* ``slot``: slot tournament ranking.
* ``per_game``: each game's tournament lines: KO tie-breaks, cappotto, eliminations, MP conversion.
"""


class FormatError(ValueError):
    """A tournament setting or input the rules do not allow; ``code`` is stable."""

    code = "format_error"

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)
