"""Forms of the account pages (Italian)."""

from __future__ import annotations

from datetime import date
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import authenticate, password_validation
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import options as game_options
from piattaforma.identity import codice_fiscale_base, codice_fiscale_problems, normalise_codice_fiscale
from piattaforma.models import NICKNAME_VALIDATOR, IdentityDocument, Sex, User


def age_on(born: date, today: date) -> int:
    """Return the age in whole years on ``today``."""
    return today.year - born.year - ((today.month, today.day) < (born.month, born.day))


class LoginForm(AuthenticationForm):
    username = forms.CharField(label=_("Nickname o e-mail"), max_length=254)

    error_messages = {
        "invalid_login": _("Nickname, e-mail o password non corretti."),
        "inactive": _("Questo conto non è attivo."),
    }


class CheckedPasswordChangeForm(PasswordChangeForm):
    """The password change, whose old password is checked by ``authenticate``: the login lockout
    counts its failures and refuses it when the account is locked, like any other login."""

    def __init__(self, user: User, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request

    def clean_old_password(self) -> str:
        old_password: str = self.cleaned_data["old_password"]
        if authenticate(self.request, username=self.user.nickname, password=old_password) != self.user:
            raise forms.ValidationError(self.error_messages["password_incorrect"], code="password_incorrect")
        return old_password


def _rules_links() -> SafeString:
    """The sign-up's links to what the player accepts (read before he plays: rules 004)."""
    return format_html(
        gettext(
            'Leggi il <a href="{}" target="_blank" rel="noopener">regolamento</a> e le '
            '<a href="{}" target="_blank" rel="noopener">regole della casa</a>.'
        ),
        reverse("rules:index"),
        reverse("rules:page", args=["regole-della-casa"]),
    )


class SignupForm(forms.ModelForm):
    """Open a game account: identity (name, surname, sex, birth date 18+, codice fiscale), nickname,
    e-mail, password twice, terms. The codice fiscale must agree with the rest (piattaforma.identity)."""

    first_name = forms.CharField(label=_("Nome"), max_length=60)
    last_name = forms.CharField(label=_("Cognome"), max_length=60)
    sex = forms.ChoiceField(label=_("Sesso"), choices=[("", "—"), *Sex.choices])
    codice_fiscale = forms.CharField(
        label=_("Codice fiscale"),
        max_length=20,
        help_text=_("16 caratteri, come sulla tessera sanitaria: deve corrispondere ai dati indicati."),
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
        ),
    )

    password1 = forms.CharField(label=_("Password"), widget=forms.PasswordInput, strip=False)
    password2 = forms.CharField(label=_("Conferma password"), widget=forms.PasswordInput, strip=False)
    accetto = forms.BooleanField(
        label=_("Dichiaro di essere maggiorenne e accetto il regolamento e le regole della casa"),
        required=True,
        help_text=lazy(_rules_links, SafeString)(),
    )

    class Meta:
        model = User
        fields = (
            *("first_name", "last_name", "sex", "date_of_birth", "codice_fiscale", "city"),
            *("nickname", "email"),
        )
        widgets = {"date_of_birth": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}
        help_texts = {
            "city": _("Facoltativo: serve per i tornei e i tavoli riservati ai residenti di un comune."),
        }

    def clean_nickname(self) -> str:
        nickname: str = self.cleaned_data["nickname"].strip()
        NICKNAME_VALIDATOR(nickname)
        if User.objects.filter(nickname__iexact=nickname).exists():
            raise forms.ValidationError(_("Questo nickname è già in uso."), code="nickname_taken")
        return nickname

    def clean_email(self) -> str:
        email: str = self.cleaned_data["email"].strip().lower()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(_("Esiste già un conto con questa e-mail."), code="email_taken")
        return email

    def clean_date_of_birth(self) -> date:
        born: date = self.cleaned_data["date_of_birth"]
        if age_on(born, timezone.localdate()) < settings.MINIMUM_AGE:
            raise forms.ValidationError(
                _("Per giocare devi avere almeno %(age)d anni.") % {"age": settings.MINIMUM_AGE},
                code="underage",
            )
        if born.year < 1900:
            raise forms.ValidationError(_("Data di nascita non valida."), code="invalid_date")
        return born

    def clean_codice_fiscale(self) -> str:
        code = normalise_codice_fiscale(self.cleaned_data["codice_fiscale"])
        # an omocodic variant of a registered code is the same person (identity.codice_fiscale_base)
        if User.objects.filter(codice_fiscale_base=codice_fiscale_base(code)).exists():
            raise forms.ValidationError(
                _("Esiste già un conto di gioco con questo codice fiscale."), code="cf_taken"
            )
        return code

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        code = data.get("codice_fiscale")
        if code:
            for problem in codice_fiscale_problems(
                code,
                first_name=data.get("first_name", ""),
                last_name=data.get("last_name", ""),
                date_of_birth=data.get("date_of_birth"),
                sex=data.get("sex", ""),
            ):
                self.add_error("codice_fiscale", forms.ValidationError(problem.message, code=problem.code))
        p1, p2 = data.get("password1"), data.get("password2")
        if p1 and p2 and p1 != p2:
            self.add_error(
                "password2", forms.ValidationError(_("Le due password non coincidono."), code="mismatch")
            )
        if p1:
            probe = User(
                nickname=data.get("nickname", ""),
                email=data.get("email", ""),
                first_name=data.get("first_name", ""),
                last_name=data.get("last_name", ""),
            )
            try:
                password_validation.validate_password(p1, probe)
            except forms.ValidationError as exc:
                self.add_error("password1", exc)
        return data


