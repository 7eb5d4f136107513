"""Back office for tables: configuration, live seats, hand history with step-by-step replay."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.hashers import make_password
from django.core.exceptions import ValidationError
from django.db.models import Count, OuterRef, QuerySet, Subquery
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

import piattaforma.converters  # noqa: F401  # registers <id:...>
from games import registry
from games.engine import CodedError, Engine, EngineError, Option
from lobby import door, selectors
from lobby.errors import HandSecretsClosed, TableError
from lobby.models import (
    TABLE_SETTINGS_FIELDS,
    ChatMessage,
    ConnectionRecord,
    Hand,
    MatchFaultRefund,
    Seat,
    Table,
    TableTemplate,
)
from piattaforma import siteops
from piattaforma.backoffice import FaultRefundForm, ReadOnlyAdminMixin, site
from piattaforma.entry import ENTRY_FIELDS
from piattaforma.jsoninput import JSONFormField
from wallet.admin_columns import euro_column, percent_column
from wallet.forms import EuroField, PercentField


def option_values(option: Option) -> str:
    """Say which values a table option takes, as the back office lists them."""
    if option.kind == "choice":
        values = " | ".join(f"{json.dumps(v)} ({label})" for v, label in option.choices)
    elif option.kind == "bool":
        values = "true | false"
    elif option.kind == "int":
        low = "" if option.min is None else str(option.min)
        high = "" if option.max is None else str(option.max)
        values = f"intero {low}…{high}"
    else:
        values = "dato strutturato"
    return values + (" | null" if option.nullable else "")


def config_options_help() -> SafeString:
    """The table options of every game, from the engines' own list (the one validate_config checks)."""
    rows = []
    for name in registry.names():
        engine = registry.get(name)
        items = format_html_join(
            "",
            "<li><code>{}</code> {}: {}; predefinito <code>{}</code>{}</li>",
            (
                (o.key, o.label, option_values(o), json.dumps(o.default), f" — {o.help}" if o.help else "")
                for o in engine.config_options()
            ),
        )
        rows.append(format_html("<details><summary>{}</summary><ul>{}</ul></details>", engine.title, items))
    return format_html_join("", "{}", ((r,) for r in rows))


# Money of a table's settings, typed in euro ("12,50") in the back office and stored in cents.
MONEY_FIELDS = {
    "min_buy_in": _("Entrata minima (€)"),
    "max_buy_in": _("Entrata massima (€)"),
    "rake_cap": _("Tetto del rake per mano (€)"),
    "posta_partita": _("Posta partita (€)"),
    "posta_unitaria": _("Posta unitaria (€)"),
    "perdita_massima": _("Perdita massima (€)"),
}


def euro_money_fields(form: forms.BaseForm) -> None:
    """Replace a table form's cent fields by euro fields (``wallet.money.parse_eur``); they clean to cents."""
    for name, label in MONEY_FIELDS.items():
        if name in form.fields:
            old = form.fields[name]
            form.fields[name] = EuroField(
                label=label, allow_zero=True, required=old.required, help_text=old.help_text
            )
    if "rake_bp" in form.fields:  # typed as a percentage ("5", "2,5"), stored in basis points
        form.fields["rake_bp"] = PercentField(
            label=_("Rake (%)"),
            required=False,
            blank_means=0,
            help_text=_("Per esempio 5 o 2,5; vuoto: nessun rake."),
        )


# The lists' columns of a table's money and rake: euro and percentages, never cents or basis points.
MONEY_COLUMNS = (
    euro_column("min_buy_in", _("entrata minima")),
    euro_column("max_buy_in", _("entrata massima")),
    percent_column("rake_bp", _("rake")),
)


