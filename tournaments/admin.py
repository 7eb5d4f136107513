"""Back office of the tournaments: create (through the action), see the entrants, cancel for a fault."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.hashers import make_password
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.timezone import localtime
from django.utils.translation import gettext_lazy as _

from games import registry
from games.engine import CodedError, Engine
from piattaforma.backoffice import ReadOnlyAdmin, site
from piattaforma.models import User
from tournaments import actions, operations
from tournaments.actions.creation import tempo_giocata_for
from tournaments.formats.money import format_euro
from tournaments.formats.points import format_pt
from tournaments.models import (
    Payout,
    Registration,
    SkillLevel,
    Tournament,
    TournamentMatch,
    TournamentSchedule,
    parse_levels,
)
from tournaments.selectors import cost_label
from wallet.forms import EuroField

if TYPE_CHECKING:
    TournamentAdminBase = admin.ModelAdmin[Tournament]
    RegistrationInlineBase = admin.TabularInline[Registration, Tournament]
else:
    TournamentAdminBase = admin.ModelAdmin
    RegistrationInlineBase = admin.TabularInline

# Once created, a tournament's settings decide money and places: only these stay editable.
EDITABLE_AFTER_CREATION = ("name", "description", "special_leaderboard")

# The entry's money, typed in euro ("9,00") in the back office and stored in cents.
MONEY_FIELDS = {
    "pool_quota": _("Quota montepremi (€)"),
    "fee": _("Quota del concessionario (€)"),
    "guaranteed": _("Montepremi garantito (€)"),
}


LEVEL_CHOICES = [(n, _("%(n)d° livello") % {"n": n}) for n in range(1, 6)] + [(0, _("Esordienti"))]


class TournamentForm(forms.ModelForm):
    """A new tournament's settings, the entry's money in euro (``wallet.money.parse_eur``), the
    admitted skill levels as boxes to tick."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, label in MONEY_FIELDS.items():
            if name in self.fields:
                old = self.fields[name]
                self.fields[name] = EuroField(
                    label=label, allow_zero=True, required=old.required, help_text=old.help_text
                )
        if "guaranteed" in self.fields:  # most tournaments guarantee nothing: the field may stay empty
            self.fields["guaranteed"].required = False
            self.fields["guaranteed"].help_text = _(
                "Vuoto: nessun montepremi garantito. Nei freeroll è il montepremi in bonus offerto "
                "dal concessionario."
            )
        if "tempo_giocata" in self.fields and self.instance.pk is None:
            # left empty, the tournament takes its game's own (tournament_create)
            field = self.fields["tempo_giocata"]
            field.required, field.initial = False, None
            longer = ", ".join(
                f"{e.title} {e.default_tempo_giocata} s"
                for e in map(registry.get, registry.names())
                if e.default_tempo_giocata != Engine.default_tempo_giocata
            )
            field.help_text = _("Vuoto: il tempo del gioco (%(default)s s; %(longer)s)") % {
                "default": Engine.default_tempo_giocata,
                "longer": longer,
            }
        if "skill_levels" in self.fields:
            old = self.fields["skill_levels"]
            self.fields["skill_levels"] = forms.TypedMultipleChoiceField(
                label=old.label,
                choices=LEVEL_CHOICES,
                coerce=int,
                required=False,
                widget=forms.CheckboxSelectMultiple,
                help_text=_(
                    "Nessuna casella: tutti. Il livello è quello del giocatore nel gioco del torneo."
                ),
            )
            self.initial["skill_levels"] = sorted(parse_levels(self.instance.skill_levels or ""))

        if "entry_password" in self.fields:  # typed in clear, stored hashed (piattaforma.entry)
            self.fields["entry_password"] = forms.CharField(
                label=_("Password (PW)"),
                required=False,
                max_length=128,
                widget=forms.PasswordInput(render_value=False),
                help_text=_("Vuota: nessuna password. Chi si iscrive deve scriverla; in elenco appare «PW»."),
            )

        for name in ("ranking_position", "wins_required", "options"):  # empty: no limit, no option
            if name in self.fields:
                self.fields[name].required = False

    def clean_ranking_position(self) -> int:
        return self.cleaned_data.get("ranking_position") or 0

    def clean_wins_required(self) -> int:
        return self.cleaned_data.get("wins_required") or 0

    def clean_options(self) -> Any:
        value = self.cleaned_data.get("options")
        return {} if value in (None, "") else value

    def clean_entry_password(self) -> str:
        raw = self.cleaned_data.get("entry_password") or ""
        return make_password(raw) if raw else ""

    def clean_tempo_giocata(self) -> int | None:
        return tempo_giocata_for(self.cleaned_data.get("game"), self.cleaned_data.get("tempo_giocata"))

    def clean_guaranteed(self) -> int:
        return self.cleaned_data.get("guaranteed") or 0

    def clean_skill_levels(self) -> str:
        return ",".join(str(n) for n in sorted(set(self.cleaned_data.get("skill_levels") or [])))


