"""The Content-Security-Policy header on Django versions without their own (5.2, for Python 3.11);
the site's closing hours; the staff's sessions (second factor, idle timeout).

Django 6 sends ``SECURE_CSP`` with ``django.middleware.csp.ContentSecurityPolicyMiddleware``; the
settings pick that one when it exists (``CSP_MIDDLEWARE``). This stand-in sends the same policy the
same way: no nonces (our policy has none: no page has an inline script or style), and a header a
view already set is left alone.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.deprecation import MiddlewareMixin
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

HEADER = "Content-Security-Policy"


def build_policy(config: dict[str, list[str] | str | bool | None]) -> str:
    """Render ``{"directive": [values]}`` as a header value, as Django 6's ``build_policy`` does."""
    parts = []
    for directive, values in config.items():
        if values is None or values is False:
            continue
        rendered = "" if values is True else " ".join([values] if isinstance(values, str) else values)
        parts.append(f"{directive} {rendered}".rstrip())
    return "; ".join(parts)


class ContentSecurityPolicyMiddleware(MiddlewareMixin):
    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        config = getattr(settings, "SECURE_CSP", None)
        if config and HEADER not in response:
            response.headers[HEADER] = build_policy(config)
        return response


class SiteClosedMiddleware:
    """During the daily closing ("Orari del sito") players get the closing page; staff keep working."""

    OPEN_PREFIXES = ("/backoffice/", "/static/", "/healthz", "/metrics", "/i18n/", "/account/accedi/")

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> Any:
        from piattaforma import siteops

        if not request.path.startswith(self.OPEN_PREFIXES) and siteops.site_closed():
            user = getattr(request, "user", None)
            if not (user is not None and user.is_authenticated and user.is_staff):
                hours = siteops.site_hours()
                response = render(request, "site_closed.html", {"hours": hours}, status=503)
                response["Retry-After"] = "900"
                return response
        return self.get_response(request)


class StaffSessionMiddleware:
    """Staff and moderators (``twofa.required``): the idle timeout, then the second factor.

    A session idle for more than ``TWOFA_IDLE_MINUTES`` is signed out (the sign-in page says why);
    an unverified one reaches only the two-factor pages and the exit: pages are sent there (to
    enrol first if there is no authenticator yet), APIs get 403 ``twofa_required``. Players pass.
    """

    OPEN_PREFIXES = (
        "/account/due-passaggi/",
        "/account/esci/",
        "/static/",
        "/healthz",
        "/i18n/",
        "/favicon.ico",
    )

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> Any:
        from piattaforma import twofa

        user = getattr(request, "user", None)
        if user is None or not twofa.required(user):
            return self.get_response(request)
        if twofa.idle_expired(request.session):
            logout(request)
            if _wants_json(request):
                message = _("Sessione scaduta per inattività: accedi di nuovo.")
                return JsonResponse({"code": "session_expired", "message": message}, status=401)
            messages.info(request, _("Sessione scaduta per inattività: accedi di nuovo."))
            return redirect_to_login(request.get_full_path() if request.method == "GET" else "/")
        twofa.touch(request.session)
        if user.is_verified() or request.path.startswith(self.OPEN_PREFIXES):
            return self.get_response(request)
        if _wants_json(request):
            message = _("Completa la verifica in due passaggi per continuare.")
            return JsonResponse({"code": "twofa_required", "message": message}, status=403)
        name = "twofa_verify" if twofa.enrolled(user) else "twofa_enrol"
        target = reverse(name)
        if request.method == "GET" and url_has_allowed_host_and_scheme(request.get_full_path(), None):
            target += "?" + urlencode({"next": request.get_full_path()})
        return HttpResponseRedirect(target)


def _wants_json(request: HttpRequest) -> bool:
    return "/api/" in request.path or "application/json" in request.headers.get("Accept", "")


def refusal(request: HttpRequest, *, status: int, code: str, message: str) -> HttpResponse:
    """A refusal before any view ran: JSON (``code``, ``message``) for the API and JSON endpoints,
    a short Italian page for the rest."""
    from django.http import JsonResponse

    accept = request.headers.get("Accept", "")
    wants_json = (
        "/api/" in request.path
        or request.path.endswith(".json")
        or "json" in request.content_type
        or ("application/json" in accept and "text/html" not in accept)
    )
    if wants_json:
        return JsonResponse({"code": code, "message": message}, status=status)
    from django.utils.html import escape

    page = f'<!doctype html><html lang="it"><title>{escape(message)}</title><p>{escape(message)}</p></html>'
    return HttpResponse(page, status=status, content_type="text/html; charset=utf-8")


class NulCharactersMiddleware:
    """Refuse (400 ``bad_characters``) a request with a NUL character in its path, query string or
    form fields, before any view or query sees it (the session cookie: ``piattaforma.sessions``).

    PostgreSQL text cannot hold NUL: a ``%00`` that reached a lookup (a nickname in the path, an
    idempotency key or a partner's nickname in a form) was a 500 there and a silent oddity on
    SQLite. Django's form fields refuse NUL; the values views read directly (``request.POST.get``,
    path parameters) are checked here, in one place. JSON bodies are checked where they are parsed
    (``piattaforma.jsoninput``).
    """

    FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> Any:
        if self._has_nul(request):
            from django.utils.translation import gettext as _

            message = _("Richiesta non valida: il testo contiene caratteri non ammessi.")
            return refusal(request, status=400, code="bad_characters", message=message)
        return self.get_response(request)

    def _has_nul(self, request: HttpRequest) -> bool:
        if "\x00" in request.path or "\x00" in request.path_info:
            return True
        if _any_nul(request.GET):
            return True
        return request.method == "POST" and request.content_type in self.FORM_TYPES and _any_nul(request.POST)


def _any_nul(data: Any) -> bool:
    return any("\x00" in key or any("\x00" in value for value in data.getlist(key)) for key in data)
