"""The back-office site (Django admin at /backoffice/), its report pages, and the bases every
app's admin builds on: the audit of every form's change, the read-only admin.

Every app's ``admin`` module imports this one and registers its models on ``site``; this module
imports none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils.timezone import localtime
from django.utils.translation import gettext_lazy as _

from piattaforma import actions, hooks, reports, roles
from piattaforma.models import User

# The admin classes are generic for the type checker only (django-stubs); at run time they are not.
if TYPE_CHECKING:
    ReadOnlyAdminBase = admin.ModelAdmin[Any]
else:
    ReadOnlyAdminBase = admin.ModelAdmin


def request_actor(request: HttpRequest) -> User | None:
    """The back-office user behind ``request``, as the actor of an audit line."""
    return request.user if isinstance(request.user, User) else None  # behind the back-office login


class AuditedAdminMixin:
    """Every add, change and delete made through a back-office form is an audit line too.

    The admin's own ``LogEntry`` is neither chained nor kept; the audit line carries the same change
    message (the fields changed). Actions that mean more (a table's update, a role change) write
    their own line besides this one.
    """

    def log_addition(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        actions.audit_record(
            actor=request_actor(request), action="backoffice.add", target=obj, data={"change": message}
        )
        return super().log_addition(request, obj, message)  # type: ignore[misc]  # a ModelAdmin mixin

    def log_change(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        actions.audit_record(
            actor=request_actor(request), action="backoffice.change", target=obj, data={"change": message}
        )
        return super().log_change(request, obj, message)  # type: ignore[misc]  # a ModelAdmin mixin

    def log_deletions(self, request: HttpRequest, queryset: Any) -> Any:
        for obj in queryset:
            actions.audit_record(
                actor=request_actor(request), action="backoffice.delete", target=obj, data={"repr": str(obj)}
            )
        return super().log_deletions(request, queryset)  # type: ignore[misc]  # a ModelAdmin mixin


class BackofficeSite(admin.AdminSite):
    site_header = _("Back office della piattaforma")
    site_title = _("Back office")
    index_title = _("Amministrazione")

    def has_permission(self, request: HttpRequest) -> bool:
        return roles.backoffice_allowed(request.user)

    def register(self, model_or_iterable: Any, admin_class: Any = None, **options: Any) -> None:
        """Register as usual, with every admin class made to write the audit log (``AuditedAdminMixin``)."""
        admin_class = admin_class or admin.ModelAdmin
        if not issubclass(admin_class, AuditedAdminMixin):
            admin_class = type(
                admin_class.__name__, (AuditedAdminMixin, admin_class), {"__module__": admin_class.__module__}
            )
        super().register(model_or_iterable, admin_class, **options)

    def get_urls(self) -> list[Any]:
        return [*report_urls(self), *super().get_urls()]

    def index(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> Any:
        """The index, headed by what waits for this user (``hooks.staff_waiting``): documents to
        review, withdrawals to approve, reports to decide, each with its count and link."""
        waiting = hooks.staff_waiting(request.user)
        return super().index(request, {**(extra_context or {}), "waiting": waiting})


site = BackofficeSite(name="backoffice")


class ReadOnlyAdminMixin:
    """Records shown in the back office and never added, changed or deleted there, by anybody."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyAdmin(ReadOnlyAdminMixin, ReadOnlyAdminBase):
    """Rows the back office only shows: they change through actions (or never, like the audit log)."""


def _closed(record: dict[str, Any]) -> str:
    return f"{localtime(record['closed_at']):%d/%m %H:%M:%S}"


class FaultRefundForm(forms.Form):
    """A refund for a fault of the platform: the connection it answers for, and why.

    Only a connection the network or the platform ended (and, where the records say so, one cut
    ``during`` the match refunded) may be chosen (``lobby.selectors.connection_records``)."""

    record = forms.TypedChoiceField(label=_("Connessione interrotta"), coerce=int, widget=forms.RadioSelect)
    reason = forms.CharField(label=_("Motivazione"), widget=forms.Textarea, min_length=5)

    def __init__(self, *args: Any, records: list[dict[str, Any]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["record"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [
            (
                r["id"],
                " · ".join(filter(None, (r.get("player"), r["table"], _closed(r), r["ended_by_label"]))),
            )
            for r in records
            if r["platform_side"] and r.get("during", True)
        ]


def documents_waiting(user: Any) -> list[dict[str, Any]]:
    """Identity documents waiting for a review, for those who review them."""
    from django.urls import reverse

    from piattaforma.models import IdentityDocument

    if not user.has_perm("piattaforma.review_identitydocument"):
        return []
    count = IdentityDocument.objects.filter(status=IdentityDocument.Status.PENDING).count()
    url = reverse("backoffice:piattaforma_identitydocument_changelist") + "?status__exact=pending"
    return [{"label": _("Documenti d'identità da esaminare"), "count": count, "url": url}]


hooks.on_staff_waiting(documents_waiting)


# --- reports -------------------------------------------------------------------------------------

REPORT_PERIODS = (7, 30, 90, 365)


def _report_days(request: HttpRequest) -> int:
    try:
        days = int(request.GET.get("giorni", "30"))
    except ValueError:
        return 30
    return days if days in REPORT_PERIODS else 30


def report_urls(admin_site: admin.AdminSite) -> list[Any]:
    """The reports' pages of the back office: every report with its chart, and each one's CSV."""
    return [
        path("rapporti/", admin_site.admin_view(reports_view), name="reports"),
        path("rapporti/<slug:slug>.csv", admin_site.admin_view(report_csv_view), name="report_csv"),
    ]


def reports_view(request: HttpRequest) -> HttpResponse:
    if not roles.has_staff_role(request.user):
        raise PermissionDenied
    days = _report_days(request)
    shown = [
        {
            "report": r,
            "chart": reports.bar_chart(r),
            "rows": [[reports.cell(c, row.get(c.key)) for c in r.columns] for row in r.rows],
        }
        for r in reports.all_reports(days=days)
    ]
    return render(
        request,
        "admin/piattaforma/reports.html",
        {
            **site.each_context(request),
            "shown": shown,
            "days": days,
            "periods": REPORT_PERIODS,
            "title": _("Rapporti"),
        },
    )


def report_csv_view(request: HttpRequest, slug: str) -> HttpResponse:
    if not roles.has_staff_role(request.user):
        raise PermissionDenied
    days = _report_days(request)
    report = next((r for r in reports.all_reports(days=days) if r.slug == slug), None)
    if report is None:
        raise Http404
    response = HttpResponse(reports.to_csv(report), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slug}-{days}giorni.csv"'
    return response
