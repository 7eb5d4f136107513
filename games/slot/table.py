"""The product's numbers of "Pierino Tenta la Fortuna": every table of the slot, as data, in one place.

Rules 004 "Regole della slot tornei" and RULINGS S1–S7. The rules' pictures are lost; what the text
gives stands (the four pays of the top normal symbols, 50 × total bet for 4–5 Pierino, the entry
probability unit / 100, the Pierino mode's point table and bands); everything else here is the
product's choice (S2, S4, S5, S7), documented in docs/slot.md with the exact return it gives
(``games.slot.rtp``). Changing a number here changes the return: recompute it and the docs.

Symbols are one-letter codes (the reel strips are strings of them). Rows are 0 (top), 1, 2; a
reel's window at stop ``s`` shows ``strip[s]``, ``strip[s + 1]``, ``strip[s + 2]`` (cyclically).
"""

from __future__ import annotations

REELS = 5
ROWS = 3
LINES = 30  # fixed (S1)
MIN_UNIT = 1
MAX_UNIT = 100  # "Puntata Massima"

WILD = "W"
BONUS = "S"
FREE_SPIN = "F"
PIERINO = "P"
SPECIALS = (BONUS, FREE_SPIN, PIERINO)

# code -> Italian name shown to players. 8 normal symbols, the wild, 3 specials (S2).
SYMBOLS: dict[str, str] = {
    "C": "Campanella",
    "M": "Mappamondo",
    "Z": "Zaino",
    "L": "Libro",
    "Q": "Quaderno",
    "T": "Matita",
    "G": "Gomma",
    "R": "Righello",
    WILD: "Bomba",
    BONUS: "Serratura",
    FREE_SPIN: "Fionda",
    PIERINO: "Pierino",
}
NORMAL = ("C", "M", "Z", "L", "Q", "T", "G", "R")

# Line pays × unit bet for 3, 4, 5 of a kind consecutive from reel 1. The first four rows are the
# text's; the other four are below them and the wild's (wilds alone) at or above the top (S2).
PAYS: dict[str, tuple[int, int, int]] = {
    "C": (45, 180, 750),
    "M": (30, 120, 500),
    "Z": (20, 90, 300),
    "L": (15, 60, 150),
    "Q": (10, 40, 100),
    "T": (8, 30, 80),
    "G": (5, 20, 50),
    "R": (4, 15, 40),
    WILD: (50, 200, 1000),
}

# The 30 paylines: the row of each reel, left to right (S1). No two are equal (tests check it).
PAYLINES: tuple[tuple[int, int, int, int, int], ...] = (
    (1, 1, 1, 1, 1),
    (0, 0, 0, 0, 0),
    (2, 2, 2, 2, 2),
    (0, 1, 2, 1, 0),
    (2, 1, 0, 1, 2),
    (0, 0, 1, 2, 2),
    (2, 2, 1, 0, 0),
    (1, 0, 0, 0, 1),
    (1, 2, 2, 2, 1),
    (0, 1, 1, 1, 0),
    (2, 1, 1, 1, 2),
    (1, 0, 1, 2, 1),
    (1, 2, 1, 0, 1),
    (0, 1, 0, 1, 0),
    (2, 1, 2, 1, 2),
    (1, 1, 0, 1, 1),
    (1, 1, 2, 1, 1),
    (0, 0, 2, 0, 0),
    (2, 2, 0, 2, 2),
    (0, 2, 2, 2, 0),
    (2, 0, 0, 0, 2),
    (1, 0, 2, 0, 1),
    (1, 2, 0, 2, 1),
    (0, 2, 0, 2, 0),
    (2, 0, 2, 0, 2),
    (0, 0, 1, 0, 0),
    (2, 2, 1, 2, 2),
    (0, 1, 2, 2, 2),
    (2, 1, 0, 0, 0),
    (1, 0, 1, 0, 1),
)

# The reel strips of the paid game, 32 stops each. Bonus symbols only on reels 1–3 (S4); every
# special symbol at least 3 stops from its next copy, so a window shows at most one per reel.
STRIPS: tuple[str, ...] = (
    "RGTQSRGLRZWTGCQRFGTMRPLGQTZRGMTL",
    "GRQTLSGRZTWRGCQLFTRGMPWQGZTRLGMT",
    "TRGQLRSGTZRWGCRQFLGTMRPGQRZLTRGM",
    "WGQTLRGZTWRCGQFRLTGMRPQGZRTLGRMT",
    "GRTQLGRZWTRCGQRFLGTMRPGQZRTGLRMW",
)

# During free spins the bonus and Pierino symbols are replaced by wilds (S5).
FREE_SPIN_STRIPS: tuple[str, ...] = tuple(s.replace(BONUS, WILD).replace(PIERINO, WILD) for s in STRIPS)

BONUS_TRIGGER = 3  # bonus symbols on reels 1–3
BONUS_REELS = 3
FREE_SPIN_TRIGGER = 3
PIERINO_TRIGGER = 4
PIERINO_PAY = 50  # × total bet

# Bonus game (S4): the player starts at level 1; at each level below the top, 6 doors of which
# BONUS_PRESIDE[level] hide the Preside (the game ends), the others the Maestra (one level up).
# The win is total bet × BONUS_MULTIPLIERS[level reached].
BONUS_DOORS = 6
BONUS_TOP_LEVEL = 6
BONUS_MULTIPLIERS: dict[int, int] = {1: 5, 2: 10, 3: 20, 4: 40, 5: 100, 6: 250}
BONUS_PRESIDE: dict[int, int] = {1: 1, 2: 2, 3: 2, 4: 3, 5: 3}

# Free spins (S5): spins won by 3/4/5 free-spin symbols anywhere, at multiplier 1 (and as many
# again on a retrigger, same multiplier), never more than FREE_SPIN_CAP in all.
FREE_SPINS_AWARDED: dict[int, int] = {3: 8, 4: 12, 5: 20}
FREE_SPIN_CAP = 100
# The 12 slates: [spins added, multiplier added]; [0, 0] is the Preside (back to class).
SLATES: tuple[tuple[int, int], ...] = (
    (0, 0),
    (0, 0),
    (0, 0),
    (2, 0),
    (2, 0),
    (3, 0),
    (3, 0),
    (5, 0),
    (0, 1),
    (0, 1),
    (0, 1),
    (2, 1),
)
PRESIDE_SLATE = (0, 0)

# Pierino mode (S6): entry probability unit / 100 (the wheel draws below 100), then PIERINO_SPINS
# spins on the 30 paylines with these strips; points per line for 3/4/5 consecutive from reel 1.
PIERINO_ENTRY_DENOMINATOR = 100
PIERINO_SPINS = 10
BLANK = "_"
POINT_SYMBOLS: dict[str, str] = {"A": "Stella", "B": "Cuore", "D": "Fiore", BLANK: "Vuoto"}
POINTS: dict[str, tuple[int, int, int]] = {"A": (20, 80, 500), "B": (10, 40, 160), "D": (5, 20, 60)}
POINT_STRIPS: tuple[str, ...] = (
    "A_B_D_DB",
    "B_D_A_DD",
    "D_B_A_BD",
    "A_D_B_DB",
    "B_D_A_D_",
)
# Bands of the mode's total points -> chips added to the credit: [lowest points, chips].
PIERINO_BANDS: tuple[tuple[int, int], ...] = ((0, 50_000), (200, 100_000), (400, 300_000), (600, 1_000_000))
