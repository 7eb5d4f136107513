"""Money is integer euro cents; this module formats and parses it the Italian way ("€ 1.234,50").

``parse_eur`` is the platform's one parser of an amount a person types (conto pages, buy-in and
ricarica at a table, the back office) and ``parse_cents`` the one check of an amount a client
sends as a JSON number (a bet at a table). Both refuse with an ``AmountError`` that carries a
stable code and a clear Italian message, whatever the input: nothing reaches ``int()`` unbounded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.engine import CodedError

# The legal maximum a player may transfer onto one cash table in one table session (rules 004,
# "I tavoli cash": "La somma massima che si può versare su un tavolo ... è pari a € 1.000,00").
LEGAL_TABLE_CAP = 100_000

# The largest amount anyone may type or send: € 1.000.000,00. The ledger's own sanity bound
# (wallet.actions.MAX_SINGLE_AMOUNT, € 1.000.000.000) guards the database; no deposit, ricarica,
# limit, bet or back-office rettifica of this platform comes near this one.
MAX_AMOUNT = 100_000_000
# Characters an amount may have, checked before anything else ("€ 1.000.000,00" has 14).
MAX_AMOUNT_CHARS = 20

# Italian format only: the comma is the decimal separator, the dot groups thousands.
_PLAIN = r"[0-9]+"
_GROUPED = r"[0-9]{1,3}(?:\.[0-9]{3})+"
_AMOUNT_RE = re.compile(rf"(?P<int>{_PLAIN}|{_GROUPED})(?:,(?P<dec>[0-9]{{1,2}}))?")
_DOT_DECIMAL_RE = re.compile(r"[0-9]+\.[0-9]{1,2}")
_ONE_GROUP_RE = re.compile(r"[0-9]{1,3}\.[0-9]{3}")
_TOO_MANY_DECIMALS_RE = re.compile(rf"(?:{_PLAIN}|{_GROUPED}),[0-9]{{3,}}")


class AmountError(CodedError, ValueError):
    """A text (or a JSON value) that is not an amount in euro; the message says why, in Italian."""

    code = "invalid_amount"
    default_message = "Importo non valido"

    def __init__(self, message: str | None = None, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code  # type: ignore[misc]  # a per-instance refinement of the class code


def format_eur(cents: int) -> str:
    """Format cents as Italian euro text: 123450 -> "€ 1.234,50", -500 -> "-€ 5,00"."""
    if isinstance(cents, bool) or not isinstance(cents, int):
        raise TypeError(f"cents must be int, not {type(cents).__name__}")
    sign = "-" if cents < 0 else ""
    euros, rest = divmod(abs(cents), 100)
    grouped = f"{euros:,}".replace(",", ".")
    return f"{sign}€ {grouped},{rest:02d}"


def format_play(cents: int) -> str:
    """Format play money (the training realm, never euro) as gettoni: 100 cents are one gettone,
    decimals only when there are some: 100000 -> "1.000 gettoni", 150 -> "1,50 gettoni",
    100 -> "1 gettone"."""
    if isinstance(cents, bool) or not isinstance(cents, int):
        raise TypeError(f"cents must be int, not {type(cents).__name__}")
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(cents), 100)
    number = f"{whole:,}".replace(",", ".") + (f",{rest:02d}" if rest else "")
    unit = _("gettone") if abs(cents) == 100 else _("gettoni")
    return f"{sign}{number} {unit}"


def format_money(cents: int, realm: str = "real") -> str:
    """An amount of a realm: euro for real money, gettoni for play money (``format_play``)."""
    return format_play(cents) if realm == "play" else format_eur(cents)


def format_eur_input(cents: int) -> str:
    """Format cents as a form field shows them, without the symbol: 123450 -> "1.234,50"."""
    return format_eur(cents).replace("€ ", "")


def parse_eur(text: object, *, allow_zero: bool = False) -> int:
    """Parse an amount typed in Italian ("1.234,56", "10,5", "10", "€ 7") into cents.

    Refused, each with its own code and message: anything longer than ``MAX_AMOUNT_CHARS``; digits
    other than ASCII 0-9 (Arabic-Indic, full-width...); a sign; a dot used as the decimal point
    ("3.50"); more than two decimals; zero unless ``allow_zero``; more than ``MAX_AMOUNT``.

    How ``10.999`` reads: a single dot followed by three digits and no decimal comma ("1.234",
    "10.999") is refused as ambiguous. Italian grouping reads it as ten thousand, but a player used
    to the decimal point meant about eleven euro: a guess would be wrong by a factor of a thousand
    on money. The amount is unambiguous as "10999", "10.999,00" or "10,99"; with two or more
    groups ("1.234.567") or a decimal comma ("1.234,56") the dots can only group thousands.
    """
    if not isinstance(text, str):
        raise AmountError(_("Scrivi un importo in euro, per esempio 25,00."))
    if len(text) > MAX_AMOUNT_CHARS:
        raise AmountError(_("Importo troppo lungo."), code="amount_too_long")
    cleaned = text.strip().removeprefix("€").removesuffix("€").strip()
    if any(c.isdigit() and not c.isascii() for c in cleaned):
        raise AmountError(_("Scrivi l'importo con le cifre da 0 a 9."), code="amount_digits")
    if cleaned.startswith(("-", "+")):
        raise AmountError(_("Scrivi l'importo senza segno."), code="amount_sign")
    match = _AMOUNT_RE.fullmatch(cleaned)
    if _ONE_GROUP_RE.fullmatch(cleaned):
        plain = cleaned.replace(".", "")
        raise AmountError(
            _(
                "Importo ambiguo: per %(grouped)s euro scrivi %(plain)s oppure %(grouped)s,00; "
                "per i centesimi usa la virgola."
            )
            % {"grouped": cleaned, "plain": plain},
            code="amount_ambiguous",
        )
    if _DOT_DECIMAL_RE.fullmatch(cleaned):
        raise AmountError(
            _("Per i decimali usa la virgola: %(text)s.") % {"text": cleaned.replace(".", ",")},
            code="amount_decimal_point",
        )
    if _TOO_MANY_DECIMALS_RE.fullmatch(cleaned):
        raise AmountError(_("Al massimo due decimali (i centesimi)."), code="amount_decimals")
    if match is None:
        raise AmountError(_("Scrivi un importo in euro, per esempio 25,00."))
    whole = int(match["int"].replace(".", ""))
    cents = whole * 100 + int((match["dec"] or "0").ljust(2, "0"))
    if cents == 0 and not allow_zero:
        raise AmountError(_("L'importo deve essere maggiore di zero."), code="amount_zero")
    if cents > MAX_AMOUNT:
        raise AmountError(
            _("L'importo massimo è %(max)s.") % {"max": format_eur(MAX_AMOUNT)}, code="amount_too_large"
        )
    return cents


def parse_cents(value: object, *, allow_zero: bool = True) -> int:
    """Check an amount a client sent as a JSON number of cents (a bet): an int in 0..MAX_AMOUNT.

    Floats (1e9, NaN), booleans, strings and numbers past ``MAX_AMOUNT`` are refused; whether the
    amount is allowed now is the engine's business (its legal-action ranges).
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise AmountError(_("Gli importi sono centesimi interi."), code="invalid_amount")
    if value < 0 or (value == 0 and not allow_zero):
        raise AmountError(_("Importo non valido"), code="invalid_amount")
    if value > MAX_AMOUNT:
        raise AmountError(
            _("L'importo massimo è %(max)s.") % {"max": format_eur(MAX_AMOUNT)}, code="amount_too_large"
        )
    return value


def format_entry_cost(*, pool_quota: int, rake: int) -> str:
    """Format a tournament entry cost as the rules show it: "€ 10,00 (€ 8,00 + € 2,00)"."""
    return f"{format_eur(pool_quota + rake)} ({format_eur(pool_quota)} + {format_eur(rake)})"


@dataclass(frozen=True, order=True, slots=True)
class Money:
    """An amount of euro cents that prints itself in Italian."""

    cents: int

    def __post_init__(self) -> None:
        if isinstance(self.cents, bool) or not isinstance(self.cents, int):
            raise TypeError("Money holds integer cents")

    def __add__(self, other: Money) -> Money:
        return Money(self.cents + other.cents)

    def __sub__(self, other: Money) -> Money:
        return Money(self.cents - other.cents)

    def __neg__(self) -> Money:
        return Money(-self.cents)

    def __str__(self) -> str:
        return format_eur(self.cents)

    @classmethod
    def parse(cls, text: str) -> Money:
        """Parse Italian euro text (see parse_eur)."""
        return cls(parse_eur(text, allow_zero=True))
