"""What a set of reel stops shows and pays: windows, line wins with the wild, special symbols.

Pure functions over the data of ``games.slot.table``; the engine, the exact return and the
benchmark all evaluate spins here, so there is one place per rule.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.slot import table

Window = list[str]  # one string of ROWS symbols per reel, top to bottom


def window(strips: Sequence[str], stops: Sequence[int]) -> Window:
    """Return the symbols each reel shows at these stops (rows 0..2, cyclic strips)."""
    out = []
    for strip, stop in zip(strips, stops, strict=True):
        n = len(strip)
        out.append("".join(strip[(stop + r) % n] for r in range(table.ROWS)))
    return out


def line_symbols(win: Window, line: Sequence[int]) -> str:
    """Return the five symbols a payline crosses, reel 1 first."""
    return "".join(win[reel][row] for reel, row in enumerate(line))


def line_win(symbols: str) -> tuple[int, str, int]:
    """Return (pay × unit bet, symbol paid, count) of one line; (0, "", 0) if it wins nothing.

    Only consecutive symbols from reel 1 count; the wild stands for any normal symbol, never for a
    special one; wilds alone pay the wild's row; only the highest win of the line is paid (S2, S3).
    """
    wild = table.WILD
    wilds = 0
    while wilds < len(symbols) and symbols[wilds] == wild:
        wilds += 1
    best = (0, "", 0)
    if wilds >= 3:
        best = (table.PAYS[wild][wilds - 3], wild, wilds)
    if wilds < len(symbols):
        first = symbols[wilds]
        if first in table.PAYS:  # a normal symbol: the wilds before it and after it stand for it
            count = wilds + 1
            while count < len(symbols) and symbols[count] in (first, wild):
                count += 1
            if count >= 3 and table.PAYS[first][count - 3] > best[0]:
                best = (table.PAYS[first][count - 3], first, count)
    return best


def line_wins(win: Window) -> list[dict[str, int | str]]:
    """Return every winning payline of a window: its index (1-based), symbol, count and pay × unit."""
    out: list[dict[str, int | str]] = []
    for index, line in enumerate(table.PAYLINES, start=1):
        pay, symbol, count = line_win(line_symbols(win, line))
        if pay:
            out.append({"line": index, "symbol": symbol, "count": count, "pay": pay})
    return out


def count_symbol(win: Window, symbol: str, reels: int = table.REELS) -> int:
    """Return how many times a (special) symbol shows anywhere on the first ``reels`` reels."""
    return sum(column.count(symbol) for column in win[:reels])


def point_line(symbols: str) -> int:
    """Return the points of one Pierino-mode line: the same point symbol 3–5 times from reel 1."""
    first = symbols[0]
    if first not in table.POINTS:
        return 0
    count = 1
    while count < len(symbols) and symbols[count] == first:
        count += 1
    return table.POINTS[first][count - 3] if count >= 3 else 0


def points(win: Window) -> int:
    """Return the points a Pierino-mode spin makes on the 30 paylines (they add up, S6)."""
    return sum(point_line(line_symbols(win, line)) for line in table.PAYLINES)


def band_prize(total_points: int) -> int:
    """Return the chips the Pierino mode adds for its total points (one band only, S6)."""
    prize = 0
    for lowest, chips in table.PIERINO_BANDS:
        if total_points >= lowest:
            prize = chips
    return prize
