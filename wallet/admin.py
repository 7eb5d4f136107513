"""Back office of the wallet: the ledger read-only, manual adjustments, withdrawal approval, reconciliation.

Every write goes through wallet.actions; the admin only parses input. Adjustments and reversals
need ``wallet.adjust_ledger`` (a reversal and a large adjustment
are decided by a second staff member), withdrawal decisions ``wallet.approve_withdrawal``.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

import piattaforma.converters  # noqa: F401  # registers <id:...>
from piattaforma.backoffice import ReadOnlyAdmin, site  # the ledger is append-only
from piattaforma.models import User
from wallet import actions, selectors
from wallet.admin_columns import euro_column
from wallet.errors import WalletError
from wallet.forms import EuroField
from wallet.models import (
    Account,
    AdjustmentRequest,
    DepositLimit,
    Hold,
    Payment,
    Posting,
    ReconciliationRun,
    ReversalRequest,
    Transaction,
    Withdrawal,
)
from wallet.money import format_eur


def _staff(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


class AdjustmentForm(forms.Form):
    direction = forms.ChoiceField(
        label=_("Tipo"), choices=[("credit", _("Accredito")), ("debit", _("Addebito"))]
    )
    amount = EuroField(label=_("Importo (€)"))
    reason = forms.CharField(label=_("Motivazione (obbligatoria)"), widget=forms.Textarea, min_length=5)
    idempotency_key = forms.CharField(widget=forms.HiddenInput)


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Motivazione"), widget=forms.Textarea, min_length=5)


class RequestForm(ReasonForm):
    """A reason and the form's own idempotency key: a double submit asks once."""

    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=80)


@admin.register(Account, site=site)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ("ref", "kind", "realm", "owner", "balance_eur", "held_eur", "closed_at")
    list_filter = ("kind", "realm")
    search_fields = ("ref", "owner__nickname")
    list_select_related = ("owner",)
    readonly_fields = (
        "kind",
        "realm",
        "ref",
        "owner",
        "balance_eur",
        "held_eur",
        "transferred_in",
        "created_at",
        "closed_at",
        "links",
    )
    fields = readonly_fields

    @admin.display(description=_("saldo"), ordering="balance")
    def balance_eur(self, obj: Account) -> str:
        return format_eur(obj.balance)

    @admin.display(description=_("vincolato"), ordering="held")
    def held_eur(self, obj: Account) -> str:
        return format_eur(obj.held)

    @admin.display(description=_("operazioni"))
    def links(self, obj: Account) -> str:
        postings = reverse("backoffice:wallet_posting_changelist") + f"?account__id__exact={obj.pk}"
        adjust = reverse("backoffice:wallet_account_adjust", args=[obj.pk])
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">{}</a>',
            postings,
            _("Registrazioni"),
            adjust,
            _("Rettifica manuale"),
        )

    def get_urls(self) -> list[Any]:
        return [
            path(
                "<id:pk>/rettifica/",
                self.admin_site.admin_view(self.adjust_view),
                name="wallet_account_adjust",
            ),
            *super().get_urls(),
        ]

    def adjust_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """Manual adjustment with a required reason (permission wallet.adjust_ledger; audited)."""
        if not request.user.has_perm("wallet.adjust_ledger"):
            raise PermissionDenied
        account = get_object_or_404(Account, pk=pk)
        form = AdjustmentForm(
            request.POST or None, initial={"idempotency_key": actions.new_idempotency_key("adj")}
        )
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            amount = data["amount"] if data["direction"] == "credit" else -data["amount"]
            try:
                result = actions.adjustment_request(
                    account_id=account.pk,
                    amount=amount,
                    reason=data["reason"],
                    actor=_staff(request),
                    idempotency_key=data["idempotency_key"],
                )
            except WalletError as exc:
                form.add_error(None, exc.message)
            else:
                if result["status"] == "pending":
                    message = _(
                        "Rettifica oltre %(limit)s: registrata come richiesta, la approva un altro membro "
                        "dello staff (Rettifiche da approvare)."
                    ) % {"limit": format_eur(actions.adjustment_threshold())}
                    self.message_user(request, message, messages.WARNING)
                else:
                    self.message_user(request, _("Rettifica registrata."), messages.SUCCESS)
                return HttpResponseRedirect(reverse("backoffice:wallet_account_change", args=[account.pk]))
        limit = format_eur(actions.adjustment_threshold())
        return render(
            request,
            "wallet/admin/reason_form.html",
            {
                **self.admin_site.each_context(request),
                "form": form,
                "heading": _("Rettifica manuale"),
                "summary": f"{account} · {format_eur(account.balance)} · "
                + _("oltre %(limit)s la approva un altro membro dello staff") % {"limit": limit},
                "opts": self.model._meta,
            },
        )


