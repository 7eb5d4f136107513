"""Types of the evaluator's C lookup (games/_fasteval.c)."""

from array import array
from collections.abc import Callable, Sequence

VERSION: int

class Tables:
    def __init__(
        self,
        values: array[int],
        high: array[int],
        low: array[int],
        bit: dict[str, int],
        split: int,
        low_mask: int,
        base: int,
        top: int,
        deck: str,
        cards_error: Callable[[Sequence[str], str], Exception],
        codes_error: Callable[[object, str], Exception],
    ) -> None: ...
    def cards(self, cards: Sequence[str], /) -> int: ...
    def codes(self, codes: Sequence[int], /) -> int: ...

class ByDeck:
    def __init__(self, registry: dict[str, Tables], build: Callable[[str], Tables], codes: bool) -> None: ...
    def __call__(self, items: Sequence[str] | Sequence[int], low: str) -> int: ...
