"""Forms of the conto pages: amounts are typed in euro ("12,50") and cleaned to integer cents."""

from __future__ import annotations

import itertools
import re
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from wallet.models import DepositLimit, TransactionKind
from wallet.money import MAX_AMOUNT_CHARS, AmountError, format_eur_input, parse_eur


class EuroField(forms.CharField):
    """An amount in euro, Italian style, read by ``wallet.money.parse_eur``; cleans to integer cents.

    Cents are > 0 unless ``allow_zero``; the parser's own message says what is wrong.
    """

    def __init__(self, *, allow_zero: bool = False, **kwargs: Any) -> None:
        self.allow_zero = allow_zero
        # the server's cap is the parser's; the browser's maxlength only saves a round trip
        kwargs.setdefault("max_length", None)
        super().__init__(**kwargs)
        self.widget.attrs.update(
            {
                "inputmode": "decimal",
                "placeholder": "0,00",
                "autocomplete": "off",
                "maxlength": str(MAX_AMOUNT_CHARS),
            }
        )

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return format_eur_input(value)
        return value

    def to_python(self, value: Any) -> int | None:  # type: ignore[override]  # a money field cleans to cents, not to str
        text = super().to_python(value)
        if not text:
            return None
        try:
            return parse_eur(text, allow_zero=self.allow_zero)
        except AmountError as exc:
            raise forms.ValidationError(exc.message, code=exc.code) from None


# A percentage typed Italian style: "5", "2,5", "2,25", an optional "%"; two decimals at most.
_PERCENT_RE = re.compile(r"(?P<int>\d{1,3})(?:,(?P<dec>\d{1,2}))?")


def format_percent_input(basis_points: int) -> str:
    """Basis points as a form field shows them: 500 -> "5", 250 -> "2,5", 225 -> "2,25"."""
    whole, rest = divmod(basis_points, 100)
    return f"{whole},{rest:02d}".rstrip("0").rstrip(",") if rest else str(whole)


def format_percent(basis_points: int) -> str:
    """Basis points as a percentage to read: 500 -> "5 %", 250 -> "2,5 %"."""
    return f"{format_percent_input(basis_points)} %"


class PercentField(forms.CharField):
    """A percentage typed in Italian ("5", "2,5 %"), cleaned to integer basis points (500 = 5 %)."""

    def __init__(self, *, blank_means: int | None = None, **kwargs: Any) -> None:
        self.blank_means = blank_means  # what an empty field cleans to (None: nothing)
        kwargs.setdefault("max_length", None)  # it cleans to an int: the regex bounds the text
        super().__init__(**kwargs)
        self.widget.attrs.update(
            {"inputmode": "decimal", "placeholder": "0", "autocomplete": "off", "maxlength": "10"}
        )

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return format_percent_input(value)
        return value

    def to_python(self, value: Any) -> int | None:  # type: ignore[override]  # cleans to basis points
        text = super().to_python(value)
        if not text:
            return self.blank_means
        cleaned = text.strip().removesuffix("%").strip()
        if re.fullmatch(r"\d+\.\d+", cleaned):
            raise forms.ValidationError(
                _("Per i decimali usa la virgola: %(text)s.") % {"text": cleaned.replace(".", ",")},
                code="percent_decimal_point",
            )
        match = _PERCENT_RE.fullmatch(cleaned)
        if match is None:
            raise forms.ValidationError(
                _("Scrivi una percentuale, per esempio 5 oppure 2,5 (al massimo due decimali)."),
                code="percent_invalid",
            )
        return int(match["int"]) * 100 + int((match["dec"] or "0").ljust(2, "0"))


class AmountForm(forms.Form):
    """Deposit or withdrawal: an amount plus the idempotency key of this form (double submits are safe)."""

    amount = EuroField(label=_("Importo (€)"))
    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=64)


class LimitsForm(forms.Form):
    """The three self-set deposit limits; empty = no limit."""

    day = EuroField(label=_("Limite giornaliero (€)"), required=False)
    week = EuroField(label=_("Limite settimanale (€)"), required=False)
    month = EuroField(label=_("Limite mensile (€)"), required=False)

    PERIODS = tuple(DepositLimit.Period.values)