# When a saved change reaches the tables, by ``games.options.GameOptions.applies_from``: said on
# the profile's page and in the table's "Opzioni" dialog.
APPLIES_FROM_TEXT = {
    "hand": _("Le modifiche valgono dalla mano successiva, anche al tavolo dove stai giocando."),
    "match": _("Le modifiche valgono dalla partita successiva, anche al tavolo dove stai giocando."),
    "join": _(
        "Le modifiche valgono dalla prossima volta che ti siedi a un tavolo: al tavolo dove stai"
        " giocando restano quelle con cui ti sei seduto."
    ),
}


class GameOptionsForm(forms.Form):
    """A game's "opzioni di gioco", built from ``games.options``."""

    def __init__(self, game: str, *args: Any, initial_values: dict[str, Any] | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.game = game
        current = {**game_options.defaults(game), **(initial_values or {})}
        for option in game_options.GAMES[game].options:
            field: forms.Field
            if option.kind == "bool":
                field = forms.BooleanField(label=option.label, required=False, initial=current[option.key])
            else:
                field = forms.TypedChoiceField(
                    label=option.label,
                    choices=[(str(v), lbl) for v, lbl in option.choices],
                    coerce=type(option.default),
                    initial=str(current[option.key]),
                    required=False,
                    empty_value=option.default if option.default == "" else None,
                )
            field.help_text = option.help
            self.fields[option.key] = field

    @property
    def applies_from(self) -> str:
        """When a change takes effect, in words (``APPLIES_FROM_TEXT``)."""
        return str(APPLIES_FROM_TEXT[game_options.GAMES[self.game].applies_from])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        try:
            self.values = game_options.validate(self.game, {k: v for k, v in data.items() if v is not None})
        except game_options.OptionError as exc:
            for key, message in exc.errors.items():
                self.add_error(key if key in self.fields else None, message)
        return data


class IdentityDocumentForm(forms.Form):
    """Upload an identity document: its type and the file (checked again by the action)."""

    kind = forms.ChoiceField(label=_("Tipo di documento"), choices=IdentityDocument.Kind.choices)
    file = forms.FileField(
        label=_("File del documento"),
        help_text=_("PDF, JPEG o PNG, fronte e retro leggibili, al massimo 5 MB."),
        widget=forms.ClearableFileInput(
            attrs={"accept": ".pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png"}
        ),
    )
