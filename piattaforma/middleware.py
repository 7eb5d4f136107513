"""The Content-Security-Policy header on Django versions without their own (5.2, for Python 3.11).

Django 6 sends ``SECURE_CSP`` with ``django.middleware.csp.ContentSecurityPolicyMiddleware``; the
settings pick that one when it exists (``CSP_MIDDLEWARE``). This stand-in sends the same policy the
same way: no nonces (our policy has none: no page has an inline script or style), and a header a
view already set is left alone.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.deprecation import MiddlewareMixin

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
