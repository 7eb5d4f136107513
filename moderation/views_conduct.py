"""The player's public card ("scheda personale"): what every player sees by clicking a nickname."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from moderation import selectors
from piattaforma import roles
from piattaforma.converters import small_int
from piattaforma.models import User


@login_required
@require_GET
def player_card(request: HttpRequest, nickname: str) -> HttpResponse:
    """Nickname, member since, effective warnings (rules 004) and any freeroll ban in force."""
    player = get_object_or_404(User, nickname__iexact=nickname[:20])
    # moderators and staff also see his chat sanctions (a mute just given among them); players do not
    sanctions = (
        selectors.chat_sanctions(user_id=player.pk, now=timezone.now())
        if roles.can_moderate(request.user)
        else None
    )
    return render(
        request,
        "moderation/card.html",
        {"player": player, "conduct": selectors.conduct_summary(player), "sanctions": sanctions},
    )


@require_GET
def conduct_api(request: HttpRequest) -> JsonResponse:
    """The player's own warnings and automatic measures (``?torneo=<id>``: of one tournament), as the
    end-of-match summary shows them ("A fine partita … sono sempre visualizzati tutti i provvedimenti")."""
    if not request.user.is_authenticated:
        return JsonResponse({"code": "login_required", "message": _("Accedi per continuare")}, status=403)
    raw = request.GET.get("torneo")
    tournament = small_int(raw, digits=18) if raw is not None else None
    if raw is not None and (tournament is None or tournament <= 0):
        return JsonResponse({"code": "bad_request", "message": _("Richiesta non valida")}, status=400)
    summary = selectors.conduct_summary(request.user, tournament_id=tournament)
    return JsonResponse(
        {
            **{k: summary[k] for k in ("received", "completed_turns", "bonus", "effective")},
            "freeroll_ban_until": _iso(summary["freeroll_ban_until"]),
            "tournament_block_until": _iso(summary["tournament_block_until"]),
            "measures": [
                {**m, "at": _iso(m["at"]), "ends_at": _iso(m["ends_at"])} for m in summary["measures"]
            ],
        }
    )


def _iso(at: datetime | None) -> str | None:
    return at.isoformat() if at else None