class TableSettingsForm(forms.ModelForm):
    """A form of a table's settings (a table, a template): the game's options listed, money in euro."""

    game = forms.ChoiceField(label=_("Gioco"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [(n, registry.get(n).title) for n in registry.names()]
        self.fields["config"].help_text = config_options_help()
        euro_money_fields(self)
        if "tempo_giocata" in self.fields and self.instance.pk is None:
            # left empty, a new table takes its game's own (games.engine.Engine.default_tempo_giocata)
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

    def clean_tempo_giocata(self) -> int | None:
        value = self.cleaned_data.get("tempo_giocata")
        game = self.cleaned_data.get("game")
        if value is None and game in registry.names():
            return registry.get(game).default_tempo_giocata
        return value

    def checked(self, check: Any) -> dict[str, Any]:
        """Run the lobby's own check; its refusals become the form's errors."""
        try:
            return dict(check())
        except EngineError as exc:
            raise ValidationError({"config": exc.message}) from exc
        except TableError as exc:
            raise ValidationError(exc.message) from exc


class TableForm(TableSettingsForm):
    class Meta:
        model = Table
        fields = (
            "name",
            "game",
            "config",
            "realm",
            "seats",
            "min_players",
            "min_buy_in",
            "max_buy_in",
            "rake_bp",
            "rake_cap",
            "posta_partita",
            "posta_unitaria",
            "perdita_massima",
            "tempo_giocata",
            "tempo_partita",
            "time_bank",
            "observers_allowed",
            "is_open",
            *ENTRY_FIELDS,
            "invited",
        )
        field_classes = {"config": JSONFormField}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # the password typed in clear and stored hashed; empty keeps the one set
        self.fields["entry_password"] = forms.CharField(
            label=_("Password (PW)"),
            required=False,
            max_length=128,
            widget=forms.PasswordInput(render_value=False),
            help_text=_("Vuota: resta com'è. Chi si siede deve scriverla; in elenco appare «PW»."),
        )
        self.fields["clear_password"] = forms.BooleanField(
            label=_("Togli la password"), required=False, initial=False
        )
        for name in ("ranking_position", "wins_required"):  # empty: no limit
            self.fields[name].required = False

    def clean_ranking_position(self) -> int:
        return self.cleaned_data.get("ranking_position") or 0

    def clean_wins_required(self) -> int:
        return self.cleaned_data.get("wins_required") or 0

    def clean_entry_password(self) -> str:
        raw = self.cleaned_data.get("entry_password") or ""
        if self.data.get("clear_password") in ("on", "true", "1", True):
            return ""
        return make_password(raw) if raw else self.instance.entry_password

    def clean(self) -> dict[str, Any]:
        """The lobby's own checks (``door.table_check``): those of table_create or table_update."""
        data = super().clean() or {}
        if self.errors:
            return data
        fields = {name: data[name] for name in self._meta.fields if name in data and name != "invited"}
        if fields.get("is_open") and not siteops.game_enabled(fields["game"], fields["realm"]):
            raise ValidationError(siteops.GameDisabled.default_message)  # no new table of a game off
        data.update(self.checked(lambda: door.table_check(table_id=self.instance.pk, fields=fields)))
        return data

    def table_fields(self) -> dict[str, Any]:
        """The settings the lobby's actions take (the invitations are saved with the form's m2m)."""
        return {name: self.cleaned_data[name] for name in self._meta.fields if name != "invited"}


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    readonly_fields = (
        "number",
        "user",
        "status",
        "leave_after_hand",
        "missed_hands",
        "joined_at",
        "session_ref",
    )
    fields = readonly_fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class CancelForm(forms.Form):
    reason = forms.CharField(label=_("Motivazione (guasto tecnico)"), widget=forms.Textarea, min_length=5)


@admin.register(Table, site=site)
class TableAdmin(admin.ModelAdmin):
    form = TableForm
    list_display = ("name", "game", "realm", "seats", *MONEY_COLUMNS, "is_open")
    list_filter = ("game", "realm", "is_open")
    search_fields = ("name",)
    filter_horizontal = ("invited",)
    inlines = (SeatInline,)
    actions = ("cancel_hand", "close_tables", "cancel_session")

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # A table is closed (is_open), never deleted: deleting it would delete its seats, whose
        # table credit would be left in the ledger with no seat to return it from.
        return False

    def save_model(self, request: HttpRequest, obj: Table, form: Any, change: bool) -> None:
        """Through the lobby's actions; the form checked the same (the runtime row is locked since)."""
        if change:
            door.table_update(table_id=obj.pk, actor=request.user, **form.table_fields())  # type: ignore[arg-type]  # staff only: a User
        else:
            obj.pk = door.table_create(**form.table_fields()).pk
            obj._state.adding = False

    @admin.action(
        description=_("Annulla la mano in corso e rimborsa le puntate (G7)"), permissions=["change"]
    )
    def cancel_hand(self, request: HttpRequest, queryset: QuerySet[Table]) -> HttpResponse | None:
        form = CancelForm(request.POST if "reason" in request.POST else None)
        if not form.is_valid():
            return render(
                request,
                "admin/status_change.html",
                {
                    **self.admin_site.each_context(request),
                    "form": form,
                    "queryset": queryset,
                    "status": _("annullamento della mano"),
                    "action": "cancel_hand",
                    "opts": self.model._meta,
                },
            )
        for table in queryset:
            try:
                door.table_cancel_hand(
                    table_id=table.pk,
                    actor=request.user,  # type: ignore[arg-type]  # staff only: a User
                    reason=form.cleaned_data["reason"],
                )
                self.message_user(request, _("%(t)s: mano annullata, puntate rimborsate.") % {"t": table})
            except TableError as exc:
                self.message_user(request, f"{table}: {exc.message}", messages.WARNING)
        return None

    @admin.action(
        description=_("Chiudi i tavoli (alla fine della mano o partita in corso)"), permissions=["change"]
    )
    def close_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        for table in queryset.order_by("pk"):
            out = door.table_close(table_id=table.pk, actor=_staff(request), reason="Chiuso dal back office")
            if out["after_hand"]:
                self.message_user(
                    request, _("%(t)s: si chiude alla fine della mano in corso.") % {"t": table}
                )
            else:
                self.message_user(request, _("%(t)s: chiuso.") % {"t": table})

    @admin.action(
        description=_("Annulla la sessione per guasto tecnico (anteprima dei rimborsi)"),
        permissions=["change"],
    )
    def cancel_session(self, request: HttpRequest, queryset: QuerySet[Table]) -> HttpResponse | None:
        form = CancelForm(request.POST if "reason" in request.POST else None)
        if form.is_valid() and "confirm" in request.POST:
            for table in queryset.order_by("pk"):
                try:
                    out = door.table_session_cancel(
                        table_id=table.pk, actor=_staff(request), reason=form.cleaned_data["reason"]
                    )
                except TableError as exc:
                    self.message_user(request, f"{table}: {exc.message}", messages.WARNING)
                    continue
                self.message_user(
                    request,
                    ngettext(
                        "%(t)s: sessione annullata, %(n)s giocatore rimborsato.",
                        "%(t)s: sessione annullata, %(n)s giocatori rimborsati.",
                        len(out["paid"]),
                    )
                    % {"t": table, "n": len(out["paid"])},
                )
            return None
        previews = [door.table_session_cancel_preview(table_id=t.pk) for t in queryset.order_by("pk")]
        return render(
            request,
            "admin/lobby/session_cancel.html",
            {
                **self.admin_site.each_context(request),
                "form": form,
                "previews": previews,
                "queryset": queryset,
                "action": "cancel_session",
                "opts": self.model._meta,
                "title": _("Annulla la sessione per guasto tecnico"),
            },
        )


def _staff(request: HttpRequest) -> Any:
    return request.user  # behind the back-office login: a User


class TableTemplateForm(TableSettingsForm):
    class Meta:
        model = TableTemplate
        fields = ("name", "table_name", "active", *TABLE_SETTINGS_FIELDS)
        field_classes = {"config": JSONFormField}

    def clean(self) -> dict[str, Any]:
        """The settings are checked as a table's would be when opened (``door.template_check``)."""
        data = super().clean() or {}
        if self.errors:
            return data
        fields = {k: data[k] for k in TABLE_SETTINGS_FIELDS}
        data["config"] = self.checked(lambda: door.template_check(fields=fields))["config"]
        return data


class OpenTablesForm(forms.Form):
    count = forms.IntegerField(label=_("Quanti tavoli aprire"), min_value=1, max_value=20, initial=1)


@admin.register(TableTemplate, site=site)
class TableTemplateAdmin(admin.ModelAdmin):
    form = TableTemplateForm
    list_display = (
        "name",
        "game",
        "realm",
        "seats",
        *MONEY_COLUMNS,
        "active",
        "open_tables",
    )
    list_filter = ("game", "realm", "active")
    search_fields = ("name", "table_name")
    actions = ("open_tables_action",)

    @admin.display(description=_("tavoli aperti"))
    def open_tables(self, obj: TableTemplate) -> int:
        return Table.objects.filter(name__startswith=obj.table_name, game=obj.game, is_open=True).count()

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a template goes out of use (``active``); the audit log points at it

    def save_model(self, request: HttpRequest, obj: TableTemplate, form: Any, change: bool) -> None:
        from piattaforma.actions import audit_record

        super().save_model(request, obj, form, change)
        audit_record(
            actor=_staff(request),
            action="table_template.save",
            target=obj,
            data={"changed": form.changed_data},
        )

    @admin.action(description=_("Apri tavoli da questi modelli"), permissions=["change"])
    def open_tables_action(
        self, request: HttpRequest, queryset: QuerySet[TableTemplate]
    ) -> HttpResponse | None:
        form = OpenTablesForm(request.POST if "count" in request.POST else None)
        if form.is_valid():
            for template in queryset.order_by("pk"):
                for _n in range(form.cleaned_data["count"]):
                    try:
                        table = door.table_open_from_template(template_id=template.pk, actor=_staff(request))
                    except (TableError, siteops.SiteOpsError) as exc:
                        self.message_user(request, f"{template}: {exc.message}", messages.ERROR)
                        break
                    self.message_user(
                        request, _("Aperto il tavolo %(t)s.") % {"t": table.name}, messages.SUCCESS
                    )
            return None
        return render(
            request,
            "admin/lobby/open_tables.html",
            {
                **self.admin_site.each_context(request),
                "form": form,
                "queryset": queryset,
                "action": "open_tables_action",
                "opts": self.model._meta,
                "title": _("Apri tavoli da modello"),
            },
        )


@admin.register(Hand, site=site)
class HandAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("table", "number", "game", "started_at", "ended_at", "cancelled", "replay_link")
    list_filter = ("game", "cancelled")
    search_fields = ("table__name",)
    readonly_fields = [*(f.name for f in Hand._meta.fields), "fault_refund_links"]
    # what a hand in progress (or one whose deck goes on: chemin de fer's sabot) must not show
    SECRET_FIELDS = ("start_draws", "deck_log", "carry_in")

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = super().get_fields(request, obj)
        if obj is not None and not selectors.hand_secrets_open(obj):
            return [f for f in fields if f not in self.SECRET_FIELDS]
        return fields

    @admin.display(description=_("Replay"))
    def replay_link(self, obj: Hand) -> str:
        if obj.ended_at is None:
            return _("mano in corso")
        return format_html(
            '<a href="{}">{}</a>', reverse("backoffice:lobby_hand_replay", args=[obj.pk]), _("Replay")
        )

    @admin.display(description=_("rimborso per guasto"))
    def fault_refund_links(self, obj: Hand) -> str:
        """Each player of an ended cash match, with the check of a refund of his loss for a fault."""
        if obj.ended_at is None or obj.table.tournament_id is not None or obj.table.realm != Table.Realm.REAL:
            return "—"
        if registry.get(obj.game).family != "partite":
            return "—"
        done = set(MatchFaultRefund.objects.filter(hand=obj).values_list("user_id", flat=True))
        links = [
            (
                reverse("backoffice:lobby_hand_fault_refund", args=[obj.pk, s["user_id"]]),
                s.get("nickname", s["user_id"]),
                _("rimborsata") if s["user_id"] in done else _("Verifica e rimborsa"),
            )
            for s in obj.seats
        ]
        return format_html_join(" · ", '<a href="{}">{}: {}</a>', links)

    def get_urls(self) -> list[Any]:
        return [
            path("<id:pk>/replay/", self.admin_site.admin_view(self.replay_view), name="lobby_hand_replay"),
            path(
                "<id:pk>/rimborso-guasto/<id:user_id>/",
                self.admin_site.admin_view(self.fault_refund_view),
                name="lobby_hand_fault_refund",
            ),
            path(
                "<id:pk>/replay.json",
                self.admin_site.admin_view(self.replay_json),
                name="lobby_hand_replay_json",
            ),
            *super().get_urls(),
        ]

    def fault_refund_view(self, request: HttpRequest, pk: int, user_id: int) -> HttpResponse:
        """One player's loss in one cash match given back for a fault of the platform: the
        evidence and the amount, then the form."""
        if not request.user.has_perm(door.MATCH_FAULT_REFUND_PERMISSION):
            return HttpResponse(status=403)
        hand = get_object_or_404(Hand, pk=pk)
        if not any(s.get("user_id") == user_id for s in hand.seats):
            return HttpResponse(status=404)
        preview = door.match_fault_refund_preview(hand_id=hand.pk, user_id=user_id)
        form = FaultRefundForm(request.POST if request.method == "POST" else None, records=preview["records"])
        if request.method == "POST" and not preview["refusal"] and form.is_valid():
            try:
                out = door.match_fault_refund(
                    hand_id=hand.pk,
                    user_id=user_id,
                    record_id=form.cleaned_data["record"],
                    reason=form.cleaned_data["reason"],
                    actor=_staff(request),
                )
            except CodedError as exc:
                self.message_user(request, exc.message, messages.ERROR)
            else:
                pending = out["status"] == "pending"
                self.message_user(
                    request,
                    _("Rimborso in attesa dell'approvazione di un altro membro dello staff.")
                    if pending
                    else _("Partita rimborsata a %(nickname)s.") % {"nickname": preview["player"].nickname},
                    messages.WARNING if pending else messages.SUCCESS,
                )
                return redirect("backoffice:lobby_hand_change", hand.pk)
        return render(
            request,
            "admin/lobby/match_fault_refund.html",
            {**self.admin_site.each_context(request), **preview, "form": form, "opts": self.model._meta},
        )

    def replay_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The hand on the felt with every seat's cards, the deck orders and the RNG draws."""
        from lobby.views import replay_page_context

        hand = get_object_or_404(Hand.objects.select_related("table"), pk=pk)
        if not self.has_view_permission(request, hand):
            return HttpResponse(status=403)
        if not selectors.hand_secrets_open(hand):
            messages.warning(request, HandSecretsClosed.default_message)
            return redirect("backoffice:lobby_hand_change", hand.pk)
        return render(
            request,
            "admin/lobby/hand_replay.html",
            {
                **self.admin_site.each_context(request),
                **replay_page_context(request, hand, seat=None),
                "title": registry.get(hand.game).title,
                "opts": self.model._meta,
            },
        )

    def replay_json(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The staff frames of a hand (``?start=&count=``); a bad window: 400 with its code."""
        hand = get_object_or_404(Hand.objects.select_related("table"), pk=pk)
        if not self.has_view_permission(request, hand):
            return JsonResponse({"code": "forbidden", "message": "Non autorizzato"}, status=403)
        try:
            payload = selectors.hand_replay_frames(
                hand=hand,
                viewer_id=request.user.pk,
                staff=True,
                start=request.GET.get("start"),
                count=request.GET.get("count"),
            )
        except HandSecretsClosed as exc:
            return JsonResponse(exc.as_dict(), status=409)
        except CodedError as exc:
            return JsonResponse(exc.as_dict(), status=400)
        return JsonResponse(payload)


@admin.register(MatchFaultRefund, site=site)
class MatchFaultRefundAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The matches' losses given back for a fault of the platform (made from the match's page)."""

    list_display = ("hand", "user", "amount_eur", "actor", "created_at")
    search_fields = ("hand__table__name", "user__nickname")
    readonly_fields = ("hand", "user", "record", "amount", "reason", "actor", "result", "created_at")
    amount_eur = euro_column("amount", _("importo"))


@admin.register(ConnectionRecord, site=site)
class ConnectionRecordAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The players' connections to their tables and who ended each (rules 004, "Rimborsi per
    disconnessioni": only an interruption the platform caused is refunded). "Interrotte insieme"
    counts the other connections of the same server process cut within a minute of this one: many
    at once point to the platform, one alone to the player's side."""

    list_display = (
        "opened_at",
        "table",
        "seat_number",
        "user",
        "closed_at",
        "ended_by",
        "close_code",
        "hands",
        "process",
        "cut_together",
    )
    list_filter = ("ended_by", "process")
    search_fields = ("user__nickname", "table__name")
    date_hierarchy = "opened_at"
    list_select_related = ("table", "user")
    readonly_fields = [f.name for f in ConnectionRecord._meta.fields]
    TOGETHER = timedelta(seconds=30)

    def get_queryset(self, request: HttpRequest) -> QuerySet[ConnectionRecord]:
        others = ConnectionRecord.objects.filter(
            process=OuterRef("process"),
            ended_by__in=(ConnectionRecord.EndedBy.NETWORK, ConnectionRecord.EndedBy.PLATFORM),
            closed_at__gte=OuterRef("closed_at") - self.TOGETHER,
            closed_at__lte=OuterRef("closed_at") + self.TOGETHER,
        ).exclude(pk=OuterRef("pk"))
        counted = others.order_by().values("process").annotate(n=Count("pk")).values("n")
        return super().get_queryset(request).annotate(together=Subquery(counted[:1]))

    @admin.display(description=_("Mani"))
    def hands(self, obj: ConnectionRecord) -> str:
        last = obj.hand_at_close if obj.hand_at_close is not None else "…"
        return f"{obj.hand_at_open}–{last}"

    @admin.display(description=_("Interrotte insieme"), ordering="together")
    def cut_together(self, obj: Any) -> int | str:
        if obj.ended_by not in (ConnectionRecord.EndedBy.NETWORK, ConnectionRecord.EndedBy.PLATFORM):
            return "—"
        return obj.together or 0


@admin.register(ChatMessage, site=site)
class ChatMessageAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """What was said at a table is the evidence of reports and sanctions: read-only for everyone."""

    list_display = ("created_at", "table", "user", "text")
    list_filter = ("table",)
    search_fields = ("user__nickname", "text")
    readonly_fields = ("created_at", "table", "user", "text")

    # What was said at a table is the evidence of reports and sanctions: read-only for everyone.
