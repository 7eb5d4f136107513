"""The chat rules applied to a line before anyone sees it (rules 004, "Regole della Chat").

Pure and fast: no Django, no database. ``moderation.actions.chat_screen`` loads the watched list
and the author's recent lines, calls ``screen`` and records the outcome.

Normalisation (``normalise``) undoes the usual evasions before the watched words are looked up:
case and accents (``Stronzò``), l33t digits and symbols (``str0nz0``, ``$c3m0``), letters spaced
or dotted apart (``s t r o n z o``, ``s.t.r.o.n.z.o``) and repeated letters (``stroooonzo``).
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
TOKEN = re.compile(r"[\w@$€|]+")
NOT_ALNUM = re.compile(r"[^a-z0-9]")
REPEATS = re.compile(r"(.)\1+")


def _strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _norm_token(token: str) -> str:
    """One token: lower case, no accents, l33t undone when it has letters, letters not repeated."""
    token = _strip_accents(token).casefold()
    if any(c.isalpha() for c in token):
        token = token.translate(LEET)
    return REPEATS.sub(r"\1", NOT_ALNUM.sub("", token))


@dataclass(frozen=True)
class Unit:
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


def normalise(text: str) -> str:
    """The normalised form of a line: words as ``units`` makes them, one space apart."""
    return " ".join(u.norm for u in units(text))


def plain(text: str) -> str:
    """Lower case without accents, one character for each character of ``text`` (spans stay valid)."""
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


def _word_regex(word: str) -> str:
    if word == "*":
        return "[a-z0-9]+"
    if word.endswith("*"):
        return re.escape(_norm_token(word[:-1])) + "[a-z0-9]*"
    return re.escape(_norm_token(word))


def entry_regex(entry: Entry) -> str:
    """The regex source an entry becomes (raises ``re.error`` for a bad regex entry)."""
    if entry.kind == REGEX:
        re.compile(entry.pattern)
        return entry.pattern
    words = entry.pattern.split()
    if not words or (entry.kind == WORD and len(words) != 1):
        raise re.error(f"bad {entry.kind} entry {entry.pattern!r}")
    return " ".join(_word_regex(w) for w in words)


class WatchedList:
    """The compiled watched list: one alternation over the normalised form, regexes on the plain form."""

    def __init__(self, entries: Iterable[Entry]) -> None:
        self.entries = {e.id: e for e in entries}
        # at each word the first alternative that matches wins: the strongest action, then the longest
        ordered = sorted(
            (e for e in self.entries.values() if e.kind != REGEX),
            key=lambda e: (ACTION_ORDER.index(e.action), -len(e.pattern)),
        )
        alternatives = [f"(?P<e{e.id}>{entry_regex(e)})" for e in ordered]
        self.words = (
            re.compile(r"(?<![a-z0-9])(?:" + "|".join(alternatives) + r")(?![a-z0-9])")
            if alternatives
            else None
        )
        self.regexes = [(e, re.compile(e.pattern)) for e in self.entries.values() if e.kind == REGEX]

    def matches(self, text: str, *, in_hand: bool) -> list[tuple[Entry, int, int]]:
        """Every entry found in the line, with the span of the original text it covers."""
        found: list[tuple[Entry, int, int]] = []
        if self.words is not None:
            parts = units(text)
            norm, starts, pos = [], [], 0
            for u in parts:
                starts.append(pos)
                norm.append(u.norm)
                pos += len(u.norm) + 1
            joined = " ".join(norm)
            # overlapping matches: try at every word start, so "porco dio" and "dio" both count
            for k, start in enumerate(starts):
                m = self.words.match(joined, start)
                if m is None or m.lastgroup is None:
                    continue
                last = k
                while last + 1 < len(starts) and starts[last + 1] < m.end():
                    last += 1
                found.append((self.entries[int(m.lastgroup[1:])], parts[k].start, parts[last].end))
        low = plain(text)
        for entry, regex in self.regexes:
            found.extend((entry, m.start(), m.end()) for m in regex.finditer(low))
        return [f for f in found if in_hand or not f[0].in_game_only]


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
) -> Verdict:
    """Apply the chat rules to one line, in the rules' order: manners first, then the watched list."""
    norm = normalise(text)
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
    found = watched.matches(text, in_hand=in_hand)
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
