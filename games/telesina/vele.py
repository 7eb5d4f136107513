"""The vele layouts of Telesina as data (RULINGS T3): positions, combinations and turns.

A layout is one ``Layout`` entry in ``LAYOUTS``; the engine, the best-hand search, the views and
the tests read nothing else, so a ninth layout is one more entry. Letters are the rules' letters;
``positions`` are (row, column) cells on a small grid for the table client (the pictures of the
rules are lost, so RULINGS T3 fixes them). ``combinations`` are the only groups a player may take
vele from (any number, from none to all, of one combination); ``turns`` are the girate in order,
the letters of one turn revealed together.

``allowed_subsets`` (computed once per layout) lists every set of vele a player may use: the
subsets of each combination, without repeats. The best-hand search iterates over these sets
instead of over the combinations, so a vela shared by several combinations (Ascensore's E) is not
evaluated once per combination.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

LIBERA = "libera"
NESSUNA = "nessuna"


@dataclass(frozen=True)
class Layout:
    """One vele variant: its letters, where they lie, which groups combine and in which girate."""

    key: str  # the value used by table options and player preferences (games.options.VELE)
    label: str  # Italian name on the dealer's panel
    positions: dict[str, tuple[int, int]]  # letter -> (row, column); the letters in dealing order
    combinations: tuple[tuple[str, ...], ...]
    turns: tuple[tuple[str, ...], ...]
    allowed_subsets: tuple[tuple[str, ...], ...] = field(init=False)

    def __post_init__(self) -> None:
        letters = list(self.positions)
        turned = [x for turn in self.turns for x in turn]
        if sorted(turned) != sorted(letters) or len(set(turned)) != len(turned):
            raise ValueError(f"vele {self.key}: every vela must be turned exactly once")
        if any(x not in self.positions for combo in self.combinations for x in combo):
            raise ValueError(f"vele {self.key}: a combination names an unknown vela")
        if len(set(self.positions.values())) != len(letters):
            raise ValueError(f"vele {self.key}: two vele on one cell")
        seen: dict[frozenset[str], None] = {frozenset(): None}
        for combo in self.combinations:
            for size in range(len(combo) + 1):
                for subset in combinations(combo, size):
                    seen.setdefault(frozenset(subset), None)
        ordered = sorted(seen, key=lambda s: (len(s), sorted(letters.index(x) for x in s)))
        subsets = tuple(tuple(x for x in letters if x in s) for s in ordered)
        object.__setattr__(self, "allowed_subsets", subsets)

    @property
    def letters(self) -> list[str]:
        """The vele letters in the order they are dealt (A, B, C…)."""
        return list(self.positions)

    def as_dict(self) -> dict[str, object]:
        """Return the layout as plain JSON data for views (lists, string keys)."""
        return {
            "key": self.key,
            "label": self.label,
            "positions": {x: list(rc) for x, rc in self.positions.items()},
            "combinations": [list(c) for c in self.combinations],
            "turns": [list(t) for t in self.turns],
        }


def _grid(rows: str) -> dict[str, tuple[int, int]]:
    """Positions from a picture: one string per row, '.' for an empty cell."""
    cells = {ch: (r, c) for r, row in enumerate(rows.split("/")) for c, ch in enumerate(row) if ch != "."}
    return dict(sorted(cells.items()))


def _c(*groups: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(g) for g in groups)


LAYOUTS: dict[str, Layout] = {
    layout.key: layout
    for layout in (
        Layout("nessuna", "Nessuna vela", {}, (), ()),
        Layout("una", "Una", _grid("A"), _c("A"), _c("A")),
        Layout("due", "Due", _grid("AB"), _c("AB"), _c("A", "B")),
        Layout("tre", "Tre", _grid("ABC"), _c("ABC"), _c("A", "C", "B")),
        # Croce: row A E B crossed by column C E D.
        Layout("croce", "Croce", _grid(".C./AEB/.D."), _c("AEB", "CED"), _c("AC", "BD", "E")),
        # H: left column A B C, right column E F G, D between B and F; every straight line of
        # the 3×3 grid holding two or more vele.
        Layout(
            "h",
            "H",
            _grid("A.E/BDF/C.G"),
            _c("ABC", "EFG", "BDF", "AE", "CG", "ADG", "CDE"),
            _c("CG", "BF", "AE", "D"),
        ),
        # Piramide: inverted V, A B C up the left side to D at the top, E F G down the right side.
        Layout(
            "piramide",
            "Piramide",
            _grid("...D.../..C.E../.B...F./A.....G"),
            _c("ABCD", "DEFG"),
            _c("AG", "BF", "CE", "D"),
        ),
        # Ascensore: 3×3 grid; the four lines through the centre E (the "ascensore").
        Layout(
            "ascensore",
            "Ascensore",
            _grid("ABC/DEF/GHI"),
            _c("DEF", "BEH", "AEI", "CEG"),
            _c("DI", "CH", "BG", "AF", "E"),
        ),
    )
}


def layout(key: str) -> Layout:
    """Return the layout named ``key`` (KeyError if there is none)."""
    return LAYOUTS[key]
