"""The staff's collusion and dumping dashboard (staff only: moderators and players get 403)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l
from django.views.decorators.http import require_GET, require_POST

from moderation import collusion, dumping, selectors
from moderation.errors import ModerationError
from moderation.models import PairSignal, PlayerSignal
from piattaforma import roles
from piattaforma.models import User


def _staff_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Let only staff through: moderators and players get 403, anonymous visitors the login page."""

    @wraps(view)
    @login_required
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not roles.has_staff_role(request.user):
            raise PermissionDenied(_("I segnali di collusione sono riservati allo staff."))
        return view(request, *args, **kwargs)

    return wrapped


class SuspendForm(forms.Form):
    reason = forms.CharField(label=_l("Motivazione"), min_length=dumping.REASON_MIN, max_length=1000)


@_staff_only
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "moderation/signals.html",
        {**selectors.signals_dashboard(), "flag_score": collusion.FLAG_SCORE},
    )


@_staff_only
@require_GET
def pair_page(request: HttpRequest, a: int, b: int) -> HttpResponse:
    if a >= b:
        raise Http404
    pair = get_object_or_404(PairSignal.objects.select_related("a", "b"), a_id=a, b_id=b)
    return render(
        request,
        "moderation/signals_pair.html",
        {
            "pair": pair,
            "one_way": round(100 * collusion.Pair(pair.hands, pair.a_to_b, pair.b_to_a).one_way),
            "flagged": pair.score >= collusion.FLAG_SCORE,
            "hands": selectors.signal_hands(user_id=a, other_id=b),
        },
    )


@_staff_only
@require_GET
def player_page(request: HttpRequest, user_id: int) -> HttpResponse:
    player = get_object_or_404(User, pk=user_id)
    signal = PlayerSignal.objects.filter(user_id=user_id).first()
    return render(
        request,
        "moderation/signals_player.html",
        {
            "player": player,
            "signal": signal,
            "flagged": bool(signal and signal.score >= collusion.FLAG_SCORE),
            "pairs": selectors.player_pairs(user_id=user_id),
            "hands": selectors.signal_hands(user_id=user_id, limit=50),
            "can_suspend": player.status != User.Status.SUSPENDED
            and roles.may_manage_user(request.user, player)
            and player.pk != request.user.pk,
            "form": SuspendForm(),
        },
    )


@_staff_only
@require_POST
def player_suspend(request: HttpRequest, user_id: int) -> HttpResponse:
    form = SuspendForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Scrivi la motivazione (almeno 5 caratteri)."))
        return redirect("moderation:signals_player", user_id=user_id)
    try:
        target = dumping.account_suspend_pending_review(
            actor=request.user,  # type: ignore[arg-type]  # behind the staff-only check
            user_id=user_id,
            reason=form.cleaned_data["reason"],
            evidence=request.POST.get("evidence", ""),
        )
    except ModerationError as exc:
        messages.error(request, exc.message)
        return redirect("moderation:signals_player", user_id=user_id)
    messages.success(
        request, _("Conto di %(nick)s sospeso in attesa di verifica.") % {"nick": target.nickname}
    )
    return redirect("moderation:signals_player", user_id=user_id)
