"""The Content-Security-Policy header on Django versions without their own (5.2, for Python 3.11).

Django 6 sends ``SECURE_CSP`` with ``django.middleware.csp.ContentSecurityPolicyMiddleware``; the
settings pick that one when it exists (``CSP_MIDDLEWARE``). This stand-in sends the same policy the
same way: no nonces (our policy has none: no page has an inline script or style), and a header a
view already set is left alone.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
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