class PostingInline(admin.TabularInline):  # type: ignore[type-arg]  # django-stubs' ModelAdmin is generic in its model
    model = Posting
    amount_eur = euro_column("amount", _("importo"))
    balance_after_eur = euro_column("balance_after", _("saldo dopo"))
    fields = ("account", "amount_eur", "balance_after_eur")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Transaction, site=site)
class TransactionAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "kind", "realm", "memo", "actor", "id")
    list_filter = ("kind", "realm")
    search_fields = ("=id", "memo")
    date_hierarchy = "created_at"
    readonly_fields = ("id", "kind", "realm", "created_at", "memo", "data", "reverses", "actor")
    inlines = (PostingInline,)
    actions = ("reverse_transactions",)

    def has_adjust_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.has_perm("wallet.adjust_ledger"))

    @admin.action(description=_("Chiedi lo storno delle transazioni selezionate"), permissions=["adjust"])
    def reverse_transactions(
        self, request: HttpRequest, queryset: QuerySet[Transaction]
    ) -> HttpResponse | None:
        """Ask for the reversal of each transaction: another staff member approves it (four eyes)."""
        form = RequestForm(
            request.POST if "reason" in request.POST else None,
            initial={"idempotency_key": actions.new_idempotency_key("rev")},
        )
        if form.is_valid():
            for tx in queryset:
                try:
                    actions.reversal_request(
                        transaction_id=str(tx.pk),
                        reason=form.cleaned_data["reason"],
                        actor=_staff(request),
                        idempotency_key=f"{form.cleaned_data['idempotency_key']}:{tx.pk}",
                    )
                except WalletError as exc:
                    self.message_user(request, f"{tx}: {exc.message}", messages.ERROR)
                else:
                    self.message_user(
                        request,
                        _("%s: storno richiesto, lo approva un altro membro dello staff.") % tx,
                        messages.WARNING,
                    )
            return None
        return _reason_page(self, request, queryset, form, _("Richiesta di storno"))


@admin.register(Posting, site=site)
class PostingAdmin(ReadOnlyAdmin):
    amount_eur = euro_column("amount", _("importo"))
    balance_after_eur = euro_column("balance_after", _("saldo dopo"))
    list_display = ("id", "transaction", "account", "amount_eur", "balance_after_eur")
    list_filter = ("account__kind", "account__realm")
    search_fields = ("account__ref", "account__owner__nickname")
    list_select_related = ("transaction", "account")
    fields = ("transaction", "account", "amount_eur", "balance_after_eur")
    readonly_fields = fields


def _reason_page(
    model_admin: admin.ModelAdmin,  # type: ignore[type-arg]  # django-stubs' ModelAdmin is generic in its model
    request: HttpRequest,
    queryset: QuerySet[Any],
    form: forms.Form,
    heading: Any,
) -> HttpResponse:
    return render(
        request,
        "wallet/admin/reason_form.html",
        {
            **model_admin.admin_site.each_context(request),
            "form": form,
            "heading": heading,
            "queryset": queryset,
            "action": request.POST.get("action"),
            "opts": model_admin.model._meta,
        },
    )


