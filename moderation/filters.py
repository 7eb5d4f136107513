"""The chat rules applied to a line before anyone sees it (rules 004, "Regole della Chat").

Pure and fast: no Django, no database. ``moderation.actions.chat_screen`` loads the watched list
and the author's recent lines, calls ``screen`` and records the outcome.

Normalisation (``normalise``) undoes the usual evasions before the watched words are looked up:
case and accents (``Stronzò``), l33t digits and symbols (``str0nz0``, ``$c3m0``), letters spaced
or dotted apart (``s t r o n z o``, ``s.t.r.o.n.z.o``), repeated letters (``stroooonzo``),
invisible characters inside a word and Cyrillic or Greek look-alike letters (``сazzo``).
Entries go through the same normalisation, so ``cazzo`` and ``cazzzzo`` both become ``cazo``.
Regex entries (links, domains, phone numbers) look at the "plain" form instead: lower case without
accents, digits and punctuation kept.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import NamedTuple

# The outcomes of an entry, strongest first: a line takes the strongest of its matches.
BLOCK, HOLD, CENSOR, FLAG = "block", "hold", "censor", "flag"
ACTION_ORDER = (BLOCK, HOLD, CENSOR, FLAG)
WORD, PHRASE, REGEX = "word", "phrase", "regex"

CAPITALS_MIN_LETTERS = 6  # "OK", "GG", "FULL!" are not shouting
CAPITALS_RATIO = 0.7
REPEAT_WINDOW = timedelta(minutes=2)
REPEAT_LIMIT = 2  # the same line a third time within the window is refused ("molte volte")
FLOOD_WINDOW = timedelta(seconds=15)
FLOOD_LIMIT = 5  # a sixth line within the window is refused ("intasare la chat")

LEET = str.maketrans(
    {
        "0": "o",
        "1": "i",
        "3": "e",
        "4": "a",
        "5": "s",
        "7": "t",
        "8": "b",
        "@": "a",
        "$": "s",
        "€": "e",
        "|": "i",
    }
)
# Cyrillic and Greek letters that look Latin ("сazzo" with a Cyrillic с): NFKD leaves them alone.
HOMOGLYPHS = str.maketrans(
    {
        **dict(zip("аеёіјкмнорстухѕԁвп", "aeeijkmhopctyxsdbn", strict=True)),  # Cyrillic
        **dict(zip("αεικνορτυχ", "aeikvoptux", strict=True)),  # Greek
    }
)
# A word goes on across invisible characters (zero-width spaces and joiners, soft hyphens).
TOKEN = re.compile(r"[\w@$€|\u00ad\u200b-\u200d\u2060\ufeff]+")
NOT_ALNUM = re.compile(r"[^a-z0-9]")
REPEATS = re.compile(r"(.)\1+")


def _strip_accents(text: str) -> str:
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _norm_token(token: str) -> str:
    """One token: lower case, no accents, l33t undone when it has letters, letters not repeated."""
    token = _strip_accents(token).casefold()
    if not token.isascii():
        token = token.translate(HOMOGLYPHS)
    if token != token.upper():  # it has letters: its digits and symbols stand for letters
        token = token.translate(LEET)
    return REPEATS.sub(r"\1", NOT_ALNUM.sub("", token))


class Unit(NamedTuple):
    """A normalised word and the span of the original text it came from."""

    norm: str
    start: int
    end: int


def units(text: str) -> list[Unit]:
    """Split a line into normalised words; runs of three or more single letters join into one word."""
    raw = [(n, m.start(), m.end()) for m in TOKEN.finditer(text) if (n := _norm_token(m.group()))]
    out: list[Unit] = []
    i = 0
    while i < len(raw):
        j = i
        while j < len(raw) and len(raw[j][0]) == 1:
            j += 1
        if j - i >= 3:  # "s t r o n z o": one word spelt out
            joined = REPEATS.sub(r"\1", "".join(r[0] for r in raw[i:j]))
            out.append(Unit(joined, raw[i][1], raw[j - 1][2]))
            i = j
            continue
        out.append(Unit(*raw[i]))
        i += 1
    return out


def normalise(text: str, parts: list[Unit] | None = None) -> str:
    """The normalised form of a line: words as ``units`` makes them, one space apart."""
    return " ".join(u.norm for u in (units(text) if parts is None else parts))


def plain(text: str) -> str:
    """Lower case without accents, one character for each character of ``text`` (spans stay valid)."""
    if text.isascii():
        return text.lower()
    out = []
    for c in text:
        d = _strip_accents(c).lower()
        out.append(d if len(d) == 1 else c.lower()[:1] or c)
    return "".join(out)


@dataclass(frozen=True)
class Entry:
    """A watched word, phrase or pattern and what to do with a line containing it."""

    id: int
    pattern: str
    kind: str
    category: str
    action: str
    in_game_only: bool = False  # "Durante il gioco": only while the author has cards in a hand


ANY = ""  # a phrase's "*": any one word


def entry_words(entry: Entry) -> list[tuple[str, bool]]:
    """A word or phrase entry as (normalised word, is a prefix) pairs; ``ANY`` for "*".

    Raises ``re.error`` for an entry that cannot match (empty, a word of several words, or a
    regex that does not compile) so that one exception says "bad entry" for every kind.
    """
    if entry.kind == REGEX:
        re.compile(entry.pattern)
        return []
    out = []
    for word in entry.pattern.split():
        prefix = word.endswith("*") and word != "*"
        norm = ANY if word == "*" else _norm_token(word[:-1] if prefix else word)
        if word != "*" and not norm:
            raise re.error(f"no letters or digits in {word!r}")
        out.append((norm, prefix))
    if not out or (entry.kind == WORD and len(out) != 1) or out[0][0] == ANY:
        raise re.error(f"bad {entry.kind} entry {entry.pattern!r}")
    return out


class WatchedList:
    """The compiled watched list: words and phrases indexed by their first word, regexes on the plain form.

    A line is looked up word by word: its words' dictionary lookups (exact first words, then the
    prefixes by length) find the few entries that may start there, which are then checked word by
    word. The cost grows with the line, not with the list.
    """

    def __init__(self, entries: Iterable[Entry]) -> None:
        self.entries = {e.id: e for e in entries}
        self.exact: dict[str, list[tuple[Entry, list[tuple[str, bool]]]]] = {}
        self.prefixes: dict[str, list[tuple[Entry, list[tuple[str, bool]]]]] = {}
        self.regexes = []
        for e in self.entries.values():
            if e.kind == REGEX:
                self.regexes.append((e, re.compile(e.pattern)))
                continue
            words = entry_words(e)
            first, prefix = words[0]
            (self.prefixes if prefix else self.exact).setdefault(first, []).append((e, words))
        self.prefix_lengths = sorted({len(p) for p in self.prefixes})

    def _starting(self, word: str) -> list[tuple[Entry, list[tuple[str, bool]]]]:
        found = list(self.exact.get(word, ()))
        for n in self.prefix_lengths:
            if n > len(word):
                break
            found.extend(self.prefixes.get(word[:n], ()))
        return found

    def matches(
        self, text: str, *, in_hand: bool, parts: list[Unit] | None = None
    ) -> list[tuple[Entry, int, int]]:
        """Every entry found in the line, with the span of the original text it covers."""
        found: list[tuple[Entry, int, int]] = []
        parts = units(text) if parts is None else parts
        for k, part in enumerate(parts):
            for entry, words in self._starting(part.norm):
                end = k + len(words)
                if end > len(parts) or (entry.in_game_only and not in_hand):
                    continue
                if all(_word_matches(parts[k + i].norm, w) for i, w in enumerate(words[1:], 1)):
                    found.append((entry, part.start, parts[end - 1].end))
        if self.regexes:
            low = plain(text)
            for entry, regex in self.regexes:
                if in_hand or not entry.in_game_only:
                    found.extend((entry, m.start(), m.end()) for m in regex.finditer(low))
        return found


def _word_matches(norm: str, word: tuple[str, bool]) -> bool:
    expected, prefix = word
    return expected == ANY or (norm.startswith(expected) if prefix else norm == expected)


@dataclass(frozen=True)
class Recent:
    """One of the author's recent lines: when, its normalised text, whether it was shown."""

    at: datetime
    norm: str
    counted: bool = True  # shown, censored or held (a refused attempt does not count as a repeat)


