"""Identity checks of the game account: the codice fiscale and the identity document's file.

The codice fiscale is decoded by ``python-codicefiscale`` (maintained, with the official tables of
comuni and foreign states; no table is written here). A code is accepted when its format and check
character are right and it agrees with the surname, the first name, the date of birth and the sex
the player typed. Omocodia (digits replaced by letters to tell twins of code apart) is accepted: the
library decodes it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from codicefiscale import codicefiscale as cf_lib
from django.utils.translation import gettext_lazy as _

CF_SHAPE = re.compile(r"^[A-Z0-9]{16}$")


@dataclass(frozen=True)
class CodiceFiscaleProblem:
    """Why a codice fiscale is refused: a stable ``code`` and the Italian message."""

    code: str
    message: str


def normalise_codice_fiscale(value: str) -> str:
    """Upper case, without spaces: how a codice fiscale is stored and compared."""
    return re.sub(r"\s+", "", value or "").upper()


# Omocodia: the Agenzia delle Entrate tells apart two people of the same code by replacing digits,
# from the right, with these letters (0 = L ... 9 = V), only in the seven places that hold digits
# (year, day, the comune's number), and the check character is computed on the result.
OMOCODIA_LETTERS = "LMNPQRSTUV"
OMOCODIA_POSITIONS = (6, 7, 9, 10, 12, 13, 14)
_OMOCODIA_TO_DIGITS = str.maketrans(OMOCODIA_LETTERS, "0123456789")


def codice_fiscale_base(value: str) -> str:
    """The code a codice fiscale stands for without omocodia: every omocodic letter back to its digit
    and the check character recomputed. Every omocodic variant of one code has the same base, so
    the base is what tells one person (one game account) from another. A value that is not a code
    in shape comes back normalised and otherwise unchanged."""
    code = normalise_codice_fiscale(value)
    if len(code) != 16 or not CF_SHAPE.match(code):
        return code
    chars = list(code)
    for i in OMOCODIA_POSITIONS:
        chars[i] = chars[i].translate(_OMOCODIA_TO_DIGITS)
    base = "".join(chars[:15])
    return base + cf_lib.encode_cin(base)


def codice_fiscale_problems(
    code: str, *, first_name: str, last_name: str, date_of_birth: date | None, sex: str
) -> list[CodiceFiscaleProblem]:
    """Return what is wrong with ``code`` for this person (empty: the code is valid and consistent).

    Format and check character come first: a code that fails them is not compared with the data.
    ``sex`` is "M" or "F"; an empty name or date is not compared (its own field reports it).
    """
    code = normalise_codice_fiscale(code)
    if len(code) != 16 or not CF_SHAPE.match(code) or not cf_lib.CODICEFISCALE_RE.match(code):
        return [
            CodiceFiscaleProblem(
                "cf_format",
                str(
                    _(
                        "Il codice fiscale deve avere 16 caratteri: "
                        "6 lettere, poi cifre e lettere nell'ordine previsto."
                    )
                ),
            )
        ]
    if cf_lib.encode_cin(code[:15]) != code[15]:
        return [
            CodiceFiscaleProblem(
                "cf_check_char",
                str(
                    _(
                        "Il carattere di controllo (l'ultimo) non è corretto: "
                        "verifica di aver copiato bene il codice."
                    )
                ),
            )
        ]
    try:
        decoded = cf_lib.decode(code)
    except ValueError:
        return [
            CodiceFiscaleProblem(
                "cf_invalid", str(_("Il codice fiscale non è valido: data o comune di nascita inesistenti."))
            )
        ]
    problems: list[CodiceFiscaleProblem] = []
    raw = decoded["raw"]
    if last_name.strip() and cf_lib.encode_lastname(last_name) != raw["lastname"]:
        problems.append(
            CodiceFiscaleProblem(
                "cf_last_name", str(_("Il codice fiscale non corrisponde al cognome indicato."))
            )
        )
    if first_name.strip() and cf_lib.encode_firstname(first_name) != raw["firstname"]:
        problems.append(
            CodiceFiscaleProblem(
                "cf_first_name", str(_("Il codice fiscale non corrisponde al nome indicato."))
            )
        )
    born = decoded["birthdate"]
    # The code holds the year in two digits: compare day, month and year modulo 100.
    if date_of_birth is not None and (born.day, born.month, born.year % 100) != (
        date_of_birth.day,
        date_of_birth.month,
        date_of_birth.year % 100,
    ):
        problems.append(
            CodiceFiscaleProblem(
                "cf_birth_date", str(_("Il codice fiscale non corrisponde alla data di nascita indicata."))
            )
        )
    if sex in ("M", "F") and decoded["gender"] != sex:
        problems.append(
            CodiceFiscaleProblem("cf_sex", str(_("Il codice fiscale non corrisponde al sesso indicato.")))
        )
    return problems


def codice_fiscale_for(
    *, first_name: str, last_name: str, date_of_birth: date, sex: str, birthplace: str
) -> str:
    """The codice fiscale of a person (demo and test accounts; ``birthplace``: a comune, e.g. "Roma")."""
    return str(
        cf_lib.encode(
            lastname=last_name,
            firstname=first_name,
            gender=sex,  # type: ignore[arg-type]  # "M" or "F", checked by the callers' data
            birthdate=date_of_birth.strftime("%d/%m/%Y"),
            birthplace=birthplace,
        )
    )


# --- identity documents ----------------------------------------------------------------------------

# What the upload accepts, recognised by the file's first bytes (never by its name or the browser's
# claim alone): PDF, JPEG, PNG.
DOCUMENT_SIGNATURES: dict[str, tuple[bytes, ...]] = {
    "application/pdf": (b"%PDF-",),
    "image/jpeg": (b"\xff\xd8\xff",),
    "image/png": (b"\x89PNG\r\n\x1a\n",),
}
DOCUMENT_EXTENSIONS: dict[str, tuple[str, ...]] = {
    "application/pdf": (".pdf",),
    "image/jpeg": (".jpg", ".jpeg"),
    "image/png": (".png",),
}


def document_content_type(name: str, head: bytes) -> str | None:
    """Return the document's type from its first bytes and its name's extension, or None if refused."""
    lower = name.lower()
    for content_type, signatures in DOCUMENT_SIGNATURES.items():
        if any(head.startswith(sig) for sig in signatures) and lower.endswith(
            DOCUMENT_EXTENSIONS[content_type]
        ):
            return content_type
    return None
