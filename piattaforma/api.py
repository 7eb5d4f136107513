"""API conventions: every error carries a stable ``code`` and an Italian ``message``."""

from __future__ import annotations

from typing import IO, Any

from rest_framework import serializers
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from piattaforma import jsoninput


class SafeJSONParser(JSONParser):  # type: ignore[misc]  # DRF ships no type stubs
    """DRF's JSON parser reading through ``piattaforma.jsoninput``: nesting, NaN, huge numbers and
    lone surrogates are a 400 ``parse_error`` (DRF's own let a ``RecursionError`` through: a 500)."""

    def parse(self, stream: IO[bytes], media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return jsoninput.loads(stream.read(jsoninput.MAX_BYTES + 1))
        except jsoninput.BadJson as exc:
            raise ParseError(exc.message) from None


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


class ErrorSerializer(serializers.Serializer[dict[str, Any]]):  # type: ignore[misc]  # DRF: no stubs
    """Every refusal of the API (the schema documents it for each status an endpoint can answer)."""

    code = serializers.CharField(help_text="Codice stabile dell'errore (per esempio `invalid`).")
    message = serializers.CharField(help_text="Messaggio in italiano.")
    details = serializers.DictField(
        required=False, help_text="Per campo, gli errori di validazione dei parametri."
    )