class RegistrationInline(RegistrationInlineBase):
    model = Registration
    extra = 0
    can_delete = False
    fields = (
        "user",
        "state",
        "ticket",
        "cancel_ticket",
        "entry_transaction",
        "refund_transaction",
        "position",
        "prize_eur",
        "pt_display",
        "created_at",
        "fault_refund_link",
    )
    readonly_fields = fields
    ordering = ("created_at", "pk")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("premio"))
    def prize_eur(self, obj: Registration) -> str:
        return format_euro(obj.prize) if obj.prize else "—"

    @admin.display(description=_("PT"))
    def pt_display(self, obj: Registration) -> str:
        return format_pt(obj.pt) if obj.pt is not None else "—"

    @admin.display(description=_("rimborso per guasto"))
    def fault_refund_link(self, obj: Registration) -> str:
        if obj.fault_refund:
            return str(_("rimborsata"))
        if not obj.entry_transaction or obj.refund_transaction:
            return "—"
        url = reverse("backoffice:tournaments_registration_fault_refund", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', url, _("Verifica e rimborsa"))


class FaultRefundForm(forms.Form):
    record = forms.TypedChoiceField(label=_("Connessione interrotta"), coerce=int, widget=forms.RadioSelect)
    reason = forms.CharField(label=_("Motivazione"), widget=forms.Textarea, min_length=5)

    def __init__(self, *args: Any, records: list[dict[str, Any]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["record"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [
            (r["id"], f"{r['table']} · {localtime(r['closed_at']):%d/%m %H:%M:%S} · {r['ended_by_label']}")
            for r in records
            if r["platform_side"]
        ]


class CancelForm(forms.Form):
    reason = forms.CharField(label=_("Motivazione"), widget=forms.Textarea, min_length=5)


@admin.register(Tournament, site=site)
class TournamentAdmin(TournamentAdminBase):
    form = TournamentForm
    list_display = (
        "code_display",
        "name",
        "game",
        "format",
        "kind",
        "cost_display",
        "entrants",
        "state",
        "starts_at",
    )
    list_filter = ("state", "kind", "game", "format")
    search_fields = ("name", "adm_code")
    filter_horizontal = ("invited",)
    actions = ("cancel_for_fault",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        live = Q(registrations__state__in=(*Registration.ACTIVE, Registration.State.ADMITTED))
        return super().get_queryset(request).annotate(n_live=Count("registrations", filter=live))

    @admin.display(description=_("codice"))
    def code_display(self, obj: Tournament) -> str:
        return obj.code

    @admin.display(description=_("costo"))
    def cost_display(self, obj: Tournament) -> str:
        return cost_label(obj)

    @admin.display(description=_("iscritti"))
    def entrants(self, obj: Tournament) -> str:
        return f"{getattr(obj, 'n_live', 0)}/{obj.max_players}"

    def get_readonly_fields(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        always = (
            *("state", "adm_code", "closed_at", "cancelled_reason", "created_by", "created_at"),
            *("progress", "turn", "started_at", "finished_at", "paid_at", "prize_transaction"),
        )
        if obj is None:
            return always
        return (
            *(
                f.name
                for f in Tournament._meta.fields
                if f.name not in EDITABLE_AFTER_CREATION and f.name != "entry_password"
            ),
            "invited",
            "password_display",
            *(f"{name}_eur" for name in MONEY_FIELDS),
        )

    def get_fields(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        """Once created, the money reads in euro (the cent fields stay read-only, out of the form)."""
        fields = super().get_fields(request, obj)
        if obj is None:
            return fields
        shown = {**{name: f"{name}_eur" for name in MONEY_FIELDS}, "entry_password": "password_display"}
        return [shown.get(name, name) for name in fields]

    @admin.display(description=_("password (PW)"))
    def password_display(self, obj: Tournament) -> str:
        return str(_("sì")) if obj.has_password else str(_("no"))

    @admin.display(description=_("quota montepremi"))
    def pool_quota_eur(self, obj: Tournament) -> str:
        return format_euro(obj.pool_quota)

    @admin.display(description=_("quota del concessionario"))
    def fee_eur(self, obj: Tournament) -> str:
        return format_euro(obj.fee)

    @admin.display(description=_("montepremi garantito"))
    def guaranteed_eur(self, obj: Tournament) -> str:
        return format_euro(obj.guaranteed)

    def get_exclude(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        return ("state",) if obj is None else ()

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
            return
        values = {
            k: v
            for k, v in form.cleaned_data.items()
            if k not in ("invited",) and k in {f.name for f in Tournament._meta.fields}
        }
        assert isinstance(request.user, User)
        created = actions.tournament_create(
            actor=request.user, values=values, invited=form.cleaned_data.get("invited", ())
        )
        obj.pk = created.pk
        obj.refresh_from_db()

    def get_inlines(self, request: HttpRequest, obj: Tournament | None) -> Any:
        return (RegistrationInline,) if obj is not None else ()

    @admin.action(
        description=_("Annulla per guasto tecnico (rimborsa tutti gli iscritti)"), permissions=["cancel"]
    )
    def cancel_for_fault(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> HttpResponse | None:
        form = CancelForm(request.POST if "reason" in request.POST else None)
        if form.is_valid():
            assert isinstance(request.user, User)
            for tournament in queryset.order_by("pk"):
                try:
                    out = actions.tournament_cancel(
                        tournament_id=tournament.pk, actor=request.user, reason=form.cleaned_data["reason"]
                    )
                except CodedError as exc:
                    self.message_user(request, f"{tournament.code}: {exc.message}", messages.ERROR)
                else:
                    self.message_user(
                        request,
                        _("%(code)s annullato: %(n)s iscrizioni rimborsate.")
                        % {"code": tournament.code, "n": out["refunded"]},
                        messages.SUCCESS,
                    )
            return None
        return render(
            request,
            "tournaments/admin_cancel.html",
            {
                **self.admin_site.each_context(request),
                "form": form,
                "queryset": queryset,
                "previews": [
                    operations.tournament_cancel_preview(tournament_id=t.pk) for t in queryset.order_by("pk")
                ],
                "action": request.POST.get("action"),
                "opts": self.model._meta,
            },
        )

    def has_cancel_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("tournaments.cancel_tournament")

    def get_urls(self) -> list[Any]:
        return [
            path(
                "registrazione/<id:pk>/rimborso-guasto/",
                self.admin_site.admin_view(self.fault_refund_view),
                name="tournaments_registration_fault_refund",
            ),
            *super().get_urls(),
        ]

    def fault_refund_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """One player's entry given back for a fault of the platform: the evidence, then the form."""
        if not self.has_cancel_permission(request):
            return HttpResponse(status=403)
        reg = get_object_or_404(Registration, pk=pk)
        preview = actions.fault_refund_preview(registration_id=reg.pk)
        form = FaultRefundForm(request.POST if request.method == "POST" else None, records=preview["records"])
        if request.method == "POST" and not preview["refusal"] and form.is_valid():
            assert isinstance(request.user, User)
            try:
                out = actions.registration_fault_refund(
                    registration_id=reg.pk,
                    record_id=form.cleaned_data["record"],
                    reason=form.cleaned_data["reason"],
                    actor=request.user,
                )
            except CodedError as exc:
                self.message_user(request, exc.message, messages.ERROR)
            else:
                pending = any(part["status"] == "pending" for part in out.values())
                self.message_user(
                    request,
                    _("Rimborso in attesa dell'approvazione di un altro membro dello staff.")
                    if pending
                    else _("Iscrizione di %(nickname)s rimborsata.") % {"nickname": reg.user.nickname},
                    messages.WARNING if pending else messages.SUCCESS,
                )
                return redirect("backoffice:tournaments_tournament_change", reg.tournament_id)
        return render(
            request,
            "tournaments/admin_fault_refund.html",
            {**self.admin_site.each_context(request), **preview, "form": form, "opts": self.model._meta},
        )


if TYPE_CHECKING:
    ScheduleAdminBase = admin.ModelAdmin[TournamentSchedule]
else:
    ScheduleAdminBase = admin.ModelAdmin


@admin.register(TournamentSchedule, site=site)
class TournamentScheduleAdmin(ScheduleAdminBase):
    list_display = ("template", "weekdays", "start_time", "opens_hours_before", "active")
    list_filter = ("active",)
    fields = ("template", "weekdays", "start_time", "opens_hours_before", "active")

    def get_readonly_fields(self, request: HttpRequest, obj: TournamentSchedule | None = None) -> Any:
        return () if obj is None else ("template", "weekdays", "start_time", "opens_hours_before")

    def save_model(self, request: HttpRequest, obj: TournamentSchedule, form: Any, change: bool) -> None:
        if change:  # only switching it on or off
            super().save_model(request, obj, form, change)
            return
        assert isinstance(request.user, User)
        data = form.cleaned_data
        created = actions.schedule_create(
            actor=request.user,
            template_id=data["template"].pk,
            weekdays=data["weekdays"],
            start_time=data["start_time"],
            opens_hours_before=data["opens_hours_before"],
        )
        obj.pk = created.pk
        obj.refresh_from_db()


@admin.register(Payout, site=site)
class PayoutAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "user", "position", "prize_display", "paid_at")
    list_filter = ("tournament__game",)
    search_fields = ("user__nickname", "tournament__name")
    readonly_fields = ("tournament", "user", "position", "prize", "state", "entry_transaction")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Registration]:
        return super().get_queryset(request).filter(prize__gt=0).select_related("tournament", "user")

    @admin.display(description=_("premio"))
    def prize_display(self, obj: Registration) -> str:
        return format_euro(obj.prize)

    @admin.display(description=_("pagato il"))
    def paid_at(self, obj: Registration) -> Any:
        return obj.tournament.paid_at


@admin.register(TournamentMatch, site=site)
class TournamentMatchAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "turn", "number", "phase", "line_a", "line_b", "table_id", "ended_at")
    list_filter = ("phase",)
    search_fields = ("tournament__name",)
    readonly_fields = (
        *("tournament", "turn", "number", "phase", "line_a", "line_b"),
        *("table_id", "result", "started_at", "ended_at"),
    )


@admin.register(SkillLevel, site=site)
class SkillLevelAdmin(ReadOnlyAdmin):
    """Ratings and skill levels, as the nightly update left them (the criterion of reserved tournaments)."""

    list_display = ("user", "game", "level", "rating", "tournaments", "updated_on")
    list_filter = ("game", "level")
    search_fields = ("user__nickname",)
    readonly_fields = ("user", "game", "level", "rating", "tournaments", "updated_on")