class OpeningLimitsForm(forms.Form):
    """The deposit limits a player sets when he opens his account: his own (at least one period), or
    the house's defaults (``settings.DEPOSIT_LIMITS_DEFAULT``), chosen explicitly either way."""

    OWN, DEFAULTS = "own", "defaults"

    choice = forms.ChoiceField(
        label=_("Limiti di deposito"),
        choices=[
            (OWN, _("Imposto io i miei limiti")),
            (DEFAULTS, _("Accetto i limiti predefiniti")),
        ],
        widget=forms.RadioSelect,
        error_messages={"required": _("Scegli i tuoi limiti di deposito o accetta quelli predefiniti.")},
    )
    day = EuroField(label=_("Limite giornaliero (€)"), required=False)
    week = EuroField(label=_("Limite settimanale (€)"), required=False)
    month = EuroField(label=_("Limite mensile (€)"), required=False)

    PERIODS = LimitsForm.PERIODS

    @staticmethod
    def defaults() -> dict[str, int]:
        return {period: int(settings.DEPOSIT_LIMITS_DEFAULT[period]) for period in LimitsForm.PERIODS}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("choice") == self.DEFAULTS:
            # the amounts belong to the other choice (the page disables them): whatever came with
            # the defaults is ignored, never refused nor kept
            for period in self.PERIODS:
                self.errors.pop(period, None)
                data[period] = None
        if data.get("choice") == self.OWN:
            amounts = [data.get(p) for p in self.PERIODS]
            if not any(amounts) and not any(self.errors.get(p) for p in self.PERIODS):
                raise forms.ValidationError(
                    _("Indica almeno un limite, o accetta i limiti predefiniti."), code="no_limit"
                )
            shown = [(p, data.get(p)) for p in self.PERIODS if data.get(p)]
            for (_shorter, a), (longer, b) in itertools.pairwise(shown):
                if a is not None and b is not None and a > b:
                    self.add_error(
                        longer,
                        forms.ValidationError(
                            _("Non può essere minore del limite di un periodo più breve."), code="order"
                        ),
                    )
        return data

    def own_chosen(self) -> bool:
        """Whether the player chose his own limits (the page enables their amounts only then)."""
        return self.data.get(self.add_prefix("choice")) == self.OWN

    def limits(self) -> dict[str, int | None]:
        """The limits chosen, in cents per period (None: no limit for that period)."""
        if self.cleaned_data["choice"] == self.DEFAULTS:
            return dict(self.defaults())
        return {period: self.cleaned_data.get(period) for period in self.PERIODS}


class PlayLimitsForm(forms.Form):
    """Loss limits (euro), session-time limits (minutes) and the reality-check interval; empty = none."""

    loss_day = EuroField(label=_("Limite di perdita giornaliero (€)"), required=False)
    loss_week = EuroField(label=_("Limite di perdita settimanale (€)"), required=False)
    loss_month = EuroField(label=_("Limite di perdita mensile (€)"), required=False)
    time_day = forms.IntegerField(
        label=_("Tempo di gioco giornaliero (minuti)"), required=False, min_value=1, max_value=24 * 60
    )
    time_week = forms.IntegerField(
        label=_("Tempo di gioco settimanale (minuti)"), required=False, min_value=1, max_value=7 * 24 * 60
    )
    time_month = forms.IntegerField(
        label=_("Tempo di gioco mensile (minuti)"), required=False, min_value=1, max_value=31 * 24 * 60
    )
    reality_check_minutes = forms.TypedChoiceField(
        label=_("Promemoria durante il gioco"),
        coerce=int,
        choices=[
            (0, _("mai")),
            (15, _("ogni 15 minuti")),
            (30, _("ogni 30 minuti")),
            (60, _("ogni ora")),
            (120, _("ogni 2 ore")),
        ],
        help_text=_("Ti ricorda da quanto tempo giochi e il risultato della sessione."),
    )

    FIELDS = tuple((kind, period) for kind in ("loss", "time") for period in DepositLimit.Period.values)


class SelfExclusionForm(forms.Form):
    DURATIONS = (
        ("30", _("30 giorni")),
        ("60", _("60 giorni")),
        ("90", _("90 giorni")),
        ("180", _("6 mesi")),
        ("0", _("A tempo indeterminato")),
    )
    duration = forms.ChoiceField(label=_("Durata"), choices=DURATIONS)
    confirm = forms.BooleanField(
        label=_(
            "Ho capito: non potrò depositare, sedermi ai tavoli né iscrivermi ai tornei fino alla scadenza."
        ),
    )


class StatementFilterForm(forms.Form):
    kind = forms.ChoiceField(
        label=_("Tipo"), required=False, choices=[("", _("Tutti")), *TransactionKind.choices]
    )
    account = forms.ChoiceField(
        label=_("Conto"),
        required=False,
        choices=[("", _("Conto e bonus")), ("cash", _("Conto di gioco")), ("bonus", _("Bonus"))],
    )
    date_from = forms.DateField(
        label=_("Dal"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(label=_("Al"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
