"""Pages of the conto di gioco (Italian): saldo, movimenti, deposito, prelievo, limiti, autoesclusione."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from piattaforma.converters import small_int
from piattaforma.models import User
from wallet import actions, selectors
from wallet.errors import WalletError
from wallet.forms import AmountForm, LimitsForm, SelfExclusionForm, StatementFilterForm
from wallet.models import Payment
from wallet.money import format_eur


def _user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


@login_required
def balance(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    withdrawals = Payment.objects.filter(
        user=user, direction=Payment.Direction.WITHDRAWAL, status=Payment.Status.PENDING
    ).values("amount", "created_at")
    return render(
        request,
        "wallet/balance.html",
        {
            "balance": selectors.balance_get(user=user),
            "withdrawals": list(withdrawals),
            "limits": selectors.deposit_limits_get(user=user),
        },
    )


@login_required
def statement(request: HttpRequest) -> HttpResponse:
    form = StatementFilterForm(request.GET or None)
    filters = form.cleaned_data if form.is_valid() else {}
    page = selectors.statement_page(
        user=_user(request),
        page=small_int(request.GET.get("page")) or 1,
        kind=filters.get("kind") or None,
        account=filters.get("account") or None,
        date_from=filters.get("date_from"),
        date_to=filters.get("date_to"),
    )
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "wallet/statement.html", {"form": form, "page": page, "query": query.urlencode()})


def _amount_page(request: HttpRequest, *, template: str, do: str) -> HttpResponse:
    user = _user(request)
    form = AmountForm(request.POST or None, initial={"idempotency_key": actions.new_idempotency_key(do)})
    if request.method == "POST" and form.is_valid():
        amount, key = form.cleaned_data["amount"], form.cleaned_data["idempotency_key"]
        try:
            if do == "deposit":
                actions.deposit_create(user=user, amount=amount, idempotency_key=f"{user.pk}:{key}")
                messages.success(request, _("Deposito di %(a)s accreditato.") % {"a": format_eur(amount)})
            else:
                actions.withdrawal_request(user=user, amount=amount, idempotency_key=f"{user.pk}:{key}")
                messages.success(
                    request,
                    _(
                        "Richiesta di prelievo di %(a)s registrata: "
                        "la somma resta vincolata fino all'approvazione."
                    )
                    % {"a": format_eur(amount)},
                )
            return redirect("wallet:balance")
        except WalletError as exc:
            form.add_error(None, exc.message)
    return render(request, template, {"form": form, "balance": selectors.balance_get(user=user)})


@login_required
@require_http_methods(["GET", "POST"])
def deposit(request: HttpRequest) -> HttpResponse:
    return _amount_page(request, template="wallet/deposit.html", do="deposit")


@login_required
@require_http_methods(["GET", "POST"])
def withdrawal(request: HttpRequest) -> HttpResponse:
    return _amount_page(request, template="wallet/withdrawal.html", do="withdrawal")


@login_required
@require_http_methods(["GET", "POST"])
def limits(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    current = selectors.deposit_limits_get(user=user)
    initial = {p: v["amount"] or "" for p, v in current.items()}  # EuroField shows cents as euro
    form = LimitsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        changed = [p for p in LimitsForm.PERIODS if form.cleaned_data[p] != current[p]["amount"]]
        try:
            for period in changed:
                result = actions.deposit_limit_set(user=user, period=period, amount=form.cleaned_data[period])
                if result["amount"] != result["requested"]:
                    messages.info(
                        request,
                        _("L'aumento o la rimozione del limite %(p)s avrà effetto dopo 7 giorni.")
                        % {"p": form.fields[period].label},
                    )
        except WalletError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Limiti di deposito aggiornati."))
            return redirect("wallet:limits")
    return render(request, "wallet/limits.html", {"form": form, "limits": current})


@login_required
@require_http_methods(["GET", "POST"])
def self_exclusion(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    form = SelfExclusionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        days = int(form.cleaned_data["duration"])
        until = timezone.now() + timedelta(days=days) if days else None
        result = actions.user_self_exclude(user=user, until=until, reason=_("Autoesclusione dal conto"))
        messages.success(
            request,
            _("Autoesclusione attiva. Crediti ai tavoli restituiti al conto: %(n)d.")
            % {"n": len(result["cashed_out"])},
        )
        return redirect("wallet:balance")
    return render(request, "wallet/self_exclusion.html", {"form": form})
