"""Reserved entry to tournaments and cash tables (rules 004, "Tornei riservati": "Sono proposti tornei
e tavoli delle seguenti tipologie: Open, Ristretto, A inviti"), and the password ("PW").

``EntryRules`` is the abstract model both a tournament and a cash table inherit: a password, stored
hashed, and the criteria of a "Ristretto" entry (a position in a leaderboard, tournaments won, the
comune of residence). Every criterion set must hold. The invitations ("A inviti") are each model's
own list of invited players; the caller says whether the player is on it.

``entry_refusal`` tells why a player may not enter, as a stable code and an Italian message; the
pages call it without a password to say so before he tries, the actions with the password he typed.
The leaderboards and the wins are the tournaments' (``hooks.entry_standing``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.hashers import check_password, make_password
from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from piattaforma import hooks

# "tutti coloro i quali hanno una certa posizione in una certa classifica": section:period of the PT
# leaderboards (tournaments.rankings), or a special leaderboard named beside it.
SPECIAL = "special"
BOARDS = (
    ("money:week", gettext_lazy("Classifica money settimanale")),
    ("money:month", gettext_lazy("Classifica money mensile")),
    ("money:year", gettext_lazy("Classifica money annuale")),
    ("money:all", gettext_lazy("Classifica money storica")),
    ("training:week", gettext_lazy("Classifica allenamento settimanale")),
    ("training:month", gettext_lazy("Classifica allenamento mensile")),
    ("training:year", gettext_lazy("Classifica allenamento annuale")),
    ("training:all", gettext_lazy("Classifica allenamento storica")),
    (SPECIAL, gettext_lazy("Classifica speciale")),
)

Refusal = tuple[str, str]  # (stable code, Italian message)

# The fields of ``EntryRules``, as the back office's forms list them.
ENTRY_FIELDS = (
    "entry_password",
    "ranking_board",
    "ranking_special",
    "ranking_position",
    "wins_required",
    "wins_series",
    "cities",
)


class EntryRules(models.Model):
    """Who may enter: the password and the criteria of a reserved ("Ristretto") entry."""

    entry_password = models.CharField(
        gettext_lazy("password (PW)"),
        max_length=128,
        blank=True,
        help_text=gettext_lazy("Conservata cifrata. Vuota: nessuna password."),
    )
    ranking_board = models.CharField(
        gettext_lazy("riservato per classifica"), max_length=16, choices=BOARDS, blank=True
    )
    ranking_special = models.CharField(
        gettext_lazy("classifica speciale richiesta"),
        max_length=80,
        blank=True,
        help_text=gettext_lazy("Solo con «Classifica speciale»: il suo nome."),
    )
    ranking_position = models.PositiveIntegerField(
        gettext_lazy("posizione massima in classifica"),
        default=0,
        help_text=gettext_lazy("Entrano i primi N della classifica scelta; 0: nessun limite."),
    )
    wins_required = models.PositiveSmallIntegerField(
        gettext_lazy("tornei vinti richiesti"),
        default=0,
        help_text=gettext_lazy("Entra chi ha vinto almeno N tornei money; 0: nessun limite."),
    )
    wins_series = models.CharField(
        gettext_lazy("vinti nella serie"),
        max_length=80,
        blank=True,
        help_text=gettext_lazy(
            "La classifica speciale dei tornei della serie; vuota: i tornei money dello stesso gioco."
        ),
    )
    cities = models.CharField(
        gettext_lazy("comuni di residenza ammessi"),
        max_length=300,
        blank=True,
        help_text=gettext_lazy("Separati da virgole; vuoto: tutti."),
    )

    class Meta:
        abstract = True

    @property
    def has_password(self) -> bool:
        return bool(self.entry_password)

    def set_entry_password(self, raw: str) -> None:
        """Store ``raw`` hashed (empty: no password)."""
        self.entry_password = make_password(raw) if raw else ""

    @property
    def city_list(self) -> list[str]:
        return [c.strip() for c in self.cities.split(",") if c.strip()]

    @property
    def is_restricted(self) -> bool:
        """A "Ristretto" entry: some criterion beside the password and the invitations."""
        return bool(self.city_list or (self.ranking_board and self.ranking_position) or self.wins_required)

    def board_label(self) -> str:
        if self.ranking_board == SPECIAL:
            return _("classifica speciale «%(name)s»") % {"name": self.ranking_special}
        return str(dict(BOARDS).get(self.ranking_board, "")).lower()

    def clean_entry_rules(self) -> dict[str, str]:
        """The settings' errors, by field, in Italian (the models' ``clean`` add them)."""
        errors: dict[str, str] = {}
        if self.ranking_position and not self.ranking_board:
            errors["ranking_board"] = _("Scegli la classifica della posizione richiesta.")
        if self.ranking_board and not self.ranking_position:
            errors["ranking_position"] = _("Indica la posizione massima nella classifica scelta.")
        if self.ranking_board == SPECIAL and not self.ranking_special.strip():
            errors["ranking_special"] = _("Indica il nome della classifica speciale.")
        if self.wins_series and not self.wins_required:
            errors["wins_required"] = _("Indica quanti tornei della serie bisogna aver vinto.")
        return errors


def entry_summary(rules: EntryRules, *, invited: bool, game_title: str) -> list[str]:
    """The restrictions in words, for the list's description and the information panels."""
    out = []
    if invited:
        out.append(_("a inviti: solo i giocatori invitati dal concessionario"))
    if rules.ranking_board and rules.ranking_position:
        out.append(_top_words(rules))
    if rules.wins_required:
        out.append(_wins_words(rules, game_title))
    if rules.city_list:
        out.append(_("i residenti a %(cities)s") % {"cities": ", ".join(rules.city_list)})
    if rules.has_password:
        out.append(_("con password (PW)"))
    return out


