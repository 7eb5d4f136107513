"""Back office of the tournaments: create (through the action), see the entrants, cancel for a fault."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.hashers import make_password
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from games import registry
from games.engine import CodedError, Engine
from games.slot import table as slot_table
from piattaforma.backoffice import FaultRefundForm, ReadOnlyAdmin, site
from piattaforma.models import User
from tournaments import actions, operations, slotreplay
from tournaments.actions.creation import tempo_giocata_for
from tournaments.formats import levels as level_formats
from tournaments.formats.money import format_euro
from tournaments.formats.points import format_pt
from tournaments.formats.prizes import Format as PrizeFormat
from tournaments.formats.prizes import default_scheme, simulate
from tournaments.models import (
    LEVEL_GAMES,
    MIN_STARTING_INVITI,
    SLOT_DEFAULT_CREDIT,
    SLOT_DEFAULT_MINUTES,
    SLOT_GAME,
    SLOT_MAX_MINUTES,
    SLOT_MIN_CREDIT,
    TURN_GAMES,
    Payout,
    Registration,
    SkillLevel,
    SlotSession,
    Tournament,
    TournamentMatch,
    TournamentSchedule,
    game_title,
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

# Which settings each kind of tournament has: the form shows only these (static/js/backoffice-
# tournament.js) and its ``clean`` sets the others back to "none", so a value typed before a change
# of format is never saved nor refused.
TURNS, LEVELS, SLOT = "turns", "levels", "slot"
FORMAT_GROUP = {
    **dict.fromkeys(("ko", "danese", "danel", "danko", "danelko"), TURNS),
    Tournament.Format.FREEZEOUT: LEVELS,
    Tournament.Format.SHOOTOUT: LEVELS,
    Tournament.Format.SLOT: SLOT,
}
GROUP_GAMES = {TURNS: TURN_GAMES, LEVELS: tuple(LEVEL_GAMES), SLOT: (SLOT_GAME,)}
ONLY_FOR = {
    "lines": {TURNS},
    "table": {TURNS},
    "turns": {TURNS},
    "ko_qualifiers": {TURNS},
    "smazzate": {TURNS},
    "points_to_win": {TURNS},
    "tempo_partita_min": {TURNS},
    "tempo_giocata": {TURNS, LEVELS},
    "options": {TURNS, LEVELS},
    "starting_chips": {LEVELS},
    "seats_per_table": {LEVELS},
    "speed": {LEVELS},
    "first_invito": {LEVELS},
    "slot_credit": {SLOT},
    "slot_minutes": {SLOT},
    "skill_levels": {TURNS, LEVELS},  # the slot is chance: no skill levels
}
NONE_VALUES = {
    "lines": Tournament.Lines.INDIVIDUAL,
    "table": Tournament.Table.HEAD_TO_HEAD,
    "turns": Tournament._meta.get_field("turns").default,
    "ko_qualifiers": 0,
    "smazzate": 0,
    "points_to_win": 0,
    "tempo_partita_min": Tournament._meta.get_field("tempo_partita_min").default,
    "tempo_giocata": None,
    "options": {},
    "starting_chips": 0,
    "seats_per_table": 0,
    "speed": "",
    "first_invito": 0,
    "slot_credit": None,
    "slot_minutes": 0,
    "skill_levels": "",
}
LEVEL_HELP = _(
    "Livelli: l'invito (o la puntata minima) sale a ogni livello, di %(lento)s, %(normale)s, %(turbo)s "
    "o %(superturbo)s minuti (lento, normale, turbo, superturbo). Le chips iniziali sono uguali per tutti, "
    "almeno %(n)s inviti del primo livello. Mano per mano: automatica quando i giocatori rimasti sono uno "
    "più dei premiati (tutti i tavoli giocano la mano insieme), fino all'ingresso in zona premi. "
    "Shootout: scegli la formula «Shootout» (nessun riequilibrio, i vincitori di ogni tavolo al "
    "tavolo finale)."
)
SLOT_HELP = _(
    "Pierino Tenta la Fortuna: ogni iscritto gioca da solo con lo stesso credito e lo stesso tempo. "
    "La puntata unitaria va da %(min)s a %(max)s chips su %(lines)s linee fisse (da %(bet_min)s a "
    "%(bet_max)s chips a giro), come la macchina consente; nessuna opzione di gioco."
)


def html_table(testid: str, rows: list[tuple[Any, ...]]) -> str:
    """A small read-only table of the back office's pages, every cell escaped."""
    cells = [(format_html_join("", "<td>{}</td>", ((c,) for c in row)),) for row in rows]
    body = format_html_join("", "<tr>{}</tr>", cells)
    return format_html('<table class="ops-table" data-testid="{}">{}</table>', testid, body)


