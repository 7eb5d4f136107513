"""The player's public card ("scheda personale"): what every player sees by clicking a nickname."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from moderation import selectors
from piattaforma.models import User


@login_required
@require_GET
def player_card(request: HttpRequest, nickname: str) -> HttpResponse:
    """Nickname, member since, effective warnings (rules 004) and any freeroll ban in force."""
    player = get_object_or_404(User, nickname__iexact=nickname[:20])
    return render(
        request,
        "moderation/card.html",
        {"player": player, "conduct": selectors.conduct_summary(player)},
    )