def _wins_words(rules: EntryRules, game_title: str) -> str:
    n = rules.wins_required
    if rules.wins_series:
        return ngettext(
            "chi ha vinto almeno un torneo della serie «%(series)s»",
            "chi ha vinto almeno %(n)s tornei della serie «%(series)s»",
            n,
        ) % {"n": n, "series": rules.wins_series}
    return ngettext(
        "chi ha vinto almeno un torneo money di %(game)s",
        "chi ha vinto almeno %(n)s tornei money di %(game)s",
        n,
    ) % {"n": n, "game": game_title}


def _top_words(rules: EntryRules) -> str:
    n = rules.ranking_position
    return ngettext("il primo della %(board)s", "i primi %(n)s della %(board)s", n) % {
        "n": n,
        "board": rules.board_label(),
    }


def entry_refusal(
    rules: EntryRules,
    *,
    user: Any,
    game: str,
    game_title: str,
    invited: bool | None,
    password: str | None,
) -> Refusal | None:
    """Why ``user`` may not enter, or None.

    ``invited``: None when nobody is invited (open), else whether he is. ``password``: what he
    typed; None to leave the password out (a page saying beforehand what it can).
    """
    if invited is False:
        return "not_invited", _(
            "Riservato ai giocatori invitati dal concessionario: non sei tra gli invitati."
        )
    cities = rules.city_list
    if cities:
        mine = (getattr(user, "city", "") or "").strip()
        if mine.casefold() not in {c.casefold() for c in cities}:
            where = (
                _("il tuo comune di residenza è %(city)s") % {"city": mine}
                if mine
                else _("non hai indicato il comune di residenza")
            )
            return "city_not_admitted", _("Riservato ai residenti a %(cities)s: %(where)s.") % {
                "cities": ", ".join(cities),
                "where": where,
            }
    wants_rank = bool(rules.ranking_board and rules.ranking_position)
    if wants_rank or rules.wins_required:
        standing = hooks.entry_standing(
            user_id=user.pk,
            board=rules.ranking_board if wants_rank else "",
            special=rules.ranking_special.strip() if rules.ranking_board == SPECIAL else "",
            game=game,
            series=rules.wins_series.strip(),
        )
        position = standing.get("position")
        if wants_rank and (position is None or position > rules.ranking_position):
            where = (
                _("sei al %(p)s° posto") % {"p": position}
                if position is not None
                else _("non sei in questa classifica")
            )
            return "ranking_position", ngettext(
                "Riservato al primo della %(board)s: %(where)s.",
                "Riservato ai primi %(n)s della %(board)s: %(where)s.",
                rules.ranking_position,
            ) % {"n": rules.ranking_position, "board": rules.board_label(), "where": where}
        wins = int(standing.get("wins") or 0)
        if rules.wins_required and wins < rules.wins_required:
            return "wins_required", _("Riservato a %(who)s: ne hai vinti %(wins)s.") % {
                "who": _wins_words(rules, game_title),
                "wins": wins,
            }
    if rules.has_password and password is not None:
        if not password:
            return "password_required", _("Serve la password (PW) per entrare: scrivila nel campo Password.")
        if not check_password(password, rules.entry_password):
            return "wrong_password", _("Password errata.")
    return None