@admin.register(Withdrawal, site=site)
class WithdrawalAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "user", "amount_eur", "status", "decided_by", "decided_at")
    list_filter = ("status",)
    search_fields = ("user__nickname",)
    list_select_related = ("user", "decided_by")
    readonly_fields = (
        "user",
        "amount",
        "status",
        "provider",
        "provider_ref",
        "created_at",
        "decided_by",
        "reason",
    )
    actions = ("approve", "reject")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Withdrawal]:
        return super().get_queryset(request).filter(direction=Payment.Direction.WITHDRAWAL)

    @admin.display(description=_("importo"), ordering="amount")
    def amount_eur(self, obj: Payment) -> str:
        return format_eur(obj.amount)

    def has_decide_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.has_perm("wallet.approve_withdrawal"))

    @admin.action(description=_("Approva e paga i prelievi selezionati"), permissions=["decide"])
    def approve(self, request: HttpRequest, queryset: QuerySet[Withdrawal]) -> None:
        for payment in queryset:
            try:
                actions.withdrawal_approve(payment_id=payment.pk, actor=_staff(request))
            except WalletError as exc:
                self.message_user(request, f"{payment}: {exc.message}", messages.ERROR)
            else:
                self.message_user(
                    request,
                    _("Prelievo di %(amount)s a %(nickname)s approvato e pagato.")
                    % {"amount": format_eur(payment.amount), "nickname": payment.user.nickname},
                    messages.SUCCESS,
                )

    @admin.action(description=_("Rifiuta i prelievi selezionati"), permissions=["decide"])
    def reject(self, request: HttpRequest, queryset: QuerySet[Withdrawal]) -> HttpResponse | None:
        form = ReasonForm(request.POST if "reason" in request.POST else None)
        if form.is_valid():
            for payment in queryset:
                try:
                    actions.withdrawal_reject(
                        payment_id=payment.pk, actor=_staff(request), reason=form.cleaned_data["reason"]
                    )
                except WalletError as exc:
                    self.message_user(request, f"{payment}: {exc.message}", messages.ERROR)
            return None
        return _reason_page(self, request, queryset, form, _("Rifiuto del prelievo"))


def _approve_each(
    model_admin: admin.ModelAdmin[Any], request: HttpRequest, queryset: QuerySet[Any], approve: Any, done: Any
) -> None:
    """Four eyes, the second pair: approve each selected request, one message each."""
    for item in queryset:
        try:
            approve(request_id=item.pk, actor=_staff(request))
        except WalletError as exc:
            model_admin.message_user(request, f"{item}: {exc.message}", messages.ERROR)
        else:
            model_admin.message_user(request, done % item, messages.SUCCESS)


def _reject_each(
    model_admin: admin.ModelAdmin[Any], request: HttpRequest, queryset: QuerySet[Any], reject: Any, title: Any
) -> HttpResponse | None:
    """Reject each selected request, after a page that asks the reason."""
    form = ReasonForm(request.POST if "reason" in request.POST else None)
    if form.is_valid():
        for item in queryset:
            try:
                reject(request_id=item.pk, actor=_staff(request), reason=form.cleaned_data["reason"])
            except WalletError as exc:
                model_admin.message_user(request, f"{item}: {exc.message}", messages.ERROR)
        return None
    return _reason_page(model_admin, request, queryset, form, title)


@admin.register(AdjustmentRequest, site=site)
class AdjustmentRequestAdmin(ReadOnlyAdmin):
    """Adjustments above the threshold, waiting for a second staff member (four eyes)."""

    list_display = (
        "requested_at",
        "account",
        "amount_eur",
        "requested_by",
        "status",
        "decided_by",
        "decided_at",
    )
    list_filter = ("status",)
    search_fields = ("account__ref", "account__owner__nickname", "reason")
    list_select_related = ("account", "requested_by", "decided_by")
    readonly_fields = (
        "account",
        "amount_eur",
        "reason",
        "requested_by",
        "requested_at",
        "status",
        "decided_by",
        "decided_at",
        "decision_reason",
        "transaction",
    )
    fields = readonly_fields
    actions = ("approve", "reject")

    @admin.display(description=_("importo"), ordering="amount")
    def amount_eur(self, obj: AdjustmentRequest) -> str:
        return format_eur(obj.amount)

    def has_decide_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.has_perm("wallet.adjust_ledger"))

    @admin.action(description=_("Approva e registra le rettifiche selezionate"), permissions=["decide"])
    def approve(self, request: HttpRequest, queryset: QuerySet[AdjustmentRequest]) -> None:
        _approve_each(self, request, queryset, actions.adjustment_approve, _("Rettifica approvata: %s"))

    @admin.action(description=_("Respingi le rettifiche selezionate"), permissions=["decide"])
    def reject(self, request: HttpRequest, queryset: QuerySet[AdjustmentRequest]) -> HttpResponse | None:
        return _reject_each(self, request, queryset, actions.adjustment_reject, _("Rifiuto della rettifica"))