@dataclass
class Verdict:
    """What happens to a line: shown (maybe censored), held for review, or refused with a code."""

    outcome: str  # "shown", "censored", "held", "blocked", "refused"
    text: str  # what the others see (censored where needed)
    norm: str
    code: str = ""
    category: str = ""
    matches: list[dict[str, object]] = field(default_factory=list)
    flagged: bool = False  # shown, but put in the moderators' queue

    @property
    def shown(self) -> bool:
        return self.outcome in ("shown", "censored")


def shouting(text: str) -> bool:
    """Tell whether a line is written in capitals ("Scrivere in maiuscolo")."""
    letters = [c for c in text if c.isalpha()]
    if len(letters) < CAPITALS_MIN_LETTERS:
        return False
    return sum(c.isupper() for c in letters) / len(letters) >= CAPITALS_RATIO


def censor(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """Replace every letter and digit inside the spans with an asterisk."""
    chars = list(text)
    for start, end in spans:
        for i in range(start, end):
            if chars[i].isalnum():
                chars[i] = "*"
    return "".join(chars)


def screen(
    text: str,
    *,
    watched: WatchedList,
    recent: Sequence[Recent],
    now: datetime,
    in_hand: bool = False,
    skip: frozenset[str] = frozenset(),
) -> Verdict:
    """Apply the chat rules to one line, in the rules' order: manners first, then the watched list.

    ``skip``: watched categories that do not apply on this channel (complaints belong in HELP).
    """
    parts = units(text)
    norm = normalise(text, parts)
    if shouting(text):
        return Verdict("refused", text, norm, code="chat_capitals", category="capitals")
    if sum(1 for r in recent if now - r.at < FLOOD_WINDOW) >= FLOOD_LIMIT:
        return Verdict("refused", text, norm, code="chat_flood", category="flood")
    if (
        norm
        and sum(1 for r in recent if r.counted and r.norm == norm and now - r.at < REPEAT_WINDOW)
        >= REPEAT_LIMIT
    ):
        return Verdict("refused", text, norm, code="chat_repeated", category="flood")
    found = [f for f in watched.matches(text, in_hand=in_hand, parts=parts) if f[0].category not in skip]
    if not found:
        return Verdict("shown", text, norm)
    matches = [
        {"entry": e.id, "category": e.category, "action": e.action, "text": text[s:t]} for e, s, t in found
    ]
    strongest = min(found, key=lambda f: ACTION_ORDER.index(f[0].action))[0]
    flagged = any(e.action == FLAG for e, _, _ in found)
    if strongest.action == BLOCK:
        return Verdict(
            "blocked", text, norm, code="chat_watched", category=strongest.category, matches=matches
        )
    if strongest.action == HOLD:
        return Verdict("held", text, norm, code="chat_held", category=strongest.category, matches=matches)
    if strongest.action == CENSOR:
        spans = [(s, t) for e, s, t in found if e.action == CENSOR]
        return Verdict(
            "censored",
            censor(text, spans),
            norm,
            category=strongest.category,
            matches=matches,
            flagged=flagged,
        )
    return Verdict("shown", text, norm, category=strongest.category, matches=matches, flagged=True)
