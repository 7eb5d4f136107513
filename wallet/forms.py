"""Forms of the conto pages: amounts are typed in euro ("12,50") and cleaned to integer cents."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from wallet.models import DepositLimit, TransactionKind
from wallet.money import AmountError, parse_eur


class EuroField(forms.CharField):
    """An amount in euro, Italian style; cleans to integer cents (> 0)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.widget.attrs.update(
            {"inputmode": "decimal", "placeholder": "0,00", "autocomplete": "off", "maxlength": "20"}
        )

    def to_python(self, value: Any) -> int | None:  # type: ignore[override]  # a money field cleans to cents, not to str
        text = super().to_python(value)
        if not text:
            return None
        try:
            cents = parse_eur(text)
        except AmountError:
            raise forms.ValidationError(
                _("Scrivi un importo in euro, per esempio 25,00."), code="invalid"
            ) from None
        if cents <= 0:
            raise forms.ValidationError(_("L'importo deve essere maggiore di zero."), code="invalid")
        return cents


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
