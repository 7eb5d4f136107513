"""The back office (Django admin at /backoffice/): staff, and moderators for moderation only.

Roles and other staff members' accounts are a superuser's business: staff see the role fields
read-only and may change players' accounts only (``roles.may_manage_user``); every role change
and every password set here is in the audit log. Nobody sets a player's password here
(``roles.may_set_password``): the player resets it himself by e-mail. Accounts are suspended,
never deleted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

import piattaforma.admin_ops  # noqa: F401  (registers the site operations' admins on the site)
from piattaforma import actions, roles, twofa
from piattaforma.backoffice import ReadOnlyAdmin, ReadOnlyAdminMixin, request_actor, site
from piattaforma.models import AuditLog, GamePreference, IdentityDocument, User

# The admin classes are generic for the type checker only (django-stubs); at run time they are not.
if TYPE_CHECKING:
    UserAdminBase = DjangoUserAdmin[User]
    GroupAdminBase = admin.ModelAdmin[Group]
    PreferenceAdminBase = admin.ModelAdmin[GamePreference]
else:
    UserAdminBase = DjangoUserAdmin
    GroupAdminBase = PreferenceAdminBase = admin.ModelAdmin


class StatusChangeForm(forms.Form):
    reason = forms.CharField(label=_("Motivazione"), widget=forms.Textarea, min_length=5)


@admin.register(User, site=site)
class UserAdmin(UserAdminBase):
    list_display = ("nickname", "email", "status", "is_staff", "is_bot", "date_joined")
    list_filter = ("status", "is_staff", "is_bot", "groups")
    search_fields = ("nickname", "email")
    ordering = ("nickname",)
    readonly_fields = (
        "status",
        "status_changed_at",
        "self_excluded_until",
        "date_joined",
        "last_login",
        # identity: checked at sign-up (codice fiscale against the data), verified by a document;
        # the reality-check interval is the player's own choice
        "first_name",
        "last_name",
        "sex",
        "codice_fiscale",
        "identity_verified_at",
        "reality_check_minutes",
    )
    fieldsets = (
        (None, {"fields": ("nickname", "email", "password")}),
        (
            _("Dati personali"),
            {"fields": ("first_name", "last_name", "sex", "date_of_birth", "codice_fiscale", "city")},
        ),
        (_("Gioco responsabile"), {"fields": ("identity_verified_at", "reality_check_minutes")}),
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
    actions = ("suspend", "reactivate", "twofa_reset")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = tuple(super().get_readonly_fields(request, obj))
        if not request.user.is_superuser:
            fields += tuple(f for f in roles.ROLE_FIELDS if f not in fields)
        return fields

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or roles.may_manage_user(request.user, obj))

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None or roles.may_set_password(request.user, obj):
            return fieldsets
        # no password field, and so no link to a password form: nobody sets a player's password
        return [
            (name, {**opts, "fields": [f for f in opts["fields"] if f != "password"]})
            for name, opts in fieldsets
        ]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a game account is suspended, never deleted: its ledger and exclusions stay

    def save_model(self, request: HttpRequest, obj: User, form: Any, change: bool) -> None:
        before = User.objects.get(pk=obj.pk) if change else None
        form.roles_before = roles.role_snapshot(before) if before is not None else roles.NO_ROLE
        super().save_model(request, obj, form, change)
        if before is not None:
            actions.user_email_changed(user=obj, old_email=before.email, actor=request_actor(request))

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        actions.user_audit_roles(user=form.instance, actor=request_actor(request), before=form.roles_before)

    @transaction.atomic
    def user_change_password(self, request: HttpRequest, id: str, form_url: str = "") -> HttpResponse:
        """Superusers set a staff member's password (audited); a player's, nobody (``may_set_password``)."""
        user = self.get_object(request, unquote(id))
        if user is not None and not roles.may_set_password(request.user, user):
            raise PermissionDenied
        response = super().user_change_password(request, id, form_url)
        if user is not None and User.objects.filter(pk=user.pk).exclude(password=user.password).exists():
            actions.audit_record(actor=request_actor(request), action="user.set_password", target=user)
        return response

    def _set_status(self, request: HttpRequest, queryset: QuerySet[User], status: str) -> HttpResponse | None:
        form = StatusChangeForm(request.POST if "reason" in request.POST else None)
        if form.is_valid():
            updated = 0
            for user in queryset:
                if not roles.may_manage_user(request.user, user):
                    message = _("%(user)s: solo un superutente può cambiarne lo stato.") % {"user": user}
                    self.message_user(request, message, messages.ERROR)
                    continue
                reason = form.cleaned_data["reason"]
                actions.user_set_status(user=user, status=status, actor=request_actor(request), reason=reason)
                updated += 1
            if updated:
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

    def has_twofa_reset_permission(self, request: HttpRequest) -> bool:
        return roles.has_staff_role(request.user)

    @admin.action(
        description=_("Azzera la verifica in due passaggi (staff e moderatori selezionati)"),
        permissions=["twofa_reset"],
    )
    def twofa_reset(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        """Another staff member's lost authenticator: removed, he enrols again at his next sign-in."""
        form = StatusChangeForm(request.POST if "reason" in request.POST else None)
        if not form.is_valid():
            return render(
                request,
                "wallet/admin/reason_form.html",
                {
                    **self.admin_site.each_context(request),
                    "form": form,
                    "queryset": queryset,
                    "heading": _("Azzera la verifica in due passaggi"),
                    "action": request.POST.get("action"),
                    "opts": self.model._meta,
                },
            )
        actor = request_actor(request)
        assert actor is not None
        for user in queryset:
            if not twofa.required(user):
                continue  # players have no second factor to reset
            try:
                twofa.devices_reset(actor=actor, target=user, reason=form.cleaned_data["reason"])
            except twofa.TwoFactorError as exc:
                self.message_user(request, f"{user}: {exc.message}", messages.ERROR)
            else:
                done = _("%(user)s: verifica azzerata, la attiverà di nuovo al prossimo accesso.")
                self.message_user(request, done % {"user": user}, messages.SUCCESS)
        return None