@admin.register(ReversalRequest, site=site)
class ReversalRequestAdmin(ReadOnlyAdmin):
    """Reversals asked by one staff member, waiting for another (four eyes)."""

    list_display = ("requested_at", "original", "requested_by", "status", "decided_by", "decided_at")
    list_filter = ("status",)
    search_fields = ("=original__id", "reason")
    list_select_related = ("original", "requested_by", "decided_by")
    readonly_fields = (
        "original",
        "reason",
        "requested_by",
        "requested_at",
        "status",
        "decided_by",
        "decided_at",
        "decision_reason",
        "reversal",
    )
    fields = readonly_fields
    actions = ("approve", "reject")

    def has_decide_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.has_perm("wallet.adjust_ledger"))

    @admin.action(description=_("Approva ed esegui gli storni selezionati"), permissions=["decide"])
    def approve(self, request: HttpRequest, queryset: QuerySet[ReversalRequest]) -> None:
        _approve_each(self, request, queryset, actions.reversal_approve, _("Storno approvato: %s"))

    @admin.action(description=_("Respingi gli storni selezionati"), permissions=["decide"])
    def reject(self, request: HttpRequest, queryset: QuerySet[ReversalRequest]) -> HttpResponse | None:
        return _reject_each(self, request, queryset, actions.reversal_reject, _("Rifiuto dello storno"))


@admin.register(Payment, site=site)
class PaymentAdmin(ReadOnlyAdmin):
    amount_eur = euro_column("amount", _("importo"))
    list_display = ("created_at", "user", "direction", "amount_eur", "status", "provider", "provider_ref")
    list_filter = ("direction", "status", "provider")
    search_fields = ("user__nickname", "provider_ref")
    list_select_related = ("user",)


@admin.register(Hold, site=site)
class HoldAdmin(ReadOnlyAdmin):
    amount_eur = euro_column("amount", _("importo"))
    list_display = ("created_at", "account", "destination", "amount_eur", "purpose", "status", "expires_at")
    list_filter = ("status", "purpose")
    list_select_related = ("account", "destination")


@admin.register(DepositLimit, site=site)
class DepositLimitAdmin(ReadOnlyAdmin):
    amount_eur = euro_column("amount", _("limite"))
    pending_amount_eur = euro_column("pending_amount", _("limite in attesa"))
    list_display = ("user", "period", "amount_eur", "pending_amount_eur", "pending_remove", "pending_from")
    list_filter = ("period",)
    search_fields = ("user__nickname",)


@admin.register(ReconciliationRun, site=site)
class ReconciliationRunAdmin(ReadOnlyAdmin):
    """The reconciliation report: every nightly run, and a button to run one now."""

    list_display = ("created_at", "ok", "accounts_checked", "realm_totals")
    list_filter = ("ok",)
    readonly_fields = ("created_at", "ok", "accounts_checked", "mismatches", "realm_totals")
    change_list_template = "wallet/admin/reconciliation_changelist.html"

    def get_urls(self) -> list[Any]:
        return [
            path("esegui/", self.admin_site.admin_view(self.run_now), name="wallet_reconciliation_run"),
            *super().get_urls(),
        ]

    def run_now(self, request: HttpRequest) -> HttpResponse:
        if request.method != "POST" or not request.user.has_perm("wallet.view_reconciliationrun"):
            raise PermissionDenied
        result = actions.ledger_reconcile()
        level = messages.SUCCESS if result["ok"] else messages.ERROR
        self.message_user(
            request,
            _("Riconciliazione eseguita: %(n)d conti, %(d)d differenze.")
            % {"n": result["accounts_checked"], "d": len(result["mismatches"]) + len(result["unbalanced"])},
            level,
        )
        return HttpResponseRedirect(reverse("backoffice:wallet_reconciliationrun_changelist"))

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        extra = {"pending_withdrawals": len(selectors.pending_withdrawals()), **(extra_context or {})}
        return super().changelist_view(request, extra_context=extra)
