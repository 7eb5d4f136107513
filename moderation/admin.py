"""Moderation in the back office: staff keep the watched list; the rest is read-only (the queue decides)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from moderation import actions, selectors
from moderation.models import (
    ChatLine,
    ConductEvent,
    ConductMeasure,
    PairSignal,
    Report,
    Sanction,
    WatchedEntry,
)
from piattaforma import roles
from piattaforma.actions import audit_record
from piattaforma.backoffice import ReadOnlyAdmin, site
from piattaforma.models import User
from wallet.admin_columns import euro_column

if TYPE_CHECKING:
    WatchedAdminBase = admin.ModelAdmin[WatchedEntry]
else:
    WatchedAdminBase = admin.ModelAdmin


@admin.register(WatchedEntry, site=site)
class WatchedEntryAdmin(WatchedAdminBase):
    list_display = ("pattern", "kind", "category", "action", "in_game_only", "active", "language")
    list_filter = ("category", "action", "kind", "in_game_only", "active", "language")
    search_fields = ("pattern", "note")
    list_editable = ()

    def save_model(self, request: HttpRequest, obj: WatchedEntry, form: Any, change: bool) -> None:
        actor = request.user if isinstance(request.user, User) else None
        actions.watched_entry_save(entry=obj, actor=actor)

    def delete_model(self, request: HttpRequest, obj: WatchedEntry) -> None:
        actor = request.user if isinstance(request.user, User) else None
        audit_record(
            actor=actor, action="moderation.watched_delete", target=obj, data={"pattern": obj.pattern}
        )
        super().delete_model(request, obj)
        actions.watched_list_reset()


@admin.register(ChatLine, site=site)
class ChatLineAdmin(ReadOnlyAdmin):
    """Every chat line, but HELP conversations only for staff (``selectors.lines_visible``): the list,
    its search and each line's page."""

    list_display = ("created_at", "channel", "author", "text", "outcome", "category")
    list_filter = ("outcome", "category")
    search_fields = ("author__nickname", "text", "channel")

    def get_queryset(self, request: HttpRequest) -> QuerySet[ChatLine]:
        return selectors.lines_visible(user=request.user, lines=super().get_queryset(request))


@admin.register(Report, site=site)
class ReportAdmin(ReadOnlyAdmin):
    list_display = (
        "pk",
        "target",
        "status",
        "score",
        "entries_count",
        "decision",
        "decided_by",
        "opened_at",
        "queue_link",
    )
    list_filter = ("status", "decision")
    search_fields = ("target__nickname",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Report]:
        """A case made only of HELP reports is the staff's (as in the queue)."""
        reports = super().get_queryset(request)
        return reports if roles.has_staff_role(request.user) else selectors.outside_help(reports)

    @admin.display(description=_("Coda dei moderatori"))
    def queue_link(self, obj: Report) -> str:
        """Decisions are taken in the moderators' queue, not here."""
        return format_html('<a href="{}">{}</a>', reverse("moderation:case", args=[obj.pk]), _("Apri"))


@admin.register(Sanction, site=site)
class SanctionAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "starts_at", "ends_at", "by")
    list_filter = ("kind",)
    search_fields = ("user__nickname",)


# --- tournament conduct and the collusion signals (read-only: hooks write them) ---------------------


@admin.register(ConductEvent, site=site)
class ConductEventAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "user", "tournament_id", "turn", "kind", "training", "warnings")
    list_filter = ("kind", "training")
    search_fields = ("user__nickname",)


@admin.register(ConductMeasure, site=site)
class ConductMeasureAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "user", "kind", "step", "starts_at", "ends_at", "tournament_id")
    list_filter = ("kind",)
    search_fields = ("user__nickname",)


@admin.register(PairSignal, site=site)
class PairSignalAdmin(ReadOnlyAdmin):
    """Staff only (moderators have no permission on the signals): the dashboard ranks and drills down."""

    a_to_b_eur = euro_column("a_to_b", _("da A a B"))
    b_to_a_eur = euro_column("b_to_a", _("da B ad A"))
    list_display = ("a", "b", "score", "hands", "a_to_b_eur", "b_to_a_eur", "last_at", "dashboard_link")
    search_fields = ("a__nickname", "b__nickname")
    ordering = ("-score", "-hands")

    @admin.display(description=_("Segnali"))
    def dashboard_link(self, obj: PairSignal) -> str:
        url = reverse("moderation:signals_pair", args=[obj.a_id, obj.b_id])
        return format_html('<a href="{}">{}</a>', url, _("Mani"))