@admin.register(Group, site=site)
class GroupAdmin(ReadOnlyAdminMixin, GroupAdminBase):
    """The role groups are defined in code (``roles.ROLE_APPS``) and resynced after every migrate:
    shown, never edited here. A user's role changes on the user's page (superusers, audited)."""


@admin.register(GamePreference, site=site)
class GamePreferenceAdmin(PreferenceAdminBase):
    list_display = ("user", "game", "updated_at")
    list_filter = ("game",)
    search_fields = ("user__nickname",)
    readonly_fields = ("user", "game", "values", "updated_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(AuditLog, site=site)
class AuditLogAdmin(ReadOnlyAdmin):
    """The audit log, read-only for everybody (no add, change or delete: rows are kept five years)."""

    list_display = ("seq", "created_at", "actor", "action", "target")
    list_filter = ("action",)
    search_fields = ("actor__nickname", "target_id", "reason")
    list_select_related = ("actor",)
    readonly_fields = (
        "seq",
        "created_at",
        "actor",
        "action",
        "target_type",
        "target_id",
        "reason",
        "data",
        "prev_hash",
        "row_hash",
    )
    empty_value_display = _("sistema")

    @admin.display(description=_("oggetto"))
    def target(self, obj: AuditLog) -> str:
        return f"{obj.target_type} {obj.target_id}".strip() or "—"


class DocumentReviewForm(forms.Form):
    reason = forms.CharField(label=_("Motivazione del rifiuto"), widget=forms.Textarea, min_length=5)


@admin.register(IdentityDocument, site=site)
class IdentityDocumentAdmin(ReadOnlyAdmin):
    """The staff's review queue of identity documents: approve, or reject with a reason (audited)."""

    list_display = ("uploaded_at", "user", "player_name", "codice_fiscale", "kind", "status", "reviewed_by")
    list_filter = ("status", "kind")
    search_fields = ("user__nickname", "user__codice_fiscale", "user__last_name")
    list_select_related = ("user", "reviewed_by")
    readonly_fields = (
        "user",
        "player_name",
        "codice_fiscale",
        "date_of_birth",
        "kind",
        "document_link",
        "content_type",
        "size",
        "status",
        "uploaded_at",
        "reviewed_by",
        "reviewed_at",
        "reason",
    )
    fields = readonly_fields
    actions = ("approve", "reject")

    def get_queryset(self, request: HttpRequest) -> QuerySet[IdentityDocument]:
        return super().get_queryset(request).order_by("status", "uploaded_at")

    @admin.display(description=_("nome e cognome"))
    def player_name(self, obj: IdentityDocument) -> str:
        return f"{obj.user.first_name} {obj.user.last_name}".strip()

    @admin.display(description=_("codice fiscale"))
    def codice_fiscale(self, obj: IdentityDocument) -> str:
        return obj.user.codice_fiscale

    @admin.display(description=_("data di nascita"))
    def date_of_birth(self, obj: IdentityDocument) -> Any:
        return obj.user.date_of_birth

    @admin.display(description=_("documento"))
    def document_link(self, obj: IdentityDocument) -> str:
        url = reverse("identity_document_file", args=[obj.pk])
        return format_html('<a href="{}" target="_blank" rel="noopener">{}</a>', url, _("Apri il file"))

    def has_review_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.has_perm("piattaforma.review_identitydocument"))

    def _review(
        self, request: HttpRequest, queryset: QuerySet[IdentityDocument], *, approve: bool, reason: str
    ) -> None:
        actor = request_actor(request)
        assert actor is not None
        for document in queryset:
            try:
                actions.identity_document_review(
                    document_id=document.pk, actor=actor, approve=approve, reason=reason
                )
            except actions.IdentityError as exc:
                self.message_user(request, f"{document}: {exc.message}", messages.ERROR)
            else:
                done = _("Documento approvato: %s") if approve else _("Documento rifiutato: %s")
                self.message_user(request, done % document.user, messages.SUCCESS)

    @admin.action(
        description=_("Approva i documenti selezionati (identità verificata)"), permissions=["review"]
    )
    def approve(self, request: HttpRequest, queryset: QuerySet[IdentityDocument]) -> None:
        self._review(request, queryset, approve=True, reason="")

    @admin.action(description=_("Rifiuta i documenti selezionati"), permissions=["review"])
    def reject(self, request: HttpRequest, queryset: QuerySet[IdentityDocument]) -> HttpResponse | None:
        form = DocumentReviewForm(request.POST if "reason" in request.POST else None)
        if form.is_valid():
            self._review(request, queryset, approve=False, reason=form.cleaned_data["reason"])
            return None
        return render(
            request,
            "wallet/admin/reason_form.html",
            {
                **self.admin_site.each_context(request),
                "form": form,
                "queryset": queryset,
                "heading": _("Rifiuto del documento d'identità"),
                "action": request.POST.get("action"),
                "opts": self.model._meta,
            },
        )
