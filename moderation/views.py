"""Moderation's pages and JSON endpoints (thin: parse the request, call one action, show the result)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from moderation import actions, selectors
from moderation.errors import ModerationError
from moderation.models import Category, Report
from piattaforma import jsoninput, roles


def _json_body(request: HttpRequest) -> dict[str, Any] | None:
    """The request's JSON object, or None: read through ``jsoninput`` (deep nesting, lone
    surrogates and NUL are refused there, not a 500 here or in the database; a form is not JSON)."""
    try:
        return jsoninput.loads_request(request)
    except jsoninput.BadJson:
        return None


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


# --- the moderators' queue (moderators and staff only) ---------------------------------------------


View = Callable[..., HttpResponse]


def _only(allowed: Callable[[Any], bool]) -> Callable[[View], View]:
    """Let through only users ``allowed`` accepts: others get 403, anonymous visitors the login page."""

    def decorator(view: View) -> View:
        @wraps(view)
        @login_required
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not allowed(request.user):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


_moderator_only = _only(roles.can_moderate)  # moderators and staff
_staff_only = _only(roles.has_staff_role)  # HELP is the staff's: not moderators


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(label=_l("Decisione"), choices=Report.Decision.choices)
    reason = forms.CharField(
        label=_l("Motivazione"), widget=forms.Textarea(attrs={"rows": 2}), max_length=1000
    )
    minutes = forms.IntegerField(label=_l("Minuti di silenzio"), required=False)
    days = forms.IntegerField(label=_l("Giorni di sospensione della chat"), required=False)


@_moderator_only
def queue_page(request: HttpRequest) -> HttpResponse:
    staff = roles.has_staff_role(request.user)
    return render(
        request,
        "moderation/queue.html",
        {
            "cases": selectors.queue(user=request.user),
            "held": selectors.held_lines(user=request.user),
            "staff": staff,
        },
    )


@_moderator_only
@require_GET
def queue_api(request: HttpRequest) -> JsonResponse:
    """The queue's open cases and held lines as JSON: the queue page checks it to announce new ones."""
    cases = selectors.queue(user=request.user)
    return JsonResponse(
        {
            "cases": [{"id": c["id"], "nickname": c["nickname"]} for c in cases],
            "held": len(selectors.held_lines(user=request.user)),
        }
    )


@_moderator_only
@require_POST
def line_review(request: HttpRequest, line_id: int) -> HttpResponse:
    """Release (``esito=mostra``) or reject (``esito=rifiuta``) a held line."""
    verdict = request.POST.get("esito")
    if verdict not in ("mostra", "rifiuta"):
        messages.error(request, _("Scelta non valida."))
        return redirect("moderation:queue")
    try:
        actions.chat_line_review(
            line_id=line_id,
            moderator=request.user,  # type: ignore[arg-type]  # behind the moderators-only check
            release=verdict == "mostra",
        )
    except ModerationError as exc:
        messages.error(request, exc.message)
        return redirect("moderation:queue")
    done = _("Messaggio pubblicato.") if verdict == "mostra" else _("Messaggio respinto.")
    messages.success(request, done)
    return redirect("moderation:queue")


@_staff_only
def help_desk(request: HttpRequest) -> HttpResponse:
    """The staff's HELP desk: the players' conversations, and the one chosen (``?giocatore=<id>``)."""
    threads = selectors.help_threads()
    try:
        chosen = int(request.GET.get("giocatore", "") or 0)
    except ValueError:
        chosen = 0
    current = next((t for t in threads if t["player"] == chosen), None)
    return render(request, "moderation/help_desk.html", {"threads": threads, "current": current})


@login_required
@require_POST
def help_close(request: HttpRequest, player_id: int | None = None) -> HttpResponse:
    """Close a HELP conversation: the staff from the desk (``player_id``), a player his own (none)."""
    own = player_id is None or player_id == request.user.pk
    try:
        actions.help_thread_close(
            actor=request.user,  # type: ignore[arg-type]  # behind login_required
            player_id=request.user.pk if player_id is None else player_id,
        )
    except ModerationError as exc:
        if exc.code == "not_allowed":
            raise PermissionDenied from exc
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Conversazione HELP chiusa."))
    return redirect("lobby:lobby" if own else "moderation:help_desk")


@_staff_only
def help_threads_api(request: HttpRequest) -> JsonResponse:
    """The HELP conversations as JSON (the desk refreshes its list)."""
    return JsonResponse({"threads": selectors.help_threads()})


@_moderator_only
def case_page(request: HttpRequest, report_id: int) -> HttpResponse:
    staff = roles.has_staff_role(request.user)
    cases = Report.objects.select_related("target", "claimed_by", "decided_by")
    report = get_object_or_404(cases if staff else selectors.outside_help(cases), pk=report_id)
    decisions = [
        (v, label) for v, label in Report.Decision.choices if v in actions.MODERATOR_DECISIONS or staff
    ]
    suggested = selectors.suggested_decision(user_id=report.target_id)
    return render(
        request,
        "moderation/case.html",
        {
            "report": report,
            "detail": selectors.case_detail(report=report, staff=staff),
            "mine": report.claimed_by_id == request.user.pk,
            "can_claim": report.status != Report.Status.CLOSED
            and report.claimed_by_id != request.user.pk
            and (report.status != Report.Status.ESCALATED or staff),
            "staff": staff,
            "decisions": decisions,
            "suggested": suggested,
            "form": DecisionForm(
                initial={"minutes": suggested["minutes"] or 10, "days": suggested["days"] or 7}
            ),
        },
    )


@_moderator_only
@require_POST
def case_claim(request: HttpRequest, report_id: int) -> HttpResponse:
    try:
        actions.report_claim(report_id=report_id, moderator=request.user)  # type: ignore[arg-type]  # behind the moderators-only check
    except ModerationError as exc:
        messages.error(request, exc.message)
    return redirect("moderation:case", report_id=report_id)


@_moderator_only
@require_POST
def case_decide(request: HttpRequest, report_id: int) -> HttpResponse:
    form = DecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Decisione non valida: controlla i campi."))
        return redirect("moderation:case", report_id=report_id)
    data = form.cleaned_data
    try:
        report = actions.report_decide(
            report_id=report_id,
            moderator=request.user,  # type: ignore[arg-type]  # behind the moderators-only check
            decision=data["decision"],
            reason=data["reason"],
            minutes=data["minutes"],
            days=data["days"],
        )
    except ModerationError as exc:
        messages.error(request, exc.message)
        return redirect("moderation:case", report_id=report_id)
    messages.success(
        request, _("Decisione registrata: %(decision)s.") % {"decision": report.get_decision_display()}
    )
    return redirect("moderation:queue")