def _fieldsets(groups: set[str]) -> list[tuple[Any, dict[str, Any]]]:
    """The tournament's settings by section; a section of one kind only shows for that kind."""
    minutes = {speed.value: level_formats.LEVEL_SECONDS[speed] // 60 for speed in level_formats.Speed}
    sections: list[tuple[Any, dict[str, Any]]] = [
        (None, {"fields": ("name", "game", "format", "kind", "description")}),
        (
            _("Torneo a turni (giochi a partite)"),
            {
                "fields": (
                    *("lines", "table", "turns", "ko_qualifiers"),
                    *("smazzate", "points_to_win", "tempo_partita_min"),
                ),
                "classes": ("fmt-group", "fmt-turns"),
            },
        ),
        (
            _("Torneo a livelli (giochi a puntate: freezeout, mano per mano, shootout)"),
            {
                "fields": ("starting_chips", "seats_per_table", "speed", "first_invito"),
                "classes": ("fmt-group", "fmt-levels"),
                "description": LEVEL_HELP % {**minutes, "n": MIN_STARTING_INVITI},
            },
        ),
        (
            _("Torneo slot"),
            {
                "fields": ("slot_credit", "slot_minutes"),
                "classes": ("fmt-group", "fmt-slot"),
                "description": SLOT_HELP
                % {
                    "min": slot_table.MIN_UNIT,
                    "max": slot_table.MAX_UNIT,
                    "lines": slot_table.LINES,
                    "bet_min": slot_table.MIN_UNIT * slot_table.LINES,
                    "bet_max": f"{slot_table.MAX_UNIT * slot_table.LINES:,}".replace(",", "."),
                },
            },
        ),
        (
            _("Tempi e opzioni del gioco"),
            {"fields": ("tempo_giocata", "options"), "classes": ("fmt-group", "fmt-turns", "fmt-levels")},
        ),
        (
            _("Iscrizioni, costo e premi"),
            {
                "fields": (
                    *("pool_quota", "fee", "guaranteed", "min_players", "max_players"),
                    *("registration_opens_at", "starts_at", "repeat", "satellite_of", "special_leaderboard"),
                    *("training", "confirmation_required", "cancellation_allowed"),
                )
            },
        ),
        (
            _("Ingresso riservato"),
            {
                "fields": (
                    *("skill_levels", "entry_password", "ranking_board", "ranking_special"),
                    *("ranking_position", "wins_required", "wins_series", "cities", "invited"),
                )
            },
        ),
    ]
    return [
        (title, {**spec, "fields": tuple(f for f in spec["fields"] if ONLY_FOR.get(f, groups) & groups)})
        for title, spec in sections
        if _applies(spec, groups)
    ]


def _applies(spec: dict[str, Any], groups: set[str]) -> bool:
    classes = spec.get("classes", ())
    return "fmt-group" not in classes or any(f"fmt-{g}" in classes for g in groups)


def options_help() -> str:
    """Each game's options (``Engine.config_options``) as a line the page shows for the chosen game."""
    lines = []
    for name in registry.names():
        engine = registry.get(name)
        fixed = {"mode", *LEVEL_GAMES.get(name, {}), *engine.table_settings.values()}
        declared = [
            f"{o.key} ({o.label}: {', '.join(str(c) for c, _label in o.choices) if o.choices else o.kind})"
            for o in engine.config_options()
            if o.key not in fixed
        ]
        lines.append(
            format_html(
                '<span class="game-options" data-game="{}">{}: {}</span>',
                name,
                registry.get(name).title,
                "; ".join(declared) or _("nessuna"),
            )
        )
    return format_html(
        "{}<br>{}",
        _('JSON, ad esempio {"carte_scoperte": true}. Vuoto: le opzioni normali del gioco. Chiavi ammesse:'),
        format_html("".join(["{}"] * len(lines)), *lines),
    )


class TournamentForm(forms.ModelForm):
    """A new tournament's settings, the entry's money in euro (``wallet.money.parse_eur``), the
    admitted skill levels as boxes to tick."""

    slot_credit = forms.IntegerField(
        label=_("Credito iniziale (chips)"),
        required=False,
        min_value=SLOT_MIN_CREDIT,
        help_text=_("Vuoto: %(credit)s chips, per tutti uguale.")
        % {"credit": f"{SLOT_DEFAULT_CREDIT:,}".replace(",", ".")},
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "slot_minutes" in self.fields:
            field = self.fields["slot_minutes"]
            field.required = False
            field.help_text = _("Vuoto: %(n)s minuti; al più %(max)s.") % {
                "n": SLOT_DEFAULT_MINUTES,
                "max": SLOT_MAX_MINUTES,
            }
        if "options" in self.fields:
            self.fields["options"].help_text = options_help()
        for name in ("starting_chips", "seats_per_table", "first_invito"):
            if name in self.fields:
                self.fields[name].required = False
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

    def clean(self) -> dict[str, Any]:
        """Only the settings of the chosen kind of tournament count; the others are "none"."""
        data = super().clean()
        group = FORMAT_GROUP.get(data.get("format") or "")
        if group is None:
            return data
        game = data.get("game")
        if game and game not in GROUP_GAMES[group]:
            self.add_error("game", self._game_refusal(group))
        for name, groups in ONLY_FOR.items():
            if group not in groups and name in self.fields:
                data[name] = NONE_VALUES[name]
                self.errors.pop(name, None)
        if group == SLOT:
            data["starting_chips"] = data.get("slot_credit") or 0
            data["tempo_giocata"] = tempo_giocata_for(game, None)
        elif group == LEVELS:
            for name in ("starting_chips", "seats_per_table", "first_invito"):
                data[name] = data.get(name) or 0
        elif "tempo_giocata" in self.fields and data.get("tempo_giocata") is None:
            data["tempo_giocata"] = tempo_giocata_for(game, None)
        return data

    @staticmethod
    def _game_refusal(group: str) -> str:
        if group == LEVELS:
            games = ", ".join(game_title(name) for name in LEVEL_GAMES)
            refusal = _("I tornei a livelli (freezeout, shootout) sono dei giochi a puntate: %(games)s.")
            return str(refusal) % {"games": games}
        if group == SLOT:
            return str(_("Un torneo slot si gioca a Pierino Tenta la Fortuna."))
        return str(_("I tornei a turni (KO, danese…) sono dei giochi a partite."))

    def _post_clean(self) -> None:
        """The model's own check (``Tournament.clean``) reports the slot's credit on its own field."""
        super()._post_clean()
        if (
            "starting_chips" in self.errors
            and "slot_credit" in self.fields
            and self.cleaned_data.get("format") == Tournament.Format.SLOT
        ):
            self.add_error("slot_credit", self.errors.pop("starting_chips"))

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
        "slot_replay_link",
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

    @admin.display(description=_("giocate alla slot"))
    def slot_replay_link(self, obj: Registration) -> str:
        if obj.tournament.format != Tournament.Format.SLOT:
            return "—"
        session = SlotSession.objects.filter(tournament_id=obj.tournament_id, user_id=obj.user_id).first()
        if session is None:
            return "—"
        url = reverse("backoffice:tournaments_slotsession_replay", args=[session.pk])
        return format_html('<a href="{}">{}</a>', url, _("Replay delle giocate"))


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
            "prize_table_display",
            "level_structure_display",
            *(f"{name}_eur" for name in MONEY_FIELDS),
        )

    class Media:
        js = ("js/backoffice-tournament.js",)
        css = {"all": ("css/backoffice.css",)}

    def get_fieldsets(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        """The settings by section: a new tournament's form shows the sections of the chosen format
        (the page's script; ``TournamentForm.clean`` ignores the others); a tournament created shows
        its own, read-only, the money in euro, and its prize table (and level structure)."""
        if obj is None:
            return _fieldsets({TURNS, LEVELS, SLOT})
        group = FORMAT_GROUP[obj.format]
        shown = {
            **{name: f"{name}_eur" for name in MONEY_FIELDS},
            "entry_password": "password_display",
            "slot_credit": "starting_chips",
        }
        out = [
            (title, {**spec, "fields": tuple(shown.get(f, f) for f in spec["fields"])})
            for title, spec in _fieldsets({group})
        ]
        extra = ("prize_table_display", *(("level_structure_display",) if group == LEVELS else ()))
        out.append((_("Premi e svolgimento"), {"fields": (*extra, *self._state_fields)}))
        return out

    _state_fields = (
        *("state", "adm_code", "closed_at", "cancelled_reason", "created_by", "created_at"),
        *("turn", "started_at", "finished_at", "paid_at", "prize_transaction", "schedule"),
    )

    @admin.display(description=_("tabella premi (agli iscritti massimi)"))
    def prize_table_display(self, obj: Tournament) -> str:
        """The rules' prize table at the tournament's maximum entrants (the pool grows with them)."""
        scheme = default_scheme(PrizeFormat(obj.format), sitgo=obj.kind == Tournament.Kind.SITGO)
        rows = simulate(scheme, obj.max_players, obj.pool_quota, obj.guaranteed)
        if not rows or not (obj.pool_quota or obj.guaranteed):
            return str(_("nessun premio in denaro (allenamento o senza montepremi)"))
        return html_table(
            "prize-table",
            [
                (f"{r.first}°" if r.first == r.last else f"{r.first}°–{r.last}°", format_euro(r.amount))
                for r in rows
            ],
        )

    @admin.display(description=_("struttura dei livelli"))
    def level_structure_display(self, obj: Tournament) -> str:
        if not obj.is_levels or not obj.first_invito:
            return "—"
        rows = level_formats.level_schedule(level_formats.Speed(obj.speed), obj.first_invito, 12)
        return html_table(
            "level-structure",
            [
                (
                    _("%(n)d° livello") % {"n": lv.number},
                    _("invito %(i)s") % {"i": f"{lv.invito:,}".replace(",", ".")},
                    f"{lv.start_s // 60}–{lv.end_s // 60} min",
                )
                for lv in rows
            ],
        )

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
    list_display = (
        *("tournament", "turn", "number", "phase", "line_a", "line_b", "table_id", "ended_at"),
        "fault_replay_link",
    )
    list_filter = ("phase",)
    search_fields = ("tournament__name",)
    readonly_fields = (
        *("tournament", "turn", "number", "phase", "line_a", "line_b"),
        *("table_id", "result", "started_at", "ended_at", "replays", "fault_replay_link"),
    )

    @admin.display(description=_("guasto"))
    def fault_replay_link(self, obj: TournamentMatch) -> str:
        if not obj.line_b or obj.phase not in ("girone", "ko"):
            return "—"
        url = reverse("backoffice:tournaments_tournamentmatch_fault_replay", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', url, _("Verifica e rigioca"))

    def get_urls(self) -> list[Any]:
        return [
            path(
                "<id:pk>/rigioca-guasto/",
                self.admin_site.admin_view(self.fault_replay_view),
                name="tournaments_tournamentmatch_fault_replay",
            ),
            *super().get_urls(),
        ]

    def fault_replay_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """One turn match played again for a fault of the platform: the evidence, then the form."""
        if not request.user.has_perm("tournaments.cancel_tournament"):
            return HttpResponse(status=403)
        match = get_object_or_404(TournamentMatch, pk=pk)
        preview = actions.match_replay_preview(match_id=match.pk)
        form = FaultRefundForm(request.POST if request.method == "POST" else None, records=preview["records"])
        if request.method == "POST" and not preview["refusal"] and form.is_valid():
            assert isinstance(request.user, User)
            try:
                actions.match_replay(
                    match_id=match.pk,
                    record_id=form.cleaned_data["record"],
                    reason=form.cleaned_data["reason"],
                    actor=request.user,
                )
            except CodedError as exc:
                self.message_user(request, exc.message, messages.ERROR)
            else:
                self.message_user(
                    request,
                    _("Partita annullata: i giocatori sono stati chiamati a un nuovo tavolo."),
                    messages.SUCCESS,
                )
                return redirect("backoffice:tournaments_tournamentmatch_change", match.pk)
        return render(
            request,
            "tournaments/admin_match_replay.html",
            {**self.admin_site.each_context(request), **preview, "form": form, "opts": self.model._meta},
        )


@admin.register(SkillLevel, site=site)
class SkillLevelAdmin(ReadOnlyAdmin):
    """Ratings and skill levels, as the nightly update left them (the criterion of reserved tournaments)."""

    list_display = ("user", "game", "level", "rating", "tournaments", "updated_on")
    list_filter = ("game", "level")
    search_fields = ("user__nickname",)
    readonly_fields = ("user", "game", "level", "rating", "tournaments", "updated_on")


@admin.register(SlotSession, site=site)
class SlotSessionAdmin(ReadOnlyAdmin):
    """Every entrant's session at the slot, read-only, with the replay of his spins."""

    list_display = ("tournament", "user", "credit_display", "version", "ends_at", "replay_link")
    list_filter = ("tournament__state",)
    search_fields = ("user__nickname", "tournament__name")
    fields = ("tournament", "user", "credit", "version", "started_at", "ends_at", "replay_link")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[SlotSession]:
        rows = super().get_queryset(request).select_related("tournament", "user")
        return rows.defer("state", "extra_state")  # the journals are read by the replay only

    @admin.display(description=_("credito"), ordering="credit")
    def credit_display(self, obj: SlotSession) -> str:
        return slotreplay.chips(obj.credit)

    @admin.display(description=_("giocate"))
    def replay_link(self, obj: SlotSession) -> str:
        url = reverse("backoffice:tournaments_slotsession_replay", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', url, _("Replay delle giocate"))

    def get_urls(self) -> list[Any]:
        return [
            path(
                "<id:pk>/replay/",
                self.admin_site.admin_view(self.replay_view),
                name="tournaments_slotsession_replay",
            ),
            *super().get_urls(),
        ]

    def replay_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """Read-only: every spin and choice of the player, rebuilt from the session's journal."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        session = get_object_or_404(SlotSession.objects.select_related("tournament", "user"), pk=pk)
        return render(
            request,
            "tournaments/admin_slot_replay.html",
            {
                **self.admin_site.each_context(request),
                **slotreplay.session_replay(session),
                "session": session,
                "opts": self.model._meta,
                "title": _("Replay delle giocate di %(nickname)s") % {"nickname": session.user.nickname},
            },
        )
