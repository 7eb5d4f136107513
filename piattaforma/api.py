"""API conventions: every error carries a stable ``code`` and an Italian ``message``."""

from __future__ import annotations

from typing import Any

from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Wrap DRF's errors as ``{"code": ..., "message": ..., "details": ...}``."""
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    code = getattr(exc, "default_code", "error")
    detail = response.data
    message = (
        detail.get("detail") if isinstance(detail, dict) and "detail" in detail else "Richiesta non valida"
    )
    body: dict[str, Any] = {"code": str(getattr(message, "code", code) or code), "message": str(message)}
    if not (isinstance(detail, dict) and set(detail) == {"detail"}):
        body["details"] = detail
    response.data = body
    return response
