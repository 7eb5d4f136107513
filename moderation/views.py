"""Moderation's pages and JSON endpoints (thin: parse the request, call one action, show the result)."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from moderation import actions, selectors
from moderation.errors import ModerationError
from moderation.models import Category


def _json_body(request: HttpRequest) -> dict[str, Any] | None:
    try:
        body = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        return None
    return body if isinstance(body, dict) else None


def _login_required() -> JsonResponse:
    return JsonResponse({"code": "login_required", "message": _("Accedi per continuare")}, status=403)


def _bad_request() -> JsonResponse:
    return JsonResponse({"code": "bad_request", "message": _("Richiesta non valida")}, status=400)


@require_http_methods(["GET", "POST"])
def report_api(request: HttpRequest) -> JsonResponse:
    """GET: the reasons to choose from. POST ``{"line"|"nickname", "channel", "reason", "note"}``: report."""
    if not request.user.is_authenticated:
        return _login_required()
    if request.method == "GET":
        return JsonResponse({"reasons": [{"value": v, "label": str(label)} for v, label in Category.choices]})
    body = _json_body(request)
    if body is None:
        return _bad_request()
    line, nickname, channel = body.get("line"), body.get("nickname", ""), body.get("channel", "")
    reason, note = body.get("reason"), body.get("note", "")
    if (line is not None and type(line) is not int) or not all(
        isinstance(x, str) for x in (nickname, channel, reason, note)
    ):
        return _bad_request()
    try:
        entry, merged = actions.report_file(
            reporter=request.user,  # type: ignore[arg-type]  # authenticated above
            reason=reason,
            line_id=line,
            nickname=nickname,
            channel=channel,
            note=note,
        )
    except ModerationError as exc:
        return JsonResponse(exc.as_dict(), status=400)
    message = _("Segnalazione inviata: un moderatore la esaminerà. Grazie.")
    return JsonResponse({"report": entry.report_id, "merged": merged, "message": message}, status=201)


@require_http_methods(["GET", "POST"])
def notices_api(request: HttpRequest) -> JsonResponse:
    """GET: the player's unread notices. POST ``{"read": [ids]}``: mark them read."""
    if not request.user.is_authenticated:
        return _login_required()
    if request.method == "POST":
        body = _json_body(request)
        ids = body.get("read") if body else None
        if not isinstance(ids, list) or not all(type(i) is int for i in ids) or len(ids) > 100:
            return _bad_request()
        actions.notices_mark_read(user=request.user, ids=ids)  # type: ignore[arg-type]  # authenticated
    return JsonResponse({"notices": selectors.notices_unread(user_id=request.user.pk)})
