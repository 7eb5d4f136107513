"""The back office (Django admin at /backoffice/): staff, and moderators for moderation only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.models import Group
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from piattaforma import actions, roles
from piattaforma.models import AuditLog, GamePreference, User


class BackofficeSite(admin.AdminSite):
    site_header = _("Back office della piattaforma")
    site_title = _("Back office")
    index_title = _("Amministrazione")

    def has_permission(self, request: HttpRequest) -> bool:
        return roles.backoffice_allowed(request.user)


site = BackofficeSite(name="backoffice")

# The admin classes are generic for the type checker only (django-stubs); at run time they are not.
if TYPE_CHECKING:
    UserAdminBase = DjangoUserAdmin[User]
    PreferenceAdminBase = admin.ModelAdmin[GamePreference]
    ReadOnlyAdminBase = admin.ModelAdmin[Any]
else:
    UserAdminBase = DjangoUserAdmin
    PreferenceAdminBase = ReadOnlyAdminBase = admin.ModelAdmin


class StatusChangeForm(forms.Form):
    reason = forms.CharField(label=_("Motivazione"), widget=forms.Textarea, min_length=5)


@admin.register(User, site=site)
class UserAdmin(UserAdminBase):
    list_display = ("nickname", "email", "status", "is_staff", "is_bot", "date_joined")
    list_filter = ("status", "is_staff", "is_bot", "groups")
    search_fields = ("nickname", "email")
    ordering = ("nickname",)
    readonly_fields = ("status", "status_changed_at", "self_excluded_until", "date_joined", "last_login")
    fieldsets = (
        (None, {"fields": ("nickname", "email", "password")}),
        (_("Dati personali"), {"fields": ("date_of_birth",)}),
        (
            _("Stato"),
            {"fields": ("status", "status_changed_at", "self_excluded_until", "is_active", "is_bot")},
        ),
        (_("Ruoli e permessi"), {"fields": ("is_staff", "is_superuser", "groups")}),
        (_("Date"), {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = (
        (
            None,
            {
                "classes": ("wide",),
                "fields": ("nickname", "email", "date_of_birth", "usable_password", "password1", "password2"),
            },
        ),
    )
    actions = ("suspend", "reactivate")

    def _set_status(self, request: HttpRequest, queryset: QuerySet[User], status: str) -> HttpResponse | None:
        form = StatusChangeForm(request.POST if "reason" in request.POST else None)
        if form.is_valid():
            actor = request.user if isinstance(request.user, User) else None  # behind the back-office login
            for user in queryset:
                reason = form.cleaned_data["reason"]
                actions.user_set_status(user=user, status=status, actor=actor, reason=reason)
            self.message_user(request, _("Stato aggiornato."), messages.SUCCESS)
            return None
        return render(
            request,
            "admin/status_change.html",
            {
                **self.admin_site.each_context(request),
                "form": form,
                "queryset": queryset,
                "status": status,
                "action": request.POST.get("action"),
                "opts": self.model._meta,
            },
        )

    @admin.action(description=_("Sospendi i giocatori selezionati"), permissions=["change"])
    def suspend(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        return self._set_status(request, queryset, User.Status.SUSPENDED)

    @admin.action(description=_("Riattiva i giocatori selezionati"), permissions=["change"])
    def reactivate(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        return self._set_status(request, queryset, User.Status.ACTIVE)


site.register(Group, admin.ModelAdmin)


@admin.register(GamePreference, site=site)
class GamePreferenceAdmin(PreferenceAdminBase):
    list_display = ("user", "game", "updated_at")
    list_filter = ("game",)
    search_fields = ("user__nickname",)
    readonly_fields = ("user", "game", "values", "updated_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


class ReadOnlyAdmin(ReadOnlyAdminBase):
    """Rows the back office only shows: they change through actions (or never, like the audit log)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(AuditLog, site=site)
class AuditLogAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "actor", "action", "target_type", "target_id")
    list_filter = ("action",)
    search_fields = ("actor__nickname", "target_id", "reason")
    readonly_fields = ("created_at", "actor", "action", "target_type", "target_id", "reason", "data")
