"""Pages of the conto di gioco (Italian): saldo, movimenti, deposito, prelievo, limiti, autoesclusione."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from piattaforma.converters import small_int
from piattaforma.models import User
from wallet import actions, selectors
from wallet.errors import WalletError
from wallet.forms import AmountForm, LimitsForm, PlayLimitsForm, SelfExclusionForm, StatementFilterForm
from wallet.models import Payment, PlayLimit, TransactionKind
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
    # Withdrawals waiting for approval have no posting yet (their money is only reserved): shown
    # above the movements, on the first page, when the filters do not exclude them.
    shows_withdrawals = filters.get("kind") in (None, "", TransactionKind.WITHDRAWAL) and filters.get(
        "account"
    ) in (None, "", "cash")
    pending = (
        selectors.pending_withdrawals_of(user=_user(request))
        if page.number == 1 and shows_withdrawals
        else []
    )
    return render(
        request,
        "wallet/statement.html",
        {"form": form, "page": page, "query": query.urlencode(), "pending_withdrawals": pending},
    )


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
    return render(
        request,
        template,
        {"form": form, "balance": selectors.balance_get(user=user), "verified": user.identity_verified},
    )


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


@login_required
@require_http_methods(["GET", "POST"])
def play_limits(request: HttpRequest) -> HttpResponse:
    """Loss limits, session-time limits and the reality-check interval ("Limiti di gioco")."""
    user = _user(request)
    current = {kind: selectors.play_limits_get(user=user, kind=kind) for kind in PlayLimit.Kind.values}
    initial: dict[str, object] = {
        f"{kind}_{period}": current[kind][period]["amount"] or "" for kind, period in PlayLimitsForm.FIELDS
    }
    initial["reality_check_minutes"] = user.reality_check_minutes
    form = PlayLimitsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            for kind, period in PlayLimitsForm.FIELDS:
                wanted = data[f"{kind}_{period}"]
                if wanted == current[kind][period]["amount"]:
                    continue
                result = actions.play_limit_set(user=user, kind=kind, period=period, amount=wanted)
                if result["amount"] != result["requested"]:
                    messages.info(
                        request,
                        _("L'aumento o la rimozione del limite «%(l)s» avrà effetto dopo 7 giorni.")
                        % {"l": form.fields[f"{kind}_{period}"].label},
                    )
            if data["reality_check_minutes"] != user.reality_check_minutes:
                actions.reality_check_set(user=user, minutes=data["reality_check_minutes"])
        except WalletError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Limiti di gioco aggiornati."))
            return redirect("wallet:play_limits")
    pending = [
        {"kind": kind, "period": period, **current[kind][period]}
        for kind, period in PlayLimitsForm.FIELDS
        if current[kind][period]["pending_from"]
    ]
    return render(request, "wallet/play_limits.html", {"form": form, "pending": pending})


REALITY_ACK = "reality_check_ack"


@never_cache
@login_required
@require_GET
def reality_check(request: HttpRequest) -> JsonResponse:
    """The reality check's state for the page's reminder (static/js/reality-check.js polls it)."""
    user = _user(request)
    ack = request.session.get(REALITY_ACK)
    return JsonResponse(
        selectors.reality_check_get(user=user, acknowledged=ack if isinstance(ack, dict) else None)
    )


@login_required
@require_POST
def reality_check_continue(request: HttpRequest) -> JsonResponse:
    """ "Continua": the next reminder comes one interval from now."""
    user = _user(request)
    state = selectors.reality_check_get(user=user, acknowledged=None)
    if state["playing"]:
        request.session[REALITY_ACK] = {"session": state["session"], "at": timezone.now().isoformat()}
    return JsonResponse({"ok": True})


@login_required
@require_POST
def reality_check_stop(request: HttpRequest) -> HttpResponse:
    """ "Esci": stand up from every real-money table at the end of the hand."""
    actions.play_stop(user=_user(request))
    messages.success(
        request, _("Lasci i tavoli: alla fine della mano in corso il credito torna sul conto di gioco.")
    )
    return redirect("wallet:balance")
